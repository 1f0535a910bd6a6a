//! col_pardc -- MPI-4 persistent MPI_Allreduce (MPI_Allreduce_init, MPI_Start, MPI_Wait)
//! against plain MPI_Allreduce, SIZE bytes of MPI_UINT8_T summed (OSU 7.4's
//! osu_allreduce_persistent, on PAW's loop).
//!
//! What is timed and reported, the variables read, the data check and the file written are
//! stated once, in SPEC below (paw_mpi::persistent_spec!).
use mpi_ext::persistent::allreduce_init;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Family, Paw, Policy, Spec, Timing};
use paw_mpi::persistent;

const SPEC: Spec = paw_mpi::persistent_spec!(
    "col_pardc",
    "persistent MPI_Allreduce (MPI-4) against the plain call, MPI_SUM over MPI_UINT8_T of SIZE bytes",
    "MPI_Allreduce_init (MPI_SUM over MPI_UINT8_T)",
    "MPI_Allreduce",
    "bytes of the vector reduced",
    "pardc"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let mut bench = paw.bench(Timing::PerCall, Policy::Calibrated)?;
        persistent::require(SPEC.name)?;
        let world = paw.world();
        let p = paw.size() as i32;
        let most = sizes.largest() as usize;
        let mut send = buffer(most);
        let mut recv = buffer(most);
        let sum = SystemOperation::sum;
        let mut file = persistent::file(&paw, &bench, "pardc")?;
        let w = sizes.med as usize;
        world.all_reduce_into(&send[..w], &mut recv[..w], sum());
        allreduce_init(world, &send[..w], &mut recv[..w], sum()).expect("checked").run();
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let plain =
                bench.measure(size, || world.all_reduce_into(&send[..n], &mut recv[..n], sum()))?;
            let mut call =
                allreduce_init(world, &send[..n], &mut recv[..n], sum()).expect("checked");
            let persistent = bench.measure(size, || call.run())?;
            drop(call);
            let mut wrong = 0;
            if paw.checking() {
                check::fill_summand(&mut send[..n], paw.rank(), size, seq, p as usize);
                allreduce_init(world, &send[..n], &mut recv[..n], sum()).expect("checked").run();
                wrong = check::differences(&recv[..n], &check::sum_of(0..p, p as usize, size, seq));
            }
            persistent::row(&mut file, size, &persistent, &plain, paw.verdict(wrong));
        }
        paw.checks_passed()
    })
}
