//! References, as ReFrame keeps them: per figure a value, a lower and an upper bound (each a
//! fraction of the value, either one absent for no bound) and the unit; made from one or
//! more runs and checked figure by figure against a run.
//!
//! A reference holds every row of every result file of its runs (`FILE: ROW`) and every
//! headline figure (`step/figure`; b_eff's protocol's among them, which has no rows); a
//! headline figure read from a row takes that row's range. A row's range is set by
//! how much the row varies: from the launches of launches results (`paw-report launches`),
//! or from the runs themselves when each is one launch, the rows of a file sharing what they
//! know of their spread ([`crate::launches::spread`]). It is wide enough that a result of
//! the same setup fails some row of the whole reference in at most 5 % of checks (a
//! Bonferroni bound over the rows), and never narrower than the threshold compare counts
//! ([`crate::compare::LAUNCH_THRESHOLD`]); each row says the smallest change it detects
//! (four times in five). A reference made of one launch has nothing to measure the spread
//! with: its range is the floor ([`FLOOR`]), and it says so.

use crate::compare::LAUNCH_THRESHOLD;
use crate::launches::spread::{self, Logs, Prior};
use crate::launches::{probe, Record};
use crate::results::{file_facts, read_dir, read_state, ResultFile};
use crate::results::{Direction, Figure};
use crate::summary::short;
use paw_base::median;
use paw_base::schema::{MIB_PER_S, MSG_PER_S, USEC};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One figure's reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// The figure's key: `FILE: ROW` for a row, `section/name` for a headline figure.
    pub key: String,
    /// The reference value.
    pub value: f64,
    /// The lowest accepted value as a fraction of `value` below it (-0.2: 20 % lower), or
    /// no bound.
    pub lower: Option<f64>,
    /// The highest accepted value as a fraction above `value` (0.3: 30 % higher), or no bound.
    pub upper: Option<f64>,
    /// The unit; a run's figure in another unit fails.
    pub unit: String,
    /// The file the figure was read from, relative to the run's directory.
    pub source: Option<String>,
    /// The facts (settings, tasks, environment ...) of the reference runs' file.
    pub settings: BTreeMap<String, String>,
    /// The smallest change (a fraction of the value) the range detects four times in five;
    /// None for a range set by the floor.
    pub detects: Option<f64>,
}

impl Reference {
    /// The accepted range, absolute.
    pub fn range(&self) -> (f64, f64) {
        let lo = self.lower.map_or(f64::NEG_INFINITY, |l| self.value * (1.0 + l));
        let hi = self.upper.map_or(f64::INFINITY, |u| self.value * (1.0 + u));
        (lo.min(hi), hi.max(lo))
    }

    /// Whether the range comes from a measured spread (not the floor).
    fn measured(&self) -> bool {
        self.detects.is_some()
    }
}

/// The range of a reference made of one launch, where no spread can be measured: what runs
/// of one setup differ by here (doc/methodology.md, section 9: 10-55 % per row between twelve
/// launches of p2p_send, two states 2-3x apart at small sizes aside).
pub const FLOOR: f64 = 0.3;

/// The chance that a result of the same setup fails some row of a reference.
pub const FALSE_FAIL: f64 = 0.05;

/// The widest range a measured spread sets, as a factor's logarithm: ten times (a row whose
/// runs disagree by more than that detects nothing below it, and says so).
const MOST_LOG: f64 = std::f64::consts::LN_10;

/// The power at which a row's smallest detected change is stated.
const POWER_Z: f64 = 0.8416;

/// What one row or headline figure is in every run.
#[derive(Debug, Clone)]
struct Series {
    key: String,
    unit: String,
    source: String,
    direction: Direction,
    /// Per run the figures that count: its launches' (kept), or its one value.
    runs: Vec<Vec<f64>>,
    /// Of a headline figure: the figure (its name, for ReFrame).
    headline: Option<Figure>,
}

impl Series {
    /// Per run its figure: the median of its launches.
    fn figures(&self) -> Vec<f64> {
        self.runs.iter().map(|r| median(r)).collect()
    }

    /// Whether every run has two launches or more.
    fn launches(&self) -> bool {
        self.runs.iter().all(|r| r.len() >= 2)
    }
}

/// How a range was set.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Basis {
    /// From the launches of launches results.
    Launches,
    /// From the runs, one launch each.
    Runs,
    /// The floor: one run of one launch.
    Floor,
}

/// One made reference.
#[derive(Debug, Clone)]
struct Entry {
    series: Series,
    value: f64,
    /// The range on the worse side, as a factor's logarithm (or the floor's fraction).
    tolerance: f64,
    detects: Option<f64>,
    basis: Basis,
}

impl Entry {
    /// `(lower, upper)` as fractions: the tolerance on the worse side, no bound on the
    /// better one.
    fn bounds(&self) -> (Option<f64>, Option<f64>) {
        let round = |x: f64| (x * 1e4).round() / 1e4;
        let (down, up) = match self.basis {
            Basis::Floor => (-self.tolerance, self.tolerance),
            _ => ((-self.tolerance).exp() - 1.0, self.tolerance.exp() - 1.0),
        };
        match self.series.direction {
            Direction::HigherIsBetter => (Some(round(down)), None),
            Direction::LowerIsBetter => (None, Some(round(up))),
        }
    }
}

