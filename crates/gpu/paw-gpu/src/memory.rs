//! Device and host buffers of bytes, and the synchronous copies between them used outside
//! the timing (the data check).
//!
//! The copies are the driver's synchronous cuMemcpyHtoD / cuMemcpyDtoH (what PAW's
//! cudaMemcpy did). They return once the source may be reused: a device-to-host copy and a
//! copy from pinned memory have then arrived, but a copy from pageable memory to the device
//! may only be staged. Each buffer and copy here makes its device's context current first,
//! so a thread may serve any device; the timed calls are [`crate::transfer::Lane`]'s, which
//! bind nothing.

use crate::{failed, Gpu};
use cudarc::driver::{result, sys};
use paw_base::Result;

/// Device memory from cuMemAlloc (not a stream-ordered pool), or managed memory from
/// cuMemAllocManaged, freed on drop.
#[derive(Debug)]
pub struct DeviceBuffer {
    gpu: Gpu,
    ptr: sys::CUdeviceptr,
    len: usize,
}

impl DeviceBuffer {
    /// `len` bytes on `gpu`, contents unset. cuMemAlloc refuses zero bytes, so zero gives
    /// one byte that is never copied.
    pub fn new(gpu: &Gpu, len: usize) -> Result<DeviceBuffer> {
        gpu.bind()?;
        // SAFETY: a plain allocation in the current context (bound just above).
        let ptr = unsafe { result::malloc_sync(len.max(1)) }
            .map_err(|e| failed(&format!("allocating {len} bytes of GPU memory"), e))?;
        Ok(DeviceBuffer { gpu: gpu.clone(), ptr, len })
    }

    /// `len` bytes of managed memory (cuMemAllocManaged, attached globally: any device
    /// and the host may touch it), every byte written (0xa5) through a copy.
    pub fn managed(gpu: &Gpu, len: usize) -> Result<DeviceBuffer> {
        gpu.bind()?;
        let flags = sys::CUmemAttach_flags::CU_MEM_ATTACH_GLOBAL;
        // SAFETY: a plain allocation in the current context (bound just above).
        let ptr = unsafe { result::malloc_managed(len.max(1), flags) }
            .map_err(|e| failed(&format!("allocating {len} bytes of managed memory"), e))?;
        let mut buf = DeviceBuffer { gpu: gpu.clone(), ptr, len };
        copy_in(&mut buf, &vec![0xa5; len])?;
        Ok(buf)
    }

    /// The device address (unified: the same number in every context and on the host),
    /// for calls that take device pointers, such as MPI's with a CUDA-aware library.
    pub fn address(&self) -> sys::CUdeviceptr {
        self.ptr
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        if self.gpu.bind().is_ok() {
            // SAFETY: `ptr` came from cuMemAlloc in this context and is freed once, here;
            // no Rust reference points into device memory.
            let _ = unsafe { result::free_sync(self.ptr) };
        }
    }
}

/// Host memory the copies can use as source or destination.
pub trait HostBuffer {
    /// The buffer's bytes.
    fn bytes(&self) -> &[u8];
    /// The buffer's bytes, writable.
    fn bytes_mut(&mut self) -> &mut [u8];
}

impl HostBuffer for Vec<u8> {
    fn bytes(&self) -> &[u8] {
        self
    }
    fn bytes_mut(&mut self) -> &mut [u8] {
        self
    }
}

/// Page-locked host memory from cuMemHostAlloc with flags 0: cached, not write-combined
/// (write-combined memory is slow for the CPU to read), freed on drop.
#[derive(Debug)]
pub struct PinnedBuffer {
    gpu: Gpu,
    ptr: *mut u8,
    len: usize,
}

