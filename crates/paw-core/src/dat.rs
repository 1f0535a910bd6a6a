//! gnuplot-ready `.dat` files: `#` header lines, then one row per workload, flushed at once.

use crate::bench::Row;
use crate::error::fatal;
use std::fmt::Display;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// One axis of a data file: the row key (x) or the measured quantity (y).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    /// What it is, e.g. `message size` or `one-way time`.
    pub label: String,
    /// Its unit, e.g. `bytes`, `usec`, `MB/s (MB = 2^20 B)`.
    pub unit: String,
}

impl Axis {
    /// An axis with a label and a unit.
    pub fn new(label: impl Into<String>, unit: impl Into<String>) -> Axis {
        Axis { label: label.into(), unit: unit.into() }
    }
}

/// What goes into one data file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatSpec {
    /// File name, e.g. `isend_time-np_0002.dat`.
    pub file: String,
    /// The row key (first column).
    pub x: Axis,
    /// The measured quantity (AVG … MEDIAN columns).
    pub y: Axis,
    /// Extra header lines: timed calls, formula, how ranks were combined, loop policy.
    pub notes: Vec<String>,
    /// Also print the rows as a table on standard output (the run's summary).
    pub echo: bool,
    /// Names of extra numeric columns after NREPS, described in `notes`.
    pub extra: Vec<&'static str>,
}

/// Column names of every row.
pub const COLUMNS: &str = "SIZE AVG MIN MAX STDDEV MEDIAN NLOOP NREPS";

/// An open data file. Only rank 0 holds the file; on other ranks rows are ignored.
#[derive(Debug)]
pub struct DatFile {
    out: Option<(PathBuf, BufWriter<File>)>,
    echo: bool,
    extra: usize,
    check_column: bool,
}

impl DatFile {
    /// Creates `dir/spec.file` and writes its header (`common` first, then the spec's lines).
    /// With `check_column`, rows end with a CHECK column (pass, fail, -).
    pub(crate) fn create(
        dir: &Path,
        common: &[String],
        spec: &DatSpec,
        check_column: bool,
    ) -> std::io::Result<DatFile> {
        let path = dir.join(&spec.file);
        let mut w = BufWriter::new(File::create(&path)?);
        for line in common.iter().chain(&spec.notes) {
            writeln!(w, "# {line}")?;
        }
        writeln!(w, "# x: SIZE = {} [{}]", spec.x.label, spec.x.unit)?;
        writeln!(
            w,
            "# y: {} [{}]; AVG MIN MAX STDDEV MEDIAN over NREPS repetitions (STDDEV: sample standard deviation)",
            spec.y.label, spec.y.unit
        )?;
        let mut columns = COLUMNS.to_string();
        let mut heading = format!(
            "{:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>9} {:>6}",
            "SIZE", "AVG", "MIN", "MAX", "STDDEV", "MEDIAN", "NLOOP", "NREPS"
        );
        for name in &spec.extra {
            columns.push_str(&format!(" {name}"));
            heading.push_str(&format!(" {name:>12}"));
        }
        if check_column {
            columns.push_str(" CHECK");
            heading.push_str(&format!(" {:>6}", "CHECK"));
        }
        writeln!(w, "# columns: {columns}")?;
        w.flush()?;
        if spec.echo {
            println!("\n{} [{}] -> {}", spec.y.label, spec.y.unit, path.display());
            println!("{heading}");
        }
        let extra = spec.extra.len();
        Ok(DatFile { out: Some((path, w)), echo: spec.echo, extra, check_column })
    }

    /// A file handle for ranks other than 0: rows go nowhere.
    pub(crate) fn inactive() -> DatFile {
        DatFile { out: None, echo: false, extra: 0, check_column: false }
    }

    /// Path of the file (rank 0 only).
    pub fn path(&self) -> Option<&Path> {
        self.out.as_ref().map(|(p, _)| p.as_path())
    }

    /// Appends a row and flushes it, so an interrupted run keeps every finished row.
    ///
    /// A write failure ends the whole job (see [`crate::error::fatal`]).
    pub fn row(&mut self, x: impl Display, row: &Row) {
        self.row_with(x, row, &[]);
    }

