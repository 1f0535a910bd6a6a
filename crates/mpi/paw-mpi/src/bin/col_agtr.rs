//! col_agtr -- MPI_Allgather of SIZE bytes from every task to every task (PAW 1.6 §7.1),
//! timed in IMB's loop by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{check, Spec};
use paw_mpi::{Bytes, BytesMut};

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_agtr",
    "MPI_Allgather of SIZE bytes from every task to every task (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Allgather",
    "bytes each task contributes (each receives SIZE x tasks)",
    "agtr",
    ::paw_core::vars::BUFFER
);

fn main() -> std::process::ExitCode {
    paw_mpi::collective_main(&SPEC, |paw, sweep, _| {
        let most = sweep.largest();
        let p = paw.size();
        let call = |send: Bytes, mut recv: BytesMut| paw.world().all_gather_into(&send, &mut recv);
        let mut buffers = (sweep.memory().alloc(most)?, sweep.memory().alloc(most * p)?);
        sweep.run(
            &mut buffers,
            |(send, recv), n| call(send.at(n), recv.at_mut(n * p)),
            |(send, recv), c| {
                send.write(c.n, |s| check::fill(s, paw.rank(), c.size, c.seq));
                call(send.at(c.n), recv.at_mut(c.n * p));
                check::blocks(&recv.read(c.n * p), c.n, |from| from as i32, c.size, c.seq)
            },
        )
    })
}
