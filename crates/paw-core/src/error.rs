//! The error type every benchmark's `main` returns.

use std::fmt;

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
