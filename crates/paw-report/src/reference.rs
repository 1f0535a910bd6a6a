//! References, as ReFrame keeps them: per figure a value, a lower and an upper bound (each a
//! fraction of the value, either one absent for no bound) and the unit; made from one or
//! more runs (the median over them, a tolerance that grows with their spread) and checked
//! figure by figure against a run, with the run's own interval where it has one.

use crate::figures::Report;
use crate::results::file_facts;
use crate::results::{Direction, Figure};
use crate::summary::short;
use paw_base::median;
use std::collections::BTreeMap;
use std::path::Path;

/// One figure's reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// The figure's key: `section/name`.
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
}

impl Reference {
    /// The accepted range, absolute.
    pub fn range(&self) -> (f64, f64) {
        let lo = self.lower.map_or(f64::NEG_INFINITY, |l| self.value * (1.0 + l));
        let hi = self.upper.map_or(f64::INFINITY, |u| self.value * (1.0 + u));
        (lo.min(hi), hi.max(lo))
    }
}

/// The tolerance no reference goes below unless told (`--floor`): what runs of one setup
/// differ by when nothing changed, beyond what a few reference runs show. Measured here
/// (doc/qualify.md): one run in ten or fifteen of an unchanged p2p_send lands 20-30 % below
/// the others' bandwidth, and the one-way latency sits at one of two levels.
pub const FLOOR: f64 = 0.3;

/// How many times the runs' median absolute deviation the tolerance adds to the floor.
pub const SPREAD_FACTOR: f64 = 3.0;

/// The tolerance of a figure whose runs gave `values`: `floor` plus [`SPREAD_FACTOR`]
/// times the runs' median absolute deviation from their median, relative to it. The median
/// deviation, not the largest: one run that went astray (a neighbour's job, a level change
/// of the machine) neither widens the range nor moves its centre.
pub fn tolerance(floor: f64, values: &[f64]) -> f64 {
    let m = median(values);
    let deviations: Vec<f64> = values.iter().map(|v| (v - m).abs()).collect();
    floor + SPREAD_FACTOR * median(&deviations) / m.abs()
}

/// One figure's reference as made from runs.
#[derive(Debug, Clone)]
struct Entry {
    /// The figure of the first run.
    figure: Figure,
    /// The median over the runs.
    value: f64,
    /// The tolerance, a fraction of the value, on the side where it gets worse.
    tolerance: f64,
    /// Each run's value.
    runs: Vec<f64>,
}

impl Entry {
    /// `(lower, upper)`: the tolerance on the worse side, no bound on the better one.
    fn bounds(&self) -> (Option<f64>, Option<f64>) {
        let t = (self.tolerance * 1e4).round() / 1e4;
        match self.figure.direction() {
            Direction::HigherIsBetter => (Some(-t), None),
            Direction::LowerIsBetter => (None, Some(t)),
        }
    }
}

/// The references of the figures every run has, and a comment line per figure left out.
fn entries(runs: &[Report], floor: f64) -> (Vec<Entry>, Vec<String>) {
    let (mut made, mut left) = (Vec::new(), Vec::new());
    let Some(first) = runs.first() else { return (made, left) };
    for f in first.sections.iter().flat_map(|s| &s.figures) {
        let key = f.key();
        let values: Vec<f64> = runs
            .iter()
            .filter_map(|r| r.sections.iter().flat_map(|s| &s.figures).find(|g| g.key() == key))
            .map(|g| g.value)
            .collect();
        if values.len() < runs.len() {
            left.push(format!("{key}: in {} of {} runs: no reference", values.len(), runs.len()));
        } else if !values.iter().all(|v| v.is_finite() && *v > 0.0) {
            // A bound as a fraction of the value needs a positive value (PRESTA's allred
            // difference can come out below zero on a quiet machine).
            left.push(format!("{key} = {values:?} ({}): no reference", f.source));
        } else {
            let tolerance = tolerance(floor, &values);
            made.push(Entry { figure: f.clone(), value: median(&values), tolerance, runs: values });
        }
    }
    (made, left)
}

