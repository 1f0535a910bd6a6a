//! b_eff's command line, read on rank 0 and sent to every rank as text.

use crate::plan::{LoopRule, REPETITIONS};
use paw_core::{About, Opt};

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
    /// `-random`: number of random patterns.
    pub random: usize,
    /// `-seed`: seed of the random patterns (drawn on rank 0 when not given).
    pub seed: u64,
    /// `-short`: fewer random patterns, shorter loops, 512 MiB memory unless `-mem`.
    pub short: bool,
    /// `-check` (or PAW_CHECK=1): compare every received message with what was sent.
    pub check: bool,
    /// `-pattern`: run only the patterns so named (empty: all of them).
    pub patterns: Vec<String>,
    /// `-h`: print the help and exit.
    pub help: bool,
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
    let (full, short) = (LoopRule::FULL.per_length, LoopRule::SHORT.per_length);
    About {
        name: NAME,
        title: "effective bandwidth (b_eff, HLRS): ring and random patterns, 3 methods".into(),
        usage: "usage: mpirun -np P b_eff [-mem MiB] [-random N] [-seed S] [-short] [-check]\n\
                \x20                         [-pattern NAME,...] [-h]"
            .into(),
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
        options: vec![
            Opt::new(
                "-mem MiB",
                format!(
                    "memory per process, MiB, 1 to {MAX_MEM_MIB} (MPI_Alltoallv's byte counts are \
                     MPI ints and the 3-D patterns send 6 Lmax per process)"
                ),
                format!(
                    "this host's memory divided by its processes, the smallest over all hosts, \
                     at most {DEFAULT_MEM_CAP_MIB} (the original's Lmax cap of 128 MiB); \
                     {SHORT_MEM_MIB} in short mode"
                ),
            ),
            Opt::new(
                "-random N",
                format!("random patterns, 1 to {MAX_RANDOM}"),
                format!("{RANDOM}; {RANDOM_SHORT} in short mode"),
            ),
            Opt::new("-seed S", "seed of the random patterns, 0 to 2^64-1", "drawn and printed"),
            Opt::flag(
                "-short",
                format!(
                    "short mode for sanity checks: {RANDOM_SHORT} random patterns, loops fitted \
                     to {short} s per length and method over all patterns, {SHORT_MEM_MIB} MiB \
                     memory per process unless -mem"
                ),
            ),
            Opt::flag("-check", "the data check (also PAW_CHECK=1)"),
            Opt::flag(
                "-pattern NAME,...",
                "run only these patterns (a name as the protocol writes it, or its part before \
                 the first '-': ring1 ... ring6, random01, pingpong, cart2d ...); b_eff itself \
                 needs them all and is then not computed",
            ),
            Opt::flag("-h, --help", "this text"),
        ],
    }
}

/// Parses the arguments (without the program name). `seed` is used when `-seed` is not
/// given; `paw_check` is whether PAW_CHECK asks for checking.
pub fn parse(args: &[String], seed: u64, paw_check: bool) -> Result<Options, String> {
    let mut o = Options {
        mem_mib: None,
        random: 0,
        seed,
        short: false,
        check: paw_check,
        patterns: Vec::new(),
        help: false,
    };
    let mut random = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |accepted: &str| {
            it.next().cloned().ok_or_else(|| format!("{arg} needs a value: {accepted}"))
        };
        match arg.as_str() {
            "-mem" => {
                let what = format!(
                    "the memory per process in MiB, a whole number from 1 to {MAX_MEM_MIB}"
                );
                let v = value(&what)?;
                match v.parse::<u64>() {
                    Ok(m) if (1..=MAX_MEM_MIB).contains(&m) => o.mem_mib = Some(m),
                    _ => return Err(format!("-mem {v}: takes {what}")),
                }
            }
            "-random" => {
                let what = format!("the number of random patterns, 1 to {MAX_RANDOM}");
                let v = value(&what)?;
                match v.parse::<usize>() {
                    Ok(n) if (1..=MAX_RANDOM).contains(&n) => random = Some(n),
                    _ => return Err(format!("-random {v}: takes {what}")),
                }
            }
            "-seed" => {
                let what = "a whole number from 0 to 18446744073709551615";
                let v = value(what)?;
                o.seed = v.parse().map_err(|_| format!("-seed {v}: takes {what}"))?;
            }
            "-short" => o.short = true,
            "-check" => o.check = true,
            "-pattern" => {
                let what = "pattern names separated by commas, e.g. pingpong,ring1";
                let v = value(what)?;
                let plain = |n: &str| {
                    !n.is_empty()
                        && n.chars().all(|c| c.is_ascii_alphanumeric() || "*&+-".contains(c))
                };
                if !v.split(',').all(plain) {
                    return Err(format!("-pattern {v}: takes {what}"));
                }
                o.patterns.extend(v.split(',').map(String::from));
            }
            "-h" | "--help" => o.help = true,
            other => {
                return Err(format!(
                    "unknown option \"{other}\"; accepted: -mem MiB, -random N, -seed S, -short, \
                     -check, -pattern NAME,..., -h"
                ))
            }
        }
    }
    o.random = random.unwrap_or(if o.short { RANDOM_SHORT } else { RANDOM });
    Ok(o)
}

