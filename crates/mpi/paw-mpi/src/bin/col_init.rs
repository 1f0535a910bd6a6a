//! col_init -- MPI start-up time: the MPI_Init call on every task (PAW 1.6 §5).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use paw_core::{Check, Error, Files, Paw, Ranks, Spec};
use paw_mpi::startup_times;
use std::time::Instant;

const SPEC: Spec = Spec {
    name: "col_init",
    title: "MPI start-up time: the MPI_Init call on every task (PAW 1.6 section 5)",
    timed: "\
MPI_Init alone on every task, the monotonic clock read just before and after it in \
main (MPI_Wtime cannot be used before MPI_Init) (PAW section 5).",
    reports: "\
tMax = maximum over tasks (no task starts work before the slowest is through), with \
the minimum and the mean, seconds; start-up cost grows with the node count: \
scripts/initest sweeps it.",
    ranks: Ranks::Any,
    combine: paw_core::Combine::Max,
    vars: &[],
    check: Check::Never,
    files: Files::Text(
        "\
prints `nprocs tMax`; writes time_init_<TASKS>.dat and appends a row to time_init.dat \
(TASKS TMAX TMIN TAVG, seconds)",
    ),
    headlines: &[paw_mpi::startup_headline("time_init")],
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        SPEC.exit_on_help();
        let before = Instant::now();
        let universe = paw_core::mpi::initialize(); // MPI_Init
        let init = before.elapsed().as_secs_f64();
        let universe = universe.ok_or_else(|| Error::runtime("MPI was already initialised"))?;
        let paw = Paw::adopt(&SPEC, universe, None)?;

        startup_times(&paw, "init", init, &[])
    })
}
