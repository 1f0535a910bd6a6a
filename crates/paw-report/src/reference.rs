//! References, as ReFrame keeps them: per figure a value, a lower and an upper bound (each a
//! fraction of the value, either one absent for no bound) and the unit; a run is checked
//! against them figure by figure.

use crate::compare::Direction;
use crate::figures::Report;
use crate::summary::short;

/// One figure's reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// The figure's key: `section/name`.
    pub key: String,
    /// The reference value.
    pub value: f64,
    /// The lowest accepted value as a fraction of `value` below it (-0.15: 15 % lower), or
    /// no bound.
    pub lower: Option<f64>,
    /// The highest accepted value as a fraction above `value` (0.3: 30 % higher), or no bound.
    pub upper: Option<f64>,
    /// The unit; a run's figure in another unit fails.
    pub unit: String,
}

impl Reference {
    /// The accepted range, absolute.
    pub fn range(&self) -> (f64, f64) {
        let lo = self.lower.map_or(f64::NEG_INFINITY, |l| self.value * (1.0 + l));
        let hi = self.upper.map_or(f64::INFINITY, |u| self.value * (1.0 + u));
        (lo.min(hi), hi.max(lo))
    }
}

/// The default tolerance of a figure in `unit`: times vary more than bandwidths between
/// runs of a small message, and I/O most of all.
fn tolerance(key: &str, unit: &str) -> f64 {
    let io = key.starts_with("imb-io/") || key.starts_with("b_eff_io/");
    match Direction::of(unit) {
        _ if io => 0.30,
        Direction::LowerIsBetter => 0.30,
        Direction::HigherIsBetter => 0.15,
    }
}

/// The reference file (TOML) of a run: every headline figure with a default tolerance on
/// the side where it gets worse, and no bound on the side where it gets better.
pub fn reference(report: &Report) -> String {
    let mut out = format!(
        "# paw reference: the headline figures of {}\n\
         # Per figure: value, and the accepted range as fractions of it, as ReFrame keeps a\n\
         # reference: lower = -0.15 accepts down to 15 % below the value, upper = 0.3 up to\n\
         # 30 % above; a bound left out is no bound. `paw-report check --reference FILE DIR`\n\
         # fails a run whose figure falls outside, or is missing, or has another unit.\n",
        report.dir.display()
    );
    for f in report.sections.iter().flat_map(|s| &s.figures) {
        let key = f.key();
        if !(f.value.is_finite() && f.value > 0.0) {
            // A bound as a fraction of the value needs a positive value (PRESTA's allred
            // difference can come out below zero on a quiet machine).
            out += &format!("\n# {key} = {} in this run ({}): no reference\n", f.value, f.source);
            continue;
        }
        let t = tolerance(&key, &f.unit);
        let bound = match f.direction() {
            Direction::HigherIsBetter => format!("lower = -{t}"),
            Direction::LowerIsBetter => format!("upper = {t}"),
        };
        let quoted = toml::Value::String(key.clone()).to_string();
        out += &format!(
            "\n[{quoted}]  # {}\nvalue = {}\n{bound}\nunit = {}\n",
            f.source,
            toml::Value::Float(f.value),
            toml::Value::String(f.unit.clone())
        );
    }
    out
}

/// Reads a reference file.
pub fn parse(text: &str) -> Result<Vec<Reference>, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let at = e.span().map(|s| text[..s.start].lines().count().max(1));
        let line = at.map(|l| format!("line {l}: ")).unwrap_or_default();
        format!("{line}{}; accepted: a file made by paw-report reference", e.message().trim())
    })?;
    let mut refs = Vec::new();
    for (key, entry) in table {
        let t = entry
            .as_table()
            .ok_or_else(|| format!("{key:?}: not a table; accepted: [\"step/figure\"] tables"))?;
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
        for k in t.keys() {
            if !["value", "lower", "upper", "unit"].contains(&k.as_str()) {
                return Err(format!(
                    "{key:?}: unknown key {k:?}; accepted: value, lower, upper, unit"
                ));
            }
        }
        let (lower, upper) = (number("lower")?, number("upper")?);
        if lower.is_some_and(|l| l > 0.0) || upper.is_some_and(|u| u < 0.0) {
            return Err(format!(
                "{key:?}: the range leaves out the value itself; accepted: lower <= 0 <= upper"
            ));
        }
        refs.push(Reference { key, value, lower, upper, unit: unit.into() });
    }
    Ok(refs)
}

/// One reference checked against a run.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The reference.
    pub reference: Reference,
    /// The run's value, if it has the figure (in the reference's unit).
    pub measured: Option<f64>,
    /// The run's unit, if it has the figure.
    pub unit: Option<String>,
    /// Whether the value is inside the range, in the right unit.
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
    let figures: Vec<_> = report.sections.iter().flat_map(|s| &s.figures).collect();
    Ok(refs
        .into_iter()
        .map(|r| {
            let found = figures.iter().find(|f| f.key() == r.key);
            let (lo, hi) = r.range();
            let (measured, unit) = (found.map(|f| f.value), found.map(|f| f.unit.clone()));
            let margin =
                measured.map_or(f64::NAN, |v| 100.0 * (v - lo).min(hi - v) / r.value.abs());
            let pass = unit.as_deref() == Some(r.unit.as_str())
                && measured.is_some_and(|v| v >= lo && v <= hi);
            Checked { reference: r, measured, unit, pass, margin }
        })
        .collect())
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
            let got = match (c.measured, &c.unit) {
                (Some(v), Some(u)) if *u == r.unit => format!("{} {u}", short(v)),
                (Some(v), Some(u)) => format!("{} {u}, not {}", short(v), r.unit),
                _ => "missing from the run".into(),
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
    use crate::figures::{Figure, Section};

    fn run(value: f64) -> Report {
        let figure = |name: &str, value: f64, unit: &str| Figure {
            section: "b_eff".into(),
            name: name.into(),
            value,
            unit: unit.into(),
            interval: None,
            source: "b_eff/b_eff-np_0002.prot".into(),
        };
        let figures = vec![figure("b_eff", value, "MB/s"), figure("latency: x", 2.0, "usec")];
        Report {
            dir: "r".into(),
            sections: vec![Section { name: "b_eff".into(), figures, ..Section::default() }],
        }
    }

    #[test]
    fn a_run_passes_its_own_reference_and_fails_ten_times_the_bandwidth() {
        let text = reference(&run(1000.0));
        assert!(text.contains("[\"b_eff/b_eff\"]") && text.contains("lower = -0.15"), "{text}");
        assert!(check(&run(1000.0), &text).unwrap().iter().all(|c| c.pass));
        assert!(check(&run(900.0), &text).unwrap().iter().all(|c| c.pass));
        let failed: Vec<_> =
            check(&run(800.0), &text).unwrap().into_iter().filter(|c| !c.pass).collect();
        assert_eq!(failed.len(), 1);
        assert!((failed[0].margin + 5.0).abs() < 1e-9, "{}", failed[0].margin);
        let demanding = text.replace("value = 1000.0", "value = 10000.0");
        let lines = check_lines(&check(&run(1000.0), &demanding).unwrap());
        assert!(lines.iter().any(|l| l.starts_with("FAIL  b_eff/b_eff ")), "{lines:?}");
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
