//! What a benchmark declares about itself, written once: its title, what it times, what it
//! reports and by which formulas, the task counts it accepts, the variables it reads,
//! whether it checks data, and the files it writes. The `-h` text, the header of every
//! output file and doc/binaries.md all come from the [`Spec`].

use crate::error::{Error, Result};
use crate::osu::{self, Given};
use crate::schema::{Unit, MIB_PER_S, MSG_PER_S};
use crate::team::Combine;
use crate::vars::{self, Var};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Task counts a benchmark accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ranks {
    /// Any number of MPI tasks.
    Any,
    /// Exactly this many tasks.
    Exactly(usize),
    /// An even number of tasks, at least 2 (pairs i and i + n/2).
    Even,
    /// At least this many tasks.
    AtLeast(usize),
    /// One process without MPI (node tests).
    Node,
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
            Ranks::Any | Ranks::Node => Ok(()),
            Ranks::Exactly(k) if n != k => refuse(format!("exactly {k} MPI tasks"), k),
            Ranks::Even if n < 2 || n % 2 == 1 => {
                refuse("an even number of MPI tasks (2, 4, 6 ...)".to_string(), (n + 1).max(2) & !1)
            }
            Ranks::AtLeast(k) if n < k => refuse(format!("at least {k} MPI tasks"), k),
            _ => Ok(()),
        }
    }

    /// The task counts in words, with a command line for `name`.
    pub fn describe(self, name: &str) -> String {
        match self {
            Ranks::Any => format!("any number of MPI tasks:  mpirun -np 4 {name}"),
            Ranks::Exactly(k) => format!("exactly {k} MPI tasks:  mpirun -np {k} {name}"),
            Ranks::Even => format!("an even number of MPI tasks:  mpirun -np 2 {name}"),
            Ranks::AtLeast(k) => format!("at least {k} MPI tasks:  mpirun -np {k} {name}"),
            Ranks::Node => format!(
                "one process, no MPI:  {name}  (over a cluster, one copy per node: \
                 mpirun --map-by ppr:1:node {name}; files in a directory per host)"
            ),
        }
    }
}

/// Whether and how a benchmark checks what it computed or moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// With `PAW_CHECK=1` every receiver checks, after each size and untimed, that it got
    /// exactly what the operation must deliver (the CHECK column).
    Data(&'static str),
    /// The results are always checked (a BLAS product, STREAM's arrays); PAW_CHECK is not
    /// read.
    Always(&'static str),
    /// Nothing to check (a timing of MPI_Init); `PAW_CHECK=1` is refused.
    Never,
}

/// A benchmark's description of itself.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// Binary name, as users type it (`latency`, `p2p_multitask`).
    pub name: &'static str,
    /// One-line description, the title of output files and of `-h`.
    pub title: &'static str,
    /// What one sample times: the calls and the loop around them.
    pub timed: &'static str,
    /// What is reported and by which formulas; `{ranks}` stands where the rule of
    /// [`Spec::combine`] is named ([`Spec::reported`]).
    pub reports: &'static str,
    /// Accepted task counts.
    pub ranks: Ranks,
    /// How the tasks' times of a sample combine into one (PAW_COMBINE may replace it where
    /// the benchmark reads it).
    pub combine: Combine,
    /// The variables it reads, in groups ([`vars`] holds the shared ones); PAW_OUTPUT_DIR
    /// and PAW_TIMEOUT are read by every benchmark and need not be listed.
    pub vars: &'static [&'static [Var]],
    /// Its data or result check.
    pub check: Check,
    /// The files it writes and their units.
    pub files: Files,
    /// The figures its users quote, each read from one of its files ([`headline`] holds
    /// the sweeps' own); written into the run record, where paw-report reads them.
    pub headlines: &'static [Headline],
}

