//! rayon_overhead -- what rayon's parallel constructs cost, in the spirit of the EPCC OpenMP
//! micro-benchmarks (PAW 1.6 extras): each construct runs one short busy delay per thread,
//! and its time is compared with the delay run once serially, the ideal parallel time.
//!
//! Constructs, each in a pool of T threads (T = 1, 2, 4, ... up to the core count, and the
//! core count itself):
//!   par_for    (0..T).into_par_iter().for_each(delay)
//!   join       rayon::join(delay, delay)                     (two tasks whatever T)
//!   scope      pool.scope: T x spawn(delay)
//!   reduction  (0..T).into_par_iter().map(delay, 1).sum()
//! Each construct is called from the main thread, outside the pool, as a program's `main`
//! calls rayon: the cost includes handing the work to the pool and waking its threads.
//! Timed: NLOOP constructs per sample (PAW's calibrated NLOOP), NREPS samples; the serial
//! reference (one delay) is measured the same way. Reported: overhead = construct time -
//! reference median, in usec. Delay: OVERHEAD_DELAY_NS of busy work (default 100, EPCC's
//! 0.1 usec), calibrated at start. Env: OVERHEAD_DELAY_NS NLOOP_MAX NLOOP_MIN NREPS
//! PAW_OUTPUT_DIR. Writes rayon_<construct>.dat: SIZE = threads, AVG MIN MAX STDDEV MEDIAN
//! of the overhead (usec), NLOOP, NREPS.
use paw_core::{Axis, DatSpec, Node, Policy, Ranks, Spec, Timing};
use rayon::prelude::*;
use std::hint::black_box;

const SPEC: Spec = Spec {
    name: "rayon_overhead",
    title: "overhead of rayon's parallel constructs against a serial delay (EPCC-style)",
    help: "\
Each construct (par_for, join, scope, reduction) runs one busy delay per thread in a pool of
T threads, T = 1, 2, 4, ... up to the cores; overhead = construct time - one serial delay.
Env: OVERHEAD_DELAY_NS (busy delay per task, default 100).
Writes rayon_par_for.dat, rayon_join.dat, rayon_scope.dat, rayon_reduction.dat (usec).
Runs without mpirun.",
    ranks: Ranks::Any,
};

/// A construct: what it runs in a pool, given the delay.
type Construct = fn(&rayon::ThreadPool, usize, u64);

const CONSTRUCTS: &[(&str, &str, Construct)] = &[
    ("par_for", "(0..T).into_par_iter().for_each(delay)", |pool, t, d| {
        pool.install(|| (0..t).into_par_iter().for_each(|_| delay(d)))
    }),
    ("join", "rayon::join(delay, delay)", |pool, _, d| {
        pool.install(|| rayon::join(|| delay(d), || delay(d)));
    }),
    ("scope", "scope with T x spawn(delay)", |pool, t, d| {
        pool.scope(|s| {
            for _ in 0..t {
                s.spawn(move |_| delay(d));
            }
        })
    }),
    ("reduction", "(0..T).into_par_iter().map(delay; 1).sum()", |pool, t, d| {
        let n: usize = pool.install(|| {
            (0..t)
                .into_par_iter()
                .map(|_| {
                    delay(d);
                    1
                })
                .sum()
        });
        black_box(n);
    }),
];

/// Busy work of `iterations` dependent steps (no memory traffic, not optimised away).
fn delay(iterations: u64) {
    let mut x = 1u64;
    for i in 0..iterations {
        x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
    }
    black_box(x);
}

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let node = Node::init(&SPEC)?;
        let delay_ns = node.knob("OVERHEAD_DELAY_NS", 100, 1..=10_000_000)?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut counts: Vec<usize> =
            std::iter::successors(Some(1), |t| Some(t * 2)).take_while(|&t| t < cores).collect();
        counts.push(cores);

        // Untimed: scale the delay loop to OVERHEAD_DELAY_NS.
        let probe = 1_000_000u64;
        let start = std::time::Instant::now();
        delay(probe);
        let per_iteration = start.elapsed().as_secs_f64() / probe as f64;
        let d = ((delay_ns as f64 * 1e-9) / per_iteration).round().max(1.0) as u64;

        let mut reference = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated);
        let serial = reference.measure(|| delay(d)).row(|t| t).stats.median;
        println!("serial delay: {:.4} usec ({d} iterations)", serial * 1e6);

        for (name, code, construct) in CONSTRUCTS {
            let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated);
            let mut out = node.dat(
                &bench,
                DatSpec {
                    file: format!("rayon_{name}.dat"),
                    x: Axis::new("threads in the pool", "threads"),
                    y: Axis::new(format!("{name} overhead over one serial delay"), "usec"),
                    notes: vec![
                        format!(
                            "construct: {code}, called from the main thread (outside the pool)"
                        ),
                        format!(
                            "delay: {d} iterations = {:.4} usec serially (median); overhead = \
                             construct time - that",
                            serial * 1e6
                        ),
                    ],
                    echo: true,
                    extra: vec![],
                },
            )?;
            for &t in &counts {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build().map_err(|e| {
                    paw_core::Error::runtime(format!("cannot start {t} threads: {e}"))
                })?;
                let m = bench.measure(|| construct(&pool, t, d));
                out.row(t, &m.row(|time| (time - serial) * 1e6));
            }
        }
        Ok(())
    })
}
