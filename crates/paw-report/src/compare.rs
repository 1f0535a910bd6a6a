//! `paw-report compare BASE NEW`: the same files and sizes in two result directories, the
//! change of their medians in percent (positive is slower, for times and rates alike),
//! which changes are real (larger than the threshold and outside both runs' own spread:
//! their MIN..MAX ranges do not overlap), and which settings differ between the runs.

use crate::{dat_files, Dat};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Whether more of the measured quantity is worse (a time) or better (a rate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Times: usec, s.
    LowerIsBetter,
    /// Bandwidths, rates, GFLOP/s.
    HigherIsBetter,
}

impl Direction {
    /// The direction of a quantity measured in `unit`.
    pub fn of(unit: &str) -> Direction {
        match unit.split_whitespace().next().unwrap_or("") {
            "usec" | "s" | "ms" | "nsec" => Direction::LowerIsBetter,
            _ => Direction::HigherIsBetter,
        }
    }
}

/// What a row's change means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// Within the threshold or within the runs' spread.
    Same,
    /// A real slowdown.
    Slower,
    /// A real improvement.
    Faster,
}

/// One size of one file in both runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The file's name.
    pub file: String,
    /// The row's key (SIZE column).
    pub size: String,
    /// The unit of the medians.
    pub unit: String,
    /// MEDIAN in the base run.
    pub base: f64,
    /// MEDIAN in the new run.
    pub new: f64,
    /// The base run's 95 % interval of the median (CI_LO..CI_HI; MIN..MAX where the file
    /// has no interval).
    pub base_interval: (f64, f64),
    /// The new run's interval, as `base_interval`.
    pub new_interval: (f64, f64),
    /// The change in percent of the cost (the time, or the inverse of a rate): positive is
    /// slower whatever the unit; +100 is twice the time or half the bandwidth.
    pub change: f64,
    /// The verdict.
    pub flag: Flag,
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
    /// Every size present in both runs of every file present in both.
    pub rows: Vec<Comparison>,
    /// Files only the base run has.
    pub only_base: Vec<String>,
    /// Files only the new run has.
    pub only_new: Vec<String>,
    /// Header differences, each with the number of compared files showing it.
    pub differences: Vec<(Difference, usize)>,
    /// How many files both runs have.
    pub files: usize,
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

/// Header lines compared whole between two runs.
const WHOLE: [&str; 5] = ["tasks", "hosts", "binding", "library", "mca file"];

/// The header facts of `dat` that compare settings: whole lines of [`WHOLE`], and each
/// variable of the `settings:`/`defaults:` lines (one namespace: a default and the same
/// value set by hand are no difference) and of the `environment:` line.
fn facts(dat: &Dat) -> BTreeMap<String, String> {
    let mut facts = BTreeMap::new();
    for key in WHOLE {
        if let Some(v) = dat.header_value(key) {
            facts.insert(key.to_string(), v.to_string());
        }
    }
    for (key, label) in
        [("defaults", "setting"), ("settings", "setting"), ("environment", "environment")]
    {
        for word in dat.header_value(key).unwrap_or("").split_whitespace() {
            if let Some((var, value)) = word.split_once('=') {
                facts.insert(format!("{label} {var}"), value.to_string());
            }
        }
    }
    facts
}

