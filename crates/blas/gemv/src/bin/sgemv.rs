//! sgemv -- multithreaded SGEMV over a sweep of matrix orders (PAW 1.6 §4), through cblas
//! and the system OpenBLAS; the sweep is in ../lib.rs.
//!
//! What is timed and reported, the variables read, the result check and the files written
//! are stated once, in SPEC below: `-h`, the output headers and doc/binaries.md are made
//! from it.
use paw_blas::RESULT_CHECK;
use paw_core::{vars, Check, Ranks, Spec};

const SPEC: Spec = Spec {
    name: "sgemv",
    title: "multithreaded SGEMV over a sweep of matrix orders (PAW 1.6 section 4)",
    timed: "\
Per sample: NLOOP calls of cblas_sgemv (system OpenBLAS), y = A x of an N x N matrix and an N-vector, column-major, alpha 1, \
beta 0. Orders MIN_BLAS_SIZE, doubling, to MAX_BLAS_SIZE, after one untimed call at \
MED_BLAS_SIZE. Untimed: filling the operands once, at the largest order.",
    reports: "\
seconds per call, and GFLOP/s = 2 N (N+1) / time / 1e9. Threads: OPENBLAS_NUM_THREADS, \
else OMP_NUM_THREADS, else all cores.",
    ranks: Ranks::Node,
    vars: &[vars::BLAS_SIZES, vars::MEASURE, vars::BLAS_THREADS],
    check: Check::Always(RESULT_CHECK),
    files: "sgemv_time-np_TTTT.dat (s) and sgemv_flops-np_TTTT.dat (GFLOP/s), TTTT = threads",
};

fn main() -> std::process::ExitCode {
    paw_gemv::run::<f32>(&SPEC)
}
