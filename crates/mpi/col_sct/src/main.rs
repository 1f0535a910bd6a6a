//! col_sct -- MPI_Scatter of SIZE bytes from a root task to every task (PAW 1.6 §7.1),
//! timed in IMB's loop by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Paw, Spec};
use paw_mpi::Sweep;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_sct",
    "MPI_Scatter of SIZE bytes from a root task to every task (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Scatter from a root task",
    "bytes the root sends to each task",
    "sct"
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
                at.scatter_into_root(send, recv)
            } else {
                at.scatter_into(recv)
            }
        };
        // Every task is a root in turn, so every task has the root's buffer.
        sweep.run(
            &mut (buffer(most * p), buffer(most), roots),
            |(send, recv, roots), n| call(roots.take(), &send[..n * p], &mut recv[..n]),
            |(send, recv, _), c| {
                // Block j is task j's: its pattern names the receiver.
                for (to, block) in send[..c.n * p].chunks_exact_mut(c.n).enumerate() {
                    check::fill(block, to as i32, c.size, c.seq);
                }
                call(0, &send[..c.n * p], &mut recv[..c.n]);
                check::mismatches(&recv[..c.n], paw.rank(), c.size, c.seq)
            },
        )
    })
}
