//! MPI-4 persistent collectives (MPI_Allreduce_init, MPI_Bcast_init and the other eleven),
//! looked up in the MPI library when the program runs: rsmpi's bindings follow the mpi.h of
//! the build, and an MPI-3 library (Open MPI 4.1) has none of them.

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

/// The thirteen MPI-4 persistent collectives' names; [`missing`] tells which a library lacks.
pub const ALL: [&CStr; 13] = [
    c"MPI_Bcast_init",
    c"MPI_Allgather_init",
    c"MPI_Allgatherv_init",
    c"MPI_Gather_init",
    c"MPI_Gatherv_init",
    c"MPI_Scatter_init",
    c"MPI_Scatterv_init",
    c"MPI_Alltoall_init",
    c"MPI_Alltoallv_init",
    c"MPI_Reduce_init",
    c"MPI_Reduce_scatter_init",
    c"MPI_Allreduce_init",
    c"MPI_Barrier_init",
];

/// The first of [`ALL`] the MPI library lacks, if any.
pub fn missing() -> Option<&'static CStr> {
    ALL.into_iter().find(|name| symbol(name).is_none())
}

/// The function `name` as the pointer type `F` (an `unsafe extern "C" fn` of its C
/// signature), if the library has it.
///
/// # Safety
/// `F` must be a function pointer type matching `name`'s C signature.
unsafe fn lookup<F: Copy>(name: &CStr) -> Option<F> {
    let p = symbol(name)?;
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of_val(&p), "a function pointer");
    // SAFETY: the caller names F as the symbol's function pointer type, of pointer size.
    Some(unsafe { std::mem::transmute_copy::<*mut std::ffi::c_void, F>(&p) })
}

/// A persistent request made by `init` (given MPI_INFO_NULL and the request to fill).
fn made<'b>(init: impl FnOnce(ffi::MPI_Info, *mut ffi::MPI_Request) -> c_int) -> Persistent<'b> {
    // SAFETY: reading extern static handle constants that MPI initialises at load.
    let (mut request, info) = unsafe { (ffi::RSMPI_REQUEST_NULL, ffi::RSMPI_INFO_NULL) };
    init(info, &mut request);
    Persistent { request, buffers: PhantomData }
}

type Void = std::ffi::c_void;
type Dt = ffi::MPI_Datatype;
type Comm = ffi::MPI_Comm;
type Info = ffi::MPI_Info;
type Req = *mut ffi::MPI_Request;

/// A pointer to `buf`, or NULL for a buffer a process does not use (a non-root's).
fn ptr<T>(buf: Option<&[T]>) -> *const Void {
    buf.map_or(std::ptr::null(), |b| b.as_ptr().cast())
}

/// A mutable pointer to `buf`, or NULL.
fn ptr_mut<T>(buf: Option<&mut [T]>) -> *mut Void {
    buf.map_or(std::ptr::null_mut(), |b| b.as_mut_ptr().cast())
}

/// A persistent collective request: created once, started and completed many times, freed
/// on drop. It holds the buffers it was made with for as long as it lives.
#[derive(Debug)]
pub struct Persistent<'b> {
    request: ffi::MPI_Request,
    buffers: PhantomData<&'b mut [u8]>,
}

impl Persistent<'_> {
    /// MPI_Start: the collective begins; [`Persistent::wait`] completes it.
    pub fn start(&mut self) {
        // SAFETY: an inactive persistent request made by an *_init call below, its buffers
        // borrowed for the request's life.
        unsafe { ffi::MPI_Start(&mut self.request) };
    }

    /// MPI_Wait on a started request.
    pub fn wait(&mut self) {
        // SAFETY: the request was started by `start`; waiting on an inactive persistent
        // request returns at once.
        unsafe { ffi::MPI_Wait(&mut self.request, ffi::RSMPI_STATUS_IGNORE) };
    }

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

