//! col_bct -- MPI_Bcast of SIZE bytes from a root task (PAW 1.6 §7.1), timed in IMB's loop
//! by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{check, Spec};
use paw_mpi::BytesMut;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_bct",
    "MPI_Bcast of SIZE bytes from a root task (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Bcast from a root task",
    "bytes broadcast",
    "bct",
    ::paw_core::vars::BUFFER
);

fn main() -> std::process::ExitCode {
    paw_mpi::collective_main(&SPEC, |paw, sweep, roots| {
        let most = sweep.largest();
        let call = |root: i32, mut data: BytesMut| {
            paw.world().process_at_rank(root).broadcast_into(&mut data)
        };
        let data = sweep.memory().alloc(most)?;
        sweep.run(
            &mut (data, roots),
            |(data, roots), n| call(roots.take(), data.at_mut(n)),
            |(data, _), c| {
                if paw.rank() == 0 {
                    data.write(c.n, |d| check::fill(d, 0, c.size, c.seq));
                }
                call(0, data.at_mut(c.n));
                check::mismatches(&data.read(c.n), 0, c.size, c.seq)
            },
        )
    })
}
