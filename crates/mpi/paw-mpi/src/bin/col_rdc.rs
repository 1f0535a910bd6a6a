//! col_rdc -- MPI_Reduce (MPI_SUM over MPI_UINT8_T) of SIZE bytes to a root task (PAW 1.6
//! §7.1), timed in IMB's loop by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::{check, Spec};
use paw_mpi::{Bytes, BytesMut};

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_rdc",
    "MPI_Reduce (MPI_SUM over MPI_UINT8_T) of SIZE bytes to a root task (PAW 1.6 section 7.1, \
     IMB's loop)",
    "MPI_Reduce (MPI_SUM over MPI_UINT8_T) to a root task",
    "bytes of the vector reduced",
    "rdc",
    ::paw_core::vars::BUFFER
);

fn main() -> std::process::ExitCode {
    paw_mpi::collective_main(&SPEC, |paw, sweep, roots| {
        let most = sweep.largest();
        let (p, tasks) = (paw.size() as i32, paw.size());
        let call = |root: i32, send: Bytes, mut recv: BytesMut| {
            let at = paw.world().process_at_rank(root);
            if paw.rank() == root {
                at.reduce_into_root(&send, &mut recv, SystemOperation::sum())
            } else {
                at.reduce_into(&send, SystemOperation::sum())
            }
        };
        let mut state = (sweep.memory().alloc(most)?, sweep.memory().alloc(most)?, roots);
        sweep.run(
            &mut state,
            |(send, recv, roots), n| call(roots.take(), send.at(n), recv.at_mut(n)),
            |(send, recv, _), c| {
                send.write(c.n, |s| check::fill_summand(s, paw.rank(), c.size, c.seq, tasks));
                call(0, send.at(c.n), recv.at_mut(c.n));
                match paw.rank() {
                    0 => check::differences(
                        &recv.read(c.n),
                        &check::sum_of(0..p, tasks, c.size, c.seq),
                    ),
                    _ => 0,
                }
            },
        )
    })
}
