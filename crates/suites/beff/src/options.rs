//! b_eff's command line: one table of options ([`Options`]'s `flags`), which every rank
//! parses.

use crate::plan::{LoopRule, REPETITIONS};
use paw_core::cli::{self, Flag};
use paw_core::About;
use paw_hlrs::CommandLine;

/// Largest `-mem` in MiB: the MPI_Alltoallv counts and displacements are bytes in an MPI
/// int, and the 3-D patterns send 6 messages of Lmax = memory / 128 per process, so 6 Lmax
/// must stay below 2^31.
pub const MAX_MEM_MIB: u64 = 43_690;

/// Default random patterns (the original's 30), and in short mode.
pub const RANDOM: usize = 30;
/// Random patterns in short mode.
pub const RANDOM_SHORT: usize = 3;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// `-mem`: memory per process, MiB (Lmax = memory / 128); `None`: from the host.
    pub mem_mib: Option<u64>,
    /// `-random`: number of random patterns (0 until the command line is read: not given).
    pub random: usize,
    /// `-seed`: seed of the random patterns (drawn on rank 0 when not given).
    pub seed: u64,
    /// `-short`: fewer random patterns, shorter loops, 512 MiB memory unless `-mem`.
    pub short: bool,
    /// `-check` (or PAW_CHECK=1): compare every received message with what was sent.
    pub check: bool,
    /// `-pattern`: run only the patterns so named (empty: all of them).
    pub patterns: Vec<String>,
}

/// Most random patterns.
pub const MAX_RANDOM: usize = 1000;
/// Memory per process by default at most (the original's Lmax cap of 128 MiB), MiB.
pub const DEFAULT_MEM_CAP_MIB: u64 = 16_384;
/// Memory per process by default in short mode, MiB.
pub const SHORT_MEM_MIB: u64 = 512;

/// The program's name.
pub const NAME: &str = "b_eff";

/// b_eff's description: `-h`, the header's `timed:` and `reported:` lines and the doc
/// tables come from it, its numbers from the constants that rule the run.
pub fn about() -> About {
    let full = LoopRule::FULL.per_length;
    About {
        name: NAME,
        title: "effective bandwidth (b_eff, HLRS): ring and random patterns, 3 methods".into(),
        usage: cli::usage(NAME, "", &Options::flags(0)),
        summary: format!(
            "The effective bandwidth benchmark (b_eff, HLRS; Rabenseifner and Koniges), \
             computing what b_eff 3.6 computes: every process exchanges messages with its \
             neighbours in six ring patterns and N random rings, 21 lengths from 1 byte to \
             Lmax = memory per process / 128, by three methods, {REPETITIONS} times each; \
             loops as 3.6 sizes them, about {full} s per length and method over all patterns."
        ),
        timed: "per repetition, length L, pattern and method (3.6's order), after a barrier and \
                (below length index 18) one untimed step, `loops` steps of the pattern between \
                two MPI_Wtime reads on each process. A step: every process of a ring sends L \
                bytes to its left neighbour while receiving from its right, then the reverse \
                (one exchange in a ring of two); the methods are MPI_Sendrecv per exchange, one \
                MPI_Alltoallv, or MPI_Irecv + MPI_Isend + MPI_Waitall; messages come from \
                cyclically used buffers."
            .into(),
        reported: "MB/s (MB = 10^6 B): bandwidth = min over processes of L x loops x own \
                   exchanges / own time, times messages per step / rank 0's exchanges; per \
                   pattern the mean over the 21 lengths of the maximum over methods and \
                   repetitions; b_eff: the logavg of the logavg over the six ring patterns and the \
                   logavg over the random patterns, and b_eff per process; Table 1 of the paper; the \
                   additional patterns (ping-pong, Cartesian) outside the average."
            .into(),
        tasks: "any number >= 2.".into(),
        check: "with -check (or PAW_CHECK=1), after each measurement one more untimed step \
                whose received messages are compared with what their senders put there; \
                defects fail the run."
            .into(),
        files: "in PAW_OUTPUT_DIR (default: the current directory): b_eff-np_PPPP.prot (every \
                pattern, length, method and repetition: loops, time, bandwidth), \
                b_eff_bw-np_PPPP.dat and .csv (bandwidth against length, a column per \
                pattern), the run record b_eff-np_PPPP.json; the summary and the final line \
                on standard output."
            .into(),
        options: cli::options(&Options::flags(0)),
    }
}

