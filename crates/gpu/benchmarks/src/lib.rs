//! paw-gpu-benchmarks: the GPU benchmarks (src/bin: gpu_dgemm, gpu_sgemm; the six transfers
//! of PAW 1.6 Table 8.1 and the twelve of Table 9.1, each a [`paw_gpu::transfer::Transfer`]
//! choice) and the cuBLAS GEMM sweep of `gpu_dgemm` and `gpu_sgemm` (PAW 1.6 §8.1), one body
//! for both precisions; what it times and reports is in each binary's SPEC. A binary's `main` sets up
//! a [`GemmSweep`] and gives [`GemmSweep::run`] the timed calls: [`Product::multiply`] and
//! [`Product::synchronize`], which go straight to cuBLAS and the driver and keep the first
//! failure for after the sample.
#![warn(missing_docs)]

use paw_base::schema::GFLOP_PER_S;
use paw_base::{Error, Family, Node, Policy, Result, SizeRange, Spec, Timing};
use paw_blas::{fill, gemm_error, gemm_flops, tolerance, Real};
use paw_gpu::cudarc::cublas::sys::{self as cublas, cublasOperation_t::CUBLAS_OP_N};
use paw_gpu::cudarc::cublas::CudaBlas;
use paw_gpu::cudarc::driver::{sys, CudaSlice, CudaStream, DevicePtr, DeviceRepr, ValidAsZeroBits};
use paw_gpu::{failed, Gpu};
use std::sync::Arc;

/// What a cuBLAS call returns.
type Status = cublas::cublasStatus_t;

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
            files: ::paw_base::Files::Text(concat!($name, "_time.dat (s) and ", $name, "_flops.dat (GFLOP/s)")),
            headlines: &[::paw_base::Headline::new(
                "_flops",
                concat!($upper, " N={x}"),
                ::paw_base::Pick::Last,
                ::paw_base::schema::sweep::MEDIAN,
            )],
        }
    };
}

/// A precision cuBLAS multiplies: `f64` (cublasDgemm) or `f32` (cublasSgemm).
pub trait GpuReal: Real + DeviceRepr + ValidAsZeroBits {
    /// The cuBLAS call.
    const CALL: &'static str;

    /// C = A B of order-`n` column-major matrices at device addresses `[a, b, c]`,
    /// alpha 1, beta 0, on `handle`'s stream.
    ///
    /// # Safety
    /// Each address holds at least n*n elements of this type on the handle's device.
    unsafe fn gemm(handle: cublas::cublasHandle_t, n: i32, abc: [sys::CUdeviceptr; 3]) -> Status;
}

/// The two precisions, one cuBLAS call each.
macro_rules! gpu_real {
    ($t:ty, $call:literal, $function:ident) => {
        impl GpuReal for $t {
            const CALL: &'static str = $call;
            unsafe fn gemm(
                handle: cublas::cublasHandle_t,
                n: i32,
                [a, b, c]: [sys::CUdeviceptr; 3],
            ) -> Status {
                let (one, zero): ($t, $t) = (1.0, 0.0);
                let (a, b, c) = (a as *const $t, b as *const $t, c as *mut $t);
                // SAFETY: the caller's promise; alpha and beta live for the call.
                unsafe {
                    cublas::$function(
                        handle,
                        CUBLAS_OP_N,
                        CUBLAS_OP_N,
                        n,
                        n,
                        n,
                        &one,
                        a,
                        n,
                        b,
                        n,
                        &zero,
                        c,
                        n,
                    )
                }
            }
        }
    };
}
gpu_real!(f64, "cublasDgemm", cublasDgemm_v2);
gpu_real!(f32, "cublasSgemm", cublasSgemm_v2);

/// A GEMM binary's run, set up: settings and orders, the host matrices, and the
/// [`Product`] on GPU 0.
#[derive(Debug)]
pub struct GemmSweep<T: GpuReal> {
    node: Node,
    name: &'static str,
    sizes: SizeRange,
    a: Vec<T>,
    b: Vec<T>,
    product: Product<T>,
}

/// The operands on the device and the calls a GEMM binary times: a cuBLAS handle on GPU 0's
/// default stream, A, B and C at the largest order. The calls go straight to cuBLAS and the
/// driver with addresses taken once, and keep the first failure for after the sample.
#[derive(Debug)]
pub struct Product<T: GpuReal> {
    stream: Arc<CudaStream>,
    /// The handle and A and B, owned here so that `raw` stays valid.
    _owned: (CudaBlas, CudaSlice<T>, CudaSlice<T>),
    dc: CudaSlice<T>,
    /// Raw handles and addresses of the above, for the timed calls.
    raw: (cublas::cublasHandle_t, sys::CUstream, [sys::CUdeviceptr; 3]),
    /// Elements each operand holds.
    len: usize,
    /// The first failed call of the timed loop, as text.
    failure: Option<String>,
    /// The calls made since the last reset, in order (1 multiply, 2 synchronize; 2 bits
    /// each), to hold a binary's timed body to "a product, then a wait for it".
    called: u32,
}

