//! `paw-report compare BASE NEW`: the same files and rows in two result directories, the
//! change of each figure in percent of its cost (positive is slower, for times and rates
//! alike), which changes are real, and which settings differ between the runs.
//!
//! Rows of two launches results (`paw-report launches`) are judged by their launches: per
//! row a t-test of the launches' log figures whose variance leans on the file's other rows
//! ([`test::moderated_t`]), and Benjamini and Hochberg's rule over all rows
//! compared at [`FALSE_DISCOVERY`], so that a comparison of two results of one setup calls
//! some row changed in at most 5 % of comparisons; a change counts when the rule keeps it
//! and it exceeds the threshold ([`LAUNCH_THRESHOLD`] unless told). The launches of the same
//! machine state are compared where both results have them ([`crate::launches::probe`]).
//!
//! Rows of single launches keep the rule of one launch: a change counts when it exceeds the
//! threshold ([`SAMPLE_THRESHOLD`]) and, where both files hold the median's 95 % interval
//! (sweeps), the two intervals are disjoint; a file without intervals (IMB's and the suites'
//! tables) is judged on the threshold alone. Those intervals are over one launch's samples,
//! and the output says that launches differ by more.

use crate::figures::report;
use crate::launches::spread::{self, Logs, Prior};
use crate::launches::{probe, test, Record};
use crate::results::{read_dir, read_state, Figure, Measured, Quantity, ResultFile};
use crate::summary::short;
use paw_base::schema::Better;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The false-discovery rate of a comparison of launches results.
pub const FALSE_DISCOVERY: f64 = 0.05;

/// The smallest change counted between launches results unless told, a fraction.
pub const LAUNCH_THRESHOLD: f64 = 0.05;

/// The smallest change counted between single launches unless told, a fraction.
pub const SAMPLE_THRESHOLD: f64 = 0.10;

/// What a row's change means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// Within the threshold or within the runs' intervals.
    Same,
    /// A real slowdown.
    Slower,
    /// A real improvement.
    Faster,
}

impl Flag {
    /// The word printed.
    pub fn word(self) -> &'static str {
        match self {
            Flag::Same => "same",
            Flag::Slower => "slower",
            Flag::Faster => "faster",
        }
    }
}

/// What the intervals said about a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intervals {
    /// Both rows have one and they do not overlap: the medians differ.
    Apart,
    /// Both rows have one and they overlap: the runs' own spread covers the change.
    Overlap,
    /// A file without intervals: the threshold alone decides.
    None,
}

impl Intervals {
    /// The word printed.
    pub fn word(self) -> &'static str {
        match self {
            Intervals::Apart => "apart",
            Intervals::Overlap => "overlap",
            Intervals::None => "-",
        }
    }
}

/// One row (a size, or a table's cell) of one file in both runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The file's name (or `headline figures`).
    pub file: String,
    /// The row's key.
    pub size: String,
    /// The unit of the values.
    pub unit: String,
    /// The base run's figure.
    pub base: f64,
    /// The new run's figure.
    pub new: f64,
    /// The base run's 95 % interval of the median, where its file has one.
    pub base_interval: Option<(f64, f64)>,
    /// The new run's interval, as `base_interval`.
    pub new_interval: Option<(f64, f64)>,
    /// The change in percent of the cost (the time, or the inverse of a rate): positive is
    /// slower whatever the unit; +100 is twice the time or half the bandwidth.
    pub change: f64,
    /// What the intervals said.
    pub intervals: Intervals,
    /// The verdict.
    pub flag: Flag,
    /// Of rows judged by their launches: the test.
    pub launches: Option<LaunchTest>,
}

/// The test of one row's launches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LaunchTest {
    /// The base result's launches.
    pub base: usize,
    /// The new result's launches.
    pub new: usize,
    /// The two-sided p-value.
    pub p: f64,
    /// Whether Benjamini and Hochberg's rule keeps it.
    pub kept: bool,
}

