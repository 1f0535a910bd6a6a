//! dgemm -- multithreaded DGEMM (double precision) over a sweep of matrix orders
//! (PAW 1.6 §4), through cblas and the system OpenBLAS. What is timed, the formula and
//! the files: see the sweep in ../lib.rs. Runs without mpirun.
use paw_core::{Ranks, Spec};

const SPEC: Spec = Spec {
    name: "dgemm",
    title: "multithreaded DGEMM over a sweep of matrix orders (PAW 1.6 section 4)",
    help: "\
Timed: cblas_dgemm (C = A B (N x N matrices), system OpenBLAS), NREPS samples of NLOOP calls per
order. GFLOP/s = 2 N^2 (N+1) / time / 1e9. Operands are filled once, untimed; each order's
result is checked against a naive computation (tolerance 2 N epsilon) after timing.
Threads: OPENBLAS_NUM_THREADS, else OMP_NUM_THREADS, else all cores.
Env: MIN_BLAS_SIZE MED_BLAS_SIZE MAX_BLAS_SIZE (orders; defaults 8, 1024, 10000).
Writes dgemm_time-np_TTTT.dat (s) and dgemm_flops-np_TTTT.dat (GFLOP/s), TTTT = threads.
Runs without mpirun.",
    ranks: Ranks::Any,
};

fn main() -> std::process::ExitCode {
    paw_gemm::run::<f64>(&SPEC)
}
