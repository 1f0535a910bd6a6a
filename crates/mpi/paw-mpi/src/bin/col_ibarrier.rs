//! col_ibarrier -- MPI_Ibarrier: pure time and overlap with computation (OSU 7.4's
//! osu_ibarrier measure, PAW's loop).
//!
//! What is timed and reported, the variables read and the file written are stated once,
//! in SPEC below.
use paw_core::mpi::traits::*;
use paw_core::{vars, Check, Combine, Files, Paw, Ranks, Spec};
use paw_mpi::nbc::{Overlap, NBC};

// libnbc's schedules meet the program's allocations in the C library's heap otherwise.
paw_core::own_heap!();

const SPEC: Spec = Spec {
    name: "col_ibarrier",
    title: "MPI_Ibarrier: pure time and overlap with computation",
    timed: concat!(
        "Two loops, each NLOOP x (MPI_Barrier, clock, one call, clock): pure = MPI_Ibarrier \
         then MPI_Wait; overall = MPI_Ibarrier",
        paw_mpi::nbc_overall!(),
        " One row, SIZE 0."
    ),
    reports: paw_mpi::nbc_reports!(),
    ranks: Ranks::Any,
    combine: Combine::Avg,
    vars: &[vars::MEASURE, vars::COMBINE, NBC],
    check: Check::Never,
    files: Files::Text("ibarrier_time-np_NNNN.dat (usec; OVERALL, COMPUTE usec, OVERLAP %)"),
    headlines: &[paw_core::headline::TIME],
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let world = paw.world();
        let call = |between: &mut dyn FnMut()| {
            let r = world.immediate_barrier();
            between();
            r.wait();
        };
        let mut overlap = Overlap::new(&paw, "ibarrier")?;
        call(&mut || {});
        let sample = overlap.measure(0, call)?;
        overlap.row(0, &sample, paw.verdict(0));
        Ok(())
    })
}
