//! The sweep of `dgemm`, `sgemm`, `dgemv` and `sgemv` (PAW 1.6 §4): one body for both calls
//! and both precisions; what it times and reports is in each binary's SPEC.

use crate::{fill, gemm, gemm_error, gemm_flops, gemv, gemv_error, gemv_flops, tolerance, Real};
use paw_base::schema::GFLOP_PER_S;
use paw_base::{Family, Node, Policy, Spec, Timing};

/// The call a sweep times on N x N matrices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// C = A B.
    Gemm,
    /// y = A x.
    Gemv,
}

impl Op {
    /// Elements of the second operand and of the result at order `n`.
    fn operand(self, n: usize) -> usize {
        match self {
            Op::Gemm => n * n,
            Op::Gemv => n,
        }
    }

    fn call<T: Real>(self, n: usize, a: &[T], b: &[T], c: &mut [T]) {
        match self {
            Op::Gemm => gemm(n, a, b, c),
            Op::Gemv => gemv(n, a, b, c),
        }
    }

    fn flops(self, n: usize) -> f64 {
        match self {
            Op::Gemm => gemm_flops(n),
            Op::Gemv => gemv_flops(n),
        }
    }

    fn error<T: Real>(self, n: usize, a: &[T], b: &[T], c: &[T]) -> f64 {
        match self {
            Op::Gemm => gemm_error(n, a, b, c),
            Op::Gemv => gemv_error(n, a, b, c),
        }
    }
}

/// Runs the sweep of `op` in precision `T` for the binary described by `spec` (`spec.name`
/// is the BLAS call: `dgemm`, `sgemv` ...).
pub fn run<T: Real>(spec: &Spec, op: Op) -> std::process::ExitCode {
    paw_base::main(spec.name, || sweep::<T>(spec, op))
}

fn sweep<T: Real>(spec: &Spec, op: Op) -> paw_base::Result<()> {
    let call = spec.name;
    let mut node = Node::init(spec)?;
    let sizes = node.sizes(Family::Blas)?;
    let threads = crate::start(&mut node)?;
    let most = sizes.largest() as usize;
    let held = (most as u128).pow(2) + 2 * op.operand(most) as u128;
    crate::fits::<T>(&node, held, "MAX_BLAS_SIZE")?;
    let (a, b) = (fill::<T>(most * most, 1), fill::<T>(op.operand(most), 7));
    let mut c = vec![T::default(); op.operand(most)];

    let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
    let (mut time, mut rate) = crate::time_and_flops(&node, &bench, call, threads)?;
    let w = sizes.med as usize;
    op.call(w, &a[..w * w], &b[..op.operand(w)], &mut c[..op.operand(w)]);
    let mut worst = 0.0f64;
    for size in sizes.sweep() {
        let (n, k) = (size as usize, op.operand(size as usize));
        let m = bench.measure(size, || op.call(n, &a[..n * n], &b[..k], &mut c[..k]))?;
        time.row(size, &m.row(|t| t));
        rate.row(size, &m.row(|t| GFLOP_PER_S.of(op.flops(n) / t)));
        worst = worst.max(op.error(n, &a[..n * n], &b[..k], &c[..k]) / tolerance::<T>(n));
    }
    crate::checked(call, worst)
}
