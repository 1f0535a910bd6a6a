//! `paw-report side-by-side`: paw's programs and their originals run alternately on the same
//! command line, k pairs, with the machine's one-way latency probed before and after each
//! pair; pairs run across a change of the machine's level are set aside, and per row the
//! ratio of both medians over the kept pairs is given with a 95 % interval.

mod read;
mod stats;
mod suites;

pub use read::{Read, Rows, IMB_RESOLVED};
pub use stats::{median, ratios, same_level, Ratio};
pub use suites::{named, Side, Suite, SUITES};

use crate::summary::short;
use crate::Dat;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where and how the programs are run.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The originals' folder (scripts/build-originals' layout).
    pub originals: PathBuf,
    /// paw's binaries.
    pub bindir: PathBuf,
    /// The launcher and its options.
    pub mpirun: Vec<String>,
    /// Processes.
    pub np: usize,
    /// Pairs of runs.
    pub pairs: usize,
    /// Seconds a run may take.
    pub timeout: u64,
    /// A command line for both programs in place of the suite's own.
    pub args: Option<Vec<String>>,
}

/// One pair: both programs' rows and the one-way latency before and after, usec.
#[derive(Debug, Clone)]
pub struct Pair {
    /// paw's rows.
    pub paw: Rows,
    /// The original's rows.
    pub original: Rows,
    /// The probe before the pair.
    pub before: f64,
    /// The probe after it.
    pub after: f64,
}

/// A suite's outcome.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The suite.
    pub suite: &'static Suite,
    /// Pairs kept.
    pub kept: usize,
    /// Pairs set aside: run across a level change.
    pub aside: usize,
    /// The probes' median over the kept pairs, usec.
    pub level: f64,
    /// The MPI library, as paw's header names it.
    pub library: String,
    /// Per row present in every kept run of both: its name and ratio.
    pub rows: Vec<(String, Ratio)>,
    /// The geometric mean of the rows' ratios, with its interval.
    pub headline: Option<Ratio>,
}

impl Outcome {
    /// The outcome of `pairs`: those on one level kept, rows every kept run has.
    pub fn of(suite: &'static Suite, pairs: &[Pair]) -> Outcome {
        let kept: Vec<&Pair> = pairs.iter().filter(|p| same_level(p.before, p.after)).collect();
        let level = median(&kept.iter().map(|p| p.before.min(p.after)).collect::<Vec<_>>());
        let mut names: Vec<&String> =
            kept.first().map(|p| p.paw.iter().map(|r| &r.0).collect()).unwrap_or_default();
        let value = |rows: &Rows, name: &str| rows.iter().find(|r| r.0 == name).map(|r| r.1);
        let series = |name: &str, side: fn(&Pair) -> &Rows| -> Option<Vec<f64>> {
            kept.iter().map(|p| value(side(p), name).filter(|v| *v > 0.0)).collect()
        };
        let mut paw = Vec::new();
        let mut original = Vec::new();
        names.retain(|n| match (series(n, |p| &p.paw), series(n, |p| &p.original)) {
            (Some(p), Some(o)) => {
                paw.push(p);
                original.push(o);
                true
            }
            _ => false,
        });
        let (rows, headline) = if names.is_empty() {
            (Vec::new(), None)
        } else {
            let (r, h) = ratios(&paw, &original);
            (names.into_iter().cloned().zip(r).collect(), Some(h))
        };
        let aside = pairs.len() - kept.len();
        Outcome { suite, kept: kept.len(), aside, level, library: String::new(), rows, headline }
    }

    /// The rows whose interval leaves `lo..=hi`.
    pub fn outside(&self, lo: f64, hi: f64) -> Vec<&(String, Ratio)> {
        self.rows.iter().filter(|(_, r)| !r.inside(lo, hi)).collect()
    }
}