impl CommandLine for Options {
    fn flags(_processes: usize) -> Vec<Flag<Options>> {
        let plain = |n: &str| {
            !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || "*&+-".contains(c))
        };
        let short = LoopRule::SHORT.per_length;
        vec![
            Flag::whole(
                &["-mem"],
                "MiB",
                "memory per process, MiB (MPI_Alltoallv's byte counts are MPI ints and the 3-D \
                 patterns send 6 Lmax per process)",
                (1, MAX_MEM_MIB),
                |o: &mut Options, m| o.mem_mib = Some(m),
            )
            .default(format!(
                "this host's memory divided by its processes, the smallest over all hosts, at \
                 most {DEFAULT_MEM_CAP_MIB} (the original's Lmax cap of 128 MiB); \
                 {SHORT_MEM_MIB} in short mode"
            )),
            Flag::whole(
                &["-random"],
                "N",
                "random patterns",
                (1, MAX_RANDOM as u64),
                |o: &mut Options, n| o.random = n as usize,
            )
            .default(format!("{RANDOM}; {RANDOM_SHORT} in short mode")),
            Flag::whole(
                &["-seed"],
                "S",
                "seed of the random patterns",
                (0, u64::MAX),
                |o: &mut Options, s| o.seed = s,
            )
            .default("drawn and printed"),
            Flag::switch(
                &["-short"],
                format!(
                    "short mode for sanity checks: {RANDOM_SHORT} random patterns, loops fitted \
                     to {short} s per length and method over all patterns, {SHORT_MEM_MIB} MiB \
                     memory per process unless -mem"
                ),
                |o: &mut Options| o.short = true,
            ),
            Flag::switch(&["-check"], "the data check (also PAW_CHECK=1)", |o: &mut Options| {
                o.check = true
            }),
            Flag::text(
                &["-pattern"],
                "NAME,...",
                "run only these patterns (a name as the protocol writes it, or its part before \
                 the first '-': ring1 ... ring6, random01, pingpong, cart2d ...); b_eff itself \
                 needs them all and is then not computed",
                move |o: &mut Options, v| {
                    if !v.split(',').all(plain) {
                        return Err(
                            "takes pattern names separated by commas, e.g. pingpong,ring1".into()
                        );
                    }
                    o.patterns.extend(v.split(',').map(String::from));
                    Ok(())
                },
            ),
            Flag::help(&["-h", "--help"], "this text"),
        ]
    }

    /// The seed of the random patterns is rank 0's clock unless `-seed` gives one.
    fn defaults(drawn: u64, check: bool) -> Options {
        Options { mem_mib: None, random: 0, seed: drawn, short: false, check, patterns: Vec::new() }
    }

    fn finish(mut self) -> Result<Options, String> {
        if self.random == 0 {
            self.random = if self.short { RANDOM_SHORT } else { RANDOM };
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_gives_back_every_option_as_written() {
        assert_eq!(about().help_misreads(), None);
    }
    use paw_core::cli::Line;

    fn parse(a: &str, seed: u64, check: bool) -> Result<Options, String> {
        let line = Line { drawn: seed, ..Line::of(a, &Options::flags(2), |_| Ok(String::new())) };
        paw_hlrs::parse(&line, 2, check).map(|o| o.expect("no -h"))
    }

    #[test]
    fn options_parse() {
        let o = parse("-mem 512 -random 7 -seed 99 -check", 1, false).unwrap();
        assert_eq!(
            (o.mem_mib, o.random, o.seed, o.check, o.short),
            (Some(512), 7, 99, true, false)
        );
        let o = parse("-short", 5, true).unwrap();
        assert_eq!((o.mem_mib, o.random, o.seed, o.check), (None, 3, 5, true));
        assert_eq!(parse("", 5, false).unwrap().random, 30);
        let o = parse("-pattern pingpong,ring1-3*2&+1 -pattern cart2d", 5, false).unwrap();
        assert_eq!(o.patterns, ["pingpong", "ring1-3*2&+1", "cart2d"]);
    }

    #[test]
    fn bad_options_name_the_input_and_what_is_accepted() {
        for (a, want) in [
            ("-mem 0", "-mem 0: takes a whole number from 1 to 43690"),
            ("-mem -5", "-mem -5: takes"),
            ("-mem lots", "-mem lots: takes"),
            ("-mem 43691", "a whole number from 1 to 43690"),
            ("-mem", "-mem needs a value"),
            ("-random 0", "-random 0: takes a whole number from 1 to 1000"),
            ("-seed x", "-seed x: takes a whole number"),
            ("-pattern a,,b", "-pattern a,,b: takes pattern names separated by commas"),
            ("-pattern a/b", "-pattern a/b: takes pattern names"),
            ("-bogus", "unknown option \"-bogus\"; accepted: -mem -random"),
        ] {
            let e = parse(a, 0, false).unwrap_err();
            assert!(e.contains(want), "{a}: {e}");
        }
    }
}
