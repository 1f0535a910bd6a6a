//! rayon_overhead -- what rayon's parallel constructs cost, in the spirit of the EPCC OpenMP
//! micro-benchmarks (PAW 1.6 extras).
//!
//! What is timed and reported, the variables read and the files written are stated once,
//! in SPEC below: `-h`, the output headers and doc/binaries.md are made from it.
use paw_core::{vars, Axis, Check, Combine, DatSpec, Node, Policy, Ranks, Spec, Timing, Var};
use rayon::prelude::*;
use std::hint::black_box;

const SPEC: Spec = Spec {
    name: "rayon_overhead",
    title: "overhead of rayon's parallel constructs against a serial delay (EPCC-style)",
    timed: "\
Per sample: NLOOP calls of one construct from the main thread (outside the pool, as a \
program's main calls rayon), in a pool of T threads, T = 1, 2, 4, ... up to the thread \
count and the count itself; each construct runs one busy delay of OVERHEAD_DELAY_NS per \
task: par_for (0..T).into_par_iter().for_each(delay), join rayon::join(delay, delay), \
scope T x spawn(delay), reduction (0..T).into_par_iter().map(delay; 1).sum(). The \
serial reference (one delay) is measured the same way.",
    reports: "\
overhead = construct time - the median time of one serial delay, usec (EPCC's measure).",
    ranks: Ranks::Node,
    vars: &[&[DELAY], vars::MEASURE, &[vars::RAYON_NUM_THREADS]],
    check: Check::Never,
    files: "\
rayon_par_for.dat, rayon_join.dat, rayon_scope.dat, rayon_reduction.dat (usec; SIZE = \
threads in the pool)",
};

/// OVERHEAD_DELAY_NS: the busy work each task of a construct does.
const DELAY: Var = Var {
    name: "OVERHEAD_DELAY_NS",
    default: "100",
    meaning: "busy delay per task, nanoseconds (EPCC's 0.1 usec)",
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
        let delay_ns = node.knob(&DELAY, 1..=10_000_000)?;
        let most =
            node.threads(&[vars::RAYON_NUM_THREADS])?.map_or(paw_core::cores(), |t| t as usize);
        let mut counts: Vec<usize> =
            std::iter::successors(Some(1), |t| Some(t * 2)).take_while(|&t| t < most).collect();
        counts.push(most);

        // Untimed: scale the delay loop to OVERHEAD_DELAY_NS.
        let probe = 1_000_000u64;
        let start = std::time::Instant::now();
        delay(probe);
        let per_iteration = start.elapsed().as_secs_f64() / probe as f64;
        let d = ((delay_ns as f64 * 1e-9) / per_iteration).round().max(1.0) as u64;

        let timing = Timing::Batch { ops_per_iter: 1.0 };
        let mut reference = node.bench(timing, Combine::Min, Policy::Calibrated)?;
        let serial = reference.measure("serial delay", || delay(d))?.row(|t| t).stats.median;
        println!("serial delay: {:.4} usec ({d} iterations)", serial * 1e6);

        for (name, code, construct) in CONSTRUCTS {
            let mut bench = node.bench(timing, Combine::Min, Policy::Calibrated)?;
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
                let m =
                    bench.measure(format!("{name} with {t} threads"), || construct(&pool, t, d))?;
                out.row(t, &m.row(|time| (time - serial) * 1e6));
            }
        }
        Ok(())
    })
}