impl paw_hlrs::CommandLine for Options {
    /// Parses on rank 0, drawing the seed of the random patterns from the clock unless
    /// `-seed` gives one.
    fn parse(args: &[String], _processes: usize, check: bool) -> Result<Options, String> {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        parse(args, seed, check)
    }
    /// The options as one line of text, for [`Options::decode`].
    fn encode(&self) -> String {
        format!(
            "{} {} {} {} {} {} {}",
            self.mem_mib.unwrap_or(0),
            self.random,
            self.seed,
            self.short as u8,
            self.check as u8,
            self.help as u8,
            if self.patterns.is_empty() { "-".to_string() } else { self.patterns.join(",") }
        )
    }

    /// The options [`Options::encode`] wrote.
    fn decode(text: &str) -> Options {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let v: Vec<u64> = fields[..6].iter().map(|x| x.parse().expect("encoded")).collect();
        Options {
            mem_mib: (v[0] > 0).then_some(v[0]),
            random: v[1] as usize,
            seed: v[2],
            short: v[3] == 1,
            check: v[4] == 1,
            patterns: match fields[6] {
                "-" => Vec::new(),
                list => list.split(',').map(String::from).collect(),
            },
            help: v[5] == 1,
        }
    }
    fn help(&self) -> bool {
        self.help
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_gives_back_every_option_as_written() {
        assert_eq!(about().help_misreads(), None);
    }
    use paw_hlrs::CommandLine;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_parse_and_round_trip() {
        let o = parse(&args("-mem 512 -random 7 -seed 99 -check"), 1, false).unwrap();
        assert_eq!(
            (o.mem_mib, o.random, o.seed, o.check, o.short),
            (Some(512), 7, 99, true, false)
        );
        assert_eq!(Options::decode(&o.encode()), o);
        let o = parse(&args("-short"), 5, true).unwrap();
        assert_eq!((o.mem_mib, o.random, o.seed, o.check), (None, 3, 5, true));
        assert_eq!(Options::decode(&o.encode()), o);
        assert_eq!(parse(&[], 5, false).unwrap().random, 30);
        let o = parse(&args("-pattern pingpong,ring1-3*2&+1 -pattern cart2d"), 5, false).unwrap();
        assert_eq!(o.patterns, ["pingpong", "ring1-3*2&+1", "cart2d"]);
        assert_eq!(Options::decode(&o.encode()), o);
    }

    #[test]
    fn bad_options_name_the_input_and_what_is_accepted() {
        for (a, want) in [
            ("-mem 0", "-mem 0: takes the memory per process in MiB"),
            ("-mem -5", "-mem -5: takes"),
            ("-mem lots", "-mem lots: takes"),
            ("-mem 43691", "a whole number from 1 to 43690"),
            ("-mem", "-mem needs a value"),
            ("-random 0", "-random 0: takes the number of random patterns, 1 to 1000"),
            ("-seed x", "-seed x: takes a whole number"),
            ("-pattern a,,b", "-pattern a,,b: takes pattern names separated by commas"),
            ("-pattern a/b", "-pattern a/b: takes pattern names"),
            ("-bogus", "unknown option \"-bogus\"; accepted: -mem MiB"),
        ] {
            let e = parse(&args(a), 0, false).unwrap_err();
            assert!(e.contains(want), "{a}: {e}");
        }
    }
}
