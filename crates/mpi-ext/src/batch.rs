//! Many non-blocking sends and receives completed by one MPI_Waitall.
//!
//! rsmpi's request collections allocate per use; benchmarks that time a window of messages
//! need the request array allocated once, outside the timed region. [`Batch::run`] posts
//! what its closure adds, then waits for all of it; buffers must live for the batch's
//! lifetime parameter, which outlives the call, so MPI never writes freed memory.

use crate::region::{Bytes, BytesMut};
use crate::{count, datatype, Plain};
use mpi::datatype::Equivalence;
use mpi::datatype::{Collection, Pointer, PointerMut};
use mpi::ffi;
use mpi::ffi::MPI_Datatype;
use mpi::topology::Process;
use mpi::traits::*;
use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::marker::PhantomData;

/// Reusable storage for the requests of one batch.
#[derive(Debug)]
pub struct Batch {
    requests: Vec<ffi::MPI_Request>,
}

impl Batch {
    /// Storage for up to `capacity` requests per batch without reallocating.
    pub fn with_capacity(capacity: usize) -> Batch {
        Batch { requests: Vec::with_capacity(capacity) }
    }

    /// Runs `post`, which adds MPI_Isend/MPI_Irecv operations, then MPI_Waitall on all of
    /// them. Every request is complete when this returns (also if `post` panics). `post`'s
    /// value is made before that wait: a clock read at its end times what `post` itself
    /// waited for (a nested batch's receives), not this batch's operations.
    pub fn run<'b, R>(&mut self, post: impl FnOnce(&mut Posting<'_, 'b>) -> R) -> R {
        self.requests.clear();
        let mut posting = Posting { requests: &mut self.requests, _buffers: PhantomData };
        post(&mut posting)
    }
}

/// The operations of one batch; dropping it (at the end of [`Batch::run`]) waits for all.
pub struct Posting<'r, 'b> {
    requests: &'r mut Vec<ffi::MPI_Request>,
    // Invariant in 'b: buffers with a shorter life cannot be posted.
    _buffers: PhantomData<Cell<&'b ()>>,
}

impl std::fmt::Debug for Posting<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Posting({} requests)", self.requests.len())
    }
}

