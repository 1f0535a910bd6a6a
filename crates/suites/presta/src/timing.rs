//! PRESTA's timing: the butterfly barrier and one time sample.

use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;

/// The butterfly barrier of PRESTA with zero-length messages: with N2 the largest power
/// of two not above the size, ranks from N2 up first signal rank - N2; ranks below N2
/// exchange with rank XOR d for d = 1, 2, 4 ... < N2; then release the extra ranks.
pub fn butterfly(comm: &SimpleCommunicator) {
    let (rank, size) = (comm.rank() as usize, comm.size() as usize);
    let n2 = 1usize << (usize::BITS - 1 - size.leading_zeros());
    let none: [u8; 0] = [];
    let mut got: [u8; 0] = [];
    if rank >= n2 {
        let low = comm.process_at_rank((rank - n2) as i32);
        low.send(&none[..]);
        low.receive_into(&mut got[..]);
        return;
    }
    let extra = (rank + n2 < size).then(|| comm.process_at_rank((rank + n2) as i32));
    if let Some(p) = &extra {
        p.receive_into(&mut got[..]);
    }
    let mut d = 1;
    while d < n2 {
        let other = comm.process_at_rank((rank ^ d) as i32);
        paw_core::mpi::point_to_point::send_receive_into(&none[..], &other, &mut got[..], &other);
        d <<= 1;
    }
    if let Some(p) = &extra {
        p.send(&none[..]);
    }
}

/// One time sample on the active processes `comm`: one `op` (the warm-up), two
/// butterfly barriers, the clock, `ops` times `op`, a butterfly barrier unless
/// `no_barrier`, the clock. Returns the maximum over `comm` of the time, seconds.
pub fn sample(comm: &SimpleCommunicator, no_barrier: bool, ops: u64, mut op: impl FnMut()) -> f64 {
    op();
    butterfly(comm);
    butterfly(comm);
    let start = paw_core::mpi::time();
    for _ in 0..ops {
        op();
    }
    if !no_barrier {
        butterfly(comm);
    }
    let mine = paw_core::mpi::time() - start;
    let mut slowest = 0.0;
    comm.all_reduce_into(&mine, &mut slowest, SystemOperation::max());
    slowest
}

/// MPI_Wtime's overhead: the mean time of one call over many, seconds.
pub fn wtime_overhead() -> f64 {
    const CALLS: u32 = 10_000;
    let start = paw_core::mpi::time();
    for _ in 0..CALLS {
        std::hint::black_box(paw_core::mpi::time());
    }
    (paw_core::mpi::time() - start) / f64::from(CALLS)
}
