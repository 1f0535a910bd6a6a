//! b_eff_io's command line (the original's option names), read on rank 0 and sent to every
//! rank as text.

use std::path::PathBuf;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// `-T`: scheduled time per partition, seconds.
    pub t: f64,
    /// `-MB`: memory per process, MiB (MPART = max(2 MB, memory / 128)); `None`: the host's
    /// memory divided by its processes.
    pub mem_mib: Option<u64>,
    /// `-N`: partitions (process counts), in order; empty: the defaults.
    pub partitions: Vec<usize>,
    /// `-p`: directory of the files.
    pub dir: PathBuf,
    /// `-f`: file name prefix.
    pub prefix: String,
    /// `-rewrite`: every type in the rewrite pass (else type 0 only).
    pub rewrite_all: bool,
    /// `-keep`: leave the files.
    pub keep: bool,
    /// `-check` (or PAW_CHECK=1): compare every byte read (else the first and last 8
    /// bytes of each chunk).
    pub check: bool,
    /// `-h`.
    pub help: bool,
}

/// The help text.
pub const HELP: &str = "\
usage: mpirun -np P b_eff_io [-T seconds] [-MB MiB] [-N n1,n2,...] [-p dir] [-f prefix]
                             [-rewrite] [-keep] [-check] [-h]

The effective I/O bandwidth benchmark (b_eff_io, HLRS) through MPI-IO: for each partition
(number of processes), initial write, rewrite and read of five pattern types (0 scatter,
1 shared file pointer, 2 separate files, 3 segmented, 4 segmented collective) with chunks
of 1 kB, 32 kB, 1 MB and their +8 byte forms and of MPART, each pattern for its share
T/3 x U/64 of the scheduled time; b_eff_io is the maximum over partitions of
25 % write + 25 % rewrite + 50 % read, each the mean over types with type 0 counted twice.

  -T seconds    scheduled time per partition (default 1800; a result counts as valid
                from 900 s on)
  -MB MiB       memory per process (MPART = max(2 MB, memory / 128), at most 1 GiB); default: this
                host's memory divided by its processes, the smallest over hosts
  -N n1,n2,...  partitions: process counts, each 1 to P (default P/4, P/2, P)
  -p dir        directory of the files (default: the current directory)
  -f prefix     file name prefix (default b_eff_io); files <prefix>_type<t>[_<rank>]
  -rewrite      rewrite every pattern type (default: type 0 only)
  -keep         leave the files at the end
  -check        compare every byte read (also PAW_CHECK=1); default: the first and last
                8 bytes of each chunk
  -h, --help    this text

Output: the tables and the final line on standard output; b_eff_io-np_PPPP.sum (every
partition, access, type and pattern: calls, bytes, seconds, MB/s) and per partition and
access b_eff_io_<access>-part_NNNN-np_PPPP.dat with its .csv (MB/s against chunk size, a
column per type) in PAW_OUTPUT_DIR (default: the current directory). MB/s = 10^6 B/s;
chunk sizes are binary (1 MB = 2^20 B).";

