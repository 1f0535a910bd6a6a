//! col_init_th -- hybrid MPI start-up time: how long MPI_Init_thread takes on every task
//! (PAW 1.6 §5).
//!
//! Timed: the MPI_Init_thread call alone, read on the monotonic clock just before and just
//! after it, below in `main`. The level requested comes from PAW_THREAD_LEVEL (single,
//! funneled, serialized, multiple; default multiple, read on every task before MPI starts);
//! the level granted is printed and written in the header. Reported: the maximum over tasks,
//! tMax, with the minimum and the mean, in seconds. Any task count.
//! Output: the line `nprocs tMax` on standard output; the row TASKS TMAX TMIN TAVG appended to
//! time_init_th.dat (created with a header by the first run) and written to
//! time_init_th_<TASKS>.dat for this run. Env: PAW_THREAD_LEVEL PAW_OUTPUT_DIR.
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::mpi::Threading;
use paw_core::{Error, Paw, Ranks, Spec};
use std::time::Instant;

const SPEC: Spec = Spec {
    name: "col_init_th",
    title: "hybrid MPI start-up time: the MPI_Init_thread call on every task (PAW 1.6 section 5)",
    help: "\
Timed: MPI_Init_thread alone on every task (monotonic clock around the call). Reported: the
maximum over tasks (tMax), with minimum and mean, in seconds; the thread level granted.
Env: PAW_THREAD_LEVEL = single | funneled | serialized | multiple (default multiple).
Run on any number of MPI tasks:  mpirun -np 64 col_init_th   (or a sweep: scripts/initest)
Prints `nprocs tMax`; appends TASKS TMAX TMIN TAVG to time_init_th.dat and writes
time_init_th_<TASKS>.dat.",
    ranks: Ranks::Any,
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        SPEC.exit_on_help();
        let requested = thread_level();
        let level = *requested.as_ref().unwrap_or(&Threading::Multiple);
        let before = Instant::now();
        let started = paw_core::mpi::initialize_with_threading(level); // MPI_Init_thread
        let init = before.elapsed().as_secs_f64();
        let (universe, granted) =
            started.ok_or_else(|| Error::runtime("MPI was already initialised"))?;
        let paw = Paw::adopt(&SPEC, universe, Some((level, granted)))?;
        // A bad PAW_THREAD_LEVEL is reported once MPI is up, so only rank 0 prints it.
        requested?;

        let world = paw.world();
        let (mut max, mut min, mut sum) = (0.0, 0.0, 0.0);
        world.all_reduce_into(&init, &mut max, SystemOperation::max());
        world.all_reduce_into(&init, &mut min, SystemOperation::min());
        world.all_reduce_into(&init, &mut sum, SystemOperation::sum());
        let tasks = paw.size();
        let row = [tasks.to_string(), fmt(max), fmt(min), fmt(sum / tasks as f64)];
        let notes = vec![
            "timed call: MPI_Init_thread, monotonic clock read just before and after it on every \
             task"
                .to_string(),
            format!("thread level requested {level:?}, granted {granted:?}"),
            "TMAX, TMIN, TAVG: maximum, minimum and mean over tasks, seconds".to_string(),
        ];
        let columns = "TASKS TMAX TMIN TAVG";
        paw.table(&format!("time_init_th_{tasks}.dat"), &notes, columns, false)?.row(&row);
        let mut all = notes.clone();
        all.push("one row per run; the header is the first run's".to_string());
        paw.table("time_init_th.dat", &all, columns, true)?.row(&row);
        if paw.rank() == 0 {
            println!("{tasks} {}", fmt(max));
            eprintln!("col_init_th: thread level requested {level:?}, granted {granted:?}");
        }
        Ok(())
    })
}

/// The level PAW_THREAD_LEVEL asks for.
fn thread_level() -> paw_core::Result<Threading> {
    match std::env::var("PAW_THREAD_LEVEL").as_deref() {
        Err(_) | Ok("multiple") => Ok(Threading::Multiple),
        Ok("single") => Ok(Threading::Single),
        Ok("funneled") => Ok(Threading::Funneled),
        Ok("serialized") => Ok(Threading::Serialized),
        Ok(other) => Err(Error::input(format!(
            "PAW_THREAD_LEVEL={other:?} is not a thread level; accepted: single, funneled, \
             serialized, multiple"
        ))),
    }
}

/// Seconds with microsecond resolution.
fn fmt(seconds: f64) -> String {
    format!("{seconds:.6}")
}