/// The verdict of one row: the change in percent of the cost, what the intervals say, and
/// whether it counts (beyond `threshold`, a fraction, and not inside overlapping intervals).
pub fn judge(
    better: Better,
    (base, base_interval): (f64, Option<(f64, f64)>),
    (new, new_interval): (f64, Option<(f64, f64)>),
    threshold: f64,
) -> (f64, Intervals, Flag) {
    let cost = match better {
        Better::Higher => base / new,
        _ => new / base,
    };
    let change = (cost - 1.0) * 100.0;
    let intervals = match (base_interval, new_interval) {
        (Some((blo, bhi)), Some((nlo, nhi))) if nlo > bhi || nhi < blo => Intervals::Apart,
        (Some(_), Some(_)) => Intervals::Overlap,
        _ => Intervals::None,
    };
    let counts = change.abs() > threshold * 100.0 && intervals != Intervals::Overlap;
    let flag = match counts {
        true if change > 0.0 => Flag::Slower,
        true => Flag::Faster,
        false => Flag::Same,
    };
    (change, intervals, flag)
}

/// A header fact that differs between the two runs (a setting, a variable of the
/// environment, the task count, the library ...).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Difference {
    /// What differs: a header key, or a key and a variable (`environment OMPI_MCA_btl`).
    pub what: String,
    /// Its value in the base run (`(unset)` when absent).
    pub base: String,
    /// Its value in the new run.
    pub new: String,
}

/// The outcome of comparing two directories.
#[derive(Debug, Default)]
pub struct Report {
    /// Every row present in both runs of every file present in both, then the headline
    /// figures of files without rows (b_eff's protocol, b_eff_io's summary).
    pub rows: Vec<Comparison>,
    /// Files only the base run has.
    pub only_base: Vec<String>,
    /// Files only the new run has.
    pub only_new: Vec<String>,
    /// Header differences, each with the number of compared files showing it.
    pub differences: Vec<(Difference, usize)>,
    /// How many files both runs have.
    pub files: usize,
    /// The thresholds applied: between launches results, between single launches.
    pub thresholds: (f64, f64),
    /// Lines about what was compared: the machine states, single launches.
    pub notes: Vec<String>,
}

impl Report {
    /// Rows flagged as slower.
    pub fn slower(&self) -> usize {
        self.rows.iter().filter(|r| r.flag == Flag::Slower).count()
    }

    /// The rows of one file.
    pub fn rows_of<'a>(&'a self, file: &'a str) -> impl Iterator<Item = &'a Comparison> + 'a {
        self.rows.iter().filter(move |r| r.file == file)
    }
}

/// What differs between two files' facts.
fn differences(b: &BTreeMap<String, String>, n: &BTreeMap<String, String>) -> Vec<Difference> {
    let unset = || "(unset)".to_string();
    let keys: BTreeSet<&String> = b.keys().chain(n.keys()).collect();
    keys.into_iter()
        .filter(|k| b.get(*k) != n.get(*k))
        .map(|k| Difference {
            what: k.clone(),
            base: b.get(k).cloned().unwrap_or_else(unset),
            new: n.get(k).cloned().unwrap_or_else(unset),
        })
        .collect()
}

/// The label of the headline figures compared.
pub const HEADLINES: &str = "headline figures";

