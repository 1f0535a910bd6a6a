//! Message buffers by address: bytes in host memory, or in GPU memory that Rust code
//! never reads but a CUDA-aware MPI library does.
//!
//! [`Bytes`] (what MPI reads: a send buffer) and [`BytesMut`] (what MPI writes: a receive
//! buffer) are rsmpi buffers of `MPI_UINT8_T`, so every rsmpi call takes them as it takes
//! a `&[u8]`, and [`crate::batch`] posts them. A view of a slice is safe to make; a view
//! of other memory (a device address) is `unsafe`: its maker promises the memory lives
//! and stays unaliased for the view's lifetime. No view is ever dereferenced here.

use mpi::datatype::{
    AsDatatype, Buffer, BufferMut, Collection, Equivalence, Pointer, PointerMut, SystemDatatype,
};
use mpi::Count;
use std::ffi::c_void;
use std::marker::PhantomData;

/// `len` bytes at an address, for MPI to read.
#[derive(Debug, Clone, Copy)]
pub struct Bytes<'a> {
    ptr: *const u8,
    len: usize,
    _memory: PhantomData<&'a [u8]>,
}

/// `len` bytes at an address, for MPI to write.
#[derive(Debug)]
pub struct BytesMut<'a> {
    ptr: *mut u8,
    len: usize,
    _memory: PhantomData<&'a mut [u8]>,
}

impl<'a> Bytes<'a> {
    /// The bytes of a slice.
    pub fn of(slice: &'a [u8]) -> Bytes<'a> {
        Bytes { ptr: slice.as_ptr(), len: slice.len(), _memory: PhantomData }
    }

    /// The `len` bytes at `ptr`, host or device memory.
    ///
    /// # Safety
    /// The memory holds `len` bytes and lives, unwritten by Rust code, for `'a`.
    pub unsafe fn from_raw(ptr: *const u8, len: usize) -> Bytes<'a> {
        Bytes { ptr, len, _memory: PhantomData }
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<'a> BytesMut<'a> {
    /// The bytes of a slice.
    pub fn of(slice: &'a mut [u8]) -> BytesMut<'a> {
        BytesMut { ptr: slice.as_mut_ptr(), len: slice.len(), _memory: PhantomData }
    }

    /// The `len` bytes at `ptr`, host or device memory.
    ///
    /// # Safety
    /// The memory holds `len` bytes and lives, neither read nor written by Rust code, for
    /// `'a`.
    pub unsafe fn from_raw(ptr: *mut u8, len: usize) -> BytesMut<'a> {
        BytesMut { ptr, len, _memory: PhantomData }
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The same bytes, for MPI to read (as a send buffer), while this view is borrowed.
    pub fn as_bytes(&self) -> Bytes<'_> {
        Bytes { ptr: self.ptr, len: self.len, _memory: PhantomData }
    }

    /// The view, shortened to its first `len` bytes (panics past its end).
    pub fn first(&mut self, len: usize) -> BytesMut<'_> {
        assert!(len <= self.len, "{len} bytes of a {}-byte buffer", self.len);
        BytesMut { ptr: self.ptr, len, _memory: PhantomData }
    }

    /// Its `n`-byte slots, one after another (the receive slots of a window).
    pub fn slots(&mut self, n: usize) -> impl Iterator<Item = BytesMut<'_>> {
        let (ptr, count) = (self.ptr, self.len.checked_div(n).unwrap_or(0));
        // The pointer arithmetic stays inside the region: slot i ends at (i + 1) n <= len.
        (0..count).map(move |i| BytesMut {
            ptr: ptr.wrapping_add(i * n),
            len: n,
            _memory: PhantomData,
        })
    }
}

fn count(len: usize) -> Count {
    Count::try_from(len).expect("buffer longer than an MPI count (2^31-1 bytes)")
}

// SAFETY: the pointer and count describe `len` bytes that the view's maker guaranteed
// (a live slice, or `from_raw`'s contract) for the view's lifetime.
unsafe impl Pointer for Bytes<'_> {
    fn pointer(&self) -> *const c_void {
        self.ptr.cast()
    }
}
// SAFETY: as for `Pointer`: `len` bytes of MPI_UINT8_T.
unsafe impl Collection for Bytes<'_> {
    fn count(&self) -> Count {
        count(self.len)
    }
}
// SAFETY: the elements are bytes, MPI_UINT8_T.
unsafe impl AsDatatype for Bytes<'_> {
    type Out = SystemDatatype;
    fn as_datatype(&self) -> SystemDatatype {
        u8::equivalent_datatype()
    }
}
// SAFETY: pointer, count and datatype above describe the memory together.
unsafe impl Buffer for Bytes<'_> {}

// SAFETY: as for `Bytes`.
unsafe impl Pointer for BytesMut<'_> {
    fn pointer(&self) -> *const c_void {
        self.ptr.cast()
    }
}
// SAFETY: exclusive for the view's lifetime (a `&mut` slice, or `from_raw`'s contract);
// every bit pattern is a valid byte, so MPI may write anything.
unsafe impl PointerMut for BytesMut<'_> {
    fn pointer_mut(&mut self) -> *mut c_void {
        self.ptr.cast()
    }
}
// SAFETY: `len` bytes of MPI_UINT8_T.
unsafe impl Collection for BytesMut<'_> {
    fn count(&self) -> Count {
        count(self.len)
    }
}
// SAFETY: the elements are bytes, MPI_UINT8_T.
unsafe impl AsDatatype for BytesMut<'_> {
    type Out = SystemDatatype;
    fn as_datatype(&self) -> SystemDatatype {
        u8::equivalent_datatype()
    }
}
// SAFETY: pointer, count and datatype above describe the memory together.
unsafe impl Buffer for BytesMut<'_> {}
// SAFETY: as for `Buffer`, writable.
unsafe impl BufferMut for BytesMut<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_describe_their_bytes_and_slots_tile_the_region() {
        let mut v = vec![0u8; 12];
        let base = v.as_ptr() as usize;
        let mut m = BytesMut::of(&mut v);
        assert_eq!((m.count(), m.as_bytes().len()), (12, 12));
        let slots: Vec<usize> = m.slots(4).map(|s| s.pointer() as usize - base).collect();
        assert_eq!(slots, [0, 4, 8]);
        assert_eq!(m.first(5).count(), 5);
        assert_eq!(m.slots(0).count(), 0);
        let b = Bytes::of(&v[2..]);
        assert_eq!((b.pointer() as usize - base, b.count()), (2, 10));
    }
}