/// A figure users quote from a file: its name, the file, which row and column hold it, and
/// its unit where the file has none of its own (a table's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Headline {
    /// The end of the names of the files it is read from, before `-np_` and `.dat`
    /// (`_bw`: every `<stem>_bw-np_NNNN.dat`; `latency`).
    pub file: Cow<'static, str>,
    /// Its name after the binary's, `{x}` standing for the row's key (`bandwidth at {x} B`).
    pub figure: Cow<'static, str>,
    /// The row, or rows, it is read from.
    pub row: Pick,
    /// The column it is read from (`MEDIAN`; with [`Pick::Cells`], none).
    pub column: Cow<'static, str>,
    /// Its unit's label; empty: the unit of the file's measured quantity (its `y:` line).
    #[serde(default, skip_serializing_if = "str::is_empty")]
    pub unit: Cow<'static, str>,
}

/// Which row of a file a [`Headline`] picks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pick {
    /// The first (the smallest size).
    First,
    /// The last (the largest size).
    Last,
    /// The row whose first column reads this (`Triad`).
    Key(Cow<'static, str>),
    /// Every row, a figure each.
    Every,
    /// The median of every numeric cell after the first column (a matrix); `{x}` in the
    /// figure's name stands for the count of rows.
    Cells,
}

impl Pick {
    /// The row whose first column reads `key`.
    pub const fn key(key: &'static str) -> Pick {
        Pick::Key(Cow::Borrowed(key))
    }
}

impl Headline {
    /// A figure from the files ending `file`: `figure` at `row`, in `column`.
    pub const fn new(
        file: &'static str,
        figure: &'static str,
        row: Pick,
        column: &'static str,
    ) -> Self {
        Headline::of_table(file, figure, row, column, "")
    }

    /// A figure of a table, whose header names no unit of its own: as [`Headline::new`], in
    /// the unit labelled `unit`.
    pub const fn of_table(
        file: &'static str,
        figure: &'static str,
        row: Pick,
        column: &'static str,
        unit: &'static str,
    ) -> Self {
        Headline {
            file: Cow::Borrowed(file),
            figure: Cow::Borrowed(figure),
            row,
            column: Cow::Borrowed(column),
            unit: Cow::Borrowed(unit),
        }
    }

    /// Whether it is read from the file named `name` (`send_bw-np_0002.dat`).
    pub fn reads(&self, name: &str) -> bool {
        let stem = name.strip_suffix(".dat").unwrap_or(name);
        stem.split("-np_").next().unwrap_or(stem).ends_with(&*self.file)
    }
}

/// The headlines of the message-size sweeps, as their users quote them.
pub mod headline {
    use super::{Headline, Pick};
    use crate::schema::sweep::MEDIAN;

    /// The time at the smallest size (`<stem>_time`).
    pub const TIME: Headline = Headline::new("_time", "time at {x} B", Pick::First, MEDIAN);
    /// The bandwidth at the largest size (`<stem>_bw`).
    pub const BANDWIDTH: Headline = Headline::new("_bw", "bandwidth at {x} B", Pick::Last, MEDIAN);
    /// The message rate at the smallest size (`<stem>_rate`).
    pub const RATE: Headline = Headline::new("_rate", "message rate at {x} B", Pick::First, MEDIAN);
}

/// The files a benchmark writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Files {
    /// Described in words.
    Text(&'static str),
    /// A message-size sweep's pair: `<stem>_time-np_NNNN.dat` and a second file.
    Sweep(SweepFiles),
}

/// The pair of files of a message-size sweep: the time per operation (usec, echoed as the
/// summary) and a second quantity of the same samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepFiles {
    /// The names' stem: `send` gives `send_time-np_NNNN.dat` and `send_bw-np_NNNN.dat`.
    pub stem: &'static str,
    /// What the time is, e.g. `one-way time`.
    pub time: &'static str,
    /// The second file.
    pub second: Second,
    /// The time file's columns after the statistics.
    pub extra: Extra,
}

