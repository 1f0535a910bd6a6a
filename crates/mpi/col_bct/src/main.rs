//! col_bct -- MPI_Bcast of SIZE bytes from a root task (PAW 1.6 §7.1), timed in IMB's loop
//! by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Paw, Spec};
use paw_mpi::Sweep;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_bct",
    "MPI_Bcast of SIZE bytes from a root task (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Bcast from a root task",
    "bytes broadcast",
    "bct"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let (sweep, roots) = Sweep::collective(&paw, &[])?;
        let most = sweep.largest();
        let call =
            |root: i32, data: &mut [u8]| paw.world().process_at_rank(root).broadcast_into(data);
        sweep.run(
            &mut (buffer(most), roots),
            |(data, roots), n| call(roots.take(), &mut data[..n]),
            |(data, _), c| {
                if paw.rank() == 0 {
                    check::fill(&mut data[..c.n], 0, c.size, c.seq);
                }
                call(0, &mut data[..c.n]);
                check::mismatches(&data[..c.n], 0, c.size, c.seq)
            },
        )
    })
}
