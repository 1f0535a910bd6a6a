//! stream -- sustained memory bandwidth: STREAM's Copy, Scale, Add and Triad kernels (PAW 1.6
//! §2, Table 2.1) on f64 arrays, parallel with rayon.
//!
//! What is timed and reported, the variables read, the result check and the files written
//! are stated once, in SPEC below: `-h`, the output headers and doc/binaries.md are made
//! from it.
mod kernels;
mod setup;

use paw_base::schema::{sweep::MAX, Unit, MB_PER_S, NAME};

/// STREAM's bandwidth unit: MB of 10^6 bytes per second, named as STREAM names it.
const STREAM_MB: Unit = Unit { label: "MB/s (MB = 10^6 B, as STREAM)", ..MB_PER_S };
use paw_base::{
    vars, Axis, Check, Combine, DatSpec, Files, Headline, Node, Pick, Policy, Ranks, Spec, Timing,
};
use rayon::prelude::*;

const SPEC: Spec = Spec {
    name: "stream",
    title: "STREAM Copy, Scale, Add, Triad memory bandwidth with rayon (PAW 1.6 section 2)",
    timed: "\
Per kernel: NREPS samples of whole passes over the arrays (the fewest that clear the \
timer floor, 1 for real sizes) after one timed warm-up pass: Copy c = a, Scale b = s c, \
Add c = a + b, Triad a = b + s c, s = 3. Each thread owns one contiguous block of every \
array, first touched by it. The kernels are compiled for AVX-512, AVX2 and baseline x86-64; \
the widest this CPU has runs (STREAM_KERNEL), named in the header.",
    reports: "\
memory bandwidth, MB/s with MB = 10^6 B (STREAM's convention), from 16 N bytes per pass \
(Copy, Scale) and 24 N (Add, Triad); the best rate is the MAX column.",
    ranks: Ranks::Node,
    combine: Combine::Min,
    vars: &[&[setup::ARRAY_SIZE, kernels::KERNEL], vars::MEASURE, vars::RAYON_THREADS],
    check: Check::Always("every element of a, b and c against the scalar replay (STREAM's check)"),
    files: Files::Text("stream_bw-np_TTTT.dat (MB/s, one row per kernel), TTTT = threads"),
    headlines: &[Headline::new("stream_bw", "Triad best rate", Pick::key("Triad"), MAX)],
};

const SCALAR: f64 = 3.0;

fn main() -> std::process::ExitCode {
    paw_base::main(SPEC.name, || {
        let mut node = Node::init(&SPEC)?;
        let threads = setup::pool(&mut node)?;
        let k = kernels::choose(&mut node)?;
        let (n, notes) = setup::length(&node)?;
        let block = n.div_ceil(threads);
        let [mut a, mut b, mut c] = setup::first_touched(n, block);

        let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Fewest)?;
        let mut out = node.dat(
            &bench,
            DatSpec {
                file: node.np_file("stream_bw", threads),
                x: Axis::new("kernel", NAME),
                y: Axis::new("memory bandwidth", STREAM_MB),
                notes,
                echo: true,
                extra: vec![],
            },
        )?;
        let mb = |words: usize| MB_PER_S.of((words * 8 * n) as f64);
        let mut passes = Vec::new();

        let m = bench.measure("Copy", || {
            c.par_chunks_mut(block).zip(a.par_chunks(block)).for_each(|(c, a)| (k.copy)(c, a))
        })?;
        passes.push(("Copy", mb(2), m));
        let m = bench.measure("Scale", || {
            b.par_chunks_mut(block)
                .zip(c.par_chunks(block))
                .for_each(|(b, c)| (k.scale)(b, c, SCALAR))
        })?;
        passes.push(("Scale", mb(2), m));
        let m = bench.measure("Add", || {
            c.par_chunks_mut(block)
                .zip(a.par_chunks(block))
                .zip(b.par_chunks(block))
                .for_each(|((c, a), b)| (k.add)(c, a, b))
        })?;
        passes.push(("Add", mb(3), m));
        let m = bench.measure("Triad", || {
            a.par_chunks_mut(block)
                .zip(b.par_chunks(block))
                .zip(c.par_chunks(block))
                .for_each(|((a, b), c)| (k.triad)(a, b, c, SCALAR))
        })?;
        passes.push(("Triad", mb(3), m));

        for (name, megabytes, m) in &passes {
            out.row(name, &m.row(|t| megabytes / t));
        }
        setup::summary(&passes);
        setup::check(&a, &b, &c, SCALAR)
    })
}