    /// Like [`DatFile::row`], with values for the spec's extra columns.
    pub fn row_with(&mut self, x: impl Display, row: &Row, extra: &[f64]) {
        let Some((path, w)) = self.out.as_mut() else {
            return;
        };
        assert_eq!(extra.len(), self.extra, "one value per extra column");
        let s = &row.stats;
        let [avg, min, max, sd, med] = [s.mean, s.min, s.max, s.stddev, s.median].map(format_value);
        let x = x.to_string();
        let mut line = format!(
            "{x:>12} {avg:>12} {min:>12} {max:>12} {sd:>12} {med:>12} {:>9} {:>6}",
            row.nloop, row.nreps
        );
        for v in extra {
            line.push_str(&format!(" {:>12}", format_value(*v)));
        }
        if self.check_column {
            line.push_str(&format!(" {:>6}", row.check.as_str()));
        }
        if let Err(e) = writeln!(w, "{line}").and_then(|_| w.flush()) {
            fatal(&format!("cannot write {}: {e}", path.display()));
        }
        if self.echo {
            println!("{line}");
        }
    }

    /// Appends a `#` comment line (e.g. a calibration note) and flushes it.
    pub fn comment(&mut self, text: &str) {
        if let Some((path, w)) = self.out.as_mut() {
            if let Err(e) = writeln!(w, "# {text}").and_then(|_| w.flush()) {
                fatal(&format!("cannot write {}: {e}", path.display()));
            }
        }
    }
}

/// A plain table file (one row per run, e.g. start-up times), rank 0 only.
#[derive(Debug)]
pub struct Table {
    out: Option<(PathBuf, BufWriter<File>)>,
}

impl Table {
    /// Opens `path`: a new file gets `header` as `#` lines; with `append` an existing file
    /// keeps its content and gets rows added at the end.
    pub(crate) fn open(path: &Path, header: &[String], append: bool) -> std::io::Result<Table> {
        let fresh = !append || !path.exists();
        let file =
            File::options().create(true).append(append).write(true).truncate(!append).open(path)?;
        let mut w = BufWriter::new(file);
        if fresh {
            for line in header {
                writeln!(w, "# {line}")?;
            }
        }
        w.flush()?;
        Ok(Table { out: Some((path.to_path_buf(), w)) })
    }

    pub(crate) fn inactive() -> Table {
        Table { out: None }
    }

    /// Appends a row of cells and flushes it; a write failure ends the job.
    pub fn row(&mut self, cells: &[String]) {
        if let Some((path, w)) = self.out.as_mut() {
            let line = cells.iter().map(|c| format!("{c:>14}")).collect::<Vec<_>>().join(" ");
            if let Err(e) = writeln!(w, "{line}").and_then(|_| w.flush()) {
                fatal(&format!("cannot write {}: {e}", path.display()));
            }
        }
    }
}

/// Six significant digits, fixed-point where that stays readable, scientific otherwise.
pub fn format_value(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    if !x.is_finite() {
        return x.to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if (-3..9).contains(&magnitude) {
        let decimals = (5 - magnitude).max(0) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.5e}")
    }
}

