//! b_eff_io's command line: release 2.1's options with 2.1's meaning, and paw's `-check`;
//! read on rank 0 (with the `-i` hints file) and sent to every rank as text.

use crate::hints::Hints;
use crate::plan::{units_per_partition, VALID_TN};
use paw_core::{About, Opt};
use std::path::PathBuf;

/// Default scheduled time of the whole run, seconds (2.1's T_CRIT: a valid run).
pub const DEFAULT_T: f64 = VALID_TN;
/// Largest `-MB`/`-MT`, MiB.
pub const MAX_MIB: u64 = 1 << 24;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// `-T`: scheduled time of the whole run, all partitions together, seconds.
    pub t: f64,
    /// `-MB`: memory per process, MiB (MPART = max(2 MB, memory / 128)); `None`: the host's
    /// memory divided by its processes.
    pub mem_mib: Option<u64>,
    /// `-MT`: memory of the whole system, MiB (only to report the fraction transferred);
    /// `None`: memory per process x processes.
    pub total_mib: Option<u64>,
    /// `-N`: partitions (process counts), in order; empty: the defaults.
    pub partitions: Vec<usize>,
    /// `-p`: directory of the data files.
    pub dir: PathBuf,
    /// `-f`: prefix of the protocol and summary files; `None`: b_eff_io-np_PPPP.
    pub prefix: Option<String>,
    /// `-rewrite`: every type in the rewrite pass (else type 0 only).
    pub rewrite_all: bool,
    /// `-keep`: leave the data files (else reads delete them on close; `-d` restores this).
    pub keep: bool,
    /// Type 1 with the shared file pointer (`-noshared`: individual pointers instead).
    pub shared: bool,
    /// Files opened with MPI_MODE_UNIQUE_OPEN (`-nounique`: without).
    pub unique: bool,
    /// `-i`: MPI-IO hints, from the hints file.
    pub hints: Hints,
    /// `-e`: defective chunks reported per pattern and process.
    pub errors: u64,
    /// `-check` (or PAW_CHECK=1): compare every byte read (else the first and last 8
    /// bytes of each chunk).
    pub check: bool,
    /// `-h`.
    pub help: bool,
}

/// The program's name.
pub const NAME: &str = "b_eff_io";

