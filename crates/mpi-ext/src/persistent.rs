//! MPI-4 persistent collectives (MPI_Allreduce_init, MPI_Bcast_init), looked up in the MPI
//! library when the program runs: rsmpi's bindings follow the mpi.h of the build, and an
//! MPI-3 library (Open MPI 4.1) has none of them.

use crate::Plain;
use mpi::collective::Operation;
use mpi::ffi;
use mpi::traits::Communicator;
use std::ffi::CStr;
use std::marker::PhantomData;
use std::os::raw::c_int;

type AllreduceInit = unsafe extern "C" fn(
    *const std::ffi::c_void,
    *mut std::ffi::c_void,
    c_int,
    ffi::MPI_Datatype,
    ffi::MPI_Op,
    ffi::MPI_Comm,
    ffi::MPI_Info,
    *mut ffi::MPI_Request,
) -> c_int;

type BcastInit = unsafe extern "C" fn(
    *mut std::ffi::c_void,
    c_int,
    ffi::MPI_Datatype,
    c_int,
    ffi::MPI_Comm,
    ffi::MPI_Info,
    *mut ffi::MPI_Request,
) -> c_int;

/// The address of `name` in the process (the MPI library is linked in), if present.
fn symbol(name: &CStr) -> Option<*mut std::ffi::c_void> {
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only reads the loaded
    // objects' symbol tables.
    let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    (!p.is_null()).then_some(p)
}

/// Whether the MPI library provides the MPI-4 persistent collectives paw uses.
pub fn available() -> bool {
    symbol(c"MPI_Allreduce_init").is_some() && symbol(c"MPI_Bcast_init").is_some()
}

/// A persistent collective request: created once, started and completed many times, freed
/// on drop. It holds the buffers it was made with for as long as it lives.
#[derive(Debug)]
pub struct Persistent<'b> {
    request: ffi::MPI_Request,
    buffers: PhantomData<&'b mut [u8]>,
}

impl Persistent<'_> {
    /// MPI_Start then MPI_Wait: one call of the collective.
    pub fn run(&mut self) {
        // SAFETY: an inactive persistent request made by an *_init call below; its buffers
        // are borrowed for the request's life, and the wait completes it before returning.
        unsafe {
            ffi::MPI_Start(&mut self.request);
            ffi::MPI_Wait(&mut self.request, ffi::RSMPI_STATUS_IGNORE);
        }
    }
}

impl Drop for Persistent<'_> {
    fn drop(&mut self) {
        // SAFETY: the request is inactive (every start was waited for in `run`).
        unsafe { ffi::MPI_Request_free(&mut self.request) };
    }
}

/// MPI_Allreduce_init of `send` into `recv` (the same length) by `op`, or `None` when the
/// library has no MPI_Allreduce_init. Collective over `comm`.
pub fn allreduce_init<'b, T: Plain, C: Communicator, O: Operation>(
    comm: &'b C,
    send: &'b [T],
    recv: &'b mut [T],
    op: O,
) -> Option<Persistent<'b>> {
    assert_eq!(send.len(), recv.len(), "send and recv of one length");
    let f = symbol(c"MPI_Allreduce_init")?;
    // SAFETY: the symbol is MPI-4's MPI_Allreduce_init, whose C signature this type states.
    let init: AllreduceInit = unsafe { std::mem::transmute(f) };
    // SAFETY: reading extern static handle constants that MPI initialises at load.
    let (mut request, info) = unsafe { (ffi::RSMPI_REQUEST_NULL, ffi::RSMPI_INFO_NULL) };
    // SAFETY: both buffers hold `count` elements of T (Plain, its datatype matches) and stay
    // borrowed for the request's life; `request` is a valid out-parameter.
    unsafe {
        init(
            send.as_ptr().cast(),
            recv.as_mut_ptr().cast(),
            crate::count(send.len()),
            crate::datatype::<T>(),
            op.as_raw(),
            comm.as_raw(),
            info,
            &mut request,
        );
    }
    Some(Persistent { request, buffers: PhantomData })
}

/// MPI_Bcast_init of `buffer` from `root`, or `None` when the library has no
/// MPI_Bcast_init. Collective over `comm`.
pub fn bcast_init<'b, T: Plain, C: Communicator>(
    comm: &'b C,
    root: i32,
    buffer: &'b mut [T],
) -> Option<Persistent<'b>> {
    let f = symbol(c"MPI_Bcast_init")?;
    // SAFETY: the symbol is MPI-4's MPI_Bcast_init, whose C signature this type states.
    let init: BcastInit = unsafe { std::mem::transmute(f) };
    // SAFETY: reading extern static handle constants that MPI initialises at load.
    let (mut request, info) = unsafe { (ffi::RSMPI_REQUEST_NULL, ffi::RSMPI_INFO_NULL) };
    // SAFETY: `buffer` holds `count` elements of T and stays borrowed for the request's
    // life; `request` is a valid out-parameter.
    unsafe {
        init(
            buffer.as_mut_ptr().cast(),
            crate::count(buffer.len()),
            crate::datatype::<T>(),
            root,
            comm.as_raw(),
            info,
            &mut request,
        );
    }
    Some(Persistent { request, buffers: PhantomData })
}
