//! col_agtr -- MPI_Allgather of SIZE bytes from every task to every task (PAW 1.6 §7.1),
//! timed in IMB's loop by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Paw, Spec};
use paw_mpi::Sweep;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_agtr",
    "MPI_Allgather of SIZE bytes from every task to every task (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Allgather",
    "bytes each task contributes (each receives SIZE x tasks)",
    "agtr"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let (sweep, _) = Sweep::collective(&paw, &[])?;
        let most = sweep.largest();
        let p = paw.size();
        let call = |send: &[u8], recv: &mut [u8]| paw.world().all_gather_into(send, recv);
        sweep.run(
            &mut (buffer(most), buffer(most * p)),
            |(send, recv), n| call(&send[..n], &mut recv[..n * p]),
            |(send, recv), c| {
                check::fill(&mut send[..c.n], paw.rank(), c.size, c.seq);
                call(&send[..c.n], &mut recv[..c.n * p]);
                check::blocks(&recv[..c.n * p], c.n, |from| from as i32, c.size, c.seq)
            },
        )
    })
}
