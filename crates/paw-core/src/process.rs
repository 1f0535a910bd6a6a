//! The process around a benchmark: the `main` wrapper that prints an error once and sets
//! the exit status, fatal errors and warnings, the rank and MPI environment globals, and
//! abort-on-panic. This module depends on nothing else in paw-core but [`crate::error`];
//! what must happen at exit (the run record's status) is registered with [`at_exit`].

use crate::error::Result;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::cell::RefCell;
use std::process::ExitCode;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

/// Rank of this process in MPI_COMM_WORLD once MPI is up; -1 for a program without MPI.
static RANK: AtomicI32 = AtomicI32::new(-1);

/// The program's name, as given to [`main`], for warnings and fatal errors.
static NAME: OnceLock<String> = OnceLock::new();

/// Something to do once the body of [`main`] has returned, given its outcome.
type ExitHook = Box<dyn FnOnce(&Result<()>)>;

thread_local! {
    /// The MPI environment, kept until [`main`] finalizes it: MPI must outlive the session
    /// so that rank 0 can print an error before any rank finalizes and exits (a launcher
    /// that sees one rank exit non-zero kills the others, rank 0 included).
    static UNIVERSE: RefCell<Option<Universe>> = const { RefCell::new(None) };
    /// What runs when the body of [`main`] has returned, before MPI is finalized.
    static EXIT_HOOKS: RefCell<Vec<ExitHook>> = const { RefCell::new(Vec::new()) };
}

/// This process's rank in MPI_COMM_WORLD, or -1 when it runs without MPI.
pub fn rank() -> i32 {
    RANK.load(Ordering::Relaxed)
}

/// The program's name (`paw` before [`main`] starts).
pub fn name() -> &'static str {
    NAME.get().map_or("paw", String::as_str)
}

/// Runs a benchmark body and turns its outcome into the process exit status.
///
/// On an error, rank 0 prints `<name>: error: <message>` while MPI is still up, every rank
/// waits for that, then MPI is finalized and every rank exits with the error's status.
pub fn main(name: &str, body: impl FnOnce() -> Result<()>) -> ExitCode {
    let _ = NAME.set(name.to_string());
    ignore_file_size_signal();
    let outcome = body();
    if let Err(e) = &outcome {
        if rank() <= 0 {
            eprintln!("{name}: error: {e}");
        }
    }
    for hook in EXIT_HOOKS.with(|h| std::mem::take(&mut *h.borrow_mut())) {
        hook(&outcome);
    }
    finalize(outcome.is_err());
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => ExitCode::from(e.code()),
    }
}

/// Registers `hook` to run once the body of [`main`] has returned, with its outcome.
pub fn at_exit(hook: impl FnOnce(&Result<()>) + 'static) {
    EXIT_HOOKS.with(|h| h.borrow_mut().push(Box::new(hook)));
}

/// Prints `<name>: warning: <message>` on rank 0's standard error (or the only process's).
pub fn warn(message: &str) {
    if rank() <= 0 {
        eprintln!("{}: warning: {message}", name());
    }
}

/// Stops the whole job after a failure only this rank saw (a write error on rank 0, a
/// watchdog that fired): the other ranks cannot be told in time, so MPI_Abort ends them
/// rather than leaving them waiting in the next collective. Exit status 3 (a failure while
/// running), with or without MPI.
pub fn fatal(message: &str) -> ! {
    let r = rank();
    if r >= 0 {
        say(&format!("{}: rank {r}: {message}; aborting the job", name()));
    } else {
        say(&format!("{}: {message}", name()));
    }
    abort(crate::error::RUNTIME.into())
}

/// Writes `line` and a newline to standard error in one write(2): `eprintln!` writes each
/// piece of its format on its own, and MPICH's launcher, ending the job at MPI_Abort, can
/// forward the first pieces only.
fn say(line: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(format!("{line}\n").as_bytes());
}

