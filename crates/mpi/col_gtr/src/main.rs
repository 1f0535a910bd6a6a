//! col_gtr -- MPI_Gather of SIZE bytes from every task to a root task (PAW 1.6 §7.1), timed
//! in IMB's loop by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Paw, Spec};
use paw_mpi::Sweep;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_gtr",
    "MPI_Gather of SIZE bytes from every task to a root task (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Gather to a root task",
    "bytes each task sends to the root",
    "gtr"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let (sweep, roots) = Sweep::collective(&paw, &[])?;
        let most = sweep.largest();
        let p = paw.size();
        let call = |root: i32, send: &[u8], recv: &mut [u8]| {
            let at = paw.world().process_at_rank(root);
            if paw.rank() == root {
                at.gather_into_root(send, recv)
            } else {
                at.gather_into(send)
            }
        };
        // Every task is a root in turn, so every task has the root's buffer.
        sweep.run(
            &mut (buffer(most), buffer(most * p), roots),
            |(send, recv, roots), n| call(roots.take(), &send[..n], &mut recv[..n * p]),
            |(send, recv, _), c| {
                check::fill(&mut send[..c.n], paw.rank(), c.size, c.seq);
                call(0, &send[..c.n], &mut recv[..c.n * p]);
                match paw.rank() {
                    0 => check::blocks(&recv[..c.n * p], c.n, |from| from as i32, c.size, c.seq),
                    _ => 0,
                }
            },
        )
    })
}
