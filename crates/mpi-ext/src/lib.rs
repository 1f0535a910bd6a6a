//! mpi-ext: safe Rust over the parts of MPI that rsmpi does not cover.
//!
//! - [`rma`]: one-sided communication. A [`rma::Window`] owns its memory and frees itself
//!   on drop; access epochs (fence, post/start/complete/wait, lock_all) are closures that
//!   close the epoch on return and on unwind, so every origin buffer handed to MPI outlives
//!   the epoch that completes it.
//! - [`io`]: MPI-IO files: open/close/delete, views, explicit-offset, individual and shared
//!   file pointer, collective, ordered and non-blocking reads and writes, sync. Errors come
//!   back as [`io::IoError`] with MPI's own message.
//! - [`batch`]: many MPI_Isend/MPI_Irecv completed by one MPI_Waitall, with request storage
//!   reused between batches (no allocation per batch).
//! - [`collective`]: MPI_Reduce_scatter (the form with a count per rank).
//! - [`persistent`]: MPI-4 persistent collectives (MPI_Allreduce_init, MPI_Bcast_init), where
//!   the library has them.
//! - [`region`]: message buffers by address ([`region::Bytes`], [`region::BytesMut`]): host
//!   slices, or GPU memory passed to a CUDA-aware library.
//! - [`threads`]: communicators shared by threads, at MPI_THREAD_MULTIPLE only.
//! - [`topology`]: MPI_Dims_create (a balanced grid of processes) and the neighbourhood
//!   collectives MPI_Neighbor_allgather and MPI_Neighbor_alltoall.
//!
//! All `unsafe` code of paw's MPI use lives in this crate; each block states why it is sound.
#![warn(missing_docs)]

pub mod batch;
pub mod collective;
pub mod io;
pub mod persistent;
pub mod region;
pub mod rma;
pub mod threads;
pub mod topology;

use mpi::datatype::Equivalence;
use mpi::ffi::MPI_Datatype;
use mpi::raw::AsRaw;
use std::os::raw::c_int;

/// Element types MPI may write into from outside the program: every bit pattern is a valid
/// value (no `bool`, no `char`, no references).
///
/// # Safety
/// Implement only for types for which any bit pattern is valid and that have an
/// [`Equivalence`] of the same size.
pub unsafe trait Plain: Equivalence + Copy + 'static {}

macro_rules! plain {
    ($($t:ty),*) => {$(
        // SAFETY: every bit pattern is a valid value of this primitive numeric type.
        unsafe impl Plain for $t {}
    )*};
}
plain!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// The MPI datatype handle of `T`.
fn datatype<T: Equivalence>() -> MPI_Datatype {
    T::equivalent_datatype().as_raw()
}

/// A slice length as an MPI count; panics beyond `c_int` (2^31-1 elements).
fn count(len: usize) -> c_int {
    c_int::try_from(len).expect("buffer longer than an MPI count (2^31-1 elements)")
}

/// MPI's text for an error code, on one line (MPICH's error stacks span several).
pub fn error_string(code: c_int) -> String {
    let mut buf = vec![0u8; mpi::ffi::MPI_MAX_ERROR_STRING as usize + 1];
    let mut len: c_int = 0;
    // SAFETY: `buf` holds MPI_MAX_ERROR_STRING + 1 bytes, the most MPI_Error_string writes,
    // and `len` is a valid out-parameter; both outlive the call.
    unsafe {
        mpi::ffi::MPI_Error_string(code, buf.as_mut_ptr().cast(), &mut len);
    }
    buf.truncate(len.clamp(0, buf.len() as c_int) as usize);
    String::from_utf8_lossy(&buf).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The MPI library's own answer to "may MPI calls take CUDA device memory?": the result of
/// `MPIX_Query_cuda_support()` (Open MPI, MPICH 4, Intel MPI) after MPI_Init, or `None`
/// when the library has no such function. The symbol is looked up at run time, so one
/// build serves libraries with and without it.
pub fn cuda_support() -> Option<bool> {
    const NAME: &std::ffi::CStr = c"MPIX_Query_cuda_support";
    // SAFETY: dlsym with RTLD_DEFAULT searches the loaded objects for a symbol name given
    // as a NUL-terminated string; it returns null when there is none.
    let symbol = unsafe { libc::dlsym(libc::RTLD_DEFAULT, NAME.as_ptr()) };
    if symbol.is_null() {
        return None;
    }
    // SAFETY: the MPI libraries declare it `int MPIX_Query_cuda_support(void)`; it only
    // reads the library's state, valid after MPI_Init.
    let query: extern "C" fn() -> c_int = unsafe { std::mem::transmute(symbol) };
    Some(query() != 0)
}
