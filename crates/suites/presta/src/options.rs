//! The command line of com, laten and rma (PRESTA 1.2 README): one table ([`flags`]) that
//! every rank parses (the `-f` file read on rank 0), so a bad option stops every rank.

use crate::pairs::Layout;
use crate::Binary;
use paw_core::cli::{self, Flag, Line};
use paw_core::About;

/// Which options a binary takes beyond the common ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Takes {
    /// `-b`, `-e`, `-s`: message sizes (com, rma).
    pub sizes: bool,
    /// `-c`: epochs per sample (rma).
    pub epochs: bool,
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// `-o`: operations per sample (rma: per epoch).
    pub ops: u64,
    /// `-c`: epochs per sample (rma).
    pub epochs: u64,
    /// `-b`: first message size, bytes.
    pub start: u64,
    /// `-e`: last message size, bytes.
    pub stop: u64,
    /// `-s`: factor from one size to the next.
    pub factor: u64,
    /// Process counts: from `-f`, else the defaults of the layout.
    pub counts: Vec<usize>,
    /// The `-f` file's name and text, when given.
    pub file: Option<(String, String)>,
    /// `-p c`: cyclic allocation.
    pub cyclic: bool,
    /// `-t`: processes per SMP.
    pub ppn: Option<usize>,
    /// `-i`: print the pairs.
    pub print_pairs: bool,
    /// `-n`: no barrier inside the timed region.
    pub no_barrier: bool,
    /// `-r`: partner with the nearby rank on the next SMP.
    pub nearby: bool,
}

impl Options {
    /// The pairing and allocation these options ask for, for a world of `size`.
    pub fn layout(&self, size: usize) -> Layout {
        Layout::new(size, self.ppn, self.nearby, self.cyclic)
    }

    /// The message sizes: start, times the factor, up to stop.
    pub fn sizes(&self) -> Vec<u64> {
        let mut out = vec![self.start];
        while let Some(next) = out.last().and_then(|s| s.checked_mul(self.factor)) {
            if next > self.stop {
                break;
            }
            out.push(next);
        }
        out
    }
}

/// Default `-b`: the first message size, bytes (PRESTA's).
pub const START: u64 = 32;
/// Default `-e`: the last message size, bytes (PRESTA's).
pub const STOP: u64 = 8_388_608;
/// Default `-s`: the factor from one size to the next.
pub const FACTOR: u64 = 2;

/// The options `takes` allows, in `-h`'s order, worded as PRESTA's usage text words them.
pub fn flags(takes: Takes) -> Vec<Flag<Options>> {
    let whole = |names, value: &str, meaning: &str, lo, set: fn(&mut Options, u64)| {
        Flag::whole(names, value, meaning, (lo, u64::MAX), set)
    };
    let per = if takes.epochs { "epoch" } else { "sample" };
    let mut flags = Vec::new();
    if takes.sizes {
        flags.push(
            whole(&["-b"], "[message start size]", "bytes", 1, |o, v| o.start = v).default(START),
        );
    }
    if takes.epochs {
        flags.push(whole(
            &["-c"],
            "[number of epochs between measurements]",
            "required",
            1,
            |o, v| o.epochs = v,
        ));
    }
    if takes.sizes {
        flags.push(
            whole(&["-e"], "[message stop  size]", "bytes", 1, |o, v| o.stop = v).default(STOP),
        );
    }
    flags.extend([
        Flag::file(
            &["-f"],
            "[process count source file]",
            "one even count per line",
            |o: &mut Options, name, text| {
                o.file = Some((name.into(), text.into()));
                Ok(())
            },
        )
        .default(
            "2, 4, 8 ... up to the processes used and that number; with -t the multiples of 2 x \
             ppn (block) or of the SMPs (cyclic)",
        ),
        whole(&["-o"], &format!("[number of operations per {per}]"), "required", 1, |o, v| {
            o.ops = v
        }),
        Flag::text(
            &["-p"],
            "[allocate processes: c(yclic) or b(lock)]",
            "c needs -t",
            |o: &mut Options, v| {
                if v != "b" && v != "c" {
                    return Err("takes b (block) or c (cyclic)".into());
                }
                o.cyclic = v == "c";
                Ok(())
            },
        )
        .default("b"),
    ]);
    if takes.sizes {
        flags.push(
            whole(&["-s"], "[message size increase factor]", "", 2, |o, v| o.factor = v)
                .default(FACTOR),
        );
    }
    flags.extend([
        whole(
            &["-t"],
            "[processes per SMP]",
            "pairs by SMP; the processes a whole number of SMPs",
            1,
            |o, v| o.ppn = Some(v as usize),
        ),
        Flag::help(&["-h"], "print use information"),
        Flag::switch(&["-i"], "print process pair information", |o: &mut Options| {
            o.print_pairs = true
        })
        .default("false"),
        Flag::switch(&["-n"], "do not use barrier within measurement", |o: &mut Options| {
            o.no_barrier = true
        })
        .default("barrier used"),
        Flag::switch(
            &["-r"],
            "partner processes with nearby rank (needs -t)",
            |o: &mut Options| o.nearby = true,
        )
        .default("false"),
    ]);
    flags
}