/// Runs `suite` `setup.pairs` times each way, alternately, with `progress` told each step.
pub fn run(
    suite: &'static Suite,
    setup: &Setup,
    progress: &mut dyn FnMut(&str),
) -> Result<Outcome, String> {
    let scratch = tempfile::Builder::new()
        .prefix("paw-side-by-side.")
        .tempdir()
        .map_err(|e| format!("a scratch folder: {e}"))?;
    let mut runs = 0;
    let mut fresh = || {
        runs += 1;
        let dir = scratch.path().join(format!("run{runs}"));
        std::fs::create_dir(&dir).map(|_| dir).map_err(|e| format!("a scratch folder: {e}"))
    };
    let original = setup.originals.join(suite.original.program);
    if !original.is_file() {
        return Err(format!(
            "{}: the original {} is not there (scripts/build-originals builds it)",
            suite.name,
            original.display()
        ));
    }
    let paw = setup.bindir.join(suite.paw.program);
    let first = fresh()?;
    let mut before = probe(setup, &first)?;
    let library =
        Dat::read(&first.join("latency.dat"))?.header_value("library").unwrap_or("").to_string();
    let mut pairs = Vec::new();
    for i in 0..setup.pairs {
        let mut one = |side: &Side, program: &Path| -> Result<Rows, String> {
            let dir = fresh()?;
            launch(setup, side, program, &dir, setup.np)
                .map_err(|e| format!("{}: {}: {e}", suite.name, program.display()))
        };
        let (p, o) = if i % 2 == 0 {
            let p = one(&suite.paw, &paw)?;
            (p, one(&suite.original, &original)?)
        } else {
            let o = one(&suite.original, &original)?;
            (one(&suite.paw, &paw)?, o)
        };
        let after = probe(setup, &fresh()?)?;
        let steady = same_level(before, after);
        progress(&format!(
            "{}: pair {}/{}: one-way latency {before:.3} usec before, {after:.3} after{}",
            suite.name,
            i + 1,
            setup.pairs,
            if steady { "" } else { ": a level change, set aside" }
        ));
        pairs.push(Pair { paw: p, original: o, before, after });
        before = after;
    }
    Ok(Outcome { library, ..Outcome::of(suite, &pairs) })
}

/// The one-way latency of a 1-byte message now, usec: paw's `latency` (calibrated NLOOP).
fn probe(setup: &Setup, dir: &Path) -> Result<f64, String> {
    let side = Side {
        program: "latency",
        args: "",
        own: "",
        env: &[],
        read: Read::DatAvg("latency.dat"),
        file: None,
        alone: false,
    };
    // latency runs on 2 tasks, whatever --np the suites run on.
    let rows = launch(setup, &side, &setup.bindir.join("latency"), dir, 2)
        .map_err(|e| format!("the latency probe: {e}"))?;
    Ok(rows[0].1)
}

/// One run of `program` on `np` tasks as `side` says, in `dir`; its rows.
fn launch(
    setup: &Setup,
    side: &Side,
    program: &Path,
    dir: &Path,
    np: usize,
) -> Result<Rows, String> {
    let given = match &setup.args {
        Some(a) if side.program != "latency" => a.clone(),
        _ => side
            .args
            .split_whitespace()
            .map(|a| a.replace("{dir}", &dir.to_string_lossy()))
            .collect(),
    };
    let args: Vec<String> = side.own.split_whitespace().map(String::from).chain(given).collect();
    let mut cmd = Command::new("timeout");
    cmd.args(["-k", "5", &setup.timeout.to_string()]);
    if !side.alone {
        cmd.args(&setup.mpirun).args(["-np", &np.to_string()]);
    }
    cmd.arg(program).args(&args);
    cmd.current_dir(dir).env("PAW_OUTPUT_DIR", dir).envs(side.env.iter().copied());
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1").env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot start timeout {}: {e}", setup.mpirun.join(" ")))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
        let why = if out.status.code() == Some(124) {
            format!("took more than {} s", setup.timeout)
        } else {
            out.status.to_string()
        };
        return Err(format!("{why}: {last}"));
    }
    let text = match side.file {
        Some(f) => std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"))?,
        None => stdout.into_owned(),
    };
    side.read.rows(&text, dir)
}

