//! col_ardc -- MPI_Allreduce (MPI_SUM over MPI_UINT8_T) of SIZE bytes (PAW 1.6 §7.1), timed
//! in IMB's loop by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::{check, Spec};
use paw_mpi::{Bytes, BytesMut};

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_ardc",
    "MPI_Allreduce (MPI_SUM over MPI_UINT8_T) of SIZE bytes (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Allreduce (MPI_SUM over MPI_UINT8_T)",
    "bytes of the vector reduced",
    "ardc",
    ::paw_core::vars::BUFFER
);

fn main() -> std::process::ExitCode {
    paw_mpi::collective_main(&SPEC, |paw, sweep, _| {
        let most = sweep.largest();
        let (p, tasks) = (paw.size() as i32, paw.size());
        let call = |send: Bytes, mut recv: BytesMut| {
            paw.world().all_reduce_into(&send, &mut recv, SystemOperation::sum())
        };
        let mut buffers = (sweep.memory().alloc(most)?, sweep.memory().alloc(most)?);
        sweep.run(
            &mut buffers,
            |(send, recv), n| call(send.at(n), recv.at_mut(n)),
            |(send, recv), c| {
                send.write(c.n, |s| check::fill_summand(s, paw.rank(), c.size, c.seq, tasks));
                call(send.at(c.n), recv.at_mut(c.n));
                check::differences(&recv.read(c.n), &check::sum_of(0..p, tasks, c.size, c.seq))
            },
        )
    })
}