/// Parses the arguments (without the program name) for `p` processes; `paw_check` is
/// whether PAW_CHECK asks for checking.
pub fn parse(args: &[String], p: usize, paw_check: bool) -> Result<Options, String> {
    let mut o = Options {
        t: 1800.0,
        mem_mib: None,
        partitions: Vec::new(),
        dir: PathBuf::from("."),
        prefix: "b_eff_io".into(),
        rewrite_all: false,
        keep: false,
        check: paw_check,
        help: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value =
            |what: &str| it.next().cloned().ok_or_else(|| format!("{arg} needs a value: {what}"));
        match arg.as_str() {
            "-T" => {
                let what = "the scheduled time per partition in seconds, a number above 0";
                let v = value(what)?;
                o.t = match v.parse::<f64>() {
                    Ok(t) if t > 0.0 && t.is_finite() => t,
                    _ => return Err(format!("-T {v}: takes {what}")),
                };
            }
            "-MB" => {
                let what = "the memory per process in MiB, a whole number from 1 to 16777216";
                let v = value(what)?;
                o.mem_mib = match v.parse::<u64>() {
                    Ok(m) if (1..=1 << 24).contains(&m) => Some(m),
                    _ => return Err(format!("-MB {v}: takes {what}")),
                };
            }
            "-N" => {
                let what = format!("process counts from 1 to {p}, separated by commas");
                let v = value(&what)?;
                for part in v.split(',') {
                    match part.trim().parse::<usize>() {
                        Ok(n) if (1..=p).contains(&n) => o.partitions.push(n),
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
                o.prefix = v;
            }
            "-rewrite" => o.rewrite_all = true,
            "-keep" => o.keep = true,
            "-check" => o.check = true,
            "-h" | "--help" => o.help = true,
            other => {
                return Err(format!(
                    "unknown option \"{other}\"; accepted: -T, -MB, -N, -p, -f, -rewrite, \
                     -keep, -check, -h"
                ))
            }
        }
    }
    Ok(o)
}

impl Options {
    /// The options as text for [`Options::decode`] (one field per line).
    pub fn encode(&self) -> String {
        let parts: Vec<String> = self.partitions.iter().map(|n| n.to_string()).collect();
        [
            self.t.to_string(),
            self.mem_mib.unwrap_or(0).to_string(),
            parts.join(","),
            self.dir.display().to_string(),
            self.prefix.clone(),
            format!(
                "{}{}{}{}",
                self.rewrite_all as u8, self.keep as u8, self.check as u8, self.help as u8
            ),
        ]
        .join("\n")
    }

    /// The options [`Options::encode`] wrote.
    pub fn decode(text: &str) -> Options {
        let l: Vec<&str> = text.split('\n').collect();
        let flag = |i: usize| l[5].as_bytes()[i] == b'1';
        Options {
            t: l[0].parse().expect("encoded"),
            mem_mib: Some(l[1].parse().expect("encoded")).filter(|&m| m > 0),
            partitions: l[2]
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().expect("encoded"))
                .collect(),
            dir: PathBuf::from(l[3]),
            prefix: l[4].to_string(),
            rewrite_all: flag(0),
            keep: flag(1),
            check: flag(2),
            help: flag(3),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Options, String> {
        let args: Vec<String> = s.split_whitespace().map(String::from).collect();
        parse(&args, 4, false)
    }

    #[test]
    fn options_round_trip() {
        let o = p("-T 12.5 -MB 256 -N 1,4 -p /tmp/x -f run -rewrite -keep -check").unwrap();
        assert_eq!((o.t, o.mem_mib, o.partitions.clone()), (12.5, Some(256), vec![1, 4]));
        assert_eq!(Options::decode(&o.encode()), o);
        let o = p("").unwrap();
        assert_eq!((o.t, o.prefix.as_str(), o.keep), (1800.0, "b_eff_io", false));
        assert_eq!(Options::decode(&o.encode()), o);
    }

    #[test]
    fn bad_options() {
        for (a, want) in [
            ("-T 0", "-T 0: takes the scheduled time per partition in seconds"),
            ("-T -5", "-T -5: takes"),
            ("-T soon", "-T soon: takes"),
            ("-N 0", "-N 0: \"0\" is not one of the process counts from 1 to 4"),
            ("-N 2,5", "\"5\" is not one of"),
            ("-MB 0", "-MB 0: takes the memory per process"),
            ("-MB 16777217", "a whole number from 1 to 16777216"),
            ("-f a/b", "-f \"a/b\": takes a file name prefix without '/'"),
            ("-x", "unknown option \"-x\"; accepted: -T"),
            ("-T", "-T needs a value"),
        ] {
            let e = p(a).unwrap_err();
            assert!(e.contains(want), "{a}: {e}");
        }
    }
}
