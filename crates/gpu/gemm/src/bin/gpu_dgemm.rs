//! gpu_dgemm -- cuBLAS DGEMM (double precision) on GPU 0 over a sweep of matrix orders
//! (PAW 1.6 §8.1). What is timed, the formula and the files: see the sweep in ../lib.rs.
//! Runs without mpirun; without a GPU it says so and exits with status 2.
use paw_core::{Ranks, Spec};

const SPEC: Spec = Spec {
    name: "gpu_dgemm",
    title: "cuBLAS DGEMM on one GPU over a sweep of matrix orders (PAW 1.6 section 8.1)",
    help: "\
Timed: cublasDgemm (C = A B, N x N matrices already in device memory) followed by a stream
synchronisation, NREPS samples of NLOOP calls per order. GFLOP/s = 2 N^2 (N+1) / time / 1e9.
Host set-up and host-to-device copies are untimed; each order's result is copied back and
checked against a naive computation (tolerance 2 N epsilon) after timing. Uses GPU 0.
Env: MIN_GPU_BLAS_SIZE MED_GPU_BLAS_SIZE MAX_GPU_BLAS_SIZE (orders; defaults 8, 1024, 9192).
Writes gpu_dgemm_time.dat (s) and gpu_dgemm_flops.dat (GFLOP/s).
Exits with status 2 and one line when the CUDA driver, cuBLAS or a GPU is missing.",
    ranks: Ranks::Any,
};

fn main() -> std::process::ExitCode {
    paw_gpu_gemm::run::<f64>(&SPEC)
}
