//! col_pbct -- MPI-4 persistent MPI_Bcast (MPI_Bcast_init, MPI_Start, MPI_Wait) against
//! plain MPI_Bcast of SIZE bytes from task 0 (OSU 7.4's osu_bcast_persistent, on PAW's
//! loop).
//!
//! What is timed and reported, the variables read, the data check and the file written are
//! stated once, in SPEC below (paw_mpi::persistent_spec!).
use mpi_ext::persistent::bcast_init;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Family, Paw, Policy, Spec, Timing};
use paw_mpi::persistent;

const SPEC: Spec = paw_mpi::persistent_spec!(
    "col_pbct",
    "persistent MPI_Bcast (MPI-4) against the plain call, SIZE bytes from task 0",
    "MPI_Bcast_init (root task 0)",
    "MPI_Bcast from task 0",
    "bytes broadcast",
    "pbct"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let mut bench = paw.bench(Timing::PerCall, Policy::Calibrated)?;
        persistent::require(SPEC.name)?;
        let world = paw.world();
        let root = world.process_at_rank(0);
        let mut data = buffer(sizes.largest() as usize);
        let mut file = persistent::file(&paw, &bench, "pbct")?;
        let w = sizes.med as usize;
        root.broadcast_into(&mut data[..w]);
        bcast_init(world, 0, &mut data[..w]).expect("checked").run();
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let plain = bench.measure(size, || root.broadcast_into(&mut data[..n]))?;
            let mut call = bcast_init(world, 0, &mut data[..n]).expect("checked");
            let persistent = bench.measure(size, || call.run())?;
            drop(call);
            let mut wrong = 0;
            if paw.checking() {
                if paw.rank() == 0 {
                    check::fill(&mut data[..n], 0, size, seq);
                }
                bcast_init(world, 0, &mut data[..n]).expect("checked").run();
                wrong = check::mismatches(&data[..n], 0, size, seq);
            }
            persistent::row(&mut file, size, &persistent, &plain, paw.verdict(wrong));
        }
        paw.checks_passed()
    })
}
