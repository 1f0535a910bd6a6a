//! col_ia2a -- MPI_Ialltoall of SIZE bytes between every pair of tasks: pure time and
//! overlap with computation (OSU 7.4's osu_ialltoall measure, PAW's loop).
//!
//! What is timed and reported, the variables read, the data check and the files written
//! are stated once, in SPEC below (paw_mpi::nbc_spec!).
use paw_core::mpi::request;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Family, Paw, Spec};
use paw_mpi::nbc::Overlap;

const SPEC: Spec = paw_mpi::nbc_spec!(
    "col_ia2a",
    "MPI_Ialltoall of SIZE bytes between every pair of tasks: pure time and overlap with computation",
    "MPI_Ialltoall",
    "bytes each task sends to each task",
    "ia2a"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let world = paw.world();
        let p = paw.size();
        let me = paw.rank() as usize;
        let most = sizes.largest() as usize;
        let mut send = buffer(most * p);
        let mut recv = buffer(most * p);
        let call = |send: &[u8], recv: &mut [u8], between: &mut dyn FnMut()| {
            request::scope(|s| {
                let r = world.immediate_all_to_all_into(s, send, recv);
                between();
                r.wait();
            })
        };

        let mut overlap = Overlap::new(&paw, "ia2a")?;
        let w = sizes.med as usize * p;
        call(&send[..w], &mut recv[..w], &mut || {});
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let all = n * p;
            let sample =
                overlap.measure(size, |between| call(&send[..all], &mut recv[..all], between))?;
            let mut wrong = 0;
            if paw.checking() {
                // Block j goes from this task to task j: its pattern names both ends.
                for (to, block) in send[..all].chunks_exact_mut(n).enumerate() {
                    check::fill(block, (me * p + to) as i32, size, seq);
                }
                call(&send[..all], &mut recv[..all], &mut || {});
                for (from, block) in recv[..all].chunks_exact(n).enumerate() {
                    wrong += check::mismatches(block, (from * p + me) as i32, size, seq);
                }
            }
            overlap.row(size, &sample, paw.verdict(wrong));
        }
        paw.checks_passed()
    })
}
