//! The error type every benchmark's `main` returns, and the exit path that prints it once.

use std::fmt;
use std::process::ExitCode;
use std::sync::atomic::{AtomicI32, Ordering};

/// Rank of this process in MPI_COMM_WORLD once MPI is up; -1 for a program without MPI.
static RANK: AtomicI32 = AtomicI32::new(-1);

/// Records this process's rank so that only rank 0 prints collective errors.
pub(crate) fn set_rank(rank: i32) {
    RANK.store(rank, Ordering::Relaxed);
}

/// This process's rank in MPI_COMM_WORLD, or -1 when it runs without MPI.
pub(crate) fn rank() -> i32 {
    RANK.load(Ordering::Relaxed)
}

/// Result alias used across paw.
pub type Result<T> = std::result::Result<T, Error>;

/// Why a benchmark stopped early.
///
/// Every rank holds the same error (errors are detected collectively or shared from rank 0),
/// so only rank 0 prints it; every rank then leaves with the same non-zero status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: String,
    code: u8,
}

impl Error {
    /// Bad input: an environment variable, an argument, a task count. Exit status 2.
    pub fn input(message: impl Into<String>) -> Self {
        Error { message: message.into(), code: 2 }
    }

    /// Something the benchmark needs is missing from this machine (a GPU, a driver
    /// library). Exit status 2, like bad input: the run could not start.
    pub fn unavailable(message: impl Into<String>) -> Self {
        Error { message: message.into(), code: 2 }
    }

    /// A failure while running (I/O, a result check). Exit status 1.
    pub fn runtime(message: impl Into<String>) -> Self {
        Error { message: message.into(), code: 1 }
    }

    /// The exit status this error ends the program with.
    pub fn code(&self) -> u8 {
        self.code
    }

    /// The one-line message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::runtime(e.to_string())
    }
}

/// Runs a benchmark body and turns its outcome into the process exit status.
///
/// On an error, rank 0 prints `<name>: error: <message>` while MPI is still up, every rank
/// waits for that, then MPI is finalized and every rank exits with the error's status.
pub fn main(name: &str, body: impl FnOnce() -> Result<()>) -> ExitCode {
    let outcome = body();
    if let Err(e) = &outcome {
        if rank() <= 0 {
            eprintln!("{name}: error: {e}");
        }
    }
    crate::paw::finalize(outcome.is_err());
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => ExitCode::from(e.code()),
    }
}

/// Stops the whole job after a failure only this rank saw (a write error on rank 0):
/// the other ranks cannot be told in time, so MPI_Abort ends them rather than leaving
/// them waiting in the next collective. Without MPI it exits with status 1.
pub fn fatal(message: &str) -> ! {
    let r = rank();
    if r >= 0 {
        eprintln!("paw: rank {r}: {message}; aborting the job");
    } else {
        eprintln!("paw: {message}");
    }
    if mpi::environment::is_initialized() && !mpi::environment::is_finalized() {
        use mpi::traits::Communicator;
        mpi::topology::SimpleCommunicator::world().abort(1);
    }
    std::process::exit(1)
}
