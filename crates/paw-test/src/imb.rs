//! IMB suites launched and their output checked: paw-report's reader of IMB's output
//! (`paw_report::imb_output`), with panics for the tests, and the invariants of a table.

use crate::{Launch, Outcome};
use std::path::Path;
use std::time::Duration;

/// Runs `program` (an IMB suite) on `np` processes with `args`, asserts that it ended
/// well and completely, and parses its output.
pub fn run(program: impl AsRef<Path>, np: usize, args: &str) -> (Outcome, Vec<Block>) {
    let out = Launch::mpi(program, np)
        .args(args.split_whitespace())
        .timeout(Duration::from_secs(240))
        .run();
    out.success();
    assert!(out.stdout.contains("# All processes entering MPI_Finalize"), "{}", out.report());
    let blocks = parse(&out.stdout);
    (out, blocks)
}

/// Runs `program` on `np` processes with `-check` among `args` and `PAW_TEST_CORRUPT=1`
/// (group rank 1 flips one received element after each check run): the run must end with
/// status 1 and `-check found`; its blocks, every one still printed.
pub fn corrupted(program: impl AsRef<Path>, np: usize, args: &[&str]) -> Vec<Block> {
    let out = Launch::mpi(program, np)
        .args(args)
        .env("PAW_TEST_CORRUPT", 1)
        .timeout(Duration::from_secs(60))
        .run();
    out.failure("-check found");
    assert_eq!(out.code, Some(1), "{}", out.report());
    parse(&out.stdout)
}

pub use paw_report::imb_output::Block;

/// The blocks of an IMB output; panics on a line that is not IMB's.
pub fn parse(stdout: &str) -> Vec<Block> {
    paw_report::imb_output::parse(stdout).unwrap_or_else(|e| panic!("{e}"))
}

/// IMB's repetitions at length `x`: `per_sample` at 0, else min(per_sample, max(1, vol /
/// x)) with `vol` bytes.
pub fn repetitions(x: f64, per_sample: f64, vol: f64) -> f64 {
    if x == 0.0 {
        per_sample
    } else {
        per_sample.min((vol / x).floor().max(1.0))
    }
}

/// Checks the invariants of a table: the lengths, repetitions by `reps`, t_min <= t_avg
/// <= t_max, throughput = n_msg x / t (2^20 bytes) within print rounding, and the
/// overlap recomputed from t_ovrl, t_pure and t_CPU.
/// A table without a length column (Barrier, Open_Close) has one row, at length 0.
pub fn check_table(b: &Block, lengths: &[f64], reps: impl Fn(f64) -> f64, n_msg: f64) {
    let x = if b.columns.iter().any(|c| c == "#bytes") {
        assert_eq!(b.col("#bytes"), lengths, "{} {} lengths", b.name, b.mode);
        b.col("#bytes")
    } else {
        assert_eq!(b.rows.len(), 1, "{}: one row without lengths", b.name);
        vec![0.0]
    };
    for (x, r) in x.iter().zip(b.col("#repetitions")) {
        assert_eq!(r, reps(*x), "{} {} repetitions at {x}", b.name, b.mode);
    }
    let time = if b.columns.iter().any(|c| c == "t_ovrl[usec]") {
        let (o, p, c, v) = (
            b.col("t_ovrl[usec]"),
            b.col("t_pure[usec]"),
            b.col("t_CPU[usec]"),
            b.col("overlap[%]"),
        );
        for i in 0..o.len() {
            let least = p[i].min(c[i]);
            let want = if least > 0.0 {
                (100.0 * (p[i] + c[i] - o[i]) / least).clamp(0.0, 100.0)
            } else {
                0.0
            };
            let slack = if least > 0.0 { 100.0 * 0.015 / least + 0.006 } else { 0.006 };
            assert!((v[i] - want).abs() <= slack, "{} row {i}: overlap {} vs {want}", b.name, v[i]);
        }
        return;
    } else if b.columns.iter().any(|c| c == "t[usec]") {
        let t = b.col("t[usec]");
        assert!(t.iter().all(|t| t.is_finite() && *t >= 0.0), "{}: {t:?}", b.name);
        t
    } else {
        let (lo, hi, avg) = (b.col("t_min[usec]"), b.col("t_max[usec]"), b.col("t_avg[usec]"));
        for i in 0..lo.len() {
            assert!(
                lo[i] >= 0.0 && lo[i] <= avg[i] + 0.01 && avg[i] <= hi[i] + 0.01,
                "{} row {i}",
                b.name
            );
        }
        hi
    };
    if n_msg > 0.0 {
        for ((x, t), mb) in x.iter().zip(time).zip(b.col("Mbytes/sec")) {
            if t == 0.0 {
                continue;
            }
            let k = n_msg * x / 1.048576;
            let (low, high) = (k / (t + 0.005) - 0.01, k / (t - 0.005).max(1e-9) + 0.01);
            assert!(mb >= low && mb <= high, "{} at {x}: {mb} MB/s for {t} usec", b.name);
        }
    }
}