/// Compares the result files of `base` and `new`; `threshold` is the relative change a row
/// must exceed (0.1 for 10 %) to count, by default [`LAUNCH_THRESHOLD`] for rows judged by
/// launches and [`SAMPLE_THRESHOLD`] for others. Nothing compared is an error saying what
/// each side holds.
pub fn compare(base: &Path, new: &Path, threshold: Option<f64>) -> Result<Report, String> {
    let thresholds = (threshold.unwrap_or(LAUNCH_THRESHOLD), threshold.unwrap_or(SAMPLE_THRESHOLD));
    let (records, notes) = like_with_like(base, new);
    let read = |dir: &Path, r: &Option<(Record, usize)>| match r {
        Some((record, n)) => read_state(dir, record, *n),
        None => read_dir(dir),
    };
    let (old_files, new_files) = (read(base, &records.0)?, read(new, &records.1)?);
    let names = |f: &[ResultFile]| f.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
    let (b, n) = (names(&old_files), names(&new_files));
    let mut report = Report {
        only_base: b.iter().filter(|f| !n.contains(f)).cloned().collect(),
        only_new: n.iter().filter(|f| !b.contains(f)).cloned().collect(),
        thresholds,
        notes,
        ..Report::default()
    };
    let mut seen: BTreeMap<Difference, usize> = BTreeMap::new();
    for old in &old_files {
        let Some(cur) = new_files.iter().find(|f| f.name == old.name) else { continue };
        report.files += 1;
        for d in differences(&old.facts, &cur.facts) {
            *seen.entry(d).or_default() += 1;
        }
        for row in &cur.rows {
            let Some(prev) =
                old.rows.iter().find(|r| r.key == row.key && r.quantity == row.quantity)
            else {
                continue;
            };
            report.rows.push(comparison(&old.name, prev, row, thresholds.1));
        }
    }
    // The headline figures read from files that hold no rows (b_eff's protocol, b_eff_io's
    // summary): their one number each.
    let headlines = |dir: &Path| -> Vec<Figure> {
        let Ok(r) = report_of(dir) else { return Vec::new() };
        r.into_iter()
            .filter(|f| !f.source.ends_with(".dat") && !f.source.ends_with(".csv"))
            .collect()
    };
    let old_figures = headlines(base);
    for f in headlines(new) {
        let Some(prev) = old_figures.iter().find(|p| p.key() == f.key()) else { continue };
        let as_row = |f: &Figure| Measured {
            key: f.name.clone(),
            value: f.value,
            interval: f.interval,
            quantity: Quantity::of_label(&f.unit),
            launches: Vec::new(),
        };
        report.rows.push(comparison(HEADLINES, &as_row(prev), &as_row(&f), thresholds.1));
    }
    report.differences = seen.into_iter().collect();
    if report.rows.is_empty() {
        return Err(nothing_compared(base, &b, new, &n, report.files));
    }
    judge_launches(&mut report.rows, &old_files, &new_files, thresholds.0);
    let single = report.rows.iter().filter(|r| r.launches.is_none()).count();
    if single > 0 {
        report.notes.push(format!(
            "{single} of {} rows are of single launches: their intervals are over the samples of \
             one launch, and launches of one command differ by more (here 10-55 % per row \
             between twelve launches, doc/methodology.md section 9): a change beyond {}% with \
             the intervals apart may be the launch's; paw-report launches makes results that \
             compare by their launches",
            report.rows.len(),
            thresholds.1 * 100.0
        ));
    }
    Ok(report)
}

/// The states of two launches results to compare, like with like: the pair of states of
/// one probe level with the most launches on its smaller side, the results' own states
/// first; and what was chosen, in words.
#[allow(clippy::type_complexity)]
fn like_with_like(
    base: &Path,
    new: &Path,
) -> ((Option<(Record, usize)>, Option<(Record, usize)>), Vec<String>) {
    let usable = |d: &Path| Record::read(d).filter(|r| !r.states.is_empty());
    let (rb, rn) = (usable(base), usable(new));
    let (Some(rb), Some(rn)) = (rb, rn) else {
        return ((usable(base).map(|r| (r, 0)), usable(new).map(|r| (r, 0))), Vec::new());
    };
    let mut best: Option<(usize, usize, usize)> = None;
    for (i, s) in rb.states.iter().enumerate() {
        for (j, t) in rn.states.iter().enumerate() {
            let one = s.probe_ns == t.probe_ns || probe::same_state(s.probe_ns, t.probe_ns);
            let size = s.launches.len().min(t.launches.len());
            if one && best.is_none_or(|(_, _, b)| size > b) {
                best = Some((i, j, size));
            }
        }
    }
    let ns = |r: &Record, n: usize| r.states[n].probe_ns;
    let mut notes = Vec::new();
    let (i, j) = match best {
        Some((i, j, _)) => {
            if (i, j) != (0, 0) {
                notes.push(format!(
                    "like with like: the launches of one machine state compared (CPU round trip \
                     {:.0} ns): base's state {} ({} launches), new's state {} ({} launches)",
                    ns(&rb, i),
                    i + 1,
                    rb.states[i].launches.len(),
                    j + 1,
                    rn.states[j].launches.len()
                ));
            }
            (i, j)
        }
        None => {
            notes.push(format!(
                "the results ran in different machine states (CPU round trip base {:.0} ns, new \
                 {:.0} ns; no state in both): their rows differ by the state as much as by any \
                 change",
                ns(&rb, 0),
                ns(&rn, 0)
            ));
            (0, 0)
        }
    };
    ((Some((rb, i)), Some((rn, j))), notes)
}

