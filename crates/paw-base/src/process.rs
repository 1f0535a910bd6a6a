//! The process around a benchmark: the `main` wrapper that prints an error once and sets
//! the exit status, fatal errors and warnings, and the rank. This module depends on nothing
//! else in paw-base but [`crate::Error`]; what must happen at exit (the run record's status)
//! is registered with [`at_exit`], and a parallel runtime (paw-core's MPI) joins with
//! [`adopt`]: its rank, how it ends every task of the job, and how it finishes.

use crate::error::Result;
use std::cell::RefCell;
use std::process::ExitCode;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

/// Rank of this process in MPI_COMM_WORLD once MPI is up; -1 for a program without MPI.
static RANK: AtomicI32 = AtomicI32::new(-1);

/// How the runtime [`adopt`]ed ends every task of the job with a status, if it is still up.
static ABORT_JOB: OnceLock<fn(i32)> = OnceLock::new();

/// The program's name, as given to [`main`], for warnings and fatal errors.
static NAME: OnceLock<String> = OnceLock::new();

/// Something to do once the body of [`main`] has returned, given its outcome.
type ExitHook = Box<dyn FnOnce(&Result<()>)>;

/// What a runtime does last, given whether the body failed.
type Finish = Box<dyn FnOnce(bool)>;

thread_local! {
    /// The runtime's finish (MPI_Finalize), kept until [`main`] has run the exit hooks: MPI
    /// must outlive the session so that rank 0 can print an error before any rank finalizes
    /// and exits (a launcher that sees one rank exit non-zero kills the others).
    static FINISH: RefCell<Option<Finish>> = const { RefCell::new(None) };
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
    if let Some(finish) = FINISH.with(|f| f.borrow_mut().take()) {
        finish(outcome.is_err());
    }
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
pub fn say(line: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(format!("{line}\n").as_bytes());
}

/// Ends every rank of the job with `code` (MPI_Abort through the adopted runtime), or this
/// process without one.
pub fn abort(code: i32) -> ! {
    if let Some(abort_job) = ABORT_JOB.get() {
        abort_job(code);
    }
    std::process::exit(code)
}

/// Makes this process one task of a parallel job: `rank` is its rank, `abort_job` ends every
/// task with a status (and returns if the runtime is no longer up), `finish` runs last in
/// [`main`], after the exit hooks, told whether the body failed.
pub fn adopt(rank: i32, abort_job: fn(i32), finish: impl FnOnce(bool) + 'static) {
    let _ = ABORT_JOB.set(abort_job);
    FINISH.with(|f| *f.borrow_mut() = Some(Box::new(finish)));
    RANK.store(rank, Ordering::Relaxed);
}

/// A write past a file-size limit (`ulimit -f`) must fail with an error the writer
/// reports, not kill the process with SIGXFSZ and leave a torn row.
fn ignore_file_size_signal() {
    // SAFETY: installs the SIG_IGN disposition for SIGXFSZ; no handler code runs.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
}
