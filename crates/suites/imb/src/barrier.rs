//! Today's IMB's own barrier (`-imb_barrier on`).

use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;

/// Today's IMB's own barrier (`-imb_barrier on`, IMB-P2P): zero-byte MPI_Sendrecv to rank +
/// 2^k from rank - 2^k, k = 0, 1, ... while 2^k < processes (collective over `comm`).
pub fn sendrecv_barrier(comm: &SimpleCommunicator) {
    let (n, r) = (comm.size() as usize, comm.rank() as usize);
    let mut k = 1;
    while k < n {
        let to = comm.process_at_rank(((r + k) % n) as i32);
        let from = comm.process_at_rank(((r + n - k) % n) as i32);
        let mut none: [u8; 0] = [];
        paw_core::mpi::point_to_point::send_receive_into_with_tags(
            &[0u8; 0][..],
            &to,
            1000,
            &mut none[..],
            &from,
            1000,
        );
        k *= 2;
    }
}
