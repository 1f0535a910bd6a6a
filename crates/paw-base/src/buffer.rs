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

/// What a buffer holds: plain numbers, for which every byte pattern, zeros included, is a
/// value.
pub trait Element: Copy + Send + Sync + 'static + sealed::Sealed {}

mod sealed {
    /// Only the numbers below are [`super::Element`]s.
    pub trait Sealed {}
}

macro_rules! elements {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {}
    )*};
}
elements!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// `len` elements starting a page, owned; freed on drop.
pub struct Buffer<T: Element = u8> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: a Buffer owns its elements alone, like a Vec; they are Send and Sync.
unsafe impl<T: Element> Send for Buffer<T> {}
// SAFETY: shared access only reads, like a Vec's.
unsafe impl<T: Element> Sync for Buffer<T> {}

impl Buffer<u8> {
    /// `len` bytes, each `byte`: every page written, so none stays mapped to the kernel's
    /// shared zero page (large sends from such a page read one cached page and report
    /// bandwidth memory cannot deliver).
    pub fn filled(len: usize, byte: u8) -> Buffer {
        let mut b = Buffer::zeroed(len);
        b.fill(byte);
        b
    }
}

impl<T: Element> Buffer<T> {
    /// `len` zero elements (pages the kernel maps on first write; fill what is timed).
    pub fn zeroed(len: usize) -> Buffer<T> {
        let Some(layout) = Self::layout(len) else {
            return Buffer { ptr: Self::empty(), len: 0 };
        };
        // SAFETY: the layout is non-zero and valid.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        let ptr =
            NonNull::new(ptr.cast()).unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
        Buffer { ptr, len }
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[T]) -> Buffer<T> {
        let mut b = Buffer::zeroed(values.len());
        b.copy_from_slice(values);
        b
    }

    /// The layout of a buffer of `len` elements; none for 0.
    fn layout(len: usize) -> Option<Layout> {
        let bytes = len.checked_mul(size_of::<T>()).expect("a buffer's length fits memory");
        let layout = Layout::from_size_align(bytes, PAGE).expect("a buffer's length fits memory");
        (bytes > 0).then_some(layout)
    }

    /// The address of every empty buffer: aligned, never dereferenced.
    fn empty() -> NonNull<T> {
        NonNull::new(std::ptr::without_provenance_mut(PAGE)).expect("PAGE is not 0")
    }
}

impl<T: Element> Drop for Buffer<T> {
    fn drop(&mut self) {
        if let Some(layout) = Self::layout(self.len) {
            // SAFETY: `ptr` came from System.alloc_zeroed with this layout.
            unsafe { System.dealloc(self.ptr.as_ptr().cast(), layout) }
        }
    }
}

impl<T: Element> Deref for Buffer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised elements owned by self (or is aligned with
        // len 0).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Element> DerefMut for Buffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Element> AsRef<[T]> for Buffer<T> {
    fn as_ref(&self) -> &[T] {
        self
    }
}

impl<T: Element> AsMut<[T]> for Buffer<T> {
    fn as_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T: Element> Clone for Buffer<T> {
    fn clone(&self) -> Buffer<T> {
        Buffer::from_slice(self)
    }
}

impl<T: Element> Default for Buffer<T> {
    fn default() -> Buffer<T> {
        Buffer::zeroed(0)
    }
}

impl<'a, T: Element> IntoIterator for &'a Buffer<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Element> FromIterator<T> for Buffer<T> {
    fn from_iter<I: IntoIterator<Item = T>>(values: I) -> Buffer<T> {
        Buffer::from_slice(&values.into_iter().collect::<Vec<T>>())
    }
}

impl<T: Element> std::fmt::Debug for Buffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buffer({} elements at {:p})", self.len, self.ptr)
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
        let z = Buffer::<u8>::zeroed(100);
        assert!(z.iter().all(|&x| x == 0) && (z.as_ptr() as usize).is_multiple_of(PAGE));
        let c = buffer(10).clone();
        assert_eq!(&c[..], &[0xa5; 10]);
        assert!(Buffer::<u8>::default().is_empty());
        assert!((buffer(0).as_ptr() as usize).is_multiple_of(PAGE));
        let f: Buffer<f32> = (0..5).map(|i| i as f32).collect();
        assert_eq!((&f[..], (f.as_ptr() as usize) % PAGE), (&[0.0, 1.0, 2.0, 3.0, 4.0][..], 0));
    }
}