/// A suite's outcome as text: per row both medians, the ratio and its interval.
pub fn render(o: &Outcome) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}: paw / original, {}", o.suite.name, o.suite.figure);
    let _ = writeln!(
        s,
        "  {} pairs kept, {} set aside (a latency level change); one-way latency {:.3} usec",
        o.kept, o.aside, o.level
    );
    let width = o.rows.iter().map(|r| r.0.len()).max().unwrap_or(3).max(3);
    let _ = writeln!(
        s,
        "  {:width$}  {:>12}  {:>12}  {:>6}  95% interval",
        "row", "paw", "original", "ratio"
    );
    for (name, r) in &o.rows {
        // Apart: the whole interval outside the band; reaching past: only part of it.
        let flag = if r.inside(0.95, 1.05) {
            ""
        } else if r.lo > 1.05 || r.hi < 0.95 {
            "  APART from 0.95-1.05"
        } else {
            "  reaches past 0.95-1.05"
        };
        let _ = writeln!(
            s,
            "  {name:width$}  {:>12}  {:>12}  {:>6.3}  {:.3}-{:.3}{flag}",
            short(r.paw),
            short(r.original),
            r.ratio,
            r.lo,
            r.hi
        );
    }
    match &o.headline {
        Some(h) => {
            let _ = writeln!(
                s,
                "  headline (geometric mean of {} rows): {:.3} ({:.3}-{:.3})",
                o.rows.len(),
                h.ratio,
                h.lo,
                h.hi
            );
        }
        None => {
            let _ = writeln!(
                s,
                "  no row to compare: no pair on one level, or no row both programs gave"
            );
        }
    }
    s
}

/// doc/truth.md's table: per suite the headline, and the rows whose interval lies wholly
/// outside 0.95-1.05 (by benchmark: lengths and ratios), and how many more reach past it.
pub fn truth_table(outcomes: &[Outcome], machine: &str, library: &str, date: &str) -> String {
    let mut s = format!("Machine: {machine}. Library: {library}. Date: {date}.\n\n");
    s.push_str(
        "| suite | pairs kept (set aside) | rows | headline ratio (95% interval) | rows apart: \
         interval wholly outside 0.95-1.05 | rows reaching past 0.95-1.05 |\n\
         |---|---|---|---|---|---|\n",
    );
    for o in outcomes {
        let head = o
            .headline
            .as_ref()
            .map_or("-".to_string(), |h| format!("{:.3} ({:.3}-{:.3})", h.ratio, h.lo, h.hi));
        let apart: Vec<&(String, Ratio)> =
            o.rows.iter().filter(|(_, r)| r.lo > 1.05 || r.hi < 0.95).collect();
        let past = o.outside(0.95, 1.05).len() - apart.len();
        let _ = writeln!(
            s,
            "| {} | {} ({}) | {} | {head} | {} | {past} |",
            o.suite.name,
            o.kept,
            o.aside,
            o.rows.len(),
            grouped(&apart)
        );
    }
    s
}

/// Rows by benchmark (the name without its length): `name: lengths A-B, ratios x-y`.
fn grouped(rows: &[&(String, Ratio)]) -> String {
    let mut groups: Vec<(String, Vec<&str>, Vec<f64>)> = Vec::new();
    for (name, r) in rows {
        let (group, length) = match name.rsplit_once(' ') {
            Some((g, l)) if l.parse::<f64>().is_ok() => (g.to_string(), l),
            _ => (name.clone(), ""),
        };
        match groups.iter_mut().find(|g| g.0 == group) {
            Some(g) => {
                g.1.push(length);
                g.2.push(r.ratio);
            }
            None => groups.push((group, vec![length], vec![r.ratio])),
        }
    }
    if groups.is_empty() {
        return "none".to_string();
    }
    let each: Vec<String> = groups
        .iter()
        .map(|(g, lengths, ratios)| {
            let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let at = match (lengths.first(), lengths.last()) {
                (Some(&""), _) => String::new(),
                (Some(&a), Some(&b)) if a == b => format!(" at {a}"),
                (Some(&a), Some(&b)) => format!(" {a}-{b} ({} lengths)", lengths.len()),
                _ => String::new(),
            };
            if lo == hi {
                format!("{g}{at}: {lo:.2}")
            } else {
                format!("{g}{at}: {lo:.2}-{hi:.2}")
            }
        })
        .collect();
    each.join("; ")
}

