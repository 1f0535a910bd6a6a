//! Node outliers: the node tests of every host of a run (a directory per host), each host's
//! figure against the median of all hosts, and the hosts below a fraction of it.

use crate::results::{Direction, Figure};
use paw_base::median;
use std::path::Path;

/// The node tests of every host, figure by figure.
#[derive(Debug, Clone)]
pub struct Table {
    /// The hosts, by name (their directories' names).
    pub hosts: Vec<String>,
    /// One row per figure.
    pub rows: Vec<Row>,
    /// The fraction of the median below which a host is slow.
    pub low: f64,
}

/// One figure on every host.
#[derive(Debug, Clone)]
pub struct Row {
    /// The figure's name (`stream: Triad best rate`).
    pub name: String,
    /// Its unit.
    pub unit: String,
    /// Per host (in `Table::hosts` order) its value, if the host has it.
    pub values: Vec<Option<f64>>,
    /// The median over the hosts that have it.
    pub median: f64,
}

impl Row {
    /// A value as a fraction of the median, in the figure's good direction (0.5: half the
    /// bandwidth, or twice the time).
    pub fn fraction(&self, value: f64) -> f64 {
        match Direction::of(&self.unit) {
            Direction::HigherIsBetter => value / self.median,
            Direction::LowerIsBetter => self.median / value,
        }
    }
}

/// Whether `dir` holds a node test's files written for its host: a run record without an
/// MPI library whose host is the directory's name (what a node test started once per node
/// writes).
fn is_host_dir(dir: &Path) -> bool {
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.filter_map(|e| e.ok().map(|e| e.path())).any(|p| {
        let record = Some(&p)
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
        record.is_some_and(|r| r["mpi_library"].is_null() && r["hosts"][0]["host"] == *name)
    })
}

/// The table of `dir`'s host directories, or None when it has none; `figures_of` reads a
/// host directory's figures.
pub fn table(
    dir: &Path,
    low: f64,
    figures_of: impl Fn(&Path) -> Result<Vec<Figure>, String>,
) -> Result<Option<Table>, String> {
    let mut hosts: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && is_host_dir(p))
        .collect();
    hosts.sort();
    let mut table = Table { hosts: Vec::new(), rows: Vec::new(), low };
    let mut per_host: Vec<Vec<Figure>> = Vec::new();
    for host in hosts {
        let figures = figures_of(&host)?;
        if !figures.is_empty() {
            table.hosts.push(host.file_name().unwrap_or_default().to_string_lossy().into_owned());
            per_host.push(figures);
        }
    }
    if per_host.is_empty() {
        return Ok(None);
    }
    for f in per_host.iter().flatten() {
        if !table.rows.iter().any(|r| r.name == f.name) {
            let values: Vec<Option<f64>> = per_host
                .iter()
                .map(|fs| fs.iter().find(|g| g.name == f.name).map(|g| g.value))
                .collect();
            let have: Vec<f64> = values.iter().flatten().copied().collect();
            let median = median(&have);
            table.rows.push(Row { name: f.name.clone(), unit: f.unit.clone(), values, median });
        }
    }
    Ok(Some(table))
}

impl Table {
    /// Each figure's median over the hosts, as the section's figures (what a reference keeps).
    pub fn medians(&self, section: &str) -> Vec<Figure> {
        self.rows
            .iter()
            .map(|r| Figure {
                section: section.to_string(),
                name: format!("{}, median over hosts", r.name),
                value: r.median,
                unit: r.unit.clone(),
                interval: None,
                source: section.to_string(),
            })
            .collect()
    }

    /// The slow hosts: per host, the figures below `low` of the median with their fraction.
    pub fn slow(&self) -> Vec<(String, Vec<(String, f64)>)> {
        let mut out = Vec::new();
        for (h, host) in self.hosts.iter().enumerate() {
            let low: Vec<(String, f64)> = self
                .rows
                .iter()
                .filter_map(|r| r.values[h].map(|v| (r.name.clone(), r.fraction(v))))
                .filter(|(_, f)| *f < self.low)
                .collect();
            if !low.is_empty() {
                out.push((host.clone(), low));
            }
        }
        out
    }

    /// The verdict lines: each slow host with its low figures, or that there is none.
    pub fn verdict(&self) -> Vec<String> {
        let percent = self.low * 100.0;
        if self.hosts.len() < 2 {
            return vec![format!(
                "one host ({}): no other to compare it with",
                self.hosts.join("")
            )];
        }
        let slow = self.slow();
        if slow.is_empty() {
            return vec![format!(
                "no slow node: every host at least {percent:.0} % of the median of {} hosts in every figure",
                self.hosts.len()
            )];
        }
        slow.into_iter()
            .map(|(host, figures)| {
                let what: Vec<String> = figures
                    .iter()
                    .map(|(name, f)| format!("{name} {:.0} % of the median", f * 100.0))
                    .collect();
                format!("slow node: {host} ({}; below {percent:.0} %)", what.join(", "))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(unit: &str, values: &[f64]) -> Row {
        let mut s = values.to_vec();
        s.sort_by(f64::total_cmp);
        Row {
            name: "x".into(),
            unit: unit.into(),
            values: values.iter().map(|v| Some(*v)).collect(),
            median: (s[1] + s[2]) / 2.0,
        }
    }

    #[test]
    fn a_host_below_the_fraction_is_named_in_either_direction() {
        let hosts = ["h1", "h2", "h3", "h4"].map(String::from).to_vec();
        let bw = Table {
            hosts: hosts.clone(),
            rows: vec![row("MB/s", &[100.0, 98.0, 40.0, 101.0])],
            low: 0.8,
        };
        assert_eq!(bw.slow().len(), 1);
        assert_eq!(bw.slow()[0].0, "h3");
        assert!(
            bw.verdict()[0].starts_with("slow node: h3 (x 40 % of the median"),
            "{:?}",
            bw.verdict()
        );
        let time = Table { hosts, rows: vec![row("s", &[1.0, 1.0, 1.0, 3.0])], low: 0.8 };
        assert_eq!(time.slow()[0].0, "h4");
        let even = Table { rows: vec![row("MB/s", &[100.0, 98.0, 97.0, 101.0])], ..bw };
        assert!(even.slow().is_empty() && even.verdict()[0].starts_with("no slow node"));
    }
}