/// The runs of a reference: each run's result files (of the chosen state, if a launches
/// result) and its headline figures of files without rows.
struct Run {
    files: Vec<ResultFile>,
    headlines: Vec<Figure>,
}

/// Reads `dir` as a run of a reference; of a launches result, its launches of the machine
/// state `state` (CPU round trip, ns), None when it has none there.
fn read_run(dir: &Path, state: Option<f64>) -> Result<Option<Run>, String> {
    let files = match (Record::read(dir).filter(|r| !r.states.is_empty()), state) {
        (Some(record), Some(want)) => {
            let n = record.states.iter().position(|s| probe::same_state(s.probe_ns, want));
            let Some(n) = n else { return Ok(None) };
            read_state(dir, &record, n)?
        }
        _ => read_dir(dir)?,
    };
    let headlines: Vec<Figure> = crate::figures::report(dir, 0.8)
        .map(|r| r.sections.into_iter().flat_map(|s| s.figures).collect())
        .unwrap_or_default();
    if files.is_empty() && headlines.is_empty() {
        return Err(format!("{}: no result files of paw", dir.display()));
    }
    Ok(Some(Run { files, headlines }))
}

/// The machine state most of the launches results among `dirs` ran in (their own states'
/// probes, the commonest level), if any is one.
fn common_state(dirs: &[PathBuf]) -> Option<f64> {
    let own: Vec<f64> =
        dirs.iter().filter_map(|d| Record::read(d)?.own_state().map(|s| s.probe_ns)).collect();
    let count = |p: f64| own.iter().filter(|q| probe::same_state(p, **q)).count();
    let best = own.iter().copied().max_by_key(|p| count(*p))?;
    let members: Vec<f64> = own.into_iter().filter(|q| probe::same_state(best, *q)).collect();
    Some(median(&members))
}

/// The series every run has, and a line for each left out (not in every run).
fn series(runs: &[Run]) -> (Vec<Series>, Vec<String>) {
    let mut all: BTreeMap<String, Series> = BTreeMap::new();
    let mut order = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        let mut add =
            |key: String, unit: &str, source: &str, values: Vec<f64>, f: Option<&Figure>| {
                let s = all.entry(key.clone()).or_insert_with(|| {
                    order.push(key.clone());
                    Series {
                        key,
                        unit: unit.to_string(),
                        source: source.to_string(),
                        direction: Direction::of(unit),
                        runs: vec![Vec::new(); runs.len()],
                        headline: f.cloned(),
                    }
                });
                if s.unit == unit {
                    s.runs[i] = values;
                }
            };
        for f in &run.files {
            for r in &f.rows {
                let values =
                    if r.launches.is_empty() { vec![r.value] } else { spread::kept(&r.launches) };
                add(format!("{}: {}", f.name, r.key), &r.quantity.label, &f.name, values, None);
            }
        }
        for f in &run.headlines {
            add(f.key(), &f.unit, &f.source, vec![f.value], Some(f));
        }
    }
    // A figure is expected of the runs that hold its file: runs of several binaries (the
    // stage directories of several tests) each give their own figures.
    let holds = |run: &Run, source: &str| {
        run.files.iter().any(|f| f.name == source)
            || run.headlines.iter().any(|f| f.source == source)
    };
    let (mut made, mut left) = (Vec::new(), Vec::new());
    for key in order {
        let mut s = all.remove(&key).expect("a series");
        let expected: Vec<bool> = runs.iter().map(|r| holds(r, &s.source)).collect();
        let expect = expected.iter().filter(|e| **e).count();
        let have = s.runs.iter().filter(|r| !r.is_empty()).count();
        s.runs.retain(|r| !r.is_empty());
        if have < expect {
            left.push(format!("{key}: in {have} of the {expect} runs with its file: no reference"));
        } else if !s.runs.iter().flatten().all(|v| v.is_finite() && *v > 0.0) {
            // A range as a fraction of the value needs a positive value (PRESTA's allred
            // difference can come out below zero on a quiet machine).
            left.push(format!("{key} = {:?} ({}): no reference", s.figures(), s.source));
        } else {
            made.push(s);
        }
    }
    (made, left)
}

