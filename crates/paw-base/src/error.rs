//! The error type every benchmark's `main` returns.

use std::fmt;

/// Exit status of a failed data or result check.
pub const CHECK_FAILED: u8 = 1;
/// Exit status of bad input (or a missing resource): the run could not start.
pub const BAD_INPUT: u8 = 2;
/// Exit status of a failure while running (I/O, a library call); MPI_Abort uses it too.
pub const RUNTIME: u8 = 3;

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
        Error { message: message.into(), code: BAD_INPUT }
    }

    /// Something the benchmark needs is missing from this machine (a GPU, a driver
    /// library). Exit status 2, like bad input: the run could not start.
    pub fn unavailable(message: impl Into<String>) -> Self {
        Error { message: message.into(), code: BAD_INPUT }
    }

    /// A data or result check failed (the rows are written). Exit status 1, and only for
    /// this.
    pub fn check(message: impl Into<String>) -> Self {
        Error { message: message.into(), code: CHECK_FAILED }
    }

    /// A failure while running that is neither bad input nor a failed check (I/O, a
    /// library call). Exit status 3.
    pub fn runtime(message: impl Into<String>) -> Self {
        Error { message: message.into(), code: RUNTIME }
    }

    /// An error of exit status `code` (as shared from rank 0).
    pub fn with_code(code: u8, message: impl Into<String>) -> Self {
        Error { message: message.into(), code }
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
