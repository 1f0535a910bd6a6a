//! paw-gpu: what the paw GPU tests share, over cudarc's CUDA driver API.
//!
//! [`devices`] finds out, without panicking, whether this machine has the CUDA driver
//! library and a device; every GPU binary calls it first. [`Gpu`] is an open device,
//! [`DeviceBuffer`], [`PinnedBuffer`] and [`PageableBuffer`] own memory, and
//! [`copy_in`] / [`copy_out`] are the synchronous copies (cuMemcpyHtoD / cuMemcpyDtoH) of
//! the data check. [`transfer`] is the sweep behind every transfer binary, and its
//! [`transfer::Lane`] the calls they time.
#![warn(missing_docs)]

pub mod memory;
pub mod transfer;

pub use cudarc;
pub use memory::{copy_in, copy_out, DeviceBuffer, HostBuffer, PageableBuffer, PinnedBuffer};

use cudarc::driver::{sys, CudaContext, DriverError};
use paw_base::{Error, Result};
use std::sync::Arc;

/// Number of CUDA devices, or an error (exit status 2) naming what is missing: the driver
/// library, a working driver, or a device. Never panics; call it before anything else CUDA.
pub fn devices() -> Result<usize> {
    // SAFETY: only tries to load libcuda; nothing is called through it.
    if !unsafe { sys::is_culib_present() } {
        return Err(Error::unavailable(
            "no GPU: the CUDA driver library (libcuda.so) was not found on this machine",
        ));
    }
    match CudaContext::device_count() {
        Ok(n) if n > 0 => Ok(n as usize),
        Ok(_) => Err(Error::unavailable("no GPU: the CUDA driver reports no device")),
        Err(e) => Err(Error::unavailable(format!(
            "no GPU: the CUDA driver did not initialise ({})",
            describe(&e)
        ))),
    }
}

/// Fails (exit status 2) unless the cuBLAS library can be loaded; call before cuBLAS.
pub fn require_cublas() -> Result<()> {
    // SAFETY: only tries to load libcublas; nothing is called through it.
    if unsafe { cudarc::cublas::sys::is_culib_present() } {
        Ok(())
    } else {
        Err(Error::unavailable("no cuBLAS: the library libcublas.so was not found on this machine"))
    }
}

/// A CUDA driver error as text: the error name and the driver's description.
pub fn describe(e: &DriverError) -> String {
    let name = e.error_name().map(|s| s.to_string_lossy().into_owned());
    let text = e.error_string().map(|s| s.to_string_lossy().into_owned());
    match (name, text) {
        (Ok(n), Ok(t)) => format!("{n}: {t}"),
        _ => format!("{e:?}"),
    }
}

/// A CUDA driver error as a paw runtime error, with what was being done.
pub fn failed(what: &str, e: DriverError) -> Error {
    Error::runtime(format!("{what} failed: {}", describe(&e)))
}

/// An open device: its primary context, made current on the calling thread.
#[derive(Debug, Clone)]
pub struct Gpu {
    ctx: Arc<CudaContext>,
}

impl Gpu {
    /// Opens device `ordinal`; call [`devices`] first (cudarc panics without a driver).
    pub fn open(ordinal: usize) -> Result<Gpu> {
        let ctx = CudaContext::new(ordinal).map_err(|e| failed("opening the GPU", e))?;
        Ok(Gpu { ctx })
    }

    /// The cudarc context, for streams and cuBLAS.
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// Makes this device's context current on the calling thread (cheap when it is).
    pub fn bind(&self) -> Result<()> {
        self.ctx.bind_to_thread().map_err(|e| failed("binding the GPU context", e))
    }

    /// Waits until all work of this context has finished (cuCtxSynchronize).
    pub fn synchronize(&self) -> Result<()> {
        self.ctx.synchronize().map_err(|e| failed("cuCtxSynchronize", e))
    }

    /// One line for output headers: ordinal, name, compute capability, memory.
    pub fn describe(&self) -> String {
        let name = self.ctx.name().unwrap_or_else(|_| "unknown device".to_string());
        let cc = self.ctx.compute_capability().map(|(a, b)| format!("{a}.{b}"));
        let mem = self.ctx.total_mem().map(|b| b as f64 / (1u64 << 30) as f64);
        format!(
            "GPU {}: {name}, compute capability {}, {} GiB",
            self.ctx.ordinal(),
            cc.unwrap_or_else(|_| "?".to_string()),
            mem.map(|g| format!("{g:.1}")).unwrap_or_else(|_| "?".to_string())
        )
    }
}