/// `file` with the text between its side-by-side markers replaced by `table` (markers
/// added at its end when it has none).
pub fn replace_table(file: &str, table: &str) -> String {
    const BEGIN: &str = "<!-- side-by-side table: begin -->";
    const END: &str = "<!-- side-by-side table: end -->";
    match (file.find(BEGIN), file.find(END)) {
        (Some(b), Some(e)) if b < e => format!("{}{BEGIN}\n{table}{}", &file[..b], &file[e..]),
        _ => format!("{file}\n{BEGIN}\n{table}{END}\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An IMB PingPong table with times `t` at 1 KiB and 4 KiB.
    fn pingpong(t: [f64; 2]) -> Rows {
        let text = format!(
            "# Benchmarking PingPong\n# #processes = 2\n#bytes #repetitions t[usec] Mbytes/sec\n\
             1024 1000 {:.2} 1.0\n4096 1000 {:.2} 1.0\n",
            t[0], t[1]
        );
        Read::Imb.rows(&text, Path::new(".")).unwrap()
    }

    #[test]
    fn two_fixed_outputs_give_their_ratio_and_a_level_change_is_set_aside() {
        // The original takes twice paw's time in every pair on one level; one pair between
        // probes 3x apart, whatever it measured, counts for nothing.
        let mut pairs: Vec<Pair> = (0..4)
            .map(|i| {
                let t = 1.0 + 0.1 * f64::from(i);
                let (paw, original) = (pingpong([t, 2.0 * t]), pingpong([2.0 * t, 4.0 * t]));
                Pair { paw, original, before: 0.30, after: 0.31 }
            })
            .collect();
        pairs.push(Pair {
            paw: pingpong([9.0, 9.0]),
            original: pingpong([1.0, 1.0]),
            before: 0.2,
            after: 0.6,
        });
        let o = Outcome::of(named("IMB-MPI1").unwrap(), &pairs);
        assert_eq!((o.kept, o.aside, o.rows.len()), (4, 1, 2));
        assert_eq!(o.rows[0].0, "PingPong np 2 1024");
        for (_, r) in &o.rows {
            assert!((r.ratio - 0.5).abs() < 1e-9 && (r.lo - 0.5).abs() < 1e-9 && r.hi < 0.51);
        }
        let h = o.headline.clone().unwrap();
        assert!((h.ratio - 0.5).abs() < 1e-9, "{h:?}");
        let text = render(&o);
        assert!(text.contains("0.500-0.500  APART from 0.95-1.05"), "{text}");
        let mut wide = o.clone();
        wide.rows[0].1.hi = 1.2;
        assert!(render(&wide).contains("0.500-1.200  reaches past 0.95-1.05"));
        let table = truth_table(&[o], "m", "l", "d");
        assert!(table.contains("| IMB-MPI1 | 4 (1) | 2 | 0.500 (0.500-0.500) |"), "{table}");
        assert!(table.contains("PingPong np 2 1024-4096 (2 lengths): 0.50 | 0 |"), "{table}");
        let doc = replace_table("# t\n<!-- side-by-side table: begin -->\nold\n<!-- side-by-side table: end -->\nafter\n", "new\n");
        assert_eq!(doc, "# t\n<!-- side-by-side table: begin -->\nnew\n<!-- side-by-side table: end -->\nafter\n");
    }
}
