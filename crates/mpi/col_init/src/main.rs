//! col_init -- MPI start-up time: how long MPI_Init takes on every task (PAW 1.6 §5).
//!
//! Timed: the MPI_Init call alone, read on the monotonic clock just before and just after
//! it, below in `main` (MPI_Wtime cannot be used before MPI_Init). Reported: the maximum over
//! tasks, tMax (no task can start work before the slowest is through), with the minimum and
//! the mean, in seconds. Start-up cost grows with the node count (run it through
//! scripts/initest for a sweep). Any task count.
//! Output: the line `nprocs tMax` on standard output; the row TASKS TMAX TMIN TAVG appended to
//! time_init.dat (created with a header by the first run) and written to
//! time_init_<TASKS>.dat for this run. Env: PAW_OUTPUT_DIR.
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::{Error, Paw, Ranks, Spec};
use std::time::Instant;

const SPEC: Spec = Spec {
    name: "col_init",
    title: "MPI start-up time: the MPI_Init call on every task (PAW 1.6 section 5)",
    help: "\
Timed: MPI_Init alone on every task (monotonic clock around the call). Reported: the
maximum over tasks (tMax), with minimum and mean, in seconds.
Run on any number of MPI tasks:  mpirun -np 64 col_init   (or a sweep: scripts/initest)
Prints `nprocs tMax`; appends TASKS TMAX TMIN TAVG to time_init.dat and writes
time_init_<TASKS>.dat.",
    ranks: Ranks::Any,
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        SPEC.exit_on_help();
        let before = Instant::now();
        let universe = paw_core::mpi::initialize(); // MPI_Init
        let init = before.elapsed().as_secs_f64();
        let universe = universe.ok_or_else(|| Error::runtime("MPI was already initialised"))?;
        let paw = Paw::adopt(&SPEC, universe, None)?;

        let world = paw.world();
        let (mut max, mut min, mut sum) = (0.0, 0.0, 0.0);
        world.all_reduce_into(&init, &mut max, SystemOperation::max());
        world.all_reduce_into(&init, &mut min, SystemOperation::min());
        world.all_reduce_into(&init, &mut sum, SystemOperation::sum());
        let tasks = paw.size();
        let row = [tasks.to_string(), fmt(max), fmt(min), fmt(sum / tasks as f64)];
        let notes = vec![
            "timed call: MPI_Init, monotonic clock read just before and after it on every task"
                .to_string(),
            "TMAX, TMIN, TAVG: maximum, minimum and mean over tasks, seconds".to_string(),
        ];
        let columns = "TASKS TMAX TMIN TAVG";
        paw.table(&format!("time_init_{tasks}.dat"), &notes, columns, false)?.row(&row);
        let mut all = notes.clone();
        all.push("one row per run; the header is the first run's".to_string());
        paw.table("time_init.dat", &all, columns, true)?.row(&row);
        if paw.rank() == 0 {
            println!("{tasks} {}", fmt(max));
        }
        Ok(())
    })
}

/// Seconds with microsecond resolution.
fn fmt(seconds: f64) -> String {
    format!("{seconds:.6}")
}