/// Judges by their launches the rows that have two or more launches on both sides: the
/// moderated t-test per row (the launches' log figures, [`spread::kept`]; each file's rows
/// give the prior of a launch's spread), Benjamini and Hochberg's rule over them all, then
/// the threshold.
fn judge_launches(rows: &mut [Comparison], old: &[ResultFile], new: &[ResultFile], threshold: f64) {
    let values = |files: &[ResultFile], r: &Comparison| -> Vec<f64> {
        files
            .iter()
            .find(|f| f.name == r.file)
            .and_then(|f| f.rows.iter().find(|m| m.key == r.size && m.quantity.label == r.unit))
            .map(|m| spread::kept(&m.launches))
            .unwrap_or_default()
    };
    let mut logs: Vec<(usize, Logs, Logs)> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let (b, n) = (values(old, r), values(new, r));
        if b.len() >= 2 && n.len() >= 2 {
            logs.push((i, Logs::of(&b), Logs::of(&n)));
        }
    }
    let mut priors: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    for (i, b, n) in &logs {
        priors.entry(rows[*i].file.as_str()).or_default().push(test::pooled(b, n));
    }
    let priors: BTreeMap<String, Prior> =
        priors.into_iter().filter_map(|(f, v)| Some((f.to_string(), Prior::of(&v)?))).collect();
    let tested: Vec<(usize, usize, usize, test::Tested)> = logs
        .iter()
        .filter_map(|(i, b, n)| {
            let prior = priors.get(&rows[*i].file)?;
            Some((*i, b.n, n.n, test::moderated_t(b, n, prior)))
        })
        .collect();
    let p: Vec<f64> = tested.iter().map(|t| t.3.p).collect();
    let kept = test::benjamini_hochberg(&p, FALSE_DISCOVERY);
    for ((i, nb, nn, t), kept) in tested.into_iter().zip(kept) {
        let r = &mut rows[i];
        let better = Quantity::of_label(&r.unit).better;
        let slower = t.higher == (better != Better::Higher);
        r.launches = Some(LaunchTest { base: nb, new: nn, p: t.p, kept });
        r.intervals = Intervals::None;
        let beyond = r.change.abs() > threshold * 100.0 && (r.change > 0.0) == slower;
        r.flag = match (kept && beyond, slower) {
            (true, true) => Flag::Slower,
            (true, false) => Flag::Faster,
            _ => Flag::Same,
        };
    }
}

/// The headline figures of a directory, flat.
fn report_of(dir: &Path) -> Result<Vec<Figure>, String> {
    Ok(report(dir, 0.8)?.sections.into_iter().flat_map(|s| s.figures).collect())
}

/// One row of both runs.
fn comparison(file: &str, old: &Measured, new: &Measured, threshold: f64) -> Comparison {
    let (change, intervals, flag) =
        judge(new.quantity.better, (old.value, old.interval), (new.value, new.interval), threshold);
    Comparison {
        file: file.to_string(),
        size: new.key.clone(),
        unit: new.quantity.label.clone(),
        base: old.value,
        new: new.value,
        base_interval: old.interval,
        new_interval: new.interval,
        change,
        intervals,
        flag,
        launches: None,
    }
}

/// Why nothing was compared: what each side holds.
fn nothing_compared(base: &Path, b: &[String], new: &Path, n: &[String], common: usize) -> String {
    let holds = |dir: &Path, files: &[String]| -> String {
        match files {
            [] => format!("{} holds no result file", dir.display()),
            [one] => format!("{} holds {one}", dir.display()),
            more => format!(
                "{} holds {} files ({}{})",
                dir.display(),
                more.len(),
                more.iter().take(4).cloned().collect::<Vec<_>>().join(", "),
                if more.len() > 4 { ", ..." } else { "" }
            ),
        }
    };
    let why = if common == 0 { "no result file in common" } else { "no row in common" };
    format!("nothing compared: {why}; {}; {}", holds(base, b), holds(new, n))
}

