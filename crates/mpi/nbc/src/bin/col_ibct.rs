//! col_ibct -- MPI_Ibcast of SIZE bytes from task 0: pure time and overlap with
//! computation (OSU 7.4's osu_ibcast measure, PAW's loop).
//!
//! What is timed and reported, the variables read, the data check and the files written
//! are stated once, in SPEC below (paw_mpi::nbc_spec!).
use paw_core::mpi::request;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Family, Paw, Spec};
use paw_mpi::nbc::Overlap;

const SPEC: Spec = paw_mpi::nbc_spec!(
    "col_ibct",
    "MPI_Ibcast of SIZE bytes from task 0: pure time and overlap with computation",
    "MPI_Ibcast from task 0",
    "bytes broadcast",
    "ibct"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let root = paw.world().process_at_rank(0);
        let mut data = buffer(sizes.largest() as usize);
        let call = |data: &mut [u8], between: &mut dyn FnMut()| {
            request::scope(|s| {
                let r = root.immediate_broadcast_into(s, data);
                between();
                r.wait();
            })
        };

        let mut overlap = Overlap::new(&paw, "ibct")?;
        call(&mut data[..sizes.med as usize], &mut || {});
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let sample = overlap.measure(size, |between| call(&mut data[..n], between))?;
            let mut wrong = 0;
            if paw.checking() {
                if paw.rank() == 0 {
                    check::fill(&mut data[..n], 0, size, seq);
                }
                call(&mut data[..n], &mut || {});
                wrong = check::mismatches(&data[..n], 0, size, seq);
            }
            overlap.row(size, &sample, paw.verdict(wrong));
        }
        paw.checks_passed()
    })
}
