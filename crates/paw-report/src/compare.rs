//! `paw-report compare BASE NEW`: the same files and sizes in two result directories, the
//! ratio of their medians, and which changes are real: larger than the threshold and
//! outside both runs' own spread (their MIN..MAX ranges do not overlap).

use crate::{dat_files, Dat};
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
    /// new / base.
    pub ratio: f64,
    /// The verdict.
    pub flag: Flag,
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
}

impl Report {
    /// Rows flagged as slower.
    pub fn slower(&self) -> usize {
        self.rows.iter().filter(|r| r.flag == Flag::Slower).count()
    }
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
    for file in b.iter().filter(|f| n.contains(f)) {
        let (old, cur) = (Dat::read(&base.join(file))?, Dat::read(&new.join(file))?);
        let unit = cur.y_unit().unwrap_or("").to_string();
        let direction = Direction::of(&unit);
        let cols = |d: &Dat| -> Option<[usize; 4]> {
            Some([d.find("SIZE")?, d.find("MEDIAN")?, d.find("MIN")?, d.find("MAX")?])
        };
        let (Some(oc), Some(nc)) = (cols(&old), cols(&cur)) else { continue };
        for row in &cur.rows {
            let Some(prev) = old.rows.iter().find(|r| r[oc[0]] == row[nc[0]]) else { continue };
            let num = |r: &[String], i: usize| r[i].parse::<f64>().unwrap_or(f64::NAN);
            let (bm, nm) = (num(prev, oc[1]), num(row, nc[1]));
            let ratio = nm / bm;
            let apart = num(row, nc[2]) > num(prev, oc[3]) || num(row, nc[3]) < num(prev, oc[2]);
            let flag = if (ratio - 1.0).abs() > threshold && apart {
                match (direction, ratio > 1.0) {
                    (Direction::LowerIsBetter, true) | (Direction::HigherIsBetter, false) => {
                        Flag::Slower
                    }
                    _ => Flag::Faster,
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
                ratio,
                flag,
            });
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, unit: &str, rows: &[(u32, f64, f64, f64)]) {
        let mut text = format!(
            "# paw x -- t\n# y: q [{unit}]; AVG ...\n# columns: SIZE AVG MIN MAX STDDEV MEDIAN NLOOP NREPS CI_LO CI_HI NOISY\n"
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
}
