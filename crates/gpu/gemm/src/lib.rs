//! The cuBLAS GEMM sweep of `gpu_dgemm` and `gpu_sgemm` (PAW 1.6 §8.1), one body for both
//! precisions; what it times and reports is in each binary's SPEC.
#![warn(missing_docs)]

use paw_base::{Family, Node, Policy, Spec, Timing};
use paw_blas::{fill, gemm_error, gemm_flops, tolerance, Real};
use paw_gpu::cudarc::cublas::{sys::cublasOperation_t, CudaBlas, Gemm, GemmConfig};
use paw_gpu::cudarc::driver::{CudaSlice, DeviceRepr, ValidAsZeroBits};
use paw_gpu::{failed, FirstError, Gpu};

/// The SPEC of `gpu_dgemm` and `gpu_sgemm`: the binary's name, the call's name
/// (`Dgemm`) and in capitals (`DGEMM`); the rest is common to both.
#[macro_export]
macro_rules! gpu_gemm_spec {
    ($name:literal, $call:literal, $upper:literal) => {
        ::paw_base::Spec {
            name: $name,
            title: concat!("cuBLAS ", $upper, " on one GPU over a sweep of matrix orders (PAW 1.6 section 8.1)"),
            timed: concat!(
                "Per sample: NLOOP calls of cublas",
                $call,
                " on GPU 0, C = A B of N x N matrices already in device memory, column-major, \
                 alpha 1, beta 0, default math mode (no TF32), each followed by a stream \
                 synchronisation. Orders MIN_GPU_BLAS_SIZE, doubling, to MAX_GPU_BLAS_SIZE, after \
                 one untimed call at MED_GPU_BLAS_SIZE. Untimed: filling A and B on the host and \
                 copying them to the device, once, at the largest order."
            ),
            reports: "seconds per call, and GFLOP/s = 2 N^2 (N+1) / time / 1e9.",
            ranks: ::paw_base::Ranks::Node,
            combine: ::paw_base::Combine::Min,
            vars: &[::paw_base::vars::GPU_BLAS_SIZES, ::paw_base::vars::MEASURE],
            check: ::paw_base::Check::Always(::paw_blas::RESULT_CHECK),
            files: concat!($name, "_time.dat (s) and ", $name, "_flops.dat (GFLOP/s)"),
        }
    };
}

/// A precision cuBLAS multiplies: `f64` (cublasDgemm) or `f32` (cublasSgemm).
pub trait GpuReal: Real + DeviceRepr + ValidAsZeroBits {}
impl GpuReal for f64 {}
impl GpuReal for f32 {}

/// Runs the sweep in precision `T` for the binary described by `spec`.
pub fn run<T: GpuReal>(spec: &Spec) -> std::process::ExitCode
where
    CudaBlas: Gemm<T>,
{
    paw_base::main(spec.name, || sweep::<T>(spec))
}

fn sweep<T: GpuReal>(spec: &Spec) -> paw_base::Result<()>
where
    CudaBlas: Gemm<T>,
{
    let name = spec.name;
    let mut node = Node::init(spec)?;
    let sizes = node.sizes(Family::GpuBlas)?;
    paw_gpu::devices()?;
    paw_gpu::require_cublas()?;
    let gpu = Gpu::open(0)?;
    node.add_library(gpu.describe());
    let stream = gpu.context().default_stream();
    let blas = CudaBlas::new(stream.clone())
        .map_err(|e| paw_base::Error::runtime(format!("creating the cuBLAS handle: {e:?}")))?;

    let most = sizes.largest() as usize;
    let (a, b) = (fill::<T>(most * most, 1), fill::<T>(most * most, 7));
    let copy = |h: &[T]| stream.clone_htod(h).map_err(|e| failed("copying a matrix to the GPU", e));
    let (da, db) = (copy(&a)?, copy(&b)?);
    let mut dc = stream.alloc_zeros::<T>(most * most).map_err(|e| failed("allocating C", e))?;

    let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
    let call = if std::mem::size_of::<T>() == 8 { "cublasDgemm" } else { "cublasSgemm" };
    let files = [format!("{name}_time.dat"), format!("{name}_flops.dat")];
    let (mut time, mut rate) = paw_blas::rate_files(&node, &bench, files, call)?;

    let multiply = |n: usize, dc: &mut CudaSlice<T>| -> paw_base::Result<()> {
        let n32 = n as i32;
        let cfg = GemmConfig {
            transa: cublasOperation_t::CUBLAS_OP_N,
            transb: cublasOperation_t::CUBLAS_OP_N,
            m: n32,
            n: n32,
            k: n32,
            alpha: T::from_f64(1.0),
            lda: n32,
            ldb: n32,
            beta: T::from_f64(0.0),
            ldc: n32,
        };
        let len = n * n;
        // SAFETY: each operand holds at least n*n elements (allocated at the largest
        // order), which is what GEMM reads and writes with m = n = k = ld? = n.
        unsafe { blas.gemm(cfg, &da.slice(..len), &db.slice(..len), &mut dc.slice_mut(..len)) }
            .map_err(|e| paw_base::Error::runtime(format!("{call} failed: {e:?}")))?;
        stream.synchronize().map_err(|e| failed("synchronising the stream", e))
    };
    multiply(sizes.med as usize, &mut dc)?;
    let mut worst = 0.0f64;
    let mut failure = FirstError::default();
    for size in sizes.sweep() {
        let n = size as usize;
        let m = bench.measure(size, || failure.keep(multiply(n, &mut dc)))?;
        failure.result()?;
        time.row(size, &m.row(|t| t));
        rate.row(size, &m.row(|t| gemm_flops(n) / t / 1e9));
        let host_c =
            stream.clone_dtoh(&dc.slice(..n * n)).map_err(|e| failed("copying C back", e))?;
        stream.synchronize().map_err(|e| failed("synchronising the stream", e))?;
        let error = gemm_error(n, &a[..n * n], &b[..n * n], &host_c);
        worst = worst.max(error / tolerance::<T>(n));
    }
    paw_blas::checked(name, worst)
}