/// PAW's file name for a quantity at a task (or thread) count: `isend_time-np_0004.dat`.
pub fn np_file(stem: &str, count: usize) -> String {
    format!("{stem}-np_{count:04}.dat")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Verdict;
    use crate::stats::Stats;

    #[test]
    fn values_keep_six_significant_digits() {
        assert_eq!(format_value(0.0), "0");
        assert_eq!(format_value(0.312345678), "0.312346");
        assert_eq!(format_value(1234.56789), "1234.57");
        assert_eq!(format_value(28_000_000.0), "28000000");
        assert_eq!(format_value(1.5e-7), "1.50000e-7");
        assert_eq!(format_value(0.00123456), "0.00123456");
        assert_eq!(format_value(3.2e12), "3.20000e12");
    }

    #[test]
    fn names() {
        assert_eq!(np_file("isend_time", 4), "isend_time-np_0004.dat");
        assert_eq!(np_file("dgemm_flops", 16), "dgemm_flops-np_0016.dat");
    }

    #[test]
    fn writes_header_and_flushed_rows() {
        let dir = tempfile::tempdir().unwrap();
        let spec = DatSpec {
            file: "x_time-np_0002.dat".into(),
            x: Axis::new("message size", "bytes"),
            y: Axis::new("one-way time", "usec"),
            notes: vec!["ranks: minimum over tasks".into()],
            echo: false,
            extra: vec![],
        };
        let mut f = DatFile::create(dir.path(), &["paw x -- test".into()], &spec, false).unwrap();
        let row = Row {
            stats: Stats::of(&[1.0, 2.0, 3.0]),
            nloop: 1000,
            nreps: 3,
            check: Verdict::Unchecked,
        };
        f.row(8, &row);
        // Read back without dropping the writer: the row must already be on disk.
        let text = std::fs::read_to_string(dir.path().join("x_time-np_0002.dat")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "# paw x -- test");
        assert_eq!(lines[1], "# ranks: minimum over tasks");
        assert_eq!(lines[2], "# x: SIZE = message size [bytes]");
        assert!(lines[3].starts_with("# y: one-way time [usec]"));
        assert_eq!(lines[4], format!("# columns: {COLUMNS}"));
        let cells: Vec<&str> = lines[5].split_whitespace().collect();
        assert_eq!(
            cells,
            ["8", "2.00000", "1.00000", "3.00000", "1.00000", "2.00000", "1000", "3"]
        );
        assert_eq!(lines.len(), 6);
    }

    #[test]
    fn check_column_records_the_verdict() {
        let dir = tempfile::tempdir().unwrap();
        let spec = DatSpec {
            file: "c.dat".into(),
            x: Axis::new("size", "bytes"),
            y: Axis::new("time", "usec"),
            notes: vec![],
            echo: false,
            extra: vec![],
        };
        let mut f = DatFile::create(dir.path(), &[], &spec, true).unwrap();
        let row = Row { stats: Stats::of(&[1.0]), nloop: 1, nreps: 1, check: Verdict::Unchecked };
        f.row(1, &row.verdict(Verdict::Pass));
        f.row(2, &row.verdict(Verdict::Fail));
        let text = std::fs::read_to_string(dir.path().join("c.dat")).unwrap();
        assert!(text.contains(&format!("# columns: {COLUMNS} CHECK")));
        let last: Vec<&str> = text.lines().map(|l| l.split_whitespace().last().unwrap()).collect();
        assert_eq!(last[last.len() - 2..], ["pass", "fail"]);
    }

    #[test]
    fn extra_columns_follow_nreps() {
        let dir = tempfile::tempdir().unwrap();
        let spec = DatSpec {
            file: "e.dat".into(),
            x: Axis::new("size", "bytes"),
            y: Axis::new("time", "usec"),
            notes: vec![],
            echo: false,
            extra: vec!["TASK_MIN", "TASK_MAX"],
        };
        let mut f = DatFile::create(dir.path(), &[], &spec, false).unwrap();
        let row = Row { stats: Stats::of(&[2.0]), nloop: 1, nreps: 1, check: Verdict::Unchecked };
        f.row_with(8, &row, &[1.5, 2.5]);
        let text = std::fs::read_to_string(dir.path().join("e.dat")).unwrap();
        assert!(text.contains(&format!("# columns: {COLUMNS} TASK_MIN TASK_MAX\n")));
        let cells: Vec<&str> = text.lines().last().unwrap().split_whitespace().collect();
        assert_eq!(cells[8..], ["1.50000", "2.50000"]);
    }

    #[test]
    fn table_appends_below_the_first_header() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.dat");
        let mut t = Table::open(&path, &["run one".into(), "columns: A B".into()], true).unwrap();
        t.row(&["1".into(), "0.5".into()]);
        let mut t = Table::open(&path, &["run two".into(), "columns: A B".into()], true).unwrap();
        t.row(&["2".into(), "0.7".into()]);
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "# run one");
        assert!(!text.contains("run two"));
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[3].split_whitespace().collect::<Vec<_>>(), ["2", "0.7"]);
        // Without append the file starts over.
        Table::open(&path, &["run three".into()], false).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "# run three\n");
    }

    #[test]
    fn unwritable_directory_is_an_error() {
        let spec = DatSpec {
            file: "a.dat".into(),
            x: Axis::new("size", "bytes"),
            y: Axis::new("time", "usec"),
            notes: vec![],
            echo: false,
            extra: vec![],
        };
        assert!(DatFile::create(Path::new("/nonexistent/paw"), &[], &spec, false).is_err());
    }
}
