//! `paw-report summary DIR`: the headline figures of a run as text, a section per step.

use crate::figures::Report;

/// The summary of `report` as text: per section its figures (name, value, unit, file), its
/// verdict lines, and for a directory of hosts the node table.
pub fn summary(report: &Report) -> String {
    let figures = report.sections.iter().flat_map(|s| &s.figures);
    let width = figures.clone().map(|f| f.name.len()).max().unwrap_or(0);
    let units = figures.clone().map(|f| f.unit.len()).max().unwrap_or(0);
    let mut out = format!(
        "paw report of {}: {} figures in {} sections (files relative to it)\n",
        report.dir.display(),
        figures.count(),
        report.sections.len()
    );
    for s in &report.sections {
        out += &format!("\n== {}\n", s.name);
        for f in &s.figures {
            out += &format!(
                "  {:<width$}  {:>12} {:<units$}  {}\n",
                f.name,
                short(f.value),
                f.unit,
                f.source
            );
        }
        if let Some(t) = &s.nodes {
            let name = t.rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(6);
            out += &format!("\n  {:<name$}", "figure");
            for h in t.hosts.iter().chain([&"median".to_string()]) {
                out += &format!(" {h:>12}");
            }
            out += "\n";
            for r in &t.rows {
                out += &format!("  {:<name$}", r.name);
                for v in r.values.iter().chain([&Some(r.median)]) {
                    out += &format!(" {:>12}", v.map_or("-".into(), short));
                }
                out += &format!(" {}\n", r.unit);
            }
            out += "\n";
        }
        for n in &s.notes {
            out += &format!("  {n}\n");
        }
    }
    out
}

/// The headline figures as CSV: one row per figure with its section, name, value, unit,
/// 95 % interval (empty where it has none) and file; what scripts and ReFrame read (with
/// `reframe`, names and units as paw's ReFrame tests give them: [`crate::reframe_variable`],
/// [`crate::reframe_unit`]).
pub fn summary_csv(report: &Report, reframe: bool) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let cell = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
    let header = ["section", "figure", "value", "unit", "ci_lo", "ci_hi", "file"];
    w.write_record(header).expect("CSV into memory");
    for f in report.sections.iter().flat_map(|s| &s.figures) {
        let (lo, hi) = (f.interval.map(|i| i.0), f.interval.map(|i| i.1));
        let value = f.value.to_string();
        let (name, unit) = match reframe {
            true => (crate::reframe_variable(&f.name), crate::reframe_unit(&f.unit)),
            false => (f.name.clone(), f.unit.clone()),
        };
        let record = [&f.section, &name, &value, &unit, &cell(lo), &cell(hi), &f.source];
        w.write_record(record).expect("CSV into memory");
    }
    String::from_utf8(w.into_inner().expect("CSV into memory")).expect("UTF-8")
}

/// A value in at most 6 significant digits, as paw writes them.
pub fn short(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let digits = (5 - x.abs().log10().floor() as i32).clamp(0, 6) as usize;
    format!("{x:.digits$}")
}