/// The references of the runs' series (see the module); `floor` is the range of a
/// reference made of one launch.
fn entries(series: Vec<Series>, floor: f64) -> Vec<Entry> {
    let basis = |s: &Series| match (s.launches(), s.runs.len()) {
        (true, _) => Basis::Launches,
        (false, n) if n >= 2 => Basis::Runs,
        _ => Basis::Floor,
    };
    // Per file and basis, the rows' own spread: within runs of launches, or between runs.
    let own = |s: &Series| -> (f64, f64) {
        match basis(s) {
            Basis::Launches => {
                let logs: Vec<Logs> = s.runs.iter().map(|r| Logs::of(r)).collect();
                let df: usize = logs.iter().map(|l| l.n - 1).sum();
                (logs.iter().map(|l| l.squares).sum::<f64>() / df as f64, df as f64)
            }
            _ => {
                let l = Logs::of(&spread::kept(&s.figures()));
                (l.variance(), l.n as f64 - 1.0)
            }
        }
    };
    let group = |s: &Series| format!("{} {:?}", s.source, basis(s));
    let mut spreads: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for s in &series {
        spreads.entry(group(s)).or_default().push(own(s));
    }
    let priors: BTreeMap<String, Prior> =
        spreads.into_iter().filter_map(|(g, v)| Some((g, Prior::of(&v)?))).collect();
    // Between runs of launches beyond what their launches explain (the machine's drift),
    // per file: the median over its rows.
    let median_var = std::f64::consts::FRAC_PI_2;
    let mut drifts: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for s in series.iter().filter(|s| basis(s) == Basis::Launches && s.runs.len() >= 2) {
        let Some(prior) = priors.get(&group(s)) else { continue };
        let (v, df) = own(s);
        let k = paw_base::median(&s.runs.iter().map(|r| r.len() as f64).collect::<Vec<_>>());
        let between = Logs::of(&s.figures()).variance();
        drifts
            .entry(group(s))
            .or_default()
            .push(between - median_var * prior.moderate(v, df).0 / k);
    }
    let drift = |g: &str| drifts.get(g).map_or(0.0, |d| paw_base::median(d).max(0.0));
    let measured = series.iter().filter(|s| basis(s) != Basis::Floor).count().max(1);
    let tail = FALSE_FAIL / measured as f64;
    let mut made = series
        .into_iter()
        .map(|s| {
            let value = median(&s.figures());
            let b = basis(&s);
            let (v, df) = own(&s);
            let moderated = priors.get(&group(&s)).map(|p| p.moderate(v, df));
            // The spread is estimated: Student's t on its degrees of freedom.
            let z = moderated.map_or(0.0, |(_, df)| spread::t_quantile(tail, df));
            let moderated = moderated.map(|(var, _)| var);
            let sd = match (b, moderated) {
                (Basis::Launches, Some(var)) => {
                    let k = paw_base::median(
                        &s.runs.iter().map(|r| r.len() as f64).collect::<Vec<_>>(),
                    );
                    let total: usize = s.runs.iter().map(Vec::len).sum();
                    let r = s.runs.len() as f64;
                    let d = drift(&group(&s));
                    Some(
                        (median_var * var * (1.0 / k + 1.0 / total as f64) + d * (1.0 + 1.0 / r))
                            .sqrt(),
                    )
                }
                (Basis::Runs, Some(var)) => Some((var * (1.0 + 1.0 / s.runs.len() as f64)).sqrt()),
                _ => None,
            };
            match sd {
                Some(sd) => {
                    // Runs that disagree wildly (a state change inside them) make a range of
                    // no use: it stops at MOST_LOG, a factor of ten.
                    let tolerance = (z * sd).clamp(LAUNCH_THRESHOLD.ln_1p(), MOST_LOG);
                    let detects = Some(((tolerance + POWER_Z * sd).min(MOST_LOG)).exp() - 1.0);
                    Entry { series: s, value, tolerance, detects, basis: b }
                }
                None => {
                    Entry { series: s, value, tolerance: floor, detects: None, basis: Basis::Floor }
                }
            }
        })
        .collect::<Vec<Entry>>();
    // A headline figure read from a row (same file, same unit, the same value in the first
    // run) takes that row's range: the row knows its launches.
    let rows: Vec<Entry> = made.iter().filter(|e| e.series.headline.is_none()).cloned().collect();
    for e in made.iter_mut().filter(|e| e.series.headline.is_some()) {
        let value = median(&e.series.runs[0]);
        let row = rows.iter().find(|r| {
            r.series.source == e.series.source
                && r.series.unit == e.series.unit
                && (median(&r.series.runs[0]) - value).abs() <= 1e-5 * value.abs()
        });
        if let Some(r) = row {
            (e.tolerance, e.detects, e.basis) = (r.tolerance, r.detects, r.basis);
        }
    }
    made
}

/// A reference made: its entries, the lines of what was left out, the machine state.
type Made = (Vec<Entry>, Vec<String>, Option<f64>);

/// A ReFrame test's figures: each with its bounds and value.
type Variables = Vec<(Figure, (Option<f64>, Option<f64>), f64)>;

/// The reference of runs of one command: their directories read (launches results in the
/// state most of them ran in), series and entries made; with the lines of what was left
/// out, and the state.
fn made(dirs: &[PathBuf], floor: f64) -> Result<Made, String> {
    let state = common_state(dirs);
    let mut runs = Vec::new();
    let mut left = Vec::new();
    for d in dirs {
        match read_run(d, state)? {
            Some(run) => runs.push(run),
            None => left.push(format!(
                "{}: no launches in the machine state of the others (CPU round trip {:.0} ns): \
                 left out",
                d.display(),
                state.unwrap_or(0.0)
            )),
        }
    }
    let (series, more) = series(&runs);
    left.extend(more);
    left.extend(differing(dirs, &series));
    if series.is_empty() {
        let why = left.first().cloned().unwrap_or_default();
        return Err(format!(
            "no figure is in every run ({} runs; {why}): give runs of one command",
            dirs.len()
        ));
    }
    Ok((entries(series, floor), left, state))
}