/// The comparison as text: the settings that differ, then per file its rows (both figures
/// with their intervals, the change, what decided it, the word) and a verdict line, the
/// files of one side only, notes on what was compared, and a closing count.
pub fn render(report: &Report, base: &Path, new: &Path) -> String {
    let mut out = String::new();
    if !report.differences.is_empty() {
        out += "settings that differ between the runs (base -> new):\n";
        let width = report.differences.iter().map(|(d, _)| d.what.len()).max().unwrap_or(0);
        for (d, n) in &report.differences {
            let files = if *n == report.files {
                "all files".to_string()
            } else {
                format!("{n} of {} files", report.files)
            };
            out += &format!("  {:<width$}  {} -> {}  ({files})\n", d.what, d.base, d.new);
        }
        out += "\n";
    }
    let key = report.rows.iter().map(|r| r.size.len()).max().unwrap_or(0).max(12);
    let figure = |v: f64, i: Option<(f64, f64)>| {
        let i = i.map_or("-".to_string(), |(lo, hi)| format!("[{}, {}]", short(lo), short(hi)));
        format!("{:>11} {i:<25}", short(v))
    };
    out += &format!(
        "{:>key$}  {:>11} {:<25} {:>11} {:<25} {:>9}  {:<11} verdict\n",
        "row", "base", "[95% interval]", "new", "[95% interval]", "change", "decided by"
    );
    let mut files: Vec<&str> = report.rows.iter().map(|r| r.file.as_str()).collect();
    files.dedup();
    for file in files {
        let rows: Vec<_> = report.rows_of(file).collect();
        let units: BTreeSet<&str> = rows.iter().map(|r| r.unit.as_str()).collect();
        let units: Vec<&str> = units.into_iter().collect();
        out += &format!("{file} [{}]\n", units.join("; "));
        for r in &rows {
            let test = match &r.launches {
                Some(t) => format!("p {:.3}{}", t.p, if t.kept { "*" } else { "" }),
                None => r.intervals.word().to_string(),
            };
            // A rate's change is of its cost; its own change is said beside the word.
            let own = match Quantity::of_label(&r.unit).better {
                Better::Higher => format!(" (the figure {:+.1}%)", (r.new / r.base - 1.0) * 100.0),
                _ => String::new(),
            };
            out += &format!(
                "{:>key$}  {} {} {:>+8.1}%  {test:<11} {}{own}\n",
                r.size,
                figure(r.base, r.base_interval),
                figure(r.new, r.new_interval),
                r.change,
                r.flag.word()
            );
        }
        let count = |f: Flag| rows.iter().filter(|r| r.flag == f).count();
        let (slower, faster) = (count(Flag::Slower), count(Flag::Faster));
        let verdict = match (slower, faster) {
            (0, 0) => "same",
            (0, _) => "faster",
            _ => "SLOWER",
        };
        let worst =
            rows.iter().max_by(|a, b| a.change.abs().total_cmp(&b.change.abs())).expect("a row");
        out += &format!(
            "{file}: {verdict} ({slower} of {} rows slower, {faster} faster; largest change {:+.1}% at {}, {})\n",
            rows.len(),
            worst.change,
            worst.size,
            worst.flag.word()
        );
    }
    for f in &report.only_base {
        out += &format!("only in {}: {f}\n", base.display());
    }
    for f in &report.only_new {
        out += &format!("only in {}: {f}\n", new.display());
    }
    for n in &report.notes {
        out += &format!("note: {n}\n");
    }
    let faster = report.rows.iter().filter(|r| r.flag == Flag::Faster).count();
    let by_launches: Vec<&LaunchTest> =
        report.rows.iter().filter_map(|r| r.launches.as_ref()).collect();
    let (lt, st) = (report.thresholds.0 * 100.0, report.thresholds.1 * 100.0);
    let mut rules = Vec::new();
    if let Some(t) = by_launches.first() {
        rules.push(format!(
            "{} rows by their launches ({} against {}): a moderated t-test per row, p* kept by \
             Benjamini and Hochberg's rule over those rows at {}% false discoveries, and beyond {lt}%",
            by_launches.len(),
            t.base,
            t.new,
            FALSE_DISCOVERY * 100.0
        ));
    }
    let single = report.rows.len() - by_launches.len();
    if single > 0 {
        rules.push(format!(
            "{single} rows of single launches: beyond {st}% and, where the files hold them, with \
             the two 95% intervals apart"
        ));
    }
    let (measurements, slower) = measurements(report);
    out += &format!(
        "{} rows compared in {} files: {} slower, {faster} faster ({}); {measurements} \
         measurements ({slower} slower): a sweep's time and bandwidth or rate rows of one size \
         are one measurement\n",
        report.rows.len(),
        report.files,
        report.slower(),
        rules.join("; ")
    );
    out
}

