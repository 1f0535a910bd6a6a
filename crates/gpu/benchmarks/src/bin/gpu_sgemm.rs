//! gpu_sgemm -- cuBLAS SGEMM on one GPU over a sweep of matrix orders (PAW 1.6 §8.1); the sweep
//! is in ../lib.rs. Without a GPU the binary says so and exits with status 2.
//!
//! What it times and reports, the variables it reads, its result check and its files are
//! stated once, in SPEC below (paw_gpu_benchmarks::gpu_gemm_spec!): `-h`, the output headers and
//! doc/binaries.md are made from it.
use paw_gpu_benchmarks::GemmSweep;

const SPEC: paw_base::Spec = paw_gpu_benchmarks::gpu_gemm_spec!("gpu_sgemm", "Sgemm", "SGEMM");

fn main() -> std::process::ExitCode {
    paw_base::main(SPEC.name, || {
        // Untimed: the settings, GPU 0, a cuBLAS handle, A and B filled and copied to the
        // device at the largest order.
        let sweep = GemmSweep::<f32>::start(&SPEC)?;
        // Timed, NLOOP times per sample at each order n: one product, then a wait for it.
        sweep.run(|gemm, n| {
            gemm.multiply(n);
            gemm.synchronize();
        })
    })
}