/// Per file of the reference, the settings its runs differ in (a reference is of one
/// setup: such a run widens every range of its file), one line each.
fn differing(dirs: &[PathBuf], series: &[Series]) -> Vec<String> {
    let mut sources: Vec<&str> = series.iter().map(|s| s.source.as_str()).collect();
    sources.sort();
    sources.dedup();
    let mut lines = Vec::new();
    for source in sources {
        let facts: Vec<(String, BTreeMap<String, String>)> = dirs
            .iter()
            .map(|d| (d.display().to_string(), file_facts(d, source)))
            .filter(|(_, f)| !f.is_empty())
            .collect();
        let keys: std::collections::BTreeSet<&String> =
            facts.iter().flat_map(|(_, f)| f.keys()).collect();
        for k in keys {
            let values: Vec<String> = facts
                .iter()
                .map(|(d, f)| format!("{} in {d}", f.get(k).map_or("(unset)", String::as_str)))
                .collect();
            let first = facts[0].1.get(k);
            if facts.iter().any(|(_, f)| f.get(k) != first) {
                lines.push(format!(
                    "{source}: the runs differ in {k}: {}; a reference is made of runs of one \
                     setup (compare them first), and this widens every range of the file",
                    values.join(", ")
                ));
            }
        }
    }
    lines
}

/// The header of a reference file: what it was made from and how its ranges read.
fn made_from(dirs: &[PathBuf], entries: &[Entry], form: &str, floor: f64) -> String {
    let names: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    let mut text = format!(
        "# paw reference{form}: every row of {} run{}: {}\n\
         # Per figure: the median over the runs and the accepted range as fractions of it, as\n\
         # ReFrame keeps a reference: lower = -0.1 accepts down to 10 % below the value, upper\n\
         # = 0.1 up to 10 % above; no bound on the side where the figure improves.\n",
        dirs.len(),
        if dirs.len() == 1 { "" } else { "s" },
        names.join(", ")
    );
    let detects: Vec<f64> = entries.iter().filter_map(|e| e.detects).collect();
    if !detects.is_empty() {
        let lo = detects.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = detects.iter().copied().fold(0.0, f64::max);
        let by = if entries.iter().any(|e| e.basis == Basis::Launches) {
            "the spread of the runs' launches (and the runs' drift beyond it)"
        } else {
            "the spread of the runs (one launch each)"
        };
        text += &format!(
            "# Ranges from {by},\n\
             # each row's leaning on its file's rows: a result of the same setup fails some row\n\
             # in at most {}% of checks. Smallest change a row detects (four times in five,\n\
             # `detects`): {:.1}% to {:.1}%, median {:.1}%.\n",
            FALSE_FAIL * 100.0,
            lo * 100.0,
            hi * 100.0,
            median(&detects) * 100.0
        );
        let wild: Vec<&str> = entries
            .iter()
            .filter(|e| e.detects.is_some_and(|d| d >= MOST_LOG.exp() - 1.0 - 1e-9))
            .map(|e| e.series.key.as_str())
            .collect();
        if !wild.is_empty() {
            text += &format!(
                "# {} rows detect nothing below ten times: their runs disagree that much (a state\n\
                 # change inside a run?): {}\n",
                wild.len(),
                wild.join(", ")
            );
        }
    }
    let floored = entries.iter().filter(|e| e.basis == Basis::Floor).count();
    if floored > 0 {
        text += &format!(
            "# {floored} figures come from one launch of one run: nothing measures their spread,\n\
             # so their range is the floor, {}%; references of three launches results or more\n\
             # (paw-report launches) catch far smaller changes.\n",
            floor * 100.0
        );
    }
    text
}

/// The reference file (TOML) of one or more runs of the same command (see the module):
/// per figure the median over the runs, the accepted range on the side where it gets worse,
/// the runs' figures, the smallest change detected, its file, and that file's settings.
/// `paw-report check --reference FILE DIR` fails a run whose figure falls outside, is
/// missing or has another unit.
pub fn reference(dirs: &[PathBuf], floor: f64) -> Result<String, String> {
    let (made, left, state) = made(dirs, floor)?;
    let mut out = made_from(dirs, &made, "", floor);
    if let Some(ns) = state {
        out +=
            &format!("\n[made]\nstate_ns = {}\n", toml::Value::Float((ns * 10.0).round() / 10.0));
    }
    let mut settings: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for e in &made {
        let s = &e.series;
        let bound = match e.bounds() {
            (Some(l), _) => format!("lower = {}", toml::Value::Float(l)),
            (_, Some(u)) => format!("upper = {}", toml::Value::Float(u)),
            _ => String::new(),
        };
        let runs_list: Vec<String> = s.figures().iter().map(|v| short(*v)).collect();
        let detects = e.detects.map_or(String::new(), |d| {
            format!("detects = {}\n", toml::Value::Float((d * 1e4).round() / 1e4))
        });
        out += &format!(
            "\n[figures.{}]\nvalue = {}\n{bound}\n{detects}unit = {}\nruns = [{}]\nsource = {}\n",
            toml::Value::String(s.key.clone()),
            toml::Value::Float(six_digits(e.value)),
            toml::Value::String(s.unit.clone()),
            runs_list.join(", "),
            toml::Value::String(s.source.clone())
        );
        if !settings.contains_key(&s.source) {
            settings.insert(s.source.clone(), file_facts(&dirs[0], &s.source));
        }
    }
    for line in left {
        out += &format!("\n# {line}\n");
    }
    for (source, facts) in settings.iter().filter(|(_, f)| !f.is_empty()) {
        out += &format!("\n[settings.{}]\n", toml::Value::String(source.clone()));
        for (k, v) in facts {
            let (k, v) = (toml::Value::String(k.clone()), toml::Value::String(v.clone()));
            out += &format!("{k} = {v}\n");
        }
    }
    Ok(out)
}

