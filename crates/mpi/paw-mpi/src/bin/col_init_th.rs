//! col_init_th -- hybrid MPI start-up time: the MPI_Init_thread call on every task (PAW 1.6 §5).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use paw_core::mpi::Threading;
use paw_core::{Check, Error, Files, Paw, Ranks, Spec, Var};
use paw_mpi::startup_times;
use std::time::Instant;

const SPEC: Spec = Spec {
    name: "col_init_th",
    title: "hybrid MPI start-up time: the MPI_Init_thread call on every task (PAW 1.6 section 5)",
    timed: "\
MPI_Init_thread at the level PAW_THREAD_LEVEL alone on every task, the monotonic clock \
read just before and after it in main (PAW section 5).",
    reports: "\
tMax = maximum over tasks, with the minimum and the mean, seconds; the thread level \
granted is in the header.",
    ranks: Ranks::Any,
    combine: paw_core::Combine::Max,
    vars: &[&[THREAD_LEVEL]],
    check: Check::Never,
    files: Files::Text(
        "\
prints `nprocs tMax`; writes time_init_th_<TASKS>.dat and appends a row to \
time_init_th.dat (TASKS TMAX TMIN TAVG, seconds)",
    ),
    headlines: &[paw_mpi::startup_headline("time_init_th")],
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

        paw.text(&THREAD_LEVEL);
        let levels = format!("thread level requested {level:?}, granted {granted:?}");
        if paw.rank() == 0 {
            println!("col_init_th: {levels}");
        }
        startup_times(&paw, "init_th", init, &[levels])
    })
}

/// PAW_THREAD_LEVEL: the level MPI_Init_thread asks for. Every task reads its own
/// environment (MPI is not up yet to share rank 0's).
const THREAD_LEVEL: Var = Var {
    name: "PAW_THREAD_LEVEL",
    default: "multiple",
    meaning: "thread level requested: single, funneled, serialized or multiple",
    accepts: paw_core::vars::Accepts::Said,
};

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
