//! What a benchmark declares about itself: name, help text, task count it accepts.

use crate::error::{Error, Result};

/// Task counts a benchmark accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ranks {
    /// Any number of tasks.
    Any,
    /// Exactly this many tasks.
    Exactly(usize),
    /// An even number of tasks, at least 2 (pairs i and i + n/2).
    Even,
    /// At least this many tasks.
    AtLeast(usize),
}

impl Ranks {
    /// Checks a task count; the error says what is accepted and how to launch correctly.
    pub fn check(self, name: &str, n: usize) -> Result<()> {
        let refuse = |need: String, example: usize| {
            Err(Error::input(format!(
                "{name} needs {need} but was started with {n}; run it as: mpirun -np {example} {name}"
            )))
        };
        match self {
            Ranks::Any => Ok(()),
            Ranks::Exactly(k) if n != k => refuse(format!("exactly {k} MPI tasks"), k),
            Ranks::Even if n < 2 || n % 2 == 1 => {
                refuse("an even number of MPI tasks (2, 4, 6 ...)".to_string(), (n + 1).max(2) & !1)
            }
            Ranks::AtLeast(k) if n < k => refuse(format!("at least {k} MPI tasks"), k),
            _ => Ok(()),
        }
    }
}

/// A benchmark's description of itself.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// Binary name, as users type it (`latency`, `p2p_multitask`).
    pub name: &'static str,
    /// One-line description, used as the title of output files and of `-h`.
    pub title: &'static str,
    /// Help text: what is timed, formula, variables read, files written.
    pub help: &'static str,
    /// Accepted task counts (ignored by node tests).
    pub ranks: Ranks,
}

const COMMON_HELP: &str = "\
Environment variables common to every paw benchmark:
  NLOOP_MAX       iterations per sample at the first size; upper bound later (default 1000)
  NLOOP_MIN       lower bound on iterations per sample (default 1)
  NREPS           samples per size: AVG MIN MAX STDDEV MEDIAN are over these (default 10)
  PAW_OUTPUT_DIR  directory for the .dat files (default: the current directory)
  PAW_CHECK       1: after each size, check the data moved (CHECK column; default 0)

Options:
  -h, --help      print this help and exit";

/// Outcome of reading the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Args {
    /// No arguments: run.
    Run,
    /// `-h` or `--help` was given.
    Help,
    /// Something else was given.
    Unknown(String),
}

impl Spec {
    /// Prints the help and exits with status 0 if `-h` or `--help` was given (call it before
    /// starting MPI: help needs no MPI).
    pub fn exit_on_help(&self) {
        if self.read_args(std::env::args().skip(1)) == Args::Help {
            println!("{}", self.help_text());
            std::process::exit(0);
        }
    }

    /// The full `-h` text.
    pub fn help_text(&self) -> String {
        format!("{} -- {}\n\n{}\n\n{COMMON_HELP}", self.name, self.title, self.help.trim_end())
    }

    /// Classifies the arguments (without the program name).
    pub(crate) fn read_args(&self, args: impl IntoIterator<Item = String>) -> Args {
        let args: Vec<String> = args.into_iter().collect();
        if args.iter().any(|a| a == "-h" || a == "--help") {
            Args::Help
        } else if let Some(first) = args.first() {
            Args::Unknown(first.clone())
        } else {
            Args::Run
        }
    }

    /// The error for an argument that is not accepted.
    pub(crate) fn unknown_arg(&self, arg: &str) -> Error {
        Error::input(format!(
            "unknown argument {arg:?}; {} takes no arguments except -h/--help (settings are environment variables)",
            self.name
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_rules() {
        assert!(Ranks::Exactly(2).check("latency", 2).is_ok());
        let e = Ranks::Exactly(2).check("latency", 3).unwrap_err();
        assert_eq!(
            e.message(),
            "latency needs exactly 2 MPI tasks but was started with 3; run it as: mpirun -np 2 latency"
        );
        assert!(Ranks::Exactly(2).check("latency", 1).is_err());
        assert!(Ranks::Even.check("x", 4).is_ok());
        assert!(Ranks::Even.check("x", 0).is_err());
        let e = Ranks::Even.check("x", 3).unwrap_err();
        assert!(
            e.message()
                .contains("needs an even number of MPI tasks (2, 4, 6 ...) but was started with 3"),
            "{e}"
        );
        assert!(e.message().contains("mpirun -np 4 x"), "{e}");
        assert!(Ranks::Even.check("x", 1).unwrap_err().message().contains("-np 2"));
        assert!(Ranks::AtLeast(2).check("x", 1).is_err());
        assert!(Ranks::AtLeast(2).check("x", 5).is_ok());
        assert!(Ranks::Any.check("x", 1).is_ok());
    }

    #[test]
    fn args() {
        let spec = Spec { name: "t", title: "t", help: "h", ranks: Ranks::Any };
        let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(spec.read_args(v(&[])), Args::Run);
        assert_eq!(spec.read_args(v(&["-h"])), Args::Help);
        assert_eq!(spec.read_args(v(&["--bogus", "--help"])), Args::Help);
        assert_eq!(spec.read_args(v(&["--bogus"])), Args::Unknown("--bogus".into()));
        assert!(spec.help_text().contains("NLOOP_MAX"));
    }
}