/// b_eff_io's description: `-h`, the header's `timed:` and `reported:` lines and the doc
/// tables come from it, its numbers from the constants that rule the run.
pub fn about() -> About {
    let (u, ur) = (units_per_partition(false), units_per_partition(true));
    About {
        name: NAME,
        title: "effective I/O bandwidth (b_eff_io, HLRS) through MPI-IO".into(),
        usage: "usage: mpirun -np P b_eff_io [-T seconds] [-MB MiB] [-MT MiB] [-N n1,n2,...] \
                [-p dir]\n\
                \x20                            [-f prefix] [-rewrite] [-keep] [-d] [-noshared] \
                [-nounique]\n\
                \x20                            [-i hints-file] [-e errors] [-check] [-h]"
            .into(),
        summary: "The effective I/O bandwidth benchmark (b_eff_io, HLRS; Rabenseifner and \
                  Koniges) through MPI-IO, computing what release 2.1 computes: access methods \
                  outermost (initial write, rewrite, read), then the partitions (the first n \
                  processes), then five pattern types (0 scatter, 1 shared file pointer, 2 \
                  separate files, 3 segmented, 4 segmented collective) with chunks of 1 kB, \
                  32 kB, 1 MB, their +8 byte forms and MPART."
            .into(),
        timed: format!(
            "per type, on rank 0's clock, from the barrier before MPI_File_open to the barrier \
             after MPI_File_close: the open, each pattern's view and calls (writes end with \
             MPI_File_sync), the close (reads delete the file on close unless -keep). Each \
             partition gets Tn = T / partitions, each pattern Tn x U / {u} ({ur} with \
             -rewrite); the initial write of types 0-2 decides after every call (a barrier, \
             then a broadcast from rank 0) whether another fits; types 3 and 4 and the later \
             accesses repeat counts. The read check is inside the timed reads, as 2.1's."
        ),
        reported: "MB/s (10^6 B/s): per type its bytes / its time; per partition 2.1's \
                   sqrt( mean(write types, rewrite type 0) x mean(read types, type 0 twice) ); \
                   b_eff_io = the maximum over partitions (the paper's weighting printed beside \
                   it); valid only with Tn >= 1800 s, the shared pointer, no errors and no \
                   -check."
            .into(),
        tasks: "any number >= 1.".into(),
        check: "always: the first and last 8 bytes of every chunk read (every byte with -check \
                or PAW_CHECK=1) against the pattern written; defective chunks (at most -e per \
                pattern and process reported) fail the run."
            .into(),
        files: "the data files in -p (checked absent first, removed by the reads, at the end, \
                on error and on SIGTERM, SIGINT or SIGHUP unless -keep); in PAW_OUTPUT_DIR \
                (default: the current directory): the protocol and summary files (-f), per \
                partition and access b_eff_io_<access>-part_NNNN-np_PPPP.dat with its .csv (MB/s \
                against chunk size, a column per type), the run record; the summary tables and \
                the final line on standard output. Chunk sizes binary (1 MB = 2^20 B)."
            .into(),
        options: vec![
            Opt::new(
                "-T seconds",
                format!(
                    "scheduled time of the whole run, all partitions together, above 0; a result \
                     is valid from Tn = T / partitions >= {VALID_TN} s on, so the default is valid \
                     with one partition only (-N P, or -T {VALID_TN} x partitions)"
                ),
                DEFAULT_T,
            ),
            Opt::new(
                "-MB MiB",
                format!("memory per process, 1 to {MAX_MIB} (MPART = max(2 MB, memory / 128), at most 1 GiB)"),
                "this host's memory divided by its processes, the smallest over hosts",
            ),
            Opt::new(
                "-MT MiB",
                "memory of the whole system, to report the fraction transferred",
                "memory per process x processes",
            ),
            Opt::new(
                "-N n1,n2,...",
                "partitions: process counts, each 1 to P, each once",
                "2^round(0.35 log2 P), 2^round(0.70 log2 P), P; at P = 2: 1, 2",
            ),
            Opt::new(
                "-p dir",
                "directory of the data files b_eff_io_data_iII_NNN_T (type 2: ..._2.RRR, one \
                 per process)",
                "the current directory",
            ),
            Opt::new(
                "-f prefix",
                "the protocol and summary files are <prefix>.prot and <prefix>.sum",
                "b_eff_io-np_PPPP",
            ),
            Opt::new("-rewrite", "rewrite every pattern type", "type 0 only"),
            Opt::new(
                "-keep",
                "keep the data files",
                "each read deletes its file on close, MPI_MODE_DELETE_ON_CLOSE, inside the \
                 timed close as in 2.1",
            ),
            Opt::flag("-d", "delete the data files (the default; undoes -keep)"),
            Opt::new(
                "-noshared",
                "individual file pointers for type 1 (the result is then NOT VALID)",
                "the shared file pointer",
            ),
            Opt::new("-nounique", "open without MPI_MODE_UNIQUE_OPEN", "with it"),
            Opt::new(
                "-i hints-file",
                "MPI-IO hints, one per line: proc_num access pat_type chunk_size key value \
                 (proc_num: all or a partition; access: all, write, rewrite, read; pat_type: \
                 all, scatter, shared, separated, segmented, seg_coll; chunk_size: all, \
                 on_open, Lmax or bytes); # starts a comment",
                "none",
            ),
            Opt::new("-e errors", "defective chunks reported per pattern and process", 1),
            Opt::new(
                "-check",
                "compare every byte read (also PAW_CHECK=1)",
                "the first and last 8 bytes of each chunk (timed, as 2.1 times its check)",
            ),
            Opt::flag("-h, --help", "this text"),
        ],
    }
}

