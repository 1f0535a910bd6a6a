//! col_iardc -- MPI_Iallreduce (MPI_SUM over MPI_UINT8_T) of SIZE bytes: pure time and
//! overlap with computation (OSU 7.4's osu_iallreduce measure, PAW's loop).
//!
//! What is timed and reported, the variables read, the data check and the files written
//! are stated once, in SPEC below (paw_mpi::nbc_spec!).
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::request;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Family, Paw, Spec};
use paw_mpi::nbc::Overlap;

const SPEC: Spec = paw_mpi::nbc_spec!(
    "col_iardc",
    "MPI_Iallreduce (MPI_SUM over MPI_UINT8_T) of SIZE bytes: pure time and overlap with computation",
    "MPI_Iallreduce (MPI_SUM over MPI_UINT8_T)",
    "bytes of the vector reduced",
    "iardc"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let world = paw.world();
        let p = paw.size() as i32;
        let most = sizes.largest() as usize;
        let mut send = buffer(most);
        let mut recv = buffer(most);
        let call = |send: &[u8], recv: &mut [u8], between: &mut dyn FnMut()| {
            request::scope(|s| {
                let r = world.immediate_all_reduce_into(s, send, recv, SystemOperation::sum());
                between();
                r.wait();
            })
        };

        let mut overlap = Overlap::new(&paw, "iardc")?;
        let w = sizes.med as usize;
        call(&send[..w], &mut recv[..w], &mut || {});
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let sample =
                overlap.measure(size, |between| call(&send[..n], &mut recv[..n], between))?;
            let mut wrong = 0;
            if paw.checking() {
                check::fill_summand(&mut send[..n], paw.rank(), size, seq, p as usize);
                call(&send[..n], &mut recv[..n], &mut || {});
                wrong = check::differences(&recv[..n], &check::sum_of(0..p, p as usize, size, seq));
            }
            overlap.row(size, &sample, paw.verdict(wrong));
        }
        paw.checks_passed()
    })
}
