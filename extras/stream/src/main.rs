//! stream -- sustained memory bandwidth: STREAM's Copy, Scale, Add and Triad kernels
//! (PAW 1.6 §2, Table 2.1) on f64 arrays, parallel with rayon.
//!
//! Timed: one kernel pass over the arrays per iteration (NLOOP = fewest passes that clear
//! the timer floor, 1 for real array sizes), NREPS samples per kernel after one timed
//! warm-up pass. Kernels: Copy c = a; Scale b = s c; Add c = a + b; Triad a = b + s c.
//! Bytes per pass: 16 N (Copy, Scale), 24 N (Add, Triad). Rates in MB/s with MB = 10^6 B,
//! STREAM's convention; the best rate is the MAX column (bytes / fastest pass).
//! Arrays: STREAM_ARRAY_SIZE elements each, by default the larger of 10^7 and 4x the
//! last-level cache (STREAM's rule). Threads: RAYON_NUM_THREADS, else OMP_NUM_THREADS,
//! else all cores; each thread owns one contiguous block of every array, first touched by it.
//! Check (untimed, as STREAM): every element of a, b, c against the scalar replay.
//! Writes stream_bw-np_TTTT.dat (TTTT = threads): KERNEL AVG MIN MAX STDDEV MEDIAN (MB/s).
use paw_core::{Axis, DatSpec, Error, Node, Policy, Ranks, Spec, Timing};
use rayon::prelude::*;

const SPEC: Spec = Spec {
    name: "stream",
    title: "STREAM Copy, Scale, Add, Triad memory bandwidth with rayon (PAW 1.6 section 2)",
    help: "\
Timed per kernel: NREPS samples of whole passes over the arrays (Copy c=a, Scale b=s*c,
Add c=a+b, Triad a=b+s*c). Rates in MB/s, MB = 10^6 B as STREAM; best rate = MAX column.
Env: STREAM_ARRAY_SIZE (elements per array; default max(10^7, 4 x last-level cache / 8 B)),
     RAYON_NUM_THREADS or OMP_NUM_THREADS (threads; default all cores).
Writes stream_bw-np_TTTT.dat, TTTT = threads. Runs without mpirun.",
    ranks: Ranks::Any,
};

const SCALAR: f64 = 3.0;

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let mut node = Node::init(&SPEC)?;
        let threads = configure_threads(&node)?;
        let llc = last_level_cache_bytes();
        let rule = (4 * llc.unwrap_or(0) / 8).max(10_000_000);
        let n = node.knob("STREAM_ARRAY_SIZE", rule, 1..=1 << 36)? as usize;
        let mut notes = vec![
            "timed: whole kernel passes, Copy c=a, Scale b=s*c, Add c=a+b, Triad a=b+s*c, s=3"
                .into(),
            format!(
                "arrays: 3 x {n} f64 = {:.1} MiB in all; last-level cache {}",
                3.0 * 8.0 * n as f64 / 1048576.0,
                llc.map_or("unknown".into(), |b| format!("{:.1} MiB", b as f64 / 1048576.0))
            ),
            "bytes per pass: Copy, Scale 16 N; Add, Triad 24 N; best rate = MAX".into(),
        ];
        if (n as u64) * 8 < 4 * llc.unwrap_or(0) {
            let warning =
                "warning: arrays smaller than 4x the last-level cache; rates may be cache rates";
            eprintln!("stream: {warning}");
            notes.push(warning.into());
        }
        node.add_library(format!("rayon: {threads} threads"));

        // Untimed setup, first-touched by the thread that will work on each block.
        let block = n.div_ceil(threads);
        let (mut a, mut b, mut c) = (vec![0.0f64; n], vec![0.0f64; n], vec![0.0f64; n]);
        a.par_chunks_mut(block).for_each(|x| x.fill(1.0));
        b.par_chunks_mut(block).for_each(|x| x.fill(2.0));
        c.par_chunks_mut(block).for_each(|x| x.fill(0.0));

        let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Fewest);
        let mut out = node.dat(
            &bench,
            DatSpec {
                file: node.np_file("stream_bw", threads),
                x: Axis::new("kernel", "name"),
                y: Axis::new("memory bandwidth", "MB/s (MB = 10^6 B, as STREAM)"),
                notes,
                echo: true,
                extra: vec![],
            },
        )?;
        let bytes = |words: usize| (words * 8 * n) as f64;
        let mut summary = Vec::new();

        let m = bench.measure(|| {
            c.par_chunks_mut(block).zip(a.par_chunks(block)).for_each(|(c, a)| c.copy_from_slice(a))
        });
        summary.push(("Copy", bytes(2), m.row(|t| bytes(2) / t / 1e6), m.row(|t| t)));
        let m = bench.measure(|| {
            b.par_chunks_mut(block).zip(c.par_chunks(block)).for_each(|(b, c)| {
                for (b, c) in b.iter_mut().zip(c) {
                    *b = SCALAR * c;
                }
            })
        });
        summary.push(("Scale", bytes(2), m.row(|t| bytes(2) / t / 1e6), m.row(|t| t)));
        let m = bench.measure(|| {
            c.par_chunks_mut(block).zip(a.par_chunks(block)).zip(b.par_chunks(block)).for_each(
                |((c, a), b)| {
                    for ((c, a), b) in c.iter_mut().zip(a).zip(b) {
                        *c = a + b;
                    }
                },
            )
        });
        summary.push(("Add", bytes(3), m.row(|t| bytes(3) / t / 1e6), m.row(|t| t)));
        let m = bench.measure(|| {
            a.par_chunks_mut(block).zip(b.par_chunks(block)).zip(c.par_chunks(block)).for_each(
                |((a, b), c)| {
                    for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
                        *a = b + SCALAR * c;
                    }
                },
            )
        });
        summary.push(("Triad", bytes(3), m.row(|t| bytes(3) / t / 1e6), m.row(|t| t)));

        for (name, _, rate, _) in &summary {
            out.row(name, rate);
        }
        println!("\nFunction    Best Rate MB/s  Avg time     Min time     Max time");
        for (name, _, rate, time) in &summary {
            println!(
                "{:<12}{:>14.1}  {:>11.6}  {:>11.6}  {:>11.6}",
                format!("{name}:"),
                rate.stats.max,
                time.stats.mean,
                time.stats.min,
                time.stats.max
            );
        }
        check(&a, &b, &c)
    })
}