/// The columns of a sweep's time file after the statistics (and before PAW_TAIL's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extra {
    /// None.
    Plain,
    /// TASK_MIN and TASK_MAX: the medians over the samples of the fastest and the slowest
    /// task's time (the collectives).
    Spread,
    /// ROUNDS: rounds per iteration ([`crate::Timing::Rounds`]).
    Rounds,
}

/// The second file of a sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Second {
    /// `<stem>_bw-np_NNNN.dat`: bandwidth in [`MIB_PER_S`], described by the label.
    Bandwidth(&'static str),
    /// `<stem>_rate-np_NNNN.dat`: messages per second, described by the label.
    Rate(&'static str),
    /// The rate's file, and `<stem>_bw-np_NNNN.dat` beside it: the bytes of those messages
    /// per second in [`MIB_PER_S`] (the message-rate tests, whose users also read a
    /// bandwidth). The labels: the rate's, then the bandwidth's.
    RateAndBandwidth(&'static str, &'static str),
}

impl Second {
    /// The file's name part (`bw`, `rate`), its label and unit.
    pub fn file(self) -> (&'static str, &'static str, Unit) {
        match self {
            Second::Bandwidth(label) => ("bw", label, MIB_PER_S),
            Second::Rate(label) | Second::RateAndBandwidth(label, _) => ("rate", label, MSG_PER_S),
        }
    }

    /// The bandwidth file beside the rate's, if there is one: its name part and label.
    pub fn third(self) -> Option<(&'static str, &'static str, Unit)> {
        match self {
            Second::RateAndBandwidth(_, label) => Some(("bw", label, MIB_PER_S)),
            _ => None,
        }
    }
}

impl Files {
    /// The files in words, for `-h` and doc/binaries.md.
    pub fn describe(&self) -> String {
        match self {
            Files::Text(text) => text.to_string(),
            Files::Sweep(f) => {
                let (name, _, unit) = f.second.file();
                let extra = match f.extra {
                    Extra::Plain => "",
                    Extra::Spread => "; TASK_MIN, TASK_MAX",
                    Extra::Rounds => "; ROUNDS",
                };
                let short = |u: Unit| u.label.split(" (").next().unwrap_or(u.label).to_string();
                let stem = f.stem;
                let mut files = format!("{stem}_time-np_NNNN.dat (usec{extra})");
                let third = f.second.third().map(|(n, _, u)| (n, short(u)));
                for (name, unit) in [(name, short(unit))].into_iter().chain(third) {
                    files += &format!(", {stem}_{name}-np_NNNN.dat ({unit})");
                }
                let files = match files.rsplit_once(", ") {
                    Some((head, last)) => format!("{head} and {last}"),
                    None => files,
                };
                format!("{files}, NNNN = tasks")
            }
        }
    }
}

/// Outcome of reading the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Args {
    /// Run, with the variables OSU-style options set ([`crate::osu`]).
    Run(Vec<Given>),
    /// `-h` or `--help` was given.
    Help,
    /// An argument that is not taken: one line naming it and what is taken.
    Bad(String),
}

