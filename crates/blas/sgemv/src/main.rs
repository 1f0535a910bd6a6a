//! sgemv -- multithreaded SGEMV (single precision) over a sweep of matrix orders
//! (PAW 1.6 §4), through cblas and the system OpenBLAS.
//!
//! Timed: cblas_sgemv, y = A x (N x N matrix, N-vector), column-major, alpha 1, beta 0, NLOOP calls per
//! sample between two clock reads (PAW's calibrated NLOOP: NLOOP_MAX calls at the smallest
//! order, then as many as fit in the same time, never below the timer floor), NREPS
//! samples per order. Untimed: allocating and filling the operands (once, at the largest
//! order), one warm-up call at MED_BLAS_SIZE, and after each order a check of the result
//! against a naive f64 computation on sampled entries (tolerance 2 N epsilon).
//! Reported: seconds per call and GFLOP/s = 2 N (N+1) / time / 1e9.
//! Orders MIN_BLAS_SIZE, doubling, to MAX_BLAS_SIZE. Threads: OPENBLAS_NUM_THREADS, else
//! OMP_NUM_THREADS, else all cores; the count goes into the file names.
//! Env: MIN/MED/MAX_BLAS_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_OUTPUT_DIR.
//! Writes sgemv_time-np_TTTT.dat (s) and sgemv_flops-np_TTTT.dat (GFLOP/s).
use paw_blas::{fill, gemv, gemv_error, gemv_flops, tolerance};
use paw_core::{Family, Node, Policy, Ranks, Spec, Timing};

const SPEC: Spec = Spec {
    name: "sgemv",
    title: "multithreaded SGEMV over a sweep of matrix orders (PAW 1.6 section 4)",
    help: "\
Timed: cblas_sgemv (y = A x (N x N matrix, N-vector), system OpenBLAS), NREPS samples of NLOOP calls per order.
GFLOP/s = 2 N (N+1) / time / 1e9. Operands are filled once, untimed; each order's result is
checked against a naive computation (tolerance 2 N epsilon) after timing.
Threads: OPENBLAS_NUM_THREADS, else OMP_NUM_THREADS, else all cores.
Env: MIN_BLAS_SIZE MED_BLAS_SIZE MAX_BLAS_SIZE (orders; defaults 8, 1024, 10000).
Writes sgemv_time-np_TTTT.dat (s) and sgemv_flops-np_TTTT.dat (GFLOP/s), TTTT = threads.
Runs without mpirun.",
    ranks: Ranks::Any,
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let mut node = Node::init(&SPEC)?;
        let sizes = node.sizes(Family::Blas)?;
        let threads = paw_blas::threads();
        node.add_library(format!("BLAS: {} ({threads} threads)", paw_blas::config()));
        let most = sizes.max.max(sizes.med) as usize;
        let (a, x) = (fill::<f32>(most * most, 1), fill::<f32>(most, 7));
        let mut y = vec![0.0f32; most];

        let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated);
        let notes = vec![
            "timed call: cblas_sgemv, y = A x (N x N matrix, N-vector), column-major".to_string(),
            "flops per call: 2 N (N+1)".to_string(),
        ];
        let (mut time, mut rate) =
            paw_blas::time_and_flops(&node, &bench, "sgemv", threads, &notes)?;
        let w = sizes.med as usize;
        gemv(w, &a[..w * w], &x[..w], &mut y[..w]);
        let mut worst = 0.0f64;
        for size in sizes.sweep() {
            let n = size as usize;
            let m = bench.measure(|| gemv(n, &a[..n * n], &x[..n], &mut y[..n]));
            time.row(size, &m.row(|t| t));
            rate.row(size, &m.row(|t| gemv_flops(n) / t / 1e9));
            worst = worst.max(gemv_error(n, &a[..n * n], &x[..n], &y[..n]) / tolerance::<f32>(n));
        }
        paw_blas::checked("sgemv", worst)
    })
}