/// Ends every rank of the job with `code` (MPI_Abort), or this process without MPI.
pub fn abort(code: i32) -> ! {
    if mpi::environment::is_initialized() && !mpi::environment::is_finalized() {
        // MPICH's launcher drops output its proxy has not yet forwarded when MPI_Abort ends
        // the job: give it the time to pass the last lines on.
        std::thread::sleep(std::time::Duration::from_millis(100));
        SimpleCommunicator::world().abort(code);
    }
    std::process::exit(code)
}

/// Keeps the MPI environment `main.rs` or a session started until [`main`] returns,
/// records this process's rank, and makes a panic on any rank end the whole job.
pub(crate) fn adopt_mpi(name: &'static str, universe: Universe) -> SimpleCommunicator {
    install_abort_on_panic(name);
    let world = universe.world();
    if let Some(line) = split_step(world.size(), |v| std::env::var(v).ok()) {
        // Every task is alone in its world: the first says why for all, and all exit.
        if std::env::var("SLURM_PROCID").map_or(true, |p| p == "0") {
            say(&format!("{name}: error: {line}"));
        }
        drop(universe);
        std::process::exit(2);
    }
    UNIVERSE.with(|u| *u.borrow_mut() = Some(universe));
    RANK.store(world.rank(), Ordering::Relaxed);
    world
}

/// Why a Slurm step of several tasks started this process in an MPI world of its own: srun's
/// MPI plugin is not the one the MPI library speaks, and each task initialised alone.
fn split_step(world_size: i32, var: impl Fn(&str) -> Option<String>) -> Option<String> {
    var("SLURM_STEP_ID")?;
    let tasks: i32 = var("SLURM_STEP_NUM_TASKS")?.parse().ok()?;
    (world_size == 1 && tasks > 1).then(|| {
        let plugin = var("SLURM_MPI_TYPE").unwrap_or_else(|| "the default".into());
        format!(
            "srun started {tasks} tasks but each is alone in its MPI world: srun's MPI plugin \
             ({plugin}) does not match this MPI library; accepted: --mpi=pmix for Open MPI, \
             --mpi=pmi2 for MPICH (or SLURM_MPI_TYPE)"
        )
    })
}

/// Finalizes MPI if this process started it.
fn finalize(failed: bool) {
    UNIVERSE.with(|u| {
        if let Some(universe) = u.borrow_mut().take() {
            if failed {
                // Every rank returned the same error: hold them until rank 0 has printed it.
                universe.world().barrier();
            }
            drop(universe);
        }
    });
}

/// Makes a panic on any rank end the whole job instead of leaving the others waiting.
fn install_abort_on_panic(name: &'static str) {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        if mpi::environment::is_initialized() && !mpi::environment::is_finalized() {
            say(&format!("{name}: rank {} panicked; calling MPI_Abort to end every rank", rank()));
            abort(101);
        }
    }));
}

/// A write past a file-size limit (`ulimit -f`) must fail with an error the writer
/// reports, not kill the process with SIGXFSZ and leave a torn row.
fn ignore_file_size_signal() {
    // SAFETY: installs the SIG_IGN disposition for SIGXFSZ; no handler code runs.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
}

#[cfg(test)]
mod tests {
    use super::split_step;

    #[test]
    fn split_step_needs_a_step_of_several_tasks_in_a_world_of_one() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |v: &str| pairs.iter().find(|(k, _)| *k == v).map(|(_, x)| x.to_string())
        };
        let step = env(&[("SLURM_STEP_ID", "0"), ("SLURM_STEP_NUM_TASKS", "2")]);
        let line = split_step(1, step).unwrap();
        assert!(line.contains("srun started 2 tasks") && line.contains("--mpi=pmix"), "{line}");
        assert_eq!(split_step(2, step), None, "the tasks found each other");
        let one = env(&[("SLURM_STEP_ID", "0"), ("SLURM_STEP_NUM_TASKS", "1")]);
        assert_eq!(split_step(1, one), None, "a step of one task");
        let batch = env(&[("SLURM_NTASKS", "4")]);
        assert_eq!(split_step(1, batch), None, "a batch script's own process is no step");
    }
}