impl<'b> Posting<'_, 'b> {
    /// MPI_Isend of `buf` to `to` with `tag`.
    pub fn isend<T: Equivalence>(&mut self, to: &Process<'_>, buf: &'b [T], tag: i32) {
        // SAFETY: `buf` is borrowed for 'b, which outlives the Waitall in drop.
        unsafe { self.post_isend(to, buf.as_ptr().cast(), count(buf.len()), datatype::<T>(), tag) }
    }

    /// MPI_Isend of `buf` (host or device memory, see [`crate::region`]) to `to` with `tag`.
    pub fn isend_bytes(&mut self, to: &Process<'_>, buf: Bytes<'b>, tag: i32) {
        // SAFETY: `buf` is valid for 'b (its maker's promise), which outlives the Waitall
        // in drop.
        unsafe { self.post_isend(to, buf.pointer(), buf.count(), datatype::<u8>(), tag) }
    }

    /// MPI_Irecv into `buf` (host or device memory, see [`crate::region`]) from `from`
    /// with `tag`.
    pub fn irecv_bytes(&mut self, from: &Process<'_>, mut buf: BytesMut<'b>, tag: i32) {
        // SAFETY: `buf` is exclusive for 'b (its maker's promise), which outlives the
        // Waitall in drop, so nothing else touches it while MPI writes bytes into it.
        unsafe { self.post_irecv(from, buf.pointer_mut(), buf.count(), datatype::<u8>(), tag) }
    }

    /// `n` MPI_Irecv into the same `buf` (host or device memory) from `from` with `tag`:
    /// [`Posting::irecv_window`] for the bytes of a [`BytesMut`].
    pub fn irecv_bytes_window(
        &mut self,
        from: &Process<'_>,
        mut buf: BytesMut<'b>,
        n: usize,
        tag: i32,
    ) {
        let (ptr, count) = (buf.pointer_mut(), buf.count());
        for _ in 0..n {
            // SAFETY: as irecv_bytes: `buf` is exclusive for 'b, which outlives the Waitall
            // in drop; the receives write bytes, in whatever order.
            unsafe { self.post_irecv(from, ptr, count, datatype::<u8>(), tag) }
        }
    }

    /// MPI_Irecv into `buf` from `from` with `tag`.
    pub fn irecv<T: Plain>(&mut self, from: &Process<'_>, buf: &'b mut [T], tag: i32) {
        self.irecv_window(from, buf, 1, tag);
    }

    /// `n` MPI_Irecv into the same `buf` from `from` with `tag`: a window of messages that
    /// overwrite one another, as the windowed bandwidth benchmarks of IMB and OSU receive
    /// them. The buffer then holds one of the messages; use it when all carry the same
    /// bytes or when the contents do not matter.
    pub fn irecv_window<T: Plain>(
        &mut self,
        from: &Process<'_>,
        buf: &'b mut [T],
        n: usize,
        tag: i32,
    ) {
        let (ptr, len) = (buf.as_mut_ptr().cast(), count(buf.len()));
        for _ in 0..n {
            // SAFETY: `buf` is borrowed exclusively for 'b, which outlives the Waitall in
            // drop, so no Rust code reads or frees it while MPI writes it; the receives only
            // write bytes of a Plain type (every bit pattern valid), in whatever order.
            unsafe { self.post_irecv(from, ptr, len, datatype::<T>(), tag) }
        }
    }

    /// One MPI_Irecv from each of `from` into the same `buf` with `tag`: the k-th message
    /// of every sender in one slot, as the fan-in of OSU shares its receive buffers. The
    /// buffer then holds one of the messages; use it when the contents do not matter.
    pub fn irecv_from_each<'p, T: Plain>(
        &mut self,
        from: impl IntoIterator<Item = Process<'p>>,
        buf: &'b mut [T],
        tag: i32,
    ) {
        let (ptr, len) = (buf.as_mut_ptr().cast(), count(buf.len()));
        for source in from {
            // SAFETY: as irecv_window: `buf` is borrowed exclusively for 'b, which outlives
            // the Waitall in drop; the receives only write bytes of a Plain type.
            unsafe { self.post_irecv(&source, ptr, len, datatype::<T>(), tag) }
        }
    }

    /// MPI_Isend, its request stored for the Waitall in drop.
    ///
    /// # Safety
    /// `count` elements of `datatype` at `ptr` stay valid and unwritten until that Waitall.
    unsafe fn post_isend(
        &mut self,
        to: &Process<'_>,
        ptr: *const c_void,
        count: c_int,
        datatype: MPI_Datatype,
        tag: i32,
    ) {
        let mut req = null_request();
        // SAFETY: the caller's promise on the buffer; `req` is a valid out-parameter.
        unsafe { ffi::MPI_Isend(ptr, count, datatype, to.rank(), tag, to.as_raw(), &mut req) };
        self.requests.push(req);
    }

    /// MPI_Irecv, its request stored for the Waitall in drop.
    ///
    /// # Safety
    /// `count` elements of `datatype` at `ptr` are writable with any bits, and nothing else
    /// touches them, until that Waitall.
    unsafe fn post_irecv(
        &mut self,
        from: &Process<'_>,
        ptr: *mut c_void,
        count: c_int,
        datatype: MPI_Datatype,
        tag: i32,
    ) {
        let mut req = null_request();
        // SAFETY: the caller's promise on the buffer; `req` is a valid out-parameter.
        unsafe { ffi::MPI_Irecv(ptr, count, datatype, from.rank(), tag, from.as_raw(), &mut req) };
        self.requests.push(req);
    }
}

impl Drop for Posting<'_, '_> {
    fn drop(&mut self) {
        if self.requests.is_empty() {
            return;
        }
        // SAFETY: the array holds active requests posted above, each waited exactly once
        // here; MPI sets them to MPI_REQUEST_NULL.
        unsafe {
            ffi::MPI_Waitall(
                count(self.requests.len()),
                self.requests.as_mut_ptr(),
                ffi::RSMPI_STATUSES_IGNORE,
            )
        };
        self.requests.clear();
    }
}

fn null_request() -> ffi::MPI_Request {
    // SAFETY: reading an extern static handle constant that MPI initialises at load.
    unsafe { ffi::RSMPI_REQUEST_NULL }
}
