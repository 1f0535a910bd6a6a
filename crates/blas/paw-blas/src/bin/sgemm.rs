//! sgemm -- multithreaded SGEMM over a sweep of matrix orders (PAW 1.6 §4), through cblas
//! and the system OpenBLAS; the sweep is paw_blas::sweep.
//!
//! What it times and reports, the variables it reads, its result check and its files are
//! stated once, in SPEC below (paw_blas::sweep_spec!): `-h`, the output headers and
//! doc/binaries.md are made from it.
const SPEC: paw_base::Spec =
    paw_blas::sweep_spec!("sgemm", "SGEMM", "C = A B of N x N matrices", "2 N^2 (N+1)");

fn main() -> std::process::ExitCode {
    paw_blas::sweep::run::<f32>(&SPEC, paw_blas::sweep::Op::Gemm)
}
