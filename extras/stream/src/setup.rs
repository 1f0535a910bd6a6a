//! stream's set-up and report: the thread pool, the three arrays (length by STREAM's rule,
//! first touch), STREAM's summary table and its check of the arrays' final contents.

use paw_base::{vars, Error, Measurement, Node, Var};
use rayon::prelude::*;

/// STREAM_ARRAY_SIZE: elements per array.
pub const ARRAY_SIZE: Var = Var {
    name: "STREAM_ARRAY_SIZE",
    default: "max(10^7, 4 x last-level cache / 8 B)",
    meaning: "elements per array",
    accepts: paw_base::vars::Accepts::Whole(1, 1 << 36),
};

/// Elements per array (STREAM_ARRAY_SIZE, else STREAM's rule: at least 4x the last-level
/// cache) and the header lines saying so; refused when the arrays do not fit in memory.
pub fn length(node: &Node) -> paw_base::Result<(usize, Vec<String>)> {
    let llc = paw_base::last_level_cache_bytes();
    let n = match std::env::var_os(ARRAY_SIZE.name) {
        Some(_) => node.knob(&ARRAY_SIZE)? as usize,
        None => (4 * llc.unwrap_or(0) as usize / 8).max(10_000_000),
    };
    node.fits_in_memory(24 * n as u128, ARRAY_SIZE.name, "the three arrays")?;
    let mut notes = vec![format!(
        "arrays: 3 x {n} f64 = {:.1} MiB in all; last-level cache {}",
        3.0 * 8.0 * n as f64 / 1048576.0,
        llc.map_or("unknown".into(), |b| format!("{:.1} MiB", b as f64 / 1048576.0))
    )];
    if (n as u64) * 8 < 4 * llc.unwrap_or(0) {
        let warning = "arrays smaller than 4x the last-level cache; rates may be cache rates";
        paw_base::warn(warning);
        notes.push(format!("warning: {warning}"));
    }
    Ok((n, notes))
}

/// Builds the global rayon pool from RAYON_NUM_THREADS or OMP_NUM_THREADS (checked), else
/// one thread per core, and names it in the headers; returns the thread count.
pub fn pool(node: &mut Node) -> paw_base::Result<usize> {
    let threads = node.threads(vars::RAYON_THREADS)?.map_or(paw_base::cores(), |t| t as usize);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| Error::runtime(format!("cannot start {threads} threads: {e}")))?;
    node.add_library(format!("rayon: {threads} threads"));
    Ok(threads)
}

/// STREAM's table: best rate and the pass times of each kernel (name, MB per pass, passes).
pub fn summary(passes: &[(&str, f64, Measurement)]) {
    println!("\nFunction    Best Rate MB/s  Avg time     Min time     Max time");
    for (name, megabytes, m) in passes {
        let (rate, t) = (m.row(|t| megabytes / t).stats.max, m.row(|t| t).stats);
        let name = format!("{name}:");
        println!("{name:<12}{rate:>14.1}  {:>11.6}  {:>11.6}  {:>11.6}", t.mean, t.min, t.max);
    }
}

/// a = 1, b = 2, c = 0, each `block` written by the thread that will work on it.
pub fn first_touched(n: usize, block: usize) -> [Vec<f64>; 3] {
    [1.0, 2.0, 0.0].map(|v| {
        let mut x = vec![0.0f64; n];
        x.par_chunks_mut(block).for_each(|x| x.fill(v));
        x
    })
}

/// STREAM's check with scalar `s`: each kernel rewrites one array from the others, so however many passes
/// ran, a = 1 then c = a, b = s c, c = a + b, a = b + s c leaves known values everywhere.
pub fn check(a: &[f64], b: &[f64], c: &[f64], s: f64) -> paw_base::Result<()> {
    let b1 = s;
    let c2 = 1.0 + b1;
    let a1 = b1 + s * c2;
    for (name, array, expect) in [("a", a, a1), ("b", b, b1), ("c", c, c2)] {
        let bad = array.iter().filter(|&&x| ((x - expect) / expect).abs() > 1e-13).count();
        if bad > 0 {
            return Err(Error::check(format!(
                "result check failed: {bad} of {} elements of {name} differ from {expect}",
                array.len()
            )));
        }
    }
    println!("result check: every element of a, b and c as expected (relative error <= 1e-13)");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_catches_a_wrong_element() {
        let s = 3.0;
        let (b, c) = (s, 1.0 + s);
        let a = b + s * c;
        let (va, vb, mut vc) = (vec![a; 100], vec![b; 100], vec![c; 100]);
        assert!(check(&va, &vb, &vc, s).is_ok());
        vc[42] += 1e-9;
        let err = check(&va, &vb, &vc, s).unwrap_err();
        assert!(err.message().contains("1 of 100 elements of c"), "{err}");
    }
}
