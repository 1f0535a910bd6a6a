//! Communicators that several threads of one process use at once, which MPI allows only
//! at MPI_THREAD_MULTIPLE.

use mpi::Threading;

/// A value holding MPI handles (a communicator) that threads may share or move: made only
/// when MPI granted MPI_THREAD_MULTIPLE.
#[derive(Debug)]
pub struct ThreadShared<C>(C);

// SAFETY: MPI_THREAD_MULTIPLE, checked in `new`, lets any thread call MPI with any handle at
// any time; the handles themselves are plain values or pointers MPI owns.
unsafe impl<C> Send for ThreadShared<C> {}
// SAFETY: as above: concurrent calls on one communicator are MPI's to order.
unsafe impl<C> Sync for ThreadShared<C> {}

impl<C> ThreadShared<C> {
    /// `value` for threads to share, or `None` unless `granted` is MPI_THREAD_MULTIPLE.
    pub fn new(value: C, granted: Threading) -> Option<ThreadShared<C>> {
        (granted == Threading::Multiple).then_some(ThreadShared(value))
    }

    /// The value.
    pub fn get(&self) -> &C {
        &self.0
    }
}