impl Spec {
    /// Every variable the benchmark reads, those of every benchmark last.
    pub fn reads(&self) -> impl Iterator<Item = &'static Var> + Clone {
        self.vars.iter().flat_map(|g| g.iter()).chain(vars::EVERY.iter())
    }

    /// Whether the benchmark reads `name`.
    pub fn reads_var(&self, name: &str) -> bool {
        self.reads().any(|v| v.name == name)
    }

    /// Prints the help and exits with status 0 if `-h` or `--help` was given (call it before
    /// starting MPI: help needs no MPI).
    pub fn exit_on_help(&self) {
        if self.read_args(std::env::args().skip(1)) == Args::Help {
            println!("{}", self.help_text());
            std::process::exit(0);
        }
    }

    /// The data check in words, for `-h` and the output header.
    pub fn check_text(&self) -> String {
        match self.check {
            Check::Data(what) => format!("with PAW_CHECK=1, after each size and untimed: {what}"),
            Check::Always(what) => format!("always, untimed: {what}"),
            Check::Never => "none (PAW_CHECK=1 is refused)".to_string(),
        }
    }

    /// What is reported, the rank rule named from [`Spec::combine`].
    pub fn reported(&self) -> String {
        self.reports.replace("{ranks}", self.combine.describe())
    }

    /// The full `-h` text.
    pub fn help_text(&self) -> String {
        let options = osu::help_lines(&|v| self.reads_var(v));
        let mut vars = String::new();
        for v in self.reads() {
            let (accepts, default) = (v.accepts.describe(), v.default);
            vars.push_str(&format!(
                "  {:<22} {}{accepts} (default {default})\n",
                v.name, v.meaning
            ));
        }
        format!(
            "{} -- {}\n\nTimed: {}\n\nReported: {}\n\nTasks: {}\n\nData check: {}\n\nFiles: {}\n\n\
             Variables ({read}):\n{vars}\n\
             Options{osu}:\n{options}  -h, --help             print this help and exit",
            self.name,
            self.title,
            self.timed,
            self.reported(),
            self.ranks.describe(self.name),
            self.check_text(),
            self.files.describe(),
            read = match self.ranks {
                Ranks::Node => "read at start",
                _ => "read on rank 0 and shared with every task",
            },
            osu = if options.is_empty() {
                ""
            } else {
                " (OSU's spellings of the variables above; a variable set both ways must agree)"
            },
        )
    }

    /// Reads the arguments (without the program name): `-h`, or the OSU-style options this
    /// benchmark takes ([`osu::parse`]).
    pub fn read_args(&self, args: impl IntoIterator<Item = String>) -> Args {
        let args: Vec<String> = args.into_iter().collect();
        match osu::parse(self.name, &|v| self.reads_var(v), &args) {
            Ok(Some(given)) => Args::Run(given),
            Ok(None) => Args::Help,
            Err(e) => Args::Bad(e),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A Spec for tests.
    pub(crate) const SPEC: Spec = Spec {
        name: "t",
        title: "a test",
        timed: "nothing",
        reports: "a time, {ranks}",
        ranks: Ranks::Any,
        combine: Combine::Min,
        vars: &[vars::P2P_SIZES, vars::MEASURE],
        check: Check::Never,
        files: Files::Text("none"),
        headlines: &[],
    };

    #[test]
    fn the_rank_rule_is_named_from_combine() {
        assert_eq!(SPEC.reported(), "a time, minimum over tasks of each repetition's time");
        let max = Spec { combine: Combine::Max, ..SPEC };
        assert!(max.help_text().contains("Reported: a time, maximum over tasks"));
    }

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
        let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(SPEC.read_args(v(&[])), Args::Run(vec![]));
        assert_eq!(SPEC.read_args(v(&["-h"])), Args::Help);
        assert_eq!(SPEC.read_args(v(&["--bogus", "--help"])), Args::Help);
        let Args::Bad(e) = SPEC.read_args(v(&["--bogus"])) else { panic!("--bogus is taken") };
        assert!(e.starts_with("unknown argument \"--bogus\"; t takes -m [MIN:]MAX, -i N"), "{e}");
    }

    #[test]
    fn help_lists_exactly_the_variables_read() {
        let help = SPEC.help_text();
        for name in ["MIN_P2P_SIZE", "NLOOP_MAX", "NREPS", "PAW_OUTPUT_DIR", "PAW_TIMEOUT"] {
            assert!(help.contains(&format!("  {name} ")), "{name} missing:\n{help}");
        }
        assert!(!help.contains("MIN_COL_SIZE") && !help.contains("PAW_CHECK "), "{help}");
        assert!(SPEC.reads_var("PAW_OUTPUT_DIR") && !SPEC.reads_var("WINDOW_SIZE"));
    }
}