/// `x` to six significant digits, as paw's files write it.
fn six_digits(x: f64) -> f64 {
    paw_base::dat::format_value(x).parse().unwrap_or(x)
}

/// The ReFrame test of paw's library (extras/reframe) that reports a figure: `paw_` and
/// the figure's binary (the first word of its name), `-` as `_`.
pub fn reframe_test(figure: &Figure) -> String {
    let binary = figure.name.split([':', ' ']).next().unwrap_or("");
    format!("paw_{}", binary.replace(|c: char| !c.is_ascii_alphanumeric(), "_"))
}

/// A figure's performance variable in paw's ReFrame tests: its name as one word (every run
/// of other characters than letters, digits, `.`, `+` and `-` as `_`: ReFrame scopes
/// references with colons, and its perflogs and `-S` options split at spaces):
/// `p2p_send_bandwidth_at_4194304_B`.
pub fn reframe_variable(name: &str) -> String {
    let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-');
    let mut out = String::new();
    for c in name.chars() {
        match (word(c), out.ends_with('_')) {
            (true, _) => out.push(c),
            (false, false) if !out.is_empty() => out.push('_'),
            (false, _) => {}
        }
    }
    out.trim_end_matches('_').to_string()
}

/// A unit as ReFrame's reports show it: short, without paw's qualification
/// (`MB/s (MB = 2^20 B)` is `MiB/s`, `usec` is `us`).
pub fn reframe_unit(label: &str) -> String {
    let unit = match label {
        l if l == MIB_PER_S.label => "MiB/s",
        l if l == USEC.label => "us",
        l if l == MSG_PER_S.label => "msg/s",
        l => l.split(" (").next().unwrap_or(l),
    };
    unit.to_string()
}

/// The same reference in ReFrame's form, the YAML file a test's `reference = {'$ref':
/// FILE}` reads (ReFrame 4.10): per test of paw's ReFrame library ([`reframe_test`]), per
/// `system:partition` of `systems`, per performance variable ([`reframe_variable`]: the
/// headline figures, which is what the library's tests report) `[value, lower, upper,
/// unit]`, a missing bound `null`. A headline figure read from a row takes that row's range.
pub fn reframe_reference(
    dirs: &[PathBuf],
    systems: &[String],
    floor: f64,
) -> Result<String, String> {
    if let Some(bad) = systems.iter().find(|s| s.split(':').count() != 2 || s.contains(' ')) {
        return Err(format!("--reframe {bad:?}; accepted: SYSTEM:PARTITION, e.g. cluster:compute"));
    }
    let (made, left, _) = made(dirs, floor)?;
    let mut out = made_from(dirs, &made, " for ReFrame", floor);
    for line in &left {
        out += &format!("# {line}\n");
    }
    let json = |s: &str| serde_json::Value::String(s.to_string()).to_string();
    let bound = |b: Option<f64>| b.map_or("null".to_string(), |b| b.to_string());
    let mut tests: BTreeMap<String, Variables> = BTreeMap::new();
    for e in &made {
        if let Some(f) = &e.series.headline {
            tests.entry(reframe_test(f)).or_default().push((f.clone(), e.bounds(), e.value));
        }
    }
    for (test, entries) in tests {
        out += &format!("{test}:\n");
        for system in systems {
            out += &format!("  {}:\n", json(system));
            let mut seen = Vec::new();
            for (f, (lower, upper), value) in &entries {
                let name = reframe_variable(&f.name);
                if seen.contains(&name) {
                    continue;
                }
                out += &format!(
                    "    {}: [{}, {}, {}, {}]\n",
                    json(&name),
                    value,
                    bound(*lower),
                    bound(*upper),
                    json(&reframe_unit(&f.unit))
                );
                seen.push(name);
            }
        }
    }
    Ok(out)
}

/// Reads a reference file: the `[figures]` and `[settings]` tables `reference` writes, or
/// an older file with one table per figure at the top.
pub fn parse(text: &str) -> Result<Vec<Reference>, String> {
    let reframe = |l: &str| l.starts_with("paw_") && l.trim_end().ends_with(':');
    if text.lines().any(reframe) {
        return Err("this is ReFrame's form of a reference (paw-report reference --reframe), \
                    which ReFrame's tests read; check reads paw's TOML form: paw-report \
                    reference RUN... > FILE.toml"
            .into());
    }
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let at = e.span().map(|s| text[..s.start].lines().count().max(1));
        let line = at.map(|l| format!("line {l}: ")).unwrap_or_default();
        format!("{line}{}; accepted: a file made by paw-report reference", e.message().trim())
    })?;
    let empty = toml::Table::new();
    if let Some(bad) = table.keys().find(|k| !["figures", "settings", "made"].contains(&k.as_str()))
    {
        if table.contains_key("figures") {
            return Err(format!(
                "unknown table {bad:?}; accepted: [made], [figures...], [settings...]"
            ));
        }
    }
    let (figures, settings) = match table.get("figures") {
        Some(toml::Value::Table(f)) => {
            (f, table.get("settings").and_then(|s| s.as_table()).unwrap_or(&empty))
        }
        _ => (&table, &empty),
    };
    let mut refs = Vec::new();
    for (key, entry) in figures {
        let t = entry.as_table().ok_or_else(|| {
            format!("{key:?}: not a table; accepted: [figures.\"step/figure\"] tables")
        })?;
        let number = |name: &str| -> Result<Option<f64>, String> {
            match t.get(name) {
                None => Ok(None),
                Some(toml::Value::Float(x)) => Ok(Some(*x)),
                Some(toml::Value::Integer(x)) => Ok(Some(*x as f64)),
                Some(other) => Err(format!("{key:?}: {name} = {other}; accepted: a number")),
            }
        };
        let value = number("value")?.ok_or_else(|| format!("{key:?}: no value"))?;
        let unit =
            t.get("unit").and_then(|u| u.as_str()).ok_or_else(|| format!("{key:?}: no unit"))?;
        const KEYS: [&str; 7] = ["value", "lower", "upper", "unit", "runs", "source", "detects"];
        if let Some(k) = t.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(format!("{key:?}: unknown key {k:?}; accepted: {}", KEYS.join(", ")));
        }
        let (lower, upper) = (number("lower")?, number("upper")?);
        if lower.is_some_and(|l| l > 0.0) || upper.is_some_and(|u| u < 0.0) {
            return Err(format!(
                "{key:?}: the range leaves out the value itself; accepted: lower <= 0 <= upper"
            ));
        }
        let source = t.get("source").and_then(|s| s.as_str()).map(String::from);
        let facts = source
            .as_ref()
            .and_then(|s| settings.get(s))
            .and_then(|s| s.as_table())
            .map(|s| {
                s.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                    .collect()
            })
            .unwrap_or_default();
        refs.push(Reference {
            key: key.clone(),
            value,
            lower,
            upper,
            unit: unit.into(),
            source,
            settings: facts,
            detects: number("detects")?,
        });
    }
    Ok(refs)
}

