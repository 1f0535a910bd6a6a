//! col_ibarrier -- MPI_Ibarrier: pure time and overlap with computation (OSU 7.4's
//! osu_ibarrier measure, PAW's loop).
//!
//! What is timed and reported, the variables read and the file written are stated once,
//! in SPEC below.
use paw_core::mpi::traits::*;
use paw_core::{vars, Check, Combine, Paw, Ranks, Spec};
use paw_mpi::nbc::{Overlap, NBC};

const SPEC: Spec = Spec {
    name: "col_ibarrier",
    title: "MPI_Ibarrier: pure time and overlap with computation",
    timed: "\
Three loops, each NLOOP x (MPI_Barrier, clock, one call, clock): pure = MPI_Ibarrier then \
MPI_Wait; overall = MPI_Ibarrier, the computation, MPI_Wait; compute = the computation \
alone. The computation is passes of a 10 x 10 float matrix-vector product, as many as fill \
NBC_COMPUTE % of the pure time (median) at this task's rate, with no MPI call inside. One \
row, SIZE 0.",
    reports: "\
pure time per call, usec, {ranks} (OSU's rule for collectives); OVERALL and COMPUTE: \
medians over the repetitions of the overall and the compute loop, usec; OVERLAP = max(0, \
100 - 100 (OVERALL - COMPUTE) / MEDIAN), held to at most 100, % (OSU 7.4's definition, \
from the three medians of the row); with NBC_COMPUTE=0 the file has no OVERALL, COMPUTE or \
OVERLAP and says that no computation was configured.",
    ranks: Ranks::Any,
    combine: Combine::Avg,
    vars: &[vars::MEASURE, vars::COMBINE, NBC],
    check: Check::Never,
    files: "ibarrier_time-np_NNNN.dat (usec; OVERALL, COMPUTE usec, OVERLAP %)",
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