/// Parses the arguments (without the program name) for `p` processes; `paw_check` is
/// whether PAW_CHECK asks for checking; `read` reads the hints file.
pub fn parse(
    args: &[String],
    p: usize,
    paw_check: bool,
    read: impl Fn(&str) -> std::io::Result<String>,
) -> Result<Options, String> {
    let mut o = Options {
        t: DEFAULT_T,
        mem_mib: None,
        total_mib: None,
        partitions: Vec::new(),
        dir: PathBuf::from("."),
        prefix: None,
        rewrite_all: false,
        keep: false,
        shared: true,
        unique: true,
        hints: Hints::default(),
        errors: 1,
        check: paw_check,
        help: false,
    };
    let mut hints_file = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value =
            |what: &str| it.next().cloned().ok_or_else(|| format!("{arg} needs a value: {what}"));
        let mib = |v: String, what: &str| match v.parse::<u64>() {
            Ok(m) if (1..=MAX_MIB).contains(&m) => Ok(m),
            _ => Err(format!("{arg} {v}: takes {what}")),
        };
        match arg.as_str() {
            "-T" => {
                let what = "the scheduled time of the whole run in seconds, a number above 0";
                let v = value(what)?;
                o.t = match v.parse::<f64>() {
                    Ok(t) if t > 0.0 && t.is_finite() => t,
                    _ => return Err(format!("-T {v}: takes {what}")),
                };
            }
            "-MB" => {
                let what =
                    format!("the memory per process in MiB, a whole number from 1 to {MAX_MIB}");
                o.mem_mib = Some(mib(value(&what)?, &what)?);
            }
            "-MT" => {
                let what = format!(
                    "the memory of the whole system in MiB, a whole number from 1 to {MAX_MIB}"
                );
                o.total_mib = Some(mib(value(&what)?, &what)?);
            }
            "-N" => {
                let what = format!("process counts from 1 to {p}, separated by commas");
                let v = value(&what)?;
                for part in v.split(',') {
                    match part.trim().parse::<usize>() {
                        Ok(n) if (1..=p).contains(&n) && !o.partitions.contains(&n) => {
                            o.partitions.push(n)
                        }
                        Ok(n) if o.partitions.contains(&n) => {
                            return Err(format!(
                                "-N {v}: {n} is named twice; give each partition once"
                            ))
                        }
                        _ => return Err(format!("-N {v}: {part:?} is not one of the {what}")),
                    }
                }
            }
            "-p" => o.dir = PathBuf::from(value("a directory")?),
            "-f" => {
                let v = value("a file name prefix without '/'")?;
                if v.is_empty() || v.contains('/') {
                    return Err(format!("-f {v:?}: takes a file name prefix without '/'"));
                }
                o.prefix = Some(v);
            }
            "-i" => hints_file = Some(value("a hints file")?),
            "-e" => {
                let what = "the defective chunks reported per pattern, a whole number from 1";
                let v = value(what)?;
                o.errors = match v.parse::<u64>() {
                    Ok(e) if e >= 1 => e,
                    _ => return Err(format!("-e {v}: takes {what}")),
                };
            }
            "-rewrite" => o.rewrite_all = true,
            "-keep" => o.keep = true,
            "-d" => o.keep = false,
            "-noshared" => o.shared = false,
            "-nounique" => o.unique = false,
            "-check" => o.check = true,
            "-h" | "--help" => o.help = true,
            other => {
                return Err(format!(
                    "unknown option \"{other}\"; accepted: -T, -MB, -MT, -N, -p, -f, -rewrite, \
                     -keep, -d, -noshared, -nounique, -i, -e, -check, -h"
                ))
            }
        }
    }
    if let Some(f) = hints_file {
        let text = read(&f).map_err(|e| format!("-i {f}: cannot read it ({e})"))?;
        o.hints = Hints::parse(&text).map_err(|e| format!("-i {f}: {e}"))?;
    }
    Ok(o)
}