impl<T: GpuReal> GemmSweep<T> {
    /// Reads the settings (a bad one is refused before looking for a GPU), finds GPU 0 and
    /// cuBLAS, fills A and B on the host and copies them to the device, untimed.
    pub fn start(spec: &Spec) -> Result<GemmSweep<T>> {
        let mut node = Node::init(spec)?;
        let sizes = node.sizes(Family::GpuBlas)?;
        paw_gpu::devices()?;
        paw_gpu::require_cublas()?;
        let gpu = Gpu::open(0)?;
        node.add_library(gpu.describe());
        let stream = gpu.context().default_stream();
        let blas = CudaBlas::new(stream.clone())
            .map_err(|e| Error::runtime(format!("creating the cuBLAS handle: {e:?}")))?;
        let most = sizes.largest() as usize;
        let (a, b) = (fill::<T>(most * most, 1), fill::<T>(most * most, 7));
        let copy =
            |h: &[T]| stream.clone_htod(h).map_err(|e| failed("copying a matrix to the GPU", e));
        let (da, db) = (copy(&a)?, copy(&b)?);
        let dc = stream.alloc_zeros::<T>(most * most).map_err(|e| failed("allocating C", e))?;
        gpu.bind()?;
        let addresses = [&da, &db, &dc].map(|m| m.device_ptr(&stream).0);
        let raw = (*blas.handle(), stream.cu_stream(), addresses);
        let len = most * most;
        let _owned = (blas, da, db);
        let product = Product { stream, _owned, dc, raw, len, failure: None, called: 0 };
        Ok(GemmSweep { node, name: spec.name, sizes, a, b, product })
    }

    /// Times `iteration` (the calls themselves) at every order after one untimed call at
    /// MED_GPU_BLAS_SIZE, writes the time and rate files, and checks sampled entries of C
    /// after each order.
    pub fn run(self, iteration: impl Fn(&mut Product<T>, usize)) -> Result<()> {
        let GemmSweep { node, name, sizes, a, b, mut product } = self;
        let call = T::CALL;
        let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
        let files = [format!("{name}_time.dat"), format!("{name}_flops.dat")];
        let (mut time, mut rate) = paw_blas::rate_files(&node, &bench, files, call)?;
        iteration(&mut product, sizes.med as usize);
        product.failed()?;
        if product.called != (1 << 2) | 2 {
            return Err(Error::runtime(format!(
                "{name}'s timed iteration must call multiply, then synchronize (a product and \
                 a wait for it)"
            )));
        }
        let mut worst = 0.0f64;
        for size in sizes.sweep() {
            let n = size as usize;
            let m = bench.measure(size, || iteration(&mut product, n))?;
            product.failed()?;
            time.row(size, &m.row(|t| t));
            rate.row(size, &m.row(|t| GFLOP_PER_S.of(gemm_flops(n) / t)));
            let host_c = product.c(n)?;
            let error = gemm_error(n, &a[..n * n], &b[..n * n], &host_c);
            worst = worst.max(error / tolerance::<T>(n));
        }
        paw_blas::checked(name, worst)
    }
}

impl<T: GpuReal> Product<T> {
    /// C = A B at order `n` (cublasDgemm / cublasSgemm, column-major, alpha 1, beta 0).
    #[inline]
    pub fn multiply(&mut self, n: usize) {
        self.called = (self.called << 2) | 1;
        if n * n > self.len {
            self.failure.get_or_insert_with(|| format!("order {n} is larger than the operands"));
            return;
        }
        let (handle, _, [a, b, c]) = self.raw;
        // SAFETY: each operand holds len >= n*n elements on this handle's device, and the
        // slices that own them live as long as `self`.
        let status = unsafe { T::gemm(handle, n as i32, [a, b, c]) };
        if status != cublas::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
            self.failure.get_or_insert_with(|| format!("{} failed: {status:?}", T::CALL));
        }
    }

    /// Waits for the product (cuStreamSynchronize on the handle's stream).
    #[inline]
    pub fn synchronize(&mut self) {
        self.called = (self.called << 2) | 2;
        // SAFETY: the stream is owned by `self.stream`, alive as long as `self`.
        let r = unsafe { sys::cuStreamSynchronize(self.raw.1) };
        if r != sys::CUresult::CUDA_SUCCESS {
            self.failure.get_or_insert_with(|| format!("cuStreamSynchronize failed: {r:?}"));
        }
    }

    /// The first failure of the calls since the last look, as an error.
    fn failed(&mut self) -> Result<()> {
        self.failure.take().map_or(Ok(()), |e| Err(Error::runtime(e)))
    }

    /// C at order `n`, copied back to the host (untimed).
    fn c(&self, n: usize) -> Result<Vec<T>> {
        let host = self
            .stream
            .clone_dtoh(&self.dc.slice(..n * n))
            .map_err(|e| failed("copying C back", e))?;
        self.stream.synchronize().map_err(|e| failed("synchronising the stream", e))?;
        Ok(host)
    }
}