/// The header of a reference file: what it was made from and how its ranges read.
fn made_from(runs: &[Report], form: &str, floor: f64) -> String {
    let dirs: Vec<String> = runs.iter().map(|r| r.dir.display().to_string()).collect();
    format!(
        "# paw reference{form}: the headline figures of {} run{}: {}\n\
         # Per figure: the median over the runs and the accepted range as fractions of it, as\n\
         # ReFrame keeps a reference: lower = -0.3 accepts down to 30 % below the value, upper\n\
         # = 0.3 up to 30 % above; no bound on the side where the figure improves. The\n\
         # tolerance is a floor of {floor} plus {SPREAD_FACTOR} times the runs'\n\
         # median absolute deviation from their median, relative to it.\n",
        runs.len(),
        if runs.len() == 1 { "" } else { "s" },
        dirs.join(", ")
    )
}

/// The reference file (TOML) of one or more runs of the same command: per headline figure
/// the median over the runs, the accepted range on the side where it gets worse, the runs'
/// values, its file, and that file's settings. `paw-report check --reference FILE DIR`
/// fails a run whose figure falls outside (its 95 % interval too), is missing or has
/// another unit.
pub fn reference(runs: &[Report], floor: f64) -> String {
    let mut out = made_from(runs, "", floor);
    let (made, left) = entries(runs, floor);
    let mut settings: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for e in &made {
        let f = &e.figure;
        let bound = match e.bounds() {
            (Some(l), _) => format!("lower = {}", toml::Value::Float(l)),
            (_, Some(u)) => format!("upper = {}", toml::Value::Float(u)),
            _ => String::new(),
        };
        let runs_list: Vec<String> = e.runs.iter().map(|v| short(*v)).collect();
        out += &format!(
            "\n[figures.{}]\nvalue = {}\n{bound}\nunit = {}\nruns = [{}]\nsource = {}\n",
            toml::Value::String(f.key()),
            toml::Value::Float(e.value),
            toml::Value::String(f.unit.clone()),
            runs_list.join(", "),
            toml::Value::String(f.source.clone())
        );
        if !settings.contains_key(&f.source) {
            settings.insert(f.source.clone(), file_facts(&runs[0].dir, &f.source));
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
    out
}

/// The ReFrame test of paw's library (extras/reframe) that reports a figure: `paw_` and
/// the figure's binary (the first word of its name), `-` as `_`.
pub fn reframe_test(figure: &Figure) -> String {
    let binary = figure.name.split([':', ' ']).next().unwrap_or("");
    format!("paw_{}", binary.replace(|c: char| !c.is_ascii_alphanumeric(), "_"))
}

/// A figure's performance variable in paw's ReFrame tests: its name without colons (ReFrame
/// scopes references with them).
pub fn reframe_variable(figure: &Figure) -> String {
    figure.name.replace(':', "")
}

/// The same reference in ReFrame's form, the YAML file a test's `reference = {'$ref':
/// FILE}` reads (ReFrame 4.10): per test of paw's ReFrame library ([`reframe_test`]), per
/// `system:partition` of `systems`, per performance variable ([`reframe_variable`])
/// `[value, lower, upper, unit]`, a missing bound `null`.
pub fn reframe_reference(
    runs: &[Report],
    systems: &[String],
    floor: f64,
) -> Result<String, String> {
    if let Some(bad) = systems.iter().find(|s| s.split(':').count() != 2 || s.contains(' ')) {
        return Err(format!("--reframe {bad:?}; accepted: SYSTEM:PARTITION, e.g. cluster:compute"));
    }
    let (made, left) = entries(runs, floor);
    let mut out = made_from(runs, " for ReFrame", floor);
    for line in &left {
        out += &format!("# {line}\n");
    }
    let json = |s: &str| serde_json::Value::String(s.to_string()).to_string();
    let bound = |b: Option<f64>| b.map_or("null".to_string(), |b| b.to_string());
    let mut tests: BTreeMap<String, Vec<&Entry>> = BTreeMap::new();
    for e in &made {
        tests.entry(reframe_test(&e.figure)).or_default().push(e);
    }
    for (test, entries) in tests {
        out += &format!("{test}:\n");
        for system in systems {
            out += &format!("  {}:\n", json(system));
            let mut seen = Vec::new();
            for e in &entries {
                let name = reframe_variable(&e.figure);
                if seen.contains(&name) {
                    continue;
                }
                let (lower, upper) = e.bounds();
                out += &format!(
                    "    {}: [{}, {}, {}, {}]\n",
                    json(&name),
                    e.value,
                    bound(lower),
                    bound(upper),
                    json(&e.figure.unit)
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
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let at = e.span().map(|s| text[..s.start].lines().count().max(1));
        let line = at.map(|l| format!("line {l}: ")).unwrap_or_default();
        format!("{line}{}; accepted: a file made by paw-report reference", e.message().trim())
    })?;
    let empty = toml::Table::new();
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
        const KEYS: [&str; 6] = ["value", "lower", "upper", "unit", "runs", "source"];
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
        });
    }
    Ok(refs)
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

/// Checks `report` against every reference of `text` (a reference file).
pub fn check(report: &Report, text: &str) -> Result<Vec<Checked>, String> {
    let refs = parse(text)?;
    if refs.is_empty() {
        return Err("the reference file holds no figure".into());
    }
    let figures: Vec<&Figure> = report.sections.iter().flat_map(|s| &s.figures).collect();
    Ok(refs
        .into_iter()
        .map(|r| {
            let found = figures.iter().find(|f| f.key() == r.key).map(|f| (*f).clone());
            let (lo, hi) = r.range();
            let margin = found
                .as_ref()
                .map_or(f64::NAN, |f| 100.0 * (f.value - lo).min(hi - f.value) / r.value.abs());
            let outcome = match &found {
                None => Outcome::Missing(missing_why(report, &r)),
                Some(f) if f.unit != r.unit => Outcome::OtherUnit,
                Some(f) if f.value >= lo && f.value <= hi => Outcome::Inside,
                Some(f) if f.interval.is_some_and(|(a, b)| b >= lo && a <= hi) => {
                    Outcome::IntervalInside
                }
                Some(_) => Outcome::Outside,
            };
            let pass = matches!(outcome, Outcome::Inside | Outcome::IntervalInside);
            Checked { reference: r, figure: found, outcome, pass, margin }
        })
        .collect())
}

/// What differs between the reference's file and the run's file of the same name (or of
/// the same benchmark at another task count).
fn missing_why(report: &Report, r: &Reference) -> Vec<String> {
    let Some(source) = &r.source else { return Vec::new() };
    let stem = |s: &str| s.split("-np_").next().unwrap_or(s).to_string();
    let dir = Path::new(source).parent().unwrap_or(Path::new(""));
    let Ok(entries) = std::fs::read_dir(report.dir.join(dir)) else { return Vec::new() };
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
    let theirs = file_facts(&report.dir, &dir.join(name).display().to_string());
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
    use crate::figures::Section;

    fn run(value: f64) -> Report {
        run_with(value, None)
    }

    fn run_with(value: f64, interval: Option<(f64, f64)>) -> Report {
        let figure = |name: &str, value: f64, unit: &str, interval| Figure {
            section: "b_eff".into(),
            name: name.into(),
            value,
            unit: unit.into(),
            interval,
            source: "b_eff/b_eff-np_0002.prot".into(),
        };
        let figures =
            vec![figure("b_eff", value, "MB/s", interval), figure("latency: x", 2.0, "usec", None)];
        Report {
            dir: "r".into(),
            sections: vec![Section { name: "b_eff".into(), figures, ..Section::default() }],
        }
    }

    #[test]
    fn a_run_passes_its_own_reference_and_fails_ten_times_the_bandwidth() {
        let text = reference(&[run(1000.0)], FLOOR);
        assert!(
            text.contains("[figures.\"b_eff/b_eff\"]") && text.contains("lower = -0.3\n"),
            "{text}"
        );
        assert!(check(&run(1000.0), &text).unwrap().iter().all(|c| c.pass));
        assert!(check(&run(700.0), &text).unwrap().iter().all(|c| c.pass));
        let failed: Vec<_> =
            check(&run(650.0), &text).unwrap().into_iter().filter(|c| !c.pass).collect();
        assert_eq!(failed.len(), 1);
        assert!((failed[0].margin + 5.0).abs() < 1e-9, "{}", failed[0].margin);
        let demanding = text.replace("value = 1000.0", "value = 10000.0");
        let lines = check_lines(&check(&run(1000.0), &demanding).unwrap());
        assert!(lines.iter().any(|l| l.starts_with("FAIL  b_eff/b_eff ")), "{lines:?}");
    }

    #[test]
    fn several_runs_give_the_median_and_a_tolerance_that_grows_with_their_spread() {
        let text = reference(&[run(1000.0), run(1100.0), run(900.0)], FLOOR);
        let refs = parse(&text).unwrap();
        let r = refs.iter().find(|r| r.key == "b_eff/b_eff").unwrap();
        assert_eq!(r.value, 1000.0);
        // 0.3 + 3 x 10 % (the median deviation).
        assert!((r.lower.unwrap() + 0.6).abs() < 1e-6, "{text}");
        assert!(check(&run(400.0), &text).unwrap().iter().all(|c| c.pass));
        assert!(!check(&run(390.0), &text).unwrap()[0].pass);
        // One run astray, slower or faster, widens nothing.
        for astray in [400.0, 2000.0] {
            let refs = parse(&reference(&[run(1000.0), run(astray), run(1000.0)], FLOOR)).unwrap();
            let r = refs.iter().find(|r| r.key == "b_eff/b_eff").unwrap();
            assert_eq!((r.value, r.lower), (1000.0, Some(-0.3)));
        }
        assert!(text.contains("runs = [1000.00, 1100.00, 900.000]"), "{text}");
        let yaml = reframe_reference(&[run(1000.0), run(1100.0)], &["local:default".into()], FLOOR)
            .unwrap();
        let want =
            "paw_b_eff:\n  \"local:default\":\n    \"b_eff\": [1050, -0.4429, null, \"MB/s\"]";
        assert!(yaml.contains(want), "{yaml}");
        let want =
            "paw_latency:\n  \"local:default\":\n    \"latency x\": [2, null, 0.3, \"usec\"]";
        assert!(yaml.contains(want), "{yaml}");
        assert!(reframe_reference(&[run(1.0)], &["local".into()], FLOOR)
            .unwrap_err()
            .contains("SYSTEM:PARTITION"));
    }

    #[test]
    fn a_figure_outside_whose_interval_reaches_the_range_passes() {
        let text = reference(&[run(1000.0)], FLOOR);
        let c = check(&run_with(650.0, Some((640.0, 710.0))), &text).unwrap();
        assert_eq!(c[0].outcome, Outcome::IntervalInside);
        assert!(c[0].pass);
        let c = check(&run_with(650.0, Some((640.0, 690.0))), &text).unwrap();
        assert_eq!(c[0].outcome, Outcome::Outside);
    }

    #[test]
    fn missing_figures_other_units_and_unknown_keys_fail() {
        let text = "[\"b_eff/gone\"]\nvalue = 1\nunit = \"MB/s\"\n[\"b_eff/b_eff\"]\nvalue = 1000\nunit = \"GB/s\"\n";
        let checked = check(&run(1000.0), text).unwrap();
        assert!(checked.iter().all(|c| !c.pass), "{checked:?}");
        assert!(parse("[\"a\"]\nvalue = 1\nunit = \"s\"\nlimit = 2\n")
            .unwrap_err()
            .contains("unknown key"));
        assert!(parse("[\"a\"]\nunit = \"s\"\n").unwrap_err().contains("no value"));
    }
}
