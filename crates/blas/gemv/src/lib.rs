//! The GEMV sweep of `dgemv` and `sgemv` (PAW 1.6 §4), one body for both precisions.
//!
//! Timed: cblas_?gemv, y = A x (N x N matrix, N-vector), column-major, alpha 1, beta 0, NLOOP calls per
//! sample between two clock reads (PAW's calibrated NLOOP: NLOOP_MAX calls at the smallest
//! order, then as many as fit in the same time, never below the timer floor), NREPS
//! samples per order. Untimed: allocating and filling the operands (once, at the largest
//! order), one warm-up call at MED_BLAS_SIZE, and after each order a check of the result
//! against a naive f64 computation on sampled entries (tolerance 2 N epsilon).
//! Reported: seconds per call and GFLOP/s = 2 N (N+1) / time / 1e9.
//! Orders MIN_BLAS_SIZE, doubling, to MAX_BLAS_SIZE. Threads: OPENBLAS_NUM_THREADS, else
//! OMP_NUM_THREADS, else all cores; the count goes into the file names.
//! Env: MIN/MED/MAX_BLAS_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_OUTPUT_DIR.
//! Writes <name>_time-np_TTTT.dat (s) and <name>_flops-np_TTTT.dat (GFLOP/s).
#![warn(missing_docs)]

use paw_blas::{fill, gemv, gemv_error, gemv_flops, tolerance, Real};
use paw_core::{Family, Node, Policy, Spec, Timing};

/// Runs the sweep in precision `T` for the binary described by `spec` (`spec.name` is the
/// BLAS call: `dgemv` or `sgemv`).
pub fn run<T: Real>(spec: &Spec) -> std::process::ExitCode {
    paw_core::main(spec.name, || sweep::<T>(spec))
}

fn sweep<T: Real>(spec: &Spec) -> paw_core::Result<()> {
    let call = spec.name;
    let mut node = Node::init(spec)?;
    let sizes = node.sizes(Family::Blas)?;
    let threads = paw_blas::threads();
    node.add_library(format!("BLAS: {} ({threads} threads)", paw_blas::config()));
    let most = sizes.max.max(sizes.med) as usize;
    let (a, x) = (fill::<T>(most * most, 1), fill::<T>(most, 7));
    let mut y = vec![T::default(); most];

    let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated);
    let notes = vec![
        format!("timed call: cblas_{call}, y = A x (N x N matrix, N-vector), column-major"),
        "flops per call: 2 N (N+1)".to_string(),
    ];
    let (mut time, mut rate) = paw_blas::time_and_flops(&node, &bench, call, threads, &notes)?;
    let w = sizes.med as usize;
    gemv(w, &a[..w * w], &x[..w], &mut y[..w]);
    let mut worst = 0.0f64;
    for size in sizes.sweep() {
        let n = size as usize;
        let m = bench.measure(|| gemv(n, &a[..n * n], &x[..n], &mut y[..n]));
        time.row(size, &m.row(|t| t));
        rate.row(size, &m.row(|t| gemv_flops(n) / t / 1e9));
        worst = worst.max(gemv_error(n, &a[..n * n], &x[..n], &y[..n]) / tolerance::<T>(n));
    }
    paw_blas::checked(call, worst)
}
