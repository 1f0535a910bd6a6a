//! Collectives rsmpi lacks: MPI_Reduce_scatter, blocking and non-blocking.

use crate::Plain;
use mpi::collective::Operation;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::traits::Communicator;
use std::os::raw::c_int;

/// MPI_Reduce_scatter: the element-wise reduction by `op` of every rank's `send`, split so
/// that rank i receives `counts[i]` elements into `recv`.
///
/// Panics unless `counts` has one entry per rank, `send` holds their sum and `recv` at
/// least this rank's count. Collective over `comm`.
pub fn reduce_scatter<T: Plain, C: Communicator, O: Operation>(
    comm: &C,
    send: &[T],
    recv: &mut [T],
    counts: &[c_int],
    op: O,
) {
    check_counts(comm, send, recv, counts);
    // SAFETY: the lengths were checked above, so MPI reads `total` elements of `send` and
    // writes this rank's count into `recv`; T is Plain, its datatype matches its layout;
    // the call is blocking, so the borrows cover MPI's use of the buffers.
    unsafe {
        ffi::MPI_Reduce_scatter(
            send.as_ptr().cast(),
            recv.as_mut_ptr().cast(),
            counts.as_ptr(),
            T::equivalent_datatype().as_raw(),
            op.as_raw(),
            comm.as_raw(),
        );
    }
}

/// MPI_Ireduce_scatter of [`reduce_scatter`]'s arguments, then `between` while it is in
/// flight, then MPI_Wait: a non-blocking reduce-scatter overlapped with other work. The
/// operation is complete when this returns (also if `between` panics).
pub fn reduce_scatter_overlapped<T: Plain, C: Communicator, O: Operation>(
    comm: &C,
    send: &[T],
    recv: &mut [T],
    counts: &[c_int],
    op: O,
    between: impl FnOnce(),
) {
    check_counts(comm, send, recv, counts);
    // SAFETY: reading an extern static handle constant that MPI initialises at load.
    let mut request = unsafe { ffi::RSMPI_REQUEST_NULL };
    // SAFETY: as for `reduce_scatter`; `request` is a valid out-parameter. The buffers stay
    // borrowed until the wait below (run on drop, so also on unwind) completes the request.
    unsafe {
        ffi::MPI_Ireduce_scatter(
            send.as_ptr().cast(),
            recv.as_mut_ptr().cast(),
            counts.as_ptr(),
            T::equivalent_datatype().as_raw(),
            op.as_raw(),
            comm.as_raw(),
            &mut request,
        );
    }
    struct Wait(ffi::MPI_Request);
    impl Drop for Wait {
        fn drop(&mut self) {
            // SAFETY: the active request posted above, waited once.
            unsafe { ffi::MPI_Wait(&mut self.0, ffi::RSMPI_STATUS_IGNORE) };
        }
    }
    let _wait = Wait(request);
    between();
}

/// Panics unless `counts` has one entry per rank, `send` holds their sum and `recv` at
/// least this rank's count.
fn check_counts<T, C: Communicator>(comm: &C, send: &[T], recv: &[T], counts: &[c_int]) {
    assert_eq!(counts.len(), comm.size() as usize, "one count per rank");
    assert!(counts.iter().all(|&c| c >= 0), "negative count");
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    assert_eq!(send.len(), total, "send holds the sum of the counts");
    assert!(recv.len() >= counts[comm.rank() as usize] as usize, "recv shorter than its count");
}