/// MPI_Allgather_init: every process's `send` gathered into `recv` on all (Q x its length).
/// Collective over `comm`; `None` without MPI-4.
pub fn allgather_init<'b, T: Plain, C: Communicator>(
    comm: &'b C,
    send: &'b [T],
    recv: &'b mut [T],
) -> Option<Persistent<'b>> {
    type F = unsafe extern "C" fn(
        *const Void,
        c_int,
        Dt,
        *mut Void,
        c_int,
        Dt,
        Comm,
        Info,
        Req,
    ) -> c_int;
    // SAFETY: F is MPI_Allgather_init's C signature.
    let init: F = unsafe { lookup(c"MPI_Allgather_init") }?;
    let (n, t) = (crate::count(send.len()), crate::datatype::<T>());
    // SAFETY: both buffers are borrowed for 'b with the counts given; `req` is an out-parameter.
    Some(made(|info, req| unsafe {
        init(send.as_ptr().cast(), n, t, recv.as_mut_ptr().cast(), n, t, comm.as_raw(), info, req)
    }))
}

/// MPI_Allgatherv_init: `send` from every process into block `displs[j]` of `recv`
/// (`counts[j]` elements). Collective over `comm`; `None` without MPI-4.
pub fn allgatherv_init<'b, T: Plain, C: Communicator>(
    comm: &'b C,
    send: &'b [T],
    recv: &'b mut [T],
    counts: &'b [c_int],
    displs: &'b [c_int],
) -> Option<Persistent<'b>> {
    type F = unsafe extern "C" fn(
        *const Void,
        c_int,
        Dt,
        *mut Void,
        *const c_int,
        *const c_int,
        Dt,
        Comm,
        Info,
        Req,
    ) -> c_int;
    // SAFETY: F is MPI_Allgatherv_init's C signature.
    let init: F = unsafe { lookup(c"MPI_Allgatherv_init") }?;
    let (n, t) = (crate::count(send.len()), crate::datatype::<T>());
    let (c, d) = (counts.as_ptr(), displs.as_ptr());
    // SAFETY: buffers, counts and displacements are borrowed for 'b and describe `recv`.
    Some(made(|info, req| unsafe {
        init(
            send.as_ptr().cast(),
            n,
            t,
            recv.as_mut_ptr().cast(),
            c,
            d,
            t,
            comm.as_raw(),
            info,
            req,
        )
    }))
}

/// MPI_Gather_init to `root`: `recv` (Q x the send length) on the root only. Collective over
/// `comm`; `None` without MPI-4.
pub fn gather_init<'b, T: Plain, C: Communicator>(
    comm: &'b C,
    root: i32,
    send: &'b [T],
    recv: Option<&'b mut [T]>,
) -> Option<Persistent<'b>> {
    type F = unsafe extern "C" fn(
        *const Void,
        c_int,
        Dt,
        *mut Void,
        c_int,
        Dt,
        c_int,
        Comm,
        Info,
        Req,
    ) -> c_int;
    // SAFETY: F is MPI_Gather_init's C signature.
    let init: F = unsafe { lookup(c"MPI_Gather_init") }?;
    let (n, t) = (crate::count(send.len()), crate::datatype::<T>());
    let r = ptr_mut(recv);
    // SAFETY: the buffers are borrowed for 'b; the receive buffer is read on the root only.
    Some(made(|info, req| unsafe {
        init(send.as_ptr().cast(), n, t, r, n, t, root, comm.as_raw(), info, req)
    }))
}

/// MPI_Gatherv_init to `root` (blocks at `displs`, `counts` elements each). Collective over
/// `comm`; `None` without MPI-4.
pub fn gatherv_init<'b, T: Plain, C: Communicator>(
    comm: &'b C,
    root: i32,
    send: &'b [T],
    recv: Option<&'b mut [T]>,
    counts: &'b [c_int],
    displs: &'b [c_int],
) -> Option<Persistent<'b>> {
    type F = unsafe extern "C" fn(
        *const Void,
        c_int,
        Dt,
        *mut Void,
        *const c_int,
        *const c_int,
        Dt,
        c_int,
        Comm,
        Info,
        Req,
    ) -> c_int;
    // SAFETY: F is MPI_Gatherv_init's C signature.
    let init: F = unsafe { lookup(c"MPI_Gatherv_init") }?;
    let (n, t) = (crate::count(send.len()), crate::datatype::<T>());
    let (r, c, d) = (ptr_mut(recv), counts.as_ptr(), displs.as_ptr());
    // SAFETY: as gather_init, with counts and displacements borrowed for 'b.
    Some(made(|info, req| unsafe {
        init(send.as_ptr().cast(), n, t, r, c, d, t, root, comm.as_raw(), info, req)
    }))
}

