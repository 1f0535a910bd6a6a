//! Message buffers, placed on purpose: every buffer a benchmark sends from, receives into
//! or exposes comes from [`Buffer`], page-aligned at offset 0 from the C library (as OSU's
//! posix_memalign), whatever the program's allocator is and whatever the length.
//!
//! A buffer's place changes what a transfer costs (doc/imb-mpi1.md: 10 % from alignment at
//! some lengths). From the allocator, a 1-byte buffer and a 1 MiB one would land at
//! different offsets in their pages (the C library's malloc: 16 bytes into a page above
//! its mmap threshold, anywhere below it); here every buffer starts a page, so a row reads
//! the same placement at every length and in every program.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The alignment of every buffer: a page of x86-64 and aarch64 Linux's default size.
pub const PAGE: usize = 4096;

/// What every output header says of the buffers' place ([`crate::RunInfo::buffers`]).
pub const PLACEMENT: &str =
    "message buffers page-aligned (4096 B) at offset 0, from the C library (posix_memalign)";

/// `len` bytes starting a page, owned; freed on drop.
pub struct Buffer {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: a Buffer owns its bytes alone, like a Vec<u8>.
unsafe impl Send for Buffer {}
// SAFETY: shared access only reads, like a Vec<u8>'s.
unsafe impl Sync for Buffer {}

impl Buffer {
    /// `len` bytes, each `byte`: every page written, so none stays mapped to the kernel's
    /// shared zero page (large sends from such a page read one cached page and report
    /// bandwidth memory cannot deliver).
    pub fn filled(len: usize, byte: u8) -> Buffer {
        let mut b = Buffer::zeroed(len);
        b.fill(byte);
        b
    }

    /// `len` zero bytes (pages the kernel maps on first write; fill what is timed).
    pub fn zeroed(len: usize) -> Buffer {
        let Some(layout) = Self::layout(len) else {
            return Buffer { ptr: Self::empty(), len: 0 };
        };
        // SAFETY: the layout is non-zero and valid.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        let ptr = NonNull::new(ptr).unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
        Buffer { ptr, len }
    }

    /// The layout of a buffer of `len` bytes; none for 0.
    fn layout(len: usize) -> Option<Layout> {
        let layout = Layout::from_size_align(len, PAGE).expect("a buffer's length fits memory");
        (len > 0).then_some(layout)
    }

    /// The address of every empty buffer: aligned, never dereferenced.
    fn empty() -> NonNull<u8> {
        NonNull::new(std::ptr::without_provenance_mut(PAGE)).expect("PAGE is not 0")
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if let Some(layout) = Self::layout(self.len) {
            // SAFETY: `ptr` came from System.alloc_zeroed with this layout.
            unsafe { System.dealloc(self.ptr.as_ptr(), layout) }
        }
    }
}

impl Deref for Buffer {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr` holds `len` initialised bytes owned by self (or is aligned with len 0).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl DerefMut for Buffer {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl AsRef<[u8]> for Buffer {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl AsMut<[u8]> for Buffer {
    fn as_mut(&mut self) -> &mut [u8] {
        self
    }
}

impl Clone for Buffer {
    fn clone(&self) -> Buffer {
        let mut b = Buffer::zeroed(self.len);
        b.copy_from_slice(self);
        b
    }
}

impl Default for Buffer {
    fn default() -> Buffer {
        Buffer::zeroed(0)
    }
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buffer({} bytes at {:p})", self.len, self.ptr)
    }
}

/// A message buffer of `len` bytes, every byte 0xa5 ([`Buffer::filled`]).
pub fn buffer(len: usize) -> Buffer {
    Buffer::filled(len, 0xa5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_buffer_starts_a_page_and_holds_its_bytes() {
        for len in [1, 7, 4096, 65536, 1 << 20] {
            let b = buffer(len);
            assert_eq!(b.as_ptr() as usize % PAGE, 0, "{len} bytes");
            assert!(b.len() == len && b.iter().all(|&x| x == 0xa5));
        }
        let z = Buffer::zeroed(100);
        assert!(z.iter().all(|&x| x == 0) && (z.as_ptr() as usize).is_multiple_of(PAGE));
        let c = buffer(10).clone();
        assert_eq!(&c[..], &[0xa5; 10]);
        assert!(Buffer::default().is_empty() && (buffer(0).as_ptr() as usize).is_multiple_of(PAGE));
    }
}