/// The machine state a reference file was made in (`[made] state_ns`), if it says.
fn made_state(text: &str) -> Option<f64> {
    let table: toml::Table = text.parse().ok()?;
    table.get("made")?.get("state_ns")?.as_float()
}

/// How a checked figure came out.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Inside the range.
    Inside,
    /// Outside the range, but its 95 % interval reaches into it: not shown to be outside.
    IntervalInside,
    /// Outside the range, interval and all.
    Outside,
    /// In another unit.
    OtherUnit,
    /// Not in the run; the facts of its file that differ from the reference's (`what:
    /// reference -> run`), where the run has a file of the same benchmark.
    Missing(Vec<String>),
}

/// One reference checked against a run.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The reference.
    pub reference: Reference,
    /// The run's figure, if it has it.
    pub figure: Option<Figure>,
    /// The verdict.
    pub outcome: Outcome,
    /// Whether it passes.
    pub pass: bool,
    /// How far inside the nearer bound the value is, in percent of the reference value
    /// (negative: outside).
    pub margin: f64,
}

/// Checks the run in `dir` against every reference of `text` (a reference file): every row
/// and headline figure it names. Of a launches result, the launches of the reference's
/// machine state where the run has them; the second value says what was compared when
/// the states differ.
pub fn check(dir: &Path, text: &str) -> Result<(Vec<Checked>, Vec<String>), String> {
    let refs = parse(text)?;
    if refs.is_empty() {
        return Err("the reference file holds no figure".into());
    }
    let mut notes = Vec::new();
    let files = match (Record::read(dir).filter(|r| !r.states.is_empty()), made_state(text)) {
        (Some(record), Some(want)) => {
            let n = record.states.iter().position(|s| probe::same_state(s.probe_ns, want));
            if n != Some(0) {
                notes.push(match n {
                    Some(n) => format!(
                        "like with like: the run's launches in state {} (CPU round trip {:.0} ns, \
                         as the reference's {want:.0} ns) checked, not those of its own",
                        n + 1,
                        record.states[n].probe_ns
                    ),
                    None => format!(
                        "the run ran in another machine state than the reference (CPU round trip \
                         {:.0} ns against {want:.0} ns): its figures differ by the state as much \
                         as by any change",
                        record.states[0].probe_ns
                    ),
                });
            }
            read_state(dir, &record, n.unwrap_or(0))?
        }
        _ => read_dir(dir)?,
    };
    let mut figures: Vec<(String, Figure)> = Vec::new();
    for f in &files {
        for r in &f.rows {
            let value =
                if r.launches.is_empty() { r.value } else { median(&spread::kept(&r.launches)) };
            let name = format!("{}: {}", f.name, r.key);
            let figure = Figure {
                section: String::new(),
                name: name.clone(),
                value,
                unit: r.quantity.label.clone(),
                interval: r.interval,
                source: f.name.clone(),
            };
            figures.push((name, figure));
        }
    }
    if let Ok(report) = crate::figures::report(dir, 0.8) {
        for f in report.sections.into_iter().flat_map(|s| s.figures) {
            figures.push((f.key(), f));
        }
    }
    let checked = refs
        .into_iter()
        .map(|r| {
            let found = figures.iter().find(|(k, _)| *k == r.key).map(|(_, f)| f.clone());
            let (lo, hi) = r.range();
            let margin = found
                .as_ref()
                .map_or(f64::NAN, |f| 100.0 * (f.value - lo).min(hi - f.value) / r.value.abs());
            let outcome = match &found {
                None => Outcome::Missing(missing_why(dir, &r)),
                Some(f) if f.unit != r.unit => Outcome::OtherUnit,
                Some(f) if f.value >= lo && f.value <= hi => Outcome::Inside,
                // A range from the floor: a figure whose own interval reaches it is not shown
                // to be outside. A measured range holds the run's spread already.
                Some(f) if !r.measured() && f.interval.is_some_and(|(a, b)| b >= lo && a <= hi) => {
                    Outcome::IntervalInside
                }
                Some(_) => Outcome::Outside,
            };
            let pass = matches!(outcome, Outcome::Inside | Outcome::IntervalInside);
            Checked { reference: r, figure: found, outcome, pass, margin }
        })
        .collect();
    Ok((checked, notes))
}