/// The measurements compared and those slower: the rows of a sweep's files of one stem
/// and task count (`send_time-np_0002.dat`, `send_bw-np_0002.dat`) at one size are one.
fn measurements(report: &Report) -> (usize, usize) {
    let measurement = |r: &Comparison| {
        let stem = match r.file.rsplit_once("-np_") {
            Some((name, count)) => {
                let name = name.rsplit_once('_').map_or(name, |(stem, _)| stem);
                format!("{name}-np_{}", count.trim_end_matches(".dat"))
            }
            None => r.file.clone(),
        };
        (stem, r.size.clone())
    };
    let all: BTreeSet<(String, String)> = report.rows.iter().map(measurement).collect();
    let slower: BTreeSet<(String, String)> =
        report.rows.iter().filter(|r| r.flag == Flag::Slower).map(measurement).collect();
    (all.len(), slower.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Direction;

    fn write(dir: &Path, name: &str, unit: &str, rows: &[(u32, f64, f64, f64)]) {
        write_with(dir, name, "", unit, rows)
    }

    /// A sweep file of 10 samples per row, whose rows are (size, CI_LO, MEDIAN, CI_HI); MIN
    /// and MAX 100 times beyond the interval (one stray sample each way).
    fn write_with(dir: &Path, name: &str, head: &str, unit: &str, rows: &[(u32, f64, f64, f64)]) {
        let mut text = format!(
            "# paw x -- t\n{head}# y: q [{unit}]; AVG ...\n# columns: SIZE AVG MIN MAX STDDEV MEDIAN NLOOP NREPS CI_LO CI_HI NOISY\n"
        );
        for (s, lo, med, hi) in rows {
            let (min, max) = (lo / 100.0, hi * 100.0);
            text += &format!("{s} {med} {min} {max} 0 {med} 1 10 {lo} {hi} 0\n");
        }
        std::fs::write(dir.join(name), text).unwrap();
    }

    #[test]
    fn real_changes_are_flagged_by_direction_on_the_intervals() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        write(
            a.path(),
            "t.dat",
            "usec",
            &[(1, 1.0, 1.1, 1.2), (2, 2.0, 2.1, 2.2), (4, 1.0, 1.1, 1.2)],
        );
        write(
            b.path(),
            "t.dat",
            "usec",
            &[(1, 2.0, 2.2, 2.4), (2, 1.8, 2.15, 2.5), (4, 1.0, 1.11, 1.2)],
        );
        write(a.path(), "bw.dat", "MB/s (MB = 2^20 B)", &[(1, 100.0, 110.0, 120.0)]);
        write(b.path(), "bw.dat", "MB/s (MB = 2^20 B)", &[(1, 200.0, 220.0, 240.0)]);
        // A sweep's two files of one measurement (x_time, x_bw): one measurement a size.
        write(a.path(), "x_time-np_0002.dat", "usec", &[(1, 1.0, 1.1, 1.2)]);
        write(b.path(), "x_time-np_0002.dat", "usec", &[(1, 2.0, 2.2, 2.4)]);
        write(a.path(), "x_bw-np_0002.dat", "MB/s (MB = 2^20 B)", &[(1, 2.0, 2.2, 2.4)]);
        write(b.path(), "x_bw-np_0002.dat", "MB/s (MB = 2^20 B)", &[(1, 1.0, 1.1, 1.2)]);
        write(a.path(), "only.dat", "usec", &[(1, 1.0, 1.0, 1.0)]);
        let r = compare(a.path(), b.path(), Some(0.1)).unwrap();
        let row = |f: &str, s: &str| r.rows.iter().find(|c| c.file == f && c.size == s).unwrap();
        assert_eq!(row("t.dat", "1").flag, Flag::Slower, "twice the time, MIN..MAX overlapping");
        assert_eq!(row("t.dat", "1").intervals, Intervals::Apart);
        assert_eq!(row("t.dat", "2").flag, Flag::Same, "intervals overlap");
        assert_eq!(row("t.dat", "2").intervals, Intervals::Overlap);
        assert_eq!(row("t.dat", "4").flag, Flag::Same, "1% is below the threshold");
        assert_eq!(row("bw.dat", "1").flag, Flag::Faster, "twice the bandwidth");
        assert!((row("t.dat", "1").change - 100.0).abs() < 1e-9, "twice the time: +100 %");
        assert!((row("bw.dat", "1").change + 50.0).abs() < 1e-9, "twice the bandwidth: -50 %");
        assert_eq!(row("bw.dat", "1").base_interval, Some((100.0, 120.0)));
        assert_eq!(r.files, 4);
        assert!(r.differences.is_empty());
        assert_eq!(r.slower(), 3);
        assert_eq!(measurements(&r), (5, 2), "x's time and bandwidth rows are one");
        let text = render(&r, a.path(), b.path());
        assert!(text.contains("slower (the figure -50.0%)"), "{text}");
        assert_eq!(r.only_base, ["only.dat"]);
        assert!(r.only_new.is_empty());
    }

    #[test]
    fn one_stray_sample_of_five_hides_no_change() {
        // Five samples: the median's interval is MIN..MAX. The new run is 13 times slower,
        // but one of its samples is as fast as the base's fastest.
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let head = "# paw x -- t\n# y: q [usec]; AVG ...\n# columns: SIZE AVG MIN MAX STDDEV MEDIAN NLOOP NREPS CI_LO CI_HI NOISY\n";
        let base = format!("{head}1 0.48 0.47 0.50 0.01 0.48 1000 5 0.47 0.50 0\n");
        let new = format!("{head}1 5.2 0.47 6.8 2.5 6.4 1000 5 0.47 6.8 1\n");
        std::fs::write(a.path().join("t.dat"), base).unwrap();
        std::fs::write(b.path().join("t.dat"), new).unwrap();
        let r = compare(a.path(), b.path(), Some(0.1)).unwrap();
        assert_eq!(r.rows[0].flag, Flag::Slower, "{:?}", r.rows[0]);
        assert_eq!(r.rows[0].intervals, Intervals::None, "MIN..MAX is no interval to judge by");
        assert_eq!(r.slower(), 1);
    }

    #[test]
    fn disjoint_intervals_beyond_the_threshold_are_never_same() {
        // Over a grid of medians and interval widths: whenever the intervals are apart and
        // the change exceeds the threshold, the verdict is a change.
        for base in [0.1, 1.0, 7.0] {
            for factor in [0.01, 0.5, 0.89, 0.91, 1.09, 1.11, 2.0, 70.0] {
                for width in [0.0, 0.01, 0.2, 1.0] {
                    for better in [Better::Lower, Better::Higher] {
                        let new = base * factor;
                        let i = |m: f64| Some((m * (1.0 - width / 2.0), m * (1.0 + width / 2.0)));
                        let (change, intervals, flag) =
                            judge(better, (base, i(base)), (new, i(new)), 0.1);
                        if intervals == Intervals::Apart && change.abs() > 10.0 {
                            assert_ne!(flag, Flag::Same, "{base} {new} {width} {better:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn step_directories_are_compared_file_by_file() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        for (dir, med) in [(a.path(), 1.0), (b.path(), 2.0)] {
            std::fs::create_dir_all(dir.join("p2p")).unwrap();
            write(&dir.join("p2p"), "t.dat", "usec", &[(1, med * 0.99, med, med * 1.01)]);
        }
        let r = compare(a.path(), b.path(), Some(0.1)).unwrap();
        assert_eq!(r.rows.len(), 1);
        assert_eq!((r.rows[0].file.as_str(), r.rows[0].flag), ("p2p/t.dat", Flag::Slower));
    }

    #[test]
    fn files_without_intervals_go_by_the_threshold() {
        let (change, intervals, flag) = judge(Better::Lower, (1.0, None), (1.5, None), 0.1);
        assert_eq!((intervals, flag), (Intervals::None, Flag::Slower));
        assert!((change - 50.0).abs() < 1e-9);
        assert_eq!(judge(Better::Higher, (100.0, None), (95.0, None), 0.1).2, Flag::Same);
    }

    #[test]
    fn launches_results_are_judged_by_their_launches() {
        use crate::launches::fixture::{launches, result};
        let sizes: Vec<u64> = (0..12).map(|i| 1 << i).collect();
        let dirs: Vec<tempfile::TempDir> = (0..4).map(|_| tempfile::tempdir().unwrap()).collect();
        // Two results of one setup (their launches in another order), one 10 % slower, and
        // one in another machine state.
        let mut same = launches(6, &sizes, 0.04, 1.0, 90.0);
        same.rotate_left(3);
        result(dirs[0].path(), &launches(6, &sizes, 0.04, 1.0, 90.0));
        result(dirs[1].path(), &same);
        result(dirs[2].path(), &launches(6, &sizes, 0.04, 1.1, 95.0));
        result(dirs[3].path(), &launches(6, &sizes, 0.04, 1.0, 400.0));
        let r = compare(dirs[0].path(), dirs[1].path(), None).unwrap();
        assert_eq!((r.slower(), r.rows.len()), (0, 12));
        assert!(r.rows.iter().all(|c| c.launches.is_some_and(|t| t.base == 6 && t.new == 6)));
        let r = compare(dirs[0].path(), dirs[2].path(), None).unwrap();
        assert_eq!(r.slower(), 12, "{}", render(&r, dirs[0].path(), dirs[2].path()));
        assert_eq!(measurements(&r), (12, 12));
        assert!(r.notes.is_empty(), "{:?}", r.notes);
        let r = compare(dirs[0].path(), dirs[3].path(), None).unwrap();
        assert!(
            r.notes[0].starts_with("the results ran in different machine states"),
            "{:?}",
            r.notes
        );
        // A single launch against a launches result: the rule of one launch, said.
        let one = tempfile::tempdir().unwrap();
        std::fs::copy(dirs[0].path().join("launch-01/t.dat"), one.path().join("t.dat")).unwrap();
        let r = compare(one.path(), dirs[0].path(), None).unwrap();
        assert!(r.rows.iter().all(|c| c.launches.is_none()));
        assert!(r.notes.iter().any(|n| n.contains("single launches")), "{:?}", r.notes);
        let text = render(&r, one.path(), dirs[0].path());
        assert!(text.contains("rows of single launches: beyond 10%"), "{text}");
    }

    #[test]
    fn directions() {
        assert_eq!(Direction::of("usec"), Direction::LowerIsBetter);
        assert_eq!(Direction::of("s"), Direction::LowerIsBetter);
        assert_eq!(Direction::of("GFLOP/s (1e9 flop/s)"), Direction::HigherIsBetter);
        assert_eq!(Direction::of("messages/s"), Direction::HigherIsBetter);
    }

    #[test]
    fn nothing_in_common_is_an_error_naming_what_each_side_holds() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let e = compare(a.path(), b.path(), Some(0.1)).unwrap_err();
        assert!(e.starts_with("nothing compared: no result file in common"), "{e}");
        assert!(e.contains("holds no result file"), "{e}");
        write(a.path(), "t.dat", "usec", &[(1, 1.0, 1.0, 1.0)]);
        write(b.path(), "t.dat", "usec", &[(2, 1.0, 1.0, 1.0)]);
        let e = compare(a.path(), b.path(), Some(0.1)).unwrap_err();
        assert!(e.contains("no row in common") && e.contains("holds t.dat"), "{e}");
    }

    #[test]
    fn settings_that_differ_are_listed_and_locations_are_not() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let row = [(1, 1.0, 1.0, 1.0)];
        let head = |tasks: u32, settings: &str, env: &str| {
            format!("# tasks: {tasks}\n# settings: {settings}\n# defaults: NREPS=10 NLOOP=-\n{env}")
        };
        let here = |d: &Path| format!("PAW_OUTPUT_DIR={} MAX_P2P_SIZE=8", d.display());
        write_with(a.path(), "x.dat", &head(2, &here(a.path()), ""), "usec", &row);
        let env = "# environment: OMPI_MCA_btl=self,tcp\n";
        let settings = format!("{} NREPS=10", here(b.path()));
        write_with(b.path(), "x.dat", &head(4, &settings, env), "usec", &row);
        let r = compare(a.path(), b.path(), Some(0.1)).unwrap();
        let what: Vec<String> = r
            .differences
            .iter()
            .map(|(d, n)| format!("{}: {} -> {} ({n})", d.what, d.base, d.new))
            .collect();
        assert_eq!(
            what,
            ["environment OMPI_MCA_btl: (unset) -> self,tcp (1)", "tasks: 2 -> 4 (1)"]
        );
    }
}