/// MPI_Scatter_init from `root` (`send`, Q x the receive length, on the root only).
/// Collective over `comm`; `None` without MPI-4.
pub fn scatter_init<'b, T: Plain, C: Communicator>(
    comm: &'b C,
    root: i32,
    send: Option<&'b [T]>,
    recv: &'b mut [T],
) -> Option<Persistent<'b>> {
    type F = unsafe extern "C" fn(
        *const Void,
        c_int,
        Dt,
        *mut Void,
        c_int,
        Dt,
        c_int,
        Comm,
        Info,
        Req,
    ) -> c_int;
    // SAFETY: F is MPI_Scatter_init's C signature.
    let init: F = unsafe { lookup(c"MPI_Scatter_init") }?;
    let (n, t) = (crate::count(recv.len()), crate::datatype::<T>());
    let s = ptr(send);
    // SAFETY: the buffers are borrowed for 'b; the send buffer is read on the root only.
    Some(made(|info, req| unsafe {
        init(s, n, t, recv.as_mut_ptr().cast(), n, t, root, comm.as_raw(), info, req)
    }))
}

/// MPI_Scatterv_init from `root` (blocks at `displs`, `counts` elements each). Collective
/// over `comm`; `None` without MPI-4.
pub fn scatterv_init<'b, T: Plain, C: Communicator>(
    comm: &'b C,
    root: i32,
    send: Option<&'b [T]>,
    recv: &'b mut [T],
    counts: &'b [c_int],
    displs: &'b [c_int],
) -> Option<Persistent<'b>> {
    type F = unsafe extern "C" fn(
        *const Void,
        *const c_int,
        *const c_int,
        Dt,
        *mut Void,
        c_int,
        Dt,
        c_int,
        Comm,
        Info,
        Req,
    ) -> c_int;
    // SAFETY: F is MPI_Scatterv_init's C signature.
    let init: F = unsafe { lookup(c"MPI_Scatterv_init") }?;
    let (n, t) = (crate::count(recv.len()), crate::datatype::<T>());
    let (s, c, d) = (ptr(send), counts.as_ptr(), displs.as_ptr());
    // SAFETY: as scatter_init, with counts and displacements borrowed for 'b.
    Some(made(|info, req| unsafe {
        init(s, c, d, t, recv.as_mut_ptr().cast(), n, t, root, comm.as_raw(), info, req)
    }))
}

/// MPI_Alltoall_init: block j of `send` to process j, block j of `recv` from it.
/// Collective over `comm`; `None` without MPI-4.
pub fn alltoall_init<'b, T: Plain, C: Communicator>(
    comm: &'b C,
    send: &'b [T],
    recv: &'b mut [T],
) -> Option<Persistent<'b>> {
    type F = unsafe extern "C" fn(
        *const Void,
        c_int,
        Dt,
        *mut Void,
        c_int,
        Dt,
        Comm,
        Info,
        Req,
    ) -> c_int;
    // SAFETY: F is MPI_Alltoall_init's C signature.
    let init: F = unsafe { lookup(c"MPI_Alltoall_init") }?;
    let n = crate::count(send.len() / comm.size().max(1) as usize);
    let t = crate::datatype::<T>();
    // SAFETY: both buffers hold Q blocks of n elements and are borrowed for 'b.
    Some(made(|info, req| unsafe {
        init(send.as_ptr().cast(), n, t, recv.as_mut_ptr().cast(), n, t, comm.as_raw(), info, req)
    }))
}