/// What differs between the reference's file and the run's file of the same name (or of
/// the same benchmark at another task count).
fn missing_why(dir: &Path, r: &Reference) -> Vec<String> {
    let Some(source) = &r.source else { return Vec::new() };
    let stem = |s: &str| s.split("-np_").next().unwrap_or(s).to_string();
    let top = dir;
    let dir = Path::new(source).parent().unwrap_or(Path::new(""));
    let Ok(entries) = std::fs::read_dir(top.join(dir)) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let want = Path::new(source).file_name().unwrap_or_default().to_string_lossy().into_owned();
    let Some(name) = names
        .iter()
        .find(|n| **n == want)
        .or_else(|| names.iter().find(|n| stem(n) == stem(&want)))
    else {
        return vec![format!("no {} in the run", stem(&want))];
    };
    let theirs = file_facts(top, &dir.join(name).display().to_string());
    let unset = "(unset)".to_string();
    let keys: std::collections::BTreeSet<&String> =
        r.settings.keys().chain(theirs.keys()).collect();
    keys.into_iter()
        .filter(|k| r.settings.get(*k) != theirs.get(*k))
        .map(|k| {
            format!(
                "{k}: {} -> {}",
                r.settings.get(k).unwrap_or(&unset),
                theirs.get(k).unwrap_or(&unset)
            )
        })
        .collect()
}

