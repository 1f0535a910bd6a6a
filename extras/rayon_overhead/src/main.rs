//! rayon_overhead -- what rayon's parallel constructs cost, in the spirit of the EPCC OpenMP
//! micro-benchmarks (PAW 1.6 extras).
//!
//! What is timed and reported, the variables read and the files written are stated once,
//! in SPEC below: `-h`, the output headers and doc/binaries.md are made from it.
use paw_base::schema::{THREADS, USEC};
use paw_base::{
    vars, Axis, Check, Combine, DatSpec, Files, Node, Policy, Ranks, Spec, Timing, Var,
};

mod constructs;

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
    combine: Combine::Min,
    vars: &[&[DELAY], vars::MEASURE, &[vars::RAYON_NUM_THREADS]],
    check: Check::Never,
    files: Files::Text(
        "\
rayon_par_for.dat, rayon_join.dat, rayon_scope.dat, rayon_reduction.dat (usec; SIZE = \
threads in the pool)",
    ),
    headlines: &[constructs::HEADLINE],
};

/// OVERHEAD_DELAY_NS: the busy work each task of a construct does.
const DELAY: Var = Var {
    name: "OVERHEAD_DELAY_NS",
    default: "100",
    meaning: "busy delay per task, nanoseconds (EPCC's 0.1 usec)",
    accepts: paw_base::vars::Accepts::Whole(1, 10_000_000),
};

fn main() -> std::process::ExitCode {
    paw_base::main(SPEC.name, || {
        let node = Node::init(&SPEC)?;
        let delay_ns = node.knob(&DELAY)?;
        let most =
            node.threads(&[vars::RAYON_NUM_THREADS])?.map_or(paw_base::cores(), |t| t as usize);
        let mut counts: Vec<usize> =
            std::iter::successors(Some(1), |t| Some(t * 2)).take_while(|&t| t < most).collect();
        counts.push(most);

        // Untimed: scale the delay loop to OVERHEAD_DELAY_NS.
        let d = constructs::iterations_for(delay_ns);

        let timing = Timing::Batch { ops_per_iter: 1.0 };
        let mut reference = node.bench(timing, Policy::Calibrated)?;
        let serial =
            reference.measure("serial delay", || constructs::delay(d))?.row(|t| t).stats.median;
        println!("serial delay: {:.4} usec ({d} iterations)", serial * 1e6);

        for (name, code, construct) in constructs::CONSTRUCTS {
            let mut bench = node.bench(timing, Policy::Calibrated)?;
            let mut out = node.dat(
                &bench,
                DatSpec {
                    file: format!("rayon_{name}.dat"),
                    x: Axis::new("threads in the pool", THREADS),
                    y: Axis::new(format!("{name} overhead over one serial delay"), USEC),
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
                    paw_base::Error::runtime(format!("cannot start {t} threads: {e}"))
                })?;
                let m =
                    bench.measure(format!("{name} with {t} threads"), || construct(&pool, t, d))?;
                out.row(t, &m.row(|time| (time - serial) * 1e6));
            }
        }
        Ok(())
    })
}