/// MPI_Alltoallv_init with the same `counts` and `displs` both ways. Collective over `comm`;
/// `None` without MPI-4.
pub fn alltoallv_init<'b, T: Plain, C: Communicator>(
    comm: &'b C,
    send: &'b [T],
    recv: &'b mut [T],
    counts: &'b [c_int],
    displs: &'b [c_int],
) -> Option<Persistent<'b>> {
    type F = unsafe extern "C" fn(
        *const Void,
        *const c_int,
        *const c_int,
        Dt,
        *mut Void,
        *const c_int,
        *const c_int,
        Dt,
        Comm,
        Info,
        Req,
    ) -> c_int;
    // SAFETY: F is MPI_Alltoallv_init's C signature.
    let init: F = unsafe { lookup(c"MPI_Alltoallv_init") }?;
    let (t, c, d) = (crate::datatype::<T>(), counts.as_ptr(), displs.as_ptr());
    // SAFETY: buffers, counts and displacements are borrowed for 'b and describe both buffers.
    Some(made(|info, req| unsafe {
        init(
            send.as_ptr().cast(),
            c,
            d,
            t,
            recv.as_mut_ptr().cast(),
            c,
            d,
            t,
            comm.as_raw(),
            info,
            req,
        )
    }))
}

/// MPI_Reduce_init of `send` by `op` into `recv` on `root` (None elsewhere). Collective over
/// `comm`; `None` without MPI-4.
pub fn reduce_init<'b, T: Plain, C: Communicator, O: Operation>(
    comm: &'b C,
    root: i32,
    send: &'b [T],
    recv: Option<&'b mut [T]>,
    op: O,
) -> Option<Persistent<'b>> {
    type F = unsafe extern "C" fn(
        *const Void,
        *mut Void,
        c_int,
        Dt,
        ffi::MPI_Op,
        c_int,
        Comm,
        Info,
        Req,
    ) -> c_int;
    // SAFETY: F is MPI_Reduce_init's C signature.
    let init: F = unsafe { lookup(c"MPI_Reduce_init") }?;
    let (n, t, r) = (crate::count(send.len()), crate::datatype::<T>(), ptr_mut(recv));
    let op = op.as_raw();
    // SAFETY: the buffers are borrowed for 'b; the receive buffer is written on the root only.
    Some(made(|info, req| unsafe {
        init(send.as_ptr().cast(), r, n, t, op, root, comm.as_raw(), info, req)
    }))
}

/// MPI_Reduce_scatter_init: `send` reduced by `op`, block j (`counts[j]` elements) to process
/// j's `recv`. Collective over `comm`; `None` without MPI-4.
pub fn reduce_scatter_init<'b, T: Plain, C: Communicator, O: Operation>(
    comm: &'b C,
    send: &'b [T],
    recv: &'b mut [T],
    counts: &'b [c_int],
    op: O,
) -> Option<Persistent<'b>> {
    type F = unsafe extern "C" fn(
        *const Void,
        *mut Void,
        *const c_int,
        Dt,
        ffi::MPI_Op,
        Comm,
        Info,
        Req,
    ) -> c_int;
    // SAFETY: F is MPI_Reduce_scatter_init's C signature.
    let init: F = unsafe { lookup(c"MPI_Reduce_scatter_init") }?;
    let (t, c, op) = (crate::datatype::<T>(), counts.as_ptr(), op.as_raw());
    // SAFETY: the buffers and counts are borrowed for 'b and describe them.
    Some(made(|info, req| unsafe {
        init(send.as_ptr().cast(), recv.as_mut_ptr().cast(), c, t, op, comm.as_raw(), info, req)
    }))
}

/// MPI_Barrier_init. Collective over `comm`; `None` without MPI-4.
pub fn barrier_init<C: Communicator>(comm: &C) -> Option<Persistent<'_>> {
    type F = unsafe extern "C" fn(Comm, Info, Req) -> c_int;
    // SAFETY: F is MPI_Barrier_init's C signature.
    let init: F = unsafe { lookup(c"MPI_Barrier_init") }?;
    // SAFETY: `req` is an out-parameter; no buffers.
    Some(made(|info, req| unsafe { init(comm.as_raw(), info, req) }))
}
