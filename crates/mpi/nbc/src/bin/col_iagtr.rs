//! col_iagtr -- MPI_Iallgather of SIZE bytes from every task to every task: pure time and
//! overlap with computation (OSU 7.4's osu_iallgather measure, PAW's loop).
//!
//! What is timed and reported, the variables read, the data check and the files written
//! are stated once, in SPEC below (paw_mpi::nbc_spec!).
use paw_core::mpi::request;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Family, Paw, Spec};
use paw_mpi::nbc::Overlap;

const SPEC: Spec = paw_mpi::nbc_spec!(
    "col_iagtr",
    "MPI_Iallgather of SIZE bytes from every task to every task: pure time and overlap with computation",
    "MPI_Iallgather",
    "bytes each task contributes (each receives SIZE x tasks)",
    "iagtr"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let world = paw.world();
        let p = paw.size();
        let most = sizes.largest() as usize;
        let mut send = buffer(most);
        let mut recv = buffer(most * p);
        let call = |send: &[u8], recv: &mut [u8], between: &mut dyn FnMut()| {
            request::scope(|s| {
                let r = world.immediate_all_gather_into(s, send, recv);
                between();
                r.wait();
            })
        };

        let mut overlap = Overlap::new(&paw, "iagtr")?;
        let w = sizes.med as usize;
        call(&send[..w], &mut recv[..w * p], &mut || {});
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let sample =
                overlap.measure(size, |between| call(&send[..n], &mut recv[..n * p], between))?;
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq);
                call(&send[..n], &mut recv[..n * p], &mut || {});
                for (from, block) in recv[..n * p].chunks_exact(n).enumerate() {
                    wrong += check::mismatches(block, from as i32, size, seq);
                }
            }
            overlap.row(size, &sample, paw.verdict(wrong));
        }
        paw.checks_passed()
    })
}