/// The description of com, laten or rma: `binary`'s own facts and the options it takes.
pub fn about(binary: &Binary) -> About {
    let Binary { name, title, takes, timed, reported, files } = *binary;
    About {
        name,
        title: title.into(),
        usage: format!("syntax: mpirun -np P {name} [OPTION]..."),
        summary: String::new(),
        timed: timed.into(),
        reported: reported.into(),
        tasks: "2 or more; the pairs of each process count (-f, or the defaults of -f) run \
                at once, the other processes wait"
            .into(),
        check: "none (as PRESTA 1.2)".into(),
        files: files.into(),
        options: cli::options(&flags(takes)),
    }
}

/// Reads `line` for a world of `size` processes; `None` for `-h`.
pub fn parse(line: &Line, takes: Takes, size: usize) -> Result<Option<Options>, String> {
    let mut o = Options {
        ops: 0,
        epochs: 0,
        start: START,
        stop: STOP,
        factor: FACTOR,
        counts: Vec::new(),
        file: None,
        cyclic: false,
        ppn: None,
        print_pairs: false,
        no_barrier: false,
        nearby: false,
    };
    if cli::parse(&flags(takes), line, &mut o, cli::no_operand)? {
        return Ok(None);
    }
    if o.ops == 0 {
        let what = if takes.epochs { "operations per epoch" } else { "operations per sample" };
        return Err(format!("-o ({what}) is required: a whole number >= 1"));
    }
    if takes.epochs && o.epochs == 0 {
        return Err("-c (epochs per sample) is required: a whole number >= 1".into());
    }
    if o.start > o.stop {
        return Err(format!(
            "-b {} is above -e {}: the start size must not exceed the stop size",
            o.start, o.stop
        ));
    }
    if o.cyclic && o.ppn.is_none() {
        return Err("-p c (cyclic allocation) needs -t (processes per SMP)".into());
    }
    if o.nearby && o.ppn.is_none() {
        return Err("-r (partner with the nearby rank) needs -t (processes per SMP)".into());
    }
    if let Some(t) = o.ppn {
        if size % 2 == 1 {
            return Err(format!(
                "-t {t} with {size} processes: pairs by SMP need an even number of processes"
            ));
        }
        if !size.is_multiple_of(t) {
            return Err(format!(
                "-t {t}: the {size} processes of this run are not a whole number of SMPs of {t}"
            ));
        }
        if o.nearby && !size.is_multiple_of(2 * t) {
            return Err(format!(
                "-r -t {t}: the {size} processes must fill pairs of SMPs (a multiple of {})",
                2 * t
            ));
        }
    }
    if size < 2 {
        return Err(format!("{size} process: PRESTA's tests need at least 2 (one pair)"));
    }
    let layout = o.layout(size);
    match o.file.clone() {
        Some((f, text)) => {
            for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let bad = |why: &str| {
                    format!(
                        "-f {f} line {}: {:?} {why}; accepted: even counts from 2 to {}",
                        i + 1,
                        line.trim(),
                        layout.used
                    )
                };
                let c: usize = line.trim().parse().map_err(|_| bad("is not a number"))?;
                if c < 2 || c > layout.used {
                    return Err(bad("is out of range"));
                }
                if c % 2 == 1 {
                    return Err(bad("is odd"));
                }
                o.counts.push(c);
            }
            if o.counts.is_empty() {
                return Err(format!("-f {f}: no process count in it; one per line"));
            }
        }
        None => {
            o.counts = layout.default_counts();
            if o.counts.is_empty() {
                return Err(format!(
                    "no process count fits: -t {} asks for multiples of {}, this run has {}",
                    o.ppn.unwrap_or(1),
                    2 * o.ppn.unwrap_or(1),
                    layout.used
                ));
            }
        }
    }
    Ok(Some(o))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_gives_back_every_option_as_written() {
        for (sizes, epochs) in [(false, false), (true, false), (true, true)] {
            let binary = Binary {
                name: "t",
                title: "a test",
                takes: Takes { sizes, epochs },
                timed: "t",
                reported: "r",
                files: "f",
            };
            assert_eq!(about(&binary).help_misreads(), None);
        }
    }

    const COM: Takes = Takes { sizes: true, epochs: false };
    const RMA: Takes = Takes { sizes: true, epochs: true };
    const LATEN: Takes = Takes { sizes: false, epochs: false };

    fn p(args: &str, takes: Takes, size: usize) -> Result<Options, String> {
        let line = Line::of(args, &flags(takes), |f| match f {
            "good" => Ok("2\n\n4\n".into()),
            "odd" => Ok("3\n".into()),
            "big" => Ok("8\n".into()),
            "word" => Ok("two\n".into()),
            _ => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "not found")),
        });
        parse(&line, takes, size).map(|o| o.expect("no -h"))
    }

    #[test]
    fn defaults_and_sizes() {
        let o = p("-o 10", COM, 4).unwrap();
        assert_eq!((o.start, o.stop, o.factor), (32, 8_388_608, 2));
        assert_eq!(o.sizes().len(), 19);
        assert_eq!(o.counts, [2, 4]);
        let o = p("-o 5 -c 3 -b 100 -e 1000 -s 3 -f good -i -n -p c -t 2", RMA, 4).unwrap();
        assert_eq!(o.sizes(), [100, 300, 900]);
        assert_eq!(
            (o.counts.clone(), o.file.is_some(), o.cyclic, o.epochs),
            (vec![2, 4], true, true, 3)
        );
        let line = Line::of("-h", &flags(LATEN), |_| Ok(String::new()));
        assert_eq!(parse(&line, LATEN, 1), Ok(None));
    }

    #[test]
    fn bad_options_name_the_input_and_what_is_accepted() {
        for (args, takes, want) in [
            ("", COM, "-o (operations per sample) is required"),
            ("-o 0", LATEN, "-o 0: takes a whole number >= 1"),
            ("-o 4", RMA, "-c (epochs per sample) is required"),
            ("-o 4 -b 64 -e 32", COM, "-b 64 is above -e 32"),
            ("-o 4 -s 1", COM, "-s 1: takes a whole number >= 2"),
            ("-o 4 -f missing", COM, "-f missing: cannot read it"),
            ("-o 4 -f odd", COM, "-f odd line 1: \"3\" is odd; accepted: even counts from 2 to 4"),
            ("-o 4 -f big", COM, "\"8\" is out of range"),
            ("-o 4 -f word", COM, "\"two\" is not a number"),
            ("-o 4 -p c", COM, "-p c (cyclic allocation) needs -t"),
            ("-o 4 -r", COM, "-r (partner with the nearby rank) needs -t"),
            ("-o 4 -p x", COM, "-p x: takes b (block) or c (cyclic)"),
            ("-o 4 -t 3", COM, "-t 3: the 4 processes of this run are not a whole number"),
            ("-o 4 -r -t 4", COM, "-r -t 4: the 4 processes must fill pairs of SMPs"),
            ("-o 4 -b 64", LATEN, "unknown option \"-b\"; accepted: -f -o -p -t -h -i -n -r"),
            ("-o 4 -x", COM, "unknown option \"-x\""),
            ("-o", COM, "-o needs a value"),
        ] {
            let e = p(args, takes, 4).unwrap_err();
            assert!(e.contains(want), "{args}: {e}");
        }
        assert!(p("-o 1", COM, 1).unwrap_err().contains("at least 2"));
        let e = p("-o 4 -t 1", COM, 5).unwrap_err();
        assert!(e.contains("-t 1 with 5 processes: pairs by SMP need an even number"), "{e}");
    }
}