impl PinnedBuffer {
    /// `len` bytes pinned for `gpu`'s context, every byte written (0xa5).
    pub fn new(gpu: &Gpu, len: usize) -> Result<PinnedBuffer> {
        gpu.bind()?;
        // SAFETY: a plain allocation in the current context; flags 0 = ordinary pinned.
        let ptr = unsafe { result::malloc_host(len.max(1), 0) }
            .map_err(|e| failed(&format!("pinning {len} bytes of host memory"), e))?;
        let mut buf = PinnedBuffer { gpu: gpu.clone(), ptr: ptr.cast(), len };
        buf.bytes_mut().fill(0xa5);
        Ok(buf)
    }
}

impl HostBuffer for PinnedBuffer {
    fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr` points to at least `len` bytes owned by this buffer until drop,
        // initialised in `new`; the borrow of self keeps them alive.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
    fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `bytes`, and the exclusive borrow makes this the only view.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

// SAFETY: the buffer owns its allocation alone (no aliasing pointer is handed out beyond
// borrows of self), and pinned memory may be used from any thread.
unsafe impl Send for PinnedBuffer {}

impl Drop for PinnedBuffer {
    fn drop(&mut self) {
        if self.gpu.bind().is_ok() {
            // SAFETY: `ptr` came from cuMemHostAlloc and is freed once, here.
            let _ = unsafe { result::free_host(self.ptr.cast()) };
        }
    }
}

/// Where a [`PageableBuffer`] starts.
pub const PAGE: usize = 4096;

/// Ordinary (pageable) host memory whose first byte lies `offset` bytes past a page
/// boundary: 0 for an aligned buffer, anything else for a misaligned one.
#[derive(Debug)]
pub struct PageableBuffer {
    storage: Vec<u8>,
    start: usize,
    len: usize,
}

impl PageableBuffer {
    /// `len` bytes starting `offset` (< [`PAGE`]) bytes past a page boundary, every byte
    /// written (0xa5) so that no page is the kernel's shared zero page. With `huge`, the
    /// kernel is asked, before the first write, to back the memory with transparent huge
    /// pages (madvise MADV_HUGEPAGE, as NumPy asks for its arrays of 4 MiB and more); it
    /// may give fewer, or none ([`PageableBuffer::huge_bytes`] tells).
    pub fn new(len: usize, offset: usize, huge: bool) -> PageableBuffer {
        assert!(offset < PAGE, "offset {offset} is not below the page size");
        let total = len + PAGE + offset;
        let mut storage = Vec::with_capacity(total);
        if huge {
            let base = storage.as_ptr() as usize;
            let first = base.next_multiple_of(PAGE);
            let span = (base + total).saturating_sub(first) / PAGE * PAGE;
            // SAFETY: [first, first + span) lies within the Vec's allocation, whole pages;
            // the advice changes how the kernel backs the pages, not their contents.
            // Refused advice (a kernel without transparent huge pages) leaves plain pages.
            let _ = unsafe { libc::madvise(first as *mut libc::c_void, span, libc::MADV_HUGEPAGE) };
        }
        storage.resize(total, 0xa5u8);
        let start = storage.as_ptr().align_offset(PAGE) + offset;
        PageableBuffer { storage, start, len }
    }

    /// Bytes past a page boundary where the buffer starts.
    pub fn offset(&self) -> usize {
        self.bytes().as_ptr() as usize % PAGE
    }

    /// Bytes of transparent huge pages in the mappings that hold the buffer
    /// (AnonHugePages in /proc/self/smaps); `None` where that file cannot be read.
    pub fn huge_bytes(&self) -> Option<u64> {
        let (lo, hi) = (
            self.storage.as_ptr() as u64,
            (self.storage.as_ptr() as u64) + self.storage.len() as u64,
        );
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        Some(huge_bytes_within(&smaps, lo, hi))
    }
}

/// The AnonHugePages bytes of the mappings in `smaps` (/proc/PID/smaps text) that overlap
/// the addresses [lo, hi).
fn huge_bytes_within(smaps: &str, lo: u64, hi: u64) -> u64 {
    let mut inside = false;
    let mut kib = 0;
    for line in smaps.lines() {
        let range = line.split_whitespace().next().and_then(|r| r.split_once('-'));
        let bounds = range.and_then(|(a, b)| {
            Some((u64::from_str_radix(a, 16).ok()?, u64::from_str_radix(b, 16).ok()?))
        });
        if let Some((start, end)) = bounds {
            inside = start < hi && lo < end;
        } else if let Some(v) = line.strip_prefix("AnonHugePages:").filter(|_| inside) {
            kib += v.trim().trim_end_matches("kB").trim().parse::<u64>().unwrap_or(0);
        }
    }
    kib * 1024
}

impl HostBuffer for PageableBuffer {
    fn bytes(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }
    fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.storage[self.start..self.start + self.len]
    }
}

/// Host to device: the first `host.len()` bytes of `dev` receive `host` (cuMemcpyHtoD,
/// returns once the data is on the device). Panics if `host` is longer than `dev`.
pub fn copy_in(dev: &mut DeviceBuffer, host: &[u8]) -> Result<()> {
    assert!(host.len() <= dev.len, "copy of {} bytes into {} device bytes", host.len(), dev.len);
    if host.is_empty() {
        return Ok(());
    }
    dev.gpu.bind()?;
    // SAFETY: `dev` owns at least host.len() bytes in the context bound above; `host` is
    // a live slice for the whole (synchronous) call.
    unsafe { result::memcpy_htod_sync(dev.ptr, host) }.map_err(|e| failed("cuMemcpyHtoD", e))
}

/// Device to host: `host` receives the first `host.len()` bytes of `dev` (cuMemcpyDtoH,
/// returns once the data is in host memory). Panics if `host` is longer than `dev`.
pub fn copy_out(host: &mut [u8], dev: &DeviceBuffer) -> Result<()> {
    assert!(host.len() <= dev.len, "copy of {} bytes out of {} device bytes", host.len(), dev.len);
    if host.is_empty() {
        return Ok(());
    }
    dev.gpu.bind()?;
    // SAFETY: as in `copy_in`, with `host` written by the device for the call's duration.
    unsafe { result::memcpy_dtoh_sync(host, dev.ptr) }.map_err(|e| failed("cuMemcpyDtoH", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pageable_buffers_start_where_asked() {
        for (offset, huge) in [(0, false), (1, true), (8, false), (64, true), (4095, false)] {
            let mut b = PageableBuffer::new(1000, offset, huge);
            assert_eq!(b.offset(), offset);
            assert_eq!(b.bytes().len(), 1000);
            assert!(b.bytes().iter().all(|&x| x == 0xa5));
            b.bytes_mut()[999] = 1;
            assert_eq!(b.bytes()[999], 1);
        }
    }

    #[test]
    fn huge_pages_are_counted_in_the_buffers_mappings() {
        let smaps = "7f0000000000-7f0000400000 rw-p 00000000 00:00 0\nSize:  4096 kB\n\
                     AnonHugePages:   2048 kB\n\
                     7f0000400000-7f0000600000 rw-p 00000000 00:00 0\nAnonHugePages:   2048 kB\n";
        assert_eq!(huge_bytes_within(smaps, 0x7f00_0000_1000, 0x7f00_0000_2000), 2 << 20);
        assert_eq!(huge_bytes_within(smaps, 0x7f00_0000_1000, 0x7f00_0050_0000), 4 << 20);
        assert_eq!(huge_bytes_within(smaps, 0x7f00_0060_0000, 0x7f00_0070_0000), 0);
        // On this machine: plain pages by default; with the advice, huge pages where the
        // kernel offers them (transparent_hugepage not "never").
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .unwrap_or_default();
        let plain = PageableBuffer::new(16 << 20, 0, false);
        let huge = PageableBuffer::new(16 << 20, 0, true);
        if mode.contains("[madvise]") {
            assert_eq!(plain.huge_bytes(), Some(0), "{mode}");
        }
        if mode.contains("[madvise]") || mode.contains("[always]") {
            assert!(huge.huge_bytes().unwrap() >= 2 << 20, "{mode}: {:?}", huge.huge_bytes());
        }
    }
}