/// Builds the global rayon pool from RAYON_NUM_THREADS or OMP_NUM_THREADS (else all cores).
fn configure_threads(node: &Node) -> paw_core::Result<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let from_env = if std::env::var_os("RAYON_NUM_THREADS").is_some() {
        node.knob("RAYON_NUM_THREADS", cores, 1..=4096)?
    } else {
        node.knob("OMP_NUM_THREADS", cores, 1..=4096)?
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(from_env as usize)
        .build_global()
        .map_err(|e| Error::runtime(format!("cannot start {from_env} threads: {e}")))?;
    Ok(rayon::current_num_threads())
}

/// STREAM's check: each kernel rewrites one array from the others, so however many passes
/// ran, a = 1 then c = a, b = s c, c = a + b, a = b + s c leaves known values everywhere.
fn check(a: &[f64], b: &[f64], c: &[f64]) -> paw_core::Result<()> {
    let a0 = 1.0f64;
    let c1 = a0;
    let b1 = SCALAR * c1;
    let c2 = a0 + b1;
    let a1 = b1 + SCALAR * c2;
    for (name, array, expect) in [("a", a, a1), ("b", b, b1), ("c", c, c2)] {
        let bad = array.iter().filter(|&&x| ((x - expect) / expect).abs() > 1e-13).count();
        if bad > 0 {
            return Err(Error::runtime(format!(
                "result check failed: {bad} of {} elements of {name} differ from {expect}",
                array.len()
            )));
        }
    }
    println!("result check: every element of a, b and c as expected (relative error <= 1e-13)");
    Ok(())
}

/// Sum of the distinct highest-level caches seen in sysfs, in bytes.
fn last_level_cache_bytes() -> Option<u64> {
    let mut seen: Vec<(u32, String, u64)> = Vec::new();
    for cpu in std::fs::read_dir("/sys/devices/system/cpu").ok()?.flatten() {
        let name = cpu.file_name().to_string_lossy().into_owned();
        if !name.starts_with("cpu") || !name[3..].chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let Ok(indices) = std::fs::read_dir(cpu.path().join("cache")) else {
            continue;
        };
        for index in indices.flatten() {
            let read = |f: &str| std::fs::read_to_string(index.path().join(f)).ok();
            let (Some(level), Some(size), Some(shared)) =
                (read("level"), read("size"), read("shared_cpu_list"))
            else {
                continue;
            };
            if read("type").is_some_and(|t| t.trim() == "Instruction") {
                continue;
            }
            let (Ok(level), Some(bytes)) = (level.trim().parse::<u32>(), parse_size(size.trim()))
            else {
                continue;
            };
            let shared = shared.trim().to_string();
            if !seen.iter().any(|(l, s, _)| *l == level && *s == shared) {
                seen.push((level, shared, bytes));
            }
        }
    }
    let top = seen.iter().map(|(l, _, _)| *l).max()?;
    Some(seen.iter().filter(|(l, _, _)| *l == top).map(|(_, _, b)| b).sum())
}

/// Parses sysfs cache sizes such as `491520K` or `32M`.
fn parse_size(s: &str) -> Option<u64> {
    let (digits, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = digits.parse().ok()?;
    match unit {
        "" => Some(n),
        "K" => Some(n << 10),
        "M" => Some(n << 20),
        "G" => Some(n << 30),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("491520K"), Some(491520 * 1024));
        assert_eq!(parse_size("32M"), Some(32 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("x"), None);
    }

    #[test]
    fn check_catches_a_wrong_element() {
        let s = SCALAR;
        let (b, c) = (s, 1.0 + s);
        let a = b + s * c;
        let (va, vb, mut vc) = (vec![a; 100], vec![b; 100], vec![c; 100]);
        assert!(check(&va, &vb, &vc).is_ok());
        vc[42] += 1e-9;
        let err = check(&va, &vb, &vc).unwrap_err();
        assert!(err.message().contains("1 of 100 elements of c"), "{err}");
    }
}