/// The check's lines: PASS or FAIL per figure with value, range and margin.
pub fn check_lines(checked: &[Checked]) -> Vec<String> {
    let width = checked.iter().map(|c| c.reference.key.len()).max().unwrap_or(0);
    checked
        .iter()
        .map(|c| {
            let r = &c.reference;
            let (lo, hi) = r.range();
            let bound = |x: f64| if x.is_finite() { short(x) } else { "-".into() };
            let word = if c.pass { "PASS" } else { "FAIL" };
            let interval = |f: &Figure| {
                f.interval.map_or(String::new(), |(a, b)| format!(" [{}, {}]", short(a), short(b)))
            };
            let got = match (&c.outcome, &c.figure) {
                (Outcome::Missing(why), _) if why.is_empty() => "missing from the run".to_string(),
                (Outcome::Missing(why), _) => {
                    format!("missing from the run (reference -> run: {})", why.join("; "))
                }
                (Outcome::OtherUnit, Some(f)) => {
                    format!("{} {}, not {}", short(f.value), f.unit, r.unit)
                }
                (Outcome::IntervalInside, Some(f)) => {
                    format!(
                        "{} {}{} (its 95% interval reaches the range)",
                        short(f.value),
                        f.unit,
                        interval(f)
                    )
                }
                (_, Some(f)) => format!("{} {}{}", short(f.value), f.unit, interval(f)),
                (_, None) => "missing from the run".to_string(),
            };
            let margin = if c.margin.is_finite() {
                format!("margin {:+.1} %", c.margin)
            } else {
                String::new()
            };
            format!(
                "{word}  {:<width$}  {got}  (reference {} {}, accepted {}..{})  {margin}",
                r.key,
                short(r.value),
                r.unit,
                bound(lo),
                bound(hi)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launches::fixture::{launches, result};

    fn write(dir: &Path, text: &str) -> PathBuf {
        let file = dir.join("ref.toml");
        std::fs::write(&file, text).unwrap();
        file
    }

    #[test]
    fn a_reference_of_three_results_passes_a_fourth_and_fails_ten_percent_slower() {
        let sizes: Vec<u64> = (0..16).map(|i| 1 << i).collect();
        let dirs: Vec<tempfile::TempDir> = (0..5).map(|_| tempfile::tempdir().unwrap()).collect();
        for (i, d) in dirs.iter().enumerate().take(4) {
            let mut l = launches(6, &sizes, 0.03, 1.0 + 0.01 * i as f64, 90.0);
            l.rotate_left(i);
            result(d.path(), &l);
        }
        result(dirs[4].path(), &launches(6, &sizes, 0.03, 1.1, 90.0));
        let runs: Vec<PathBuf> = dirs[..3].iter().map(|d| d.path().to_path_buf()).collect();
        let text = reference(&runs, FLOOR).unwrap();
        let refs = parse(&text).unwrap();
        let rows = refs.iter().filter(|r| r.key.starts_with("t.dat: ")).count();
        assert_eq!((rows, refs.len()), (16, 17), "every row and the headline: {text}");
        assert!(refs.iter().all(|r| r.detects.is_some_and(|d| d > 0.05 && d < 0.12)), "{text}");
        assert!(text.contains("[made]\nstate_ns = 90.0"), "{text}");
        assert!(text.contains("Smallest change a row detects"), "{text}");
        let file = write(dirs[0].path(), &text);
        let text = std::fs::read_to_string(file).unwrap();
        let (fourth, notes) = check(dirs[3].path(), &text).unwrap();
        assert!(fourth.iter().all(|c| c.pass), "{:?}", check_lines(&fourth));
        assert!(notes.is_empty());
        let (slow, _) = check(dirs[4].path(), &text).unwrap();
        let failed = slow.iter().filter(|c| !c.pass).count();
        assert!(failed >= 12, "{failed} of 16 failed: {:?}", check_lines(&slow));
    }

    #[test]
    fn one_launch_gets_the_floor_and_says_so() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("t.dat"),
            crate::launches::fixture::sweep("usec", &[(1, 1.0), (2, 2.0)]),
        )
        .unwrap();
        let text = reference(&[d.path().to_path_buf()], FLOOR).unwrap();
        assert!(text.contains("their range is the floor, 30%"), "{text}");
        let refs = parse(&text).unwrap();
        let row = refs.iter().find(|r| r.key == "t.dat: 1").unwrap();
        assert_eq!((row.upper, row.detects), (Some(0.3), None));
        let slower = d.path().join("slower");
        std::fs::create_dir(&slower).unwrap();
        std::fs::write(
            slower.join("t.dat"),
            crate::launches::fixture::sweep("usec", &[(1, 1.2), (2, 2.8)]),
        )
        .unwrap();
        let (c, _) = check(&slower, &text).unwrap();
        let passed: Vec<(&str, bool)> =
            c.iter().map(|c| (c.reference.key.as_str(), c.pass)).collect();
        assert!(
            passed.contains(&("t.dat: 1", true)) && passed.contains(&("t.dat: 2", false)),
            "{passed:?}"
        );
    }

    #[test]
    fn figures_missing_other_units_and_unknown_keys_fail() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("t.dat"),
            crate::launches::fixture::sweep("usec", &[(1, 1.0)]),
        )
        .unwrap();
        let text = "[figures.\"t.dat: 2\"]\nvalue = 1\nunit = \"usec\"\n[figures.\"t.dat: 1\"]\nvalue = 1\nunit = \"s\"\n";
        let (checked, _) = check(d.path(), text).unwrap();
        assert!(checked.iter().all(|c| !c.pass), "{checked:?}");
        assert!(parse("[\"a\"]\nvalue = 1\nunit = \"s\"\nlimit = 2\n")
            .unwrap_err()
            .contains("unknown key"));
        assert!(parse("[\"a\"]\nunit = \"s\"\n").unwrap_err().contains("no value"));
        let yaml = "# paw reference for ReFrame\npaw_latency:\n  \"a:b\":\n    \"x\": [1, null, 0.3, \"usec\"]\n";
        assert!(parse(yaml).unwrap_err().contains("ReFrame's form"));
    }

    #[test]
    fn runs_of_several_binaries_give_each_its_figures_and_differing_settings_are_named() {
        let dirs: Vec<tempfile::TempDir> = (0..4).map(|_| tempfile::tempdir().unwrap()).collect();
        let sweep = crate::launches::fixture::sweep;
        for (i, d) in dirs.iter().enumerate() {
            let (name, env) = if i < 2 { ("a.dat", "") } else { ("b.dat", "# environment: X=1\n") };
            let env = if i == 3 { "# environment: X=2\n" } else { env };
            let text = sweep("usec", &[(1, 1.0 + i as f64 / 100.0)])
                .replace("# tasks: 2\n", &format!("# tasks: 2\n{env}"));
            std::fs::write(d.path().join(name), text).unwrap();
            let binary = name.trim_end_matches(".dat");
            crate::launches::fixture::declare(d.path(), binary, name, "time at {x} B");
        }
        let runs: Vec<PathBuf> = dirs.iter().map(|d| d.path().to_path_buf()).collect();
        let text = reference(&runs, FLOOR).unwrap();
        let keys: Vec<String> = parse(&text).unwrap().into_iter().map(|r| r.key).collect();
        assert_eq!(
            keys,
            ["a.dat: 1", "b.dat: 1", "run/a: time at 1 B", "run/b: time at 1 B"],
            "{text}"
        );
        assert!(text.contains("b.dat: the runs differ in environment X: 1 in"), "{text}");
    }

    #[test]
    fn reframe_form() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("latency.dat"),
            crate::launches::fixture::sweep("usec", &[(1, 0.5)])
                .replace("paw x --", "paw latency --"),
        )
        .unwrap();
        let figure = "one-way latency at {x} B";
        crate::launches::fixture::declare(d.path(), "latency", "latency.dat", figure);
        let runs = [d.path().to_path_buf()];
        let yaml = reframe_reference(&runs, &["local:default".into()], FLOOR).unwrap();
        assert!(yaml.contains("paw_latency:\n  \"local:default\":\n"), "{yaml}");
        assert!(
            yaml.contains("    \"latency_one-way_latency_at_1_B\": [0.5, null, 0.3, \"us\"]"),
            "{yaml}"
        );
        assert_eq!(
            reframe_variable("IMB-MPI1 PingPong: time at 0 B"),
            "IMB-MPI1_PingPong_time_at_0_B"
        );
        assert_eq!(reframe_variable("b_eff per process (x)"), "b_eff_per_process_x");
        assert_eq!(reframe_unit("MB/s (MB = 10^6 B)"), "MB/s");
        assert_eq!(reframe_unit("MB/s (MB = 2^20 B)"), "MiB/s");
        assert!(reframe_reference(&runs, &["local".into()], FLOOR)
            .unwrap_err()
            .contains("SYSTEM:PARTITION"));
    }
}
