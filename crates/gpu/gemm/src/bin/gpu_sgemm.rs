//! gpu_sgemm -- cuBLAS SGEMM on one GPU over a sweep of matrix orders (PAW 1.6 §8.1); the sweep
//! is in ../lib.rs. Without a GPU the binary says so and exits with status 2.
//!
//! What is timed and reported, the variables read, the result check and the files written
//! are stated once, in SPEC below: `-h`, the output headers and doc/binaries.md are made
//! from it.
use paw_blas::RESULT_CHECK;
use paw_core::{vars, Check, Ranks, Spec};

const SPEC: Spec = Spec {
    name: "gpu_sgemm",
    title: "cuBLAS SGEMM on one GPU over a sweep of matrix orders (PAW 1.6 section 8.1)",
    timed: "\
Per sample: NLOOP calls of cublasSgemm on GPU 0, C = A B of N x N matrices already in \
device memory, column-major, alpha 1, beta 0, default math mode (no TF32), each followed \
by a stream synchronisation. Orders MIN_GPU_BLAS_SIZE, doubling, to MAX_GPU_BLAS_SIZE, \
after one untimed call at MED_GPU_BLAS_SIZE. Untimed: filling A and B on the host and \
copying them to the device, once, at the largest order.",
    reports: "seconds per call, and GFLOP/s = 2 N^2 (N+1) / time / 1e9.",
    ranks: Ranks::Node,
    vars: &[vars::GPU_BLAS_SIZES, vars::MEASURE],
    check: Check::Always(RESULT_CHECK),
    files: "gpu_sgemm_time.dat (s) and gpu_sgemm_flops.dat (GFLOP/s)",
};

fn main() -> std::process::ExitCode {
    paw_gpu_gemm::run::<f32>(&SPEC)
}
