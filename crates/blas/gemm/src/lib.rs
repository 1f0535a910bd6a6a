//! The GEMM sweep of `dgemm` and `sgemm` (PAW 1.6 §4), one body for both precisions; what
//! it times and reports is in each binary's SPEC.
#![warn(missing_docs)]

use paw_base::schema::GFLOP_PER_S;
use paw_base::{Family, Node, Policy, Spec, Timing};
use paw_blas::{fill, gemm, gemm_error, gemm_flops, tolerance, Real};

/// Runs the sweep in precision `T` for the binary described by `spec` (`spec.name` is the
/// BLAS call: `dgemm` or `sgemm`).
pub fn run<T: Real>(spec: &Spec) -> std::process::ExitCode {
    paw_base::main(spec.name, || sweep::<T>(spec))
}

fn sweep<T: Real>(spec: &Spec) -> paw_base::Result<()> {
    let call = spec.name;
    let mut node = Node::init(spec)?;
    let sizes = node.sizes(Family::Blas)?;
    let threads = paw_blas::start(&mut node)?;
    let most = sizes.largest() as usize;
    paw_blas::fits::<T>(&node, 3 * (most as u128).pow(2), "MAX_BLAS_SIZE")?;
    let (a, b) = (fill::<T>(most * most, 1), fill::<T>(most * most, 7));
    let mut c = vec![T::default(); most * most];

    let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
    let (mut time, mut rate) = paw_blas::time_and_flops(&node, &bench, call, threads)?;
    let w = sizes.med as usize;
    gemm(w, &a[..w * w], &b[..w * w], &mut c[..w * w]);
    let mut worst = 0.0f64;
    for size in sizes.sweep() {
        let n = size as usize;
        let m = bench.measure(size, || gemm(n, &a[..n * n], &b[..n * n], &mut c[..n * n]))?;
        time.row(size, &m.row(|t| t));
        rate.row(size, &m.row(|t| GFLOP_PER_S.of(gemm_flops(n) / t)));
        worst = worst.max(gemm_error(n, &a[..n * n], &b[..n * n], &c[..n * n]) / tolerance::<T>(n));
    }
    paw_blas::checked(call, worst)
}
