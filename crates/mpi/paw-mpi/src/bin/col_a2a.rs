//! col_a2a -- MPI_Alltoall of SIZE bytes between every pair of tasks (PAW 1.6 §7.1), timed
//! in IMB's loop by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{check, Spec};
use paw_mpi::{Bytes, BytesMut};

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_a2a",
    "MPI_Alltoall of SIZE bytes between every pair of tasks (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Alltoall",
    "bytes each task sends to each task",
    "a2a",
    ::paw_core::vars::BUFFER
);

fn main() -> std::process::ExitCode {
    paw_mpi::collective_main(&SPEC, |paw, sweep, _| {
        let most = sweep.largest();
        let (p, me) = (paw.size(), paw.rank() as usize);
        let call = |send: Bytes, mut recv: BytesMut| paw.world().all_to_all_into(&send, &mut recv);
        let mut buffers = (sweep.memory().alloc(most * p)?, sweep.memory().alloc(most * p)?);
        sweep.run(
            &mut buffers,
            |(send, recv), n| call(send.at(n * p), recv.at_mut(n * p)),
            |(send, recv), c| {
                // Block j goes from this task to task j: its pattern names both ends.
                send.write(c.n * p, |s| {
                    for (to, block) in s.chunks_exact_mut(c.n).enumerate() {
                        check::fill(block, (me * p + to) as i32, c.size, c.seq);
                    }
                });
                call(send.at(c.n * p), recv.at_mut(c.n * p));
                let got = recv.read(c.n * p);
                check::blocks(&got, c.n, |from| (from * p + me) as i32, c.size, c.seq)
            },
        )
    })
}