impl paw_hlrs::CommandLine for Options {
    /// Parses on rank 0, reading the `-i` hints file there.
    fn parse(args: &[String], processes: usize, check: bool) -> Result<Options, String> {
        parse(args, processes, check, |f| std::fs::read_to_string(f))
    }
    /// The options as text for [`Options::decode`] (one field per line, the hints last).
    fn encode(&self) -> String {
        let parts: Vec<String> = self.partitions.iter().map(|n| n.to_string()).collect();
        let flags = [self.rewrite_all, self.keep, self.shared, self.unique, self.check, self.help];
        [
            self.t.to_string(),
            self.mem_mib.unwrap_or(0).to_string(),
            self.total_mib.unwrap_or(0).to_string(),
            parts.join(","),
            self.dir.display().to_string(),
            self.prefix.clone().unwrap_or_default(),
            self.errors.to_string(),
            flags.map(|f| if f { '1' } else { '0' }).iter().collect(),
            self.hints.encode(),
        ]
        .join("\n")
    }

    /// The options [`Options::encode`] wrote.
    fn decode(text: &str) -> Options {
        let l: Vec<&str> = text.splitn(9, '\n').collect();
        let flag = |i: usize| l[7].as_bytes()[i] == b'1';
        let positive = |s: &str| Some(s.parse::<u64>().expect("encoded")).filter(|&m| m > 0);
        Options {
            t: l[0].parse().expect("encoded"),
            mem_mib: positive(l[1]),
            total_mib: positive(l[2]),
            partitions: l[3]
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().expect("encoded"))
                .collect(),
            dir: PathBuf::from(l[4]),
            prefix: Some(l[5].to_string()).filter(|s| !s.is_empty()),
            errors: l[6].parse().expect("encoded"),
            rewrite_all: flag(0),
            keep: flag(1),
            shared: flag(2),
            unique: flag(3),
            check: flag(4),
            help: flag(5),
            hints: Hints::parse(l.get(8).copied().unwrap_or("")).expect("encoded"),
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

    fn p(s: &str) -> Result<Options, String> {
        let args: Vec<String> = s.split_whitespace().map(String::from).collect();
        parse(&args, 4, false, |f| match f {
            "hints" => Ok("# comment\nall write scatter all striping_factor 4\n".into()),
            "bad" => Ok("all sometimes all all key value\n".into()),
            _ => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")),
        })
    }

    #[test]
    fn options_round_trip() {
        let o = p("-T 12.5 -MB 256 -MT 1024 -N 1,4 -p /tmp/x -f run -rewrite -keep -noshared \
                   -nounique -e 3 -check -i hints")
        .unwrap();
        assert_eq!(
            (o.t, o.mem_mib, o.total_mib, o.partitions.clone()),
            (12.5, Some(256), Some(1024), vec![1, 4])
        );
        assert_eq!((o.keep, o.shared, o.unique, o.errors), (true, false, false, 3));
        assert_eq!(o.hints.lines().count(), 1);
        assert_eq!(Options::decode(&o.encode()), o);
        let o = p("").unwrap();
        assert_eq!(
            (o.t, o.prefix.clone(), o.keep, o.shared, o.unique),
            (1800.0, None, false, true, true)
        );
        assert_eq!(Options::decode(&o.encode()), o);
        assert!(!p("-keep -d").unwrap().keep, "-d undoes -keep");
    }

    #[test]
    fn bad_options() {
        for (a, want) in [
            ("-T 0", "-T 0: takes the scheduled time of the whole run in seconds"),
            ("-T -5", "-T -5: takes"),
            ("-T soon", "-T soon: takes"),
            ("-N 0", "-N 0: \"0\" is not one of the process counts from 1 to 4"),
            ("-N 2,5", "\"5\" is not one of"),
            ("-N 2,2", "2 is named twice"),
            ("-MB 0", "-MB 0: takes the memory per process"),
            ("-MT x", "-MT x: takes the memory of the whole system"),
            ("-MB 16777217", "a whole number from 1 to 16777216"),
            ("-e 0", "-e 0: takes the defective chunks"),
            ("-f a/b", "-f \"a/b\": takes a file name prefix without '/'"),
            ("-i missing", "-i missing: cannot read it"),
            ("-i bad", "-i bad: line 1: access \"sometimes\""),
            ("-x", "unknown option \"-x\"; accepted: -T"),
            ("-T", "-T needs a value"),
        ] {
            let e = p(a).unwrap_err();
            assert!(e.contains(want), "{a}: {e}");
        }
    }
}
