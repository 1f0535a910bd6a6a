//! b_eff_io's command line: release 2.1's options with 2.1's meaning, and paw's `-check`;
//! one table ([`Options`]'s `flags`) that every rank parses (the `-i` hints file read on
//! rank 0).

use crate::hints::Hints;
use crate::plan::{units_per_partition, VALID_TN};
use paw_core::cli::{self, Flag};
use paw_core::About;
use paw_hlrs::CommandLine;
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
        usage: cli::usage(NAME, "", &Options::flags(0)),
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
        options: cli::options(&Options::flags(0)),
    }
}

impl CommandLine for Options {
    /// `processes` bounds `-N` (0: the table for `-h`, any count).
    fn flags(processes: usize) -> Vec<Flag<Options>> {
        let most = if processes == 0 { "P".to_string() } else { processes.to_string() };
        vec![
            Flag::above(
                &["-T"],
                "seconds",
                format!(
                    "scheduled time of the whole run, all partitions together; a result is valid \
                     from Tn = T / partitions >= {VALID_TN} s on, so the default is valid with \
                     one partition only (-N P, or -T {VALID_TN} x partitions)"
                ),
                0.0,
                |o: &mut Options, t| o.t = t,
            )
            .default(DEFAULT_T),
            Flag::whole(
                &["-MB"],
                "MiB",
                "memory per process (MPART = max(2 MB, memory / 128), at most 1 GiB)",
                (1, MAX_MIB),
                |o: &mut Options, m| o.mem_mib = Some(m),
            )
            .default("this host's memory divided by its processes, the smallest over hosts"),
            Flag::whole(
                &["-MT"],
                "MiB",
                "memory of the whole system, to report the fraction transferred",
                (1, MAX_MIB),
                |o: &mut Options, m| o.total_mib = Some(m),
            )
            .default("memory per process x processes"),
            Flag::text(
                &["-N"],
                "n1,n2,...",
                "partitions: process counts, each 1 to P, each once",
                move |o: &mut Options, v| {
                    for part in v.split(',') {
                        match part.trim().parse::<usize>() {
                            Ok(n) if o.partitions.contains(&n) => {
                                return Err(format!("{n} is named twice; give each partition once"))
                            }
                            Ok(n) if (1..=processes).contains(&n) => o.partitions.push(n),
                            _ => {
                                return Err(format!(
                                    "{part:?} is not one of the process counts from 1 to {most}"
                                ))
                            }
                        }
                    }
                    Ok(())
                },
            )
            .default("2^round(0.35 log2 P), 2^round(0.70 log2 P), P; at P = 2: 1, 2"),
            Flag::text(
                &["-p"],
                "dir",
                "directory of the data files b_eff_io_data_iII_NNN_T (type 2: ..._2.RRR, one \
                 per process)",
                |o: &mut Options, v| {
                    o.dir = PathBuf::from(v);
                    Ok(())
                },
            )
            .default("the current directory"),
            Flag::text(
                &["-f"],
                "prefix",
                "the protocol and summary files are <prefix>.prot and <prefix>.sum",
                |o: &mut Options, v| {
                    if v.is_empty() || v.contains('/') {
                        return Err("takes a file name prefix without '/'".into());
                    }
                    o.prefix = Some(v.into());
                    Ok(())
                },
            )
            .default("b_eff_io-np_PPPP"),
            Flag::switch(&["-rewrite"], "rewrite every pattern type", |o: &mut Options| {
                o.rewrite_all = true
            })
            .default("type 0 only"),
            Flag::switch(&["-keep"], "keep the data files", |o: &mut Options| o.keep = true)
                .default(
                    "each read deletes its file on close, MPI_MODE_DELETE_ON_CLOSE, inside the \
                 timed close as in 2.1",
                ),
            Flag::switch(
                &["-d"],
                "delete the data files (the default; undoes -keep)",
                |o: &mut Options| o.keep = false,
            ),
            Flag::switch(
                &["-noshared"],
                "individual file pointers for type 1 (the result is then NOT VALID)",
                |o: &mut Options| o.shared = false,
            )
            .default("the shared file pointer"),
            Flag::switch(&["-nounique"], "open without MPI_MODE_UNIQUE_OPEN", |o: &mut Options| {
                o.unique = false
            })
            .default("with it"),
            Flag::file(
                &["-i"],
                "hints-file",
                "MPI-IO hints, one per line: proc_num access pat_type chunk_size key value \
                 (proc_num: all or a partition; access: all, write, rewrite, read; pat_type: \
                 all, scatter, shared, separated, segmented, seg_coll; chunk_size: all, \
                 on_open, Lmax or bytes); # starts a comment",
                |o: &mut Options, _, text| {
                    o.hints = Hints::parse(text)?;
                    Ok(())
                },
            )
            .default("none"),
            Flag::whole(
                &["-e"],
                "errors",
                "defective chunks reported per pattern and process",
                (1, u64::MAX),
                |o: &mut Options, e| o.errors = e,
            )
            .default(1),
            Flag::switch(
                &["-check"],
                "compare every byte read (also PAW_CHECK=1)",
                |o: &mut Options| o.check = true,
            )
            .default("the first and last 8 bytes of each chunk (timed, as 2.1 times its check)"),
            Flag::help(&["-h", "--help"], "this text"),
        ]
    }

    fn defaults(_drawn: u64, check: bool) -> Options {
        Options {
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
            check,
        }
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

    fn p(s: &str) -> Result<Options, String> {
        let line = Line::of(s, &Options::flags(4), |f| match f {
            "hints" => Ok("# comment\nall write scatter all striping_factor 4\n".into()),
            "bad" => Ok("all sometimes all all key value\n".into()),
            _ => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")),
        });
        paw_hlrs::parse(&line, 4, false).map(|o| o.expect("no -h"))
    }

    #[test]
    fn options_parse() {
        let o = p("-T 12.5 -MB 256 -MT 1024 -N 1,4 -p /tmp/x -f run -rewrite -keep -noshared \
                   -nounique -e 3 -check -i hints")
        .unwrap();
        assert_eq!(
            (o.t, o.mem_mib, o.total_mib, o.partitions.clone()),
            (12.5, Some(256), Some(1024), vec![1, 4])
        );
        assert_eq!((o.keep, o.shared, o.unique, o.errors), (true, false, false, 3));
        assert_eq!(o.hints.lines().count(), 1);
        let o = p("").unwrap();
        assert_eq!(
            (o.t, o.prefix.clone(), o.keep, o.shared, o.unique),
            (1800.0, None, false, true, true)
        );
        assert!(!p("-keep -d").unwrap().keep, "-d undoes -keep");
    }

    #[test]
    fn bad_options() {
        for (a, want) in [
            ("-T 0", "-T 0: takes a number above 0"),
            ("-T -5", "-T -5: takes"),
            ("-T soon", "-T soon: takes"),
            ("-N 0", "-N 0: \"0\" is not one of the process counts from 1 to 4"),
            ("-N 2,5", "\"5\" is not one of"),
            ("-N 2,2", "2 is named twice"),
            ("-MB 0", "-MB 0: takes a whole number from 1 to 16777216"),
            ("-MT x", "-MT x: takes a whole number"),
            ("-MB 16777217", "a whole number from 1 to 16777216"),
            ("-e 0", "-e 0: takes a whole number >= 1"),
            ("-f a/b", "-f a/b: takes a file name prefix without '/'"),
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