/// What differs between two files' header facts.
fn differences(base: &Dat, new: &Dat) -> Vec<Difference> {
    let (b, n) = (facts(base), facts(new));
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

/// Compares the `.dat` files of `base` and `new`; `threshold` is the relative change a
/// row must exceed (0.1 for 10 %) to be flagged.
pub fn compare(base: &Path, new: &Path, threshold: f64) -> Result<Report, String> {
    let names = |dir: &Path| -> Result<Vec<String>, String> {
        Ok(dat_files(dir)?
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect())
    };
    let (b, n) = (names(base)?, names(new)?);
    let mut report = Report {
        only_base: b.iter().filter(|f| !n.contains(f)).cloned().collect(),
        only_new: n.iter().filter(|f| !b.contains(f)).cloned().collect(),
        ..Report::default()
    };
    let mut seen: BTreeMap<Difference, usize> = BTreeMap::new();
    for file in b.iter().filter(|f| n.contains(f)) {
        let (old, cur) = (Dat::read(&base.join(file))?, Dat::read(&new.join(file))?);
        report.files += 1;
        for d in differences(&old, &cur) {
            *seen.entry(d).or_default() += 1;
        }
        let unit = cur.y_unit().unwrap_or("").to_string();
        let direction = Direction::of(&unit);
        let cols = |d: &Dat| -> Option<[usize; 6]> {
            let (min, max) = (d.find("MIN")?, d.find("MAX")?);
            let lo = d.find("CI_LO").unwrap_or(min);
            let hi = d.find("CI_HI").unwrap_or(max);
            Some([d.find("SIZE")?, d.find("MEDIAN")?, min, max, lo, hi])
        };
        let (Some(oc), Some(nc)) = (cols(&old), cols(&cur)) else { continue };
        for row in &cur.rows {
            let Some(prev) = old.rows.iter().find(|r| r[oc[0]] == row[nc[0]]) else { continue };
            let num = |r: &[String], i: usize| r[i].parse::<f64>().unwrap_or(f64::NAN);
            let (bm, nm) = (num(prev, oc[1]), num(row, nc[1]));
            let cost = match direction {
                Direction::LowerIsBetter => nm / bm,
                Direction::HigherIsBetter => bm / nm,
            };
            let apart = num(row, nc[2]) > num(prev, oc[3]) || num(row, nc[3]) < num(prev, oc[2]);
            let flag = if (nm / bm - 1.0).abs() > threshold && apart {
                if cost > 1.0 {
                    Flag::Slower
                } else {
                    Flag::Faster
                }
            } else {
                Flag::Same
            };
            report.rows.push(Comparison {
                file: file.clone(),
                size: row[nc[0]].clone(),
                unit: unit.clone(),
                base: bm,
                new: nm,
                base_interval: (num(prev, oc[4]), num(prev, oc[5])),
                new_interval: (num(row, nc[4]), num(row, nc[5])),
                change: (cost - 1.0) * 100.0,
                flag,
            });
        }
    }
    report.differences = seen.into_iter().collect();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, unit: &str, rows: &[(u32, f64, f64, f64)]) {
        write_with(dir, name, "", unit, rows)
    }

    fn write_with(dir: &Path, name: &str, head: &str, unit: &str, rows: &[(u32, f64, f64, f64)]) {
        let mut text = format!(
            "# paw x -- t\n{head}# y: q [{unit}]; AVG ...\n# columns: SIZE AVG MIN MAX STDDEV MEDIAN NLOOP NREPS CI_LO CI_HI NOISY\n"
        );
        for (s, min, med, max) in rows {
            text += &format!("{s} {med} {min} {max} 0 {med} 1 3 {min} {max} 0\n");
        }
        std::fs::write(dir.join(name), text).unwrap();
    }

    #[test]
    fn real_changes_are_flagged_by_direction() {
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
        write(a.path(), "only.dat", "usec", &[(1, 1.0, 1.0, 1.0)]);
        let r = compare(a.path(), b.path(), 0.1).unwrap();
        let flag =
            |f: &str, s: &str| r.rows.iter().find(|c| c.file == f && c.size == s).unwrap().flag;
        assert_eq!(flag("t.dat", "1"), Flag::Slower, "twice the time");
        assert_eq!(flag("t.dat", "2"), Flag::Same, "ranges overlap");
        assert_eq!(flag("t.dat", "4"), Flag::Same, "1% is below the threshold");
        assert_eq!(flag("bw.dat", "1"), Flag::Faster, "twice the bandwidth");
        let change =
            |f: &str, s: &str| r.rows.iter().find(|c| c.file == f && c.size == s).unwrap().change;
        assert!((change("t.dat", "1") - 100.0).abs() < 1e-9, "twice the time: +100 %");
        assert!((change("bw.dat", "1") + 50.0).abs() < 1e-9, "twice the bandwidth: -50 %");
        assert_eq!(r.rows_of("bw.dat").next().unwrap().base_interval, (100.0, 120.0));
        assert_eq!(r.files, 2);
        assert!(r.differences.is_empty());
        assert_eq!(r.slower(), 1);
        assert_eq!(r.only_base, ["only.dat"]);
        assert!(r.only_new.is_empty());
    }

    #[test]
    fn directions() {
        assert_eq!(Direction::of("usec"), Direction::LowerIsBetter);
        assert_eq!(Direction::of("s"), Direction::LowerIsBetter);
        assert_eq!(Direction::of("GFLOP/s (1e9 flop/s)"), Direction::HigherIsBetter);
        assert_eq!(Direction::of("messages/s"), Direction::HigherIsBetter);
    }

    #[test]
    fn settings_that_differ_are_listed() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let row = [(1, 1.0, 1.0, 1.0)];
        let head = |tasks: u32, settings: &str, env: &str| {
            format!("# tasks: {tasks}\n# settings: {settings}\n# defaults: NREPS=10 NLOOP=-\n{env}")
        };
        write_with(a.path(), "x.dat", &head(2, "MAX_P2P_SIZE=8", ""), "usec", &row);
        let env = "# environment: OMPI_MCA_btl=self,tcp\n";
        write_with(b.path(), "x.dat", &head(4, "MAX_P2P_SIZE=8 NREPS=10", env), "usec", &row);
        let r = compare(a.path(), b.path(), 0.1).unwrap();
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
