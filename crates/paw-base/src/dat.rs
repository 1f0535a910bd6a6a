//! gnuplot-ready `.dat` files and their CSV twins: `#` header lines, then one row per
//! workload, written and flushed at once, so a run that dies keeps every finished row.
//!
//! Nothing here knows about MPI: a write failure is handed to the `fail` function the
//! session gives (which ends the job), after the file was cut back to its last whole row.

use crate::check::Verdict;
use crate::record::Ledger;
use crate::schema::{sweep, Unit, NONE};
use crate::stats::Stats;
use std::borrow::Cow;
use std::fmt::Display;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Statistics of one derived quantity of a [`crate::Measurement`], ready to be written as a row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// Statistics over the repetitions.
    pub stats: Stats,
    /// Iterations per sample.
    pub nloop: u64,
    /// Number of repetitions.
    pub nreps: usize,
    /// Data check of this size (`PAW_CHECK=1`).
    pub check: Verdict,
    /// The [`crate::Measurement::id`] it was derived from (0: none).
    pub measurement: u64,
}

impl Row {
    /// The row with the data check's verdict attached.
    pub fn verdict(self, check: Verdict) -> Row {
        Row { check, ..self }
    }
}

/// One axis of a data file: the row key (x) or the measured quantity (y).
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// What it is, e.g. `message size` or `one-way time`.
    pub label: String,
    /// Its unit ([`crate::schema`]: `BYTES`, `USEC`, `MIB_PER_S` ...).
    pub unit: Unit,
}

impl Axis {
    /// An axis with a label and a unit.
    pub fn new(label: impl Into<String>, unit: Unit) -> Axis {
        Axis { label: label.into(), unit }
    }
}

/// What goes into one data file.
#[derive(Debug, Clone, PartialEq)]
pub struct DatSpec {
    /// File name, e.g. `isend_time-np_0002.dat`; the CSV twin replaces `.dat` by `.csv`.
    pub file: String,
    /// The row key (first column).
    pub x: Axis,
    /// The measured quantity (AVG … MEDIAN, CI_LO, CI_HI columns).
    pub y: Axis,
    /// Extra header lines: formulas and facts of this file.
    pub notes: Vec<String>,
    /// Also print the rows as a table on standard output (the run's summary); else one
    /// line names the file.
    pub echo: bool,
    /// Extra columns after NOISY, each with its unit, described in `notes`.
    pub extra: Vec<Column>,
}

/// What a session decides about the columns of its files.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// Rows end with a CHECK column (pass, fail, -).
    pub check_column: bool,
    /// A row is NOISY when CI_HI - CI_LO exceeds this fraction of MEDIAN.
    pub tolerance: f64,
}

/// A file being appended to, row by row, that can be cut back to its last whole row.
#[derive(Debug)]
struct Sink {
    path: PathBuf,
    file: File,
    committed: u64,
}

impl Sink {
    /// Opens `path` for appending (O_APPEND, so a cut-back file is written at its end),
    /// emptied unless `keep` asks to add to what it holds.
    fn create(path: PathBuf, keep: bool) -> std::io::Result<Sink> {
        let file = File::options().create(true).append(true).open(&path)?;
        if !keep {
            file.set_len(0)?;
        }
        let committed = file.metadata()?.len();
        Ok(Sink { path, file, committed })
    }

    /// Removes the file: one this run started that holds no result (its header failed).
    fn discard(&self) {
        let _ = std::fs::remove_file(&self.path);
    }

    /// Removes the last `len` bytes appended.
    fn undo(&mut self, len: usize) {
        self.committed -= len as u64;
        let _ = self.file.set_len(self.committed);
    }

    /// Writes `bytes` whole or not at all: on a failure the file is cut back.
    fn append(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        match self.file.write_all(bytes) {
            Ok(()) => {
                self.committed += bytes.len() as u64;
                Ok(())
            }
            Err(e) => {
                let _ = self.file.set_len(self.committed);
                Err(e)
            }
        }
    }
}

/// One CSV record as bytes (the csv crate quotes what needs quoting).
fn csv_line<S: AsRef<[u8]>>(cells: impl IntoIterator<Item = S>) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(cells).expect("CSV into memory");
    w.into_inner().expect("CSV into memory")
}

/// A CSV column name: the `.dat` column in lower case with its unit's suffix.
fn csv_name(column: &str, unit: Unit) -> String {
    if unit.csv.is_empty() {
        column.to_lowercase()
    } else {
        format!("{}_{}", column.to_lowercase(), unit.csv)
    }
}

/// The width of column `i` (named `name`) in the `.dat` text: NLOOP, NREPS, NOISY and
/// CHECK are narrower than the values.
fn width(i: usize, name: &str) -> usize {
    match name {
        sweep::NLOOP if i == 6 => 9,
        sweep::NREPS if i == 7 => 6,
        sweep::NOISY if i == 10 => 5,
        sweep::CHECK => 6,
        _ => 12,
    }
}

/// Where a file goes and what happens around it: the output directory, the run record
/// that lists it, and the function that ends the job when it cannot be written.
#[derive(Debug, Clone)]
pub struct Place {
    /// The output directory.
    pub dir: PathBuf,
    /// The run record that lists every file written.
    pub ledger: Rc<Ledger>,
    /// Ends the job when a file cannot be written ([`crate::fatal`]).
    pub fail: fn(&str) -> !,
}

/// An open data file and its CSV twin. Only rank 0 holds the files; elsewhere rows are
/// ignored.
#[derive(Debug)]
pub struct DatFile {
    out: Option<(String, Sink, Sink, Place)>,
    echo: bool,
    /// The extra columns' units: a dimensionless one ([`NONE`]) is a count, printed whole.
    extra: Vec<Unit>,
    layout: Layout,
}

impl DatFile {
    /// Creates `place.dir/spec.file` and its `.csv`, writes their headers (`common` first,
    /// then the spec's lines) and lists them in the run record.
    pub fn create(
        place: &Place,
        common: &[String],
        spec: &DatSpec,
        layout: Layout,
    ) -> std::io::Result<DatFile> {
        let mut head = String::new();
        for line in common.iter().chain(&spec.notes) {
            head.push_str(&format!("# {line}\n"));
        }
        head.push_str(&format!(
            "# x: {} = {} [{}]\n",
            sweep::SIZE,
            spec.x.label,
            spec.x.unit.label
        ));
        head.push_str(&format!(
            "# y: {} [{}]; {} over the NREPS repetitions\n",
            spec.y.label,
            spec.y.unit.label,
            sweep::STATISTICS.join(" ")
        ));
        // Each column's unit: the x axis's, the y axis's, or none (counts, the flag).
        let (x, y) = (spec.x.unit, spec.y.unit);
        let unit_of = |c: &str| match c {
            sweep::SIZE => x,
            c if sweep::STATISTICS.contains(&c) => y,
            _ => NONE,
        };
        let mut names: Vec<&str> = sweep::COLUMNS.to_vec();
        names.extend(spec.extra.iter().map(|c| c.name.as_ref()));
        if layout.check_column {
            names.push(sweep::CHECK);
        }
        let mut csv_head = Vec::new();
        let mut heading = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let unit = match spec.extra.iter().find(|c| c.name == *name) {
                Some(c) => c.unit,
                None => unit_of(name),
            };
            csv_head.push(csv_name(name, unit));
            heading.push(format!("{name:>w$}", w = width(i, name)));
        }
        let (columns, heading) = (names.join(" "), heading.join(" "));
        head.push_str(&format!("# columns: {columns}\n"));

        let csv_file = csv_twin(&spec.file);
        let mut dat = Sink::create(place.dir.join(&spec.file), false)?;
        let mut csv =
            Sink::create(place.dir.join(&csv_file), false).inspect_err(|_| dat.discard())?;
        if let Err(e) = dat.append(head.as_bytes()).and_then(|()| csv.append(&csv_line(&csv_head)))
        {
            // A file without its header holds no result (a full disk): neither stays.
            dat.discard();
            csv.discard();
            return Err(e);
        }
        place.ledger.file_created(&spec.file, &csv_file)?;
        if spec.echo {
            println!("\n{} [{}] -> {}", spec.y.label, spec.y.unit.label, dat.path.display());
            println!("{heading}");
        } else {
            // The terminal shows one table; it says where the others go.
            let (label, unit, path) = (&spec.y.label, spec.y.unit.label, dat.path.display());
            println!("\n{label} [{unit}] -> {path} (file only)");
        }
        Ok(DatFile {
            out: Some((spec.file.clone(), dat, csv, place.clone())),
            echo: spec.echo,
            extra: spec.extra.iter().map(|c| c.unit).collect(),
            layout,
        })
    }

    /// A file handle for ranks other than 0: rows go nowhere.
    pub fn inactive(layout: Layout) -> DatFile {
        DatFile { out: None, echo: false, extra: Vec::new(), layout }
    }

    /// Path of the `.dat` file (rank 0 only).
    pub fn path(&self) -> Option<&Path> {
        self.out.as_ref().map(|(_, dat, _, _)| dat.path.as_path())
    }

    /// Appends a row to both files, so an interrupted run keeps every finished row.
    ///
    /// A write failure ends the whole job, after cutting both files back to whole rows.
    pub fn row(&mut self, x: impl Display, row: &Row) {
        self.row_with(x, row, &[]);
    }

    /// Like [`DatFile::row`], with values for the spec's extra columns.
    pub fn row_with(&mut self, x: impl Display, row: &Row, extra: &[f64]) {
        let layout = self.layout;
        let Some((name, dat, csv, place)) = self.out.as_mut() else {
            return;
        };
        assert_eq!(extra.len(), self.extra.len(), "one value per extra column");
        let extra: Vec<String> = extra
            .iter()
            .zip(&self.extra)
            .map(|(&v, &unit)| match unit == NONE && v.fract() == 0.0 && v.abs() < 1e15 {
                true => format!("{v:.0}"),
                false => format_value(v),
            })
            .collect();
        let s = &row.stats;
        let noisy = s.noisy(layout.tolerance);
        let x = x.to_string();
        let stats = [s.mean, s.min, s.max, s.stddev, s.median].map(format_value);
        let ci = [s.ci_lo, s.ci_hi].map(format_value);
        let mut cells: Vec<String> = vec![x.clone()];
        cells.extend(stats.iter().cloned());
        cells.extend([row.nloop.to_string(), row.nreps.to_string()]);
        cells.extend(ci.iter().cloned());
        cells.push((noisy as u8).to_string());
        cells.extend(extra.iter().cloned());
        let [avg, min, max, sd, med] = &stats;
        let mut line = format!(
            "{x:>12} {avg:>12} {min:>12} {max:>12} {sd:>12} {med:>12} {:>9} {:>6} {:>12} {:>12} {:>5}",
            row.nloop, row.nreps, ci[0], ci[1], noisy as u8
        );
        for v in &extra {
            line.push_str(&format!(" {v:>12}"));
        }
        if layout.check_column {
            line.push_str(&format!(" {:>6}", row.check.as_str()));
            cells.push(row.check.as_str().to_string());
        }
        let dat_line = format!("{line}\n");
        // The row goes to both files as one step: an interrupting signal waits for it
        // (crate::scratch::undivided). Without its CSV row the .dat row goes too.
        let written = crate::scratch::undivided(|| {
            dat.append(dat_line.as_bytes()).and_then(|_| {
                csv.append(&csv_line(&cells)).inspect_err(|_| dat.undo(dat_line.len()))
            })
        });
        let recorded = written.and_then(|_| place.ledger.row_written(name, noisy, row.measurement));
        if let Err(e) = recorded {
            (place.fail)(&format!("cannot write {}: {e}", dat.path.display()));
        }
        if self.echo {
            println!("{line}");
        }
    }

    /// Appends a `#` comment line (e.g. a calibration note) to the `.dat` file.
    pub fn comment(&mut self, text: &str) {
        if let Some((_, dat, _, place)) = self.out.as_mut() {
            if let Err(e) = dat.append(format!("# {text}\n").as_bytes()) {
                (place.fail)(&format!("cannot write {}: {e}", dat.path.display()));
            }
        }
    }
}

/// The CSV twin of a `.dat` file name.
pub fn csv_twin(file: &str) -> String {
    format!("{}.csv", file.strip_suffix(".dat").unwrap_or(file))
}

/// A column of a plain [`Table`]: its name and unit ([`NONE`] for counts and names).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Name in the `.dat` file, e.g. `TMAX`.
    pub name: Cow<'static, str>,
    /// Its unit, e.g. [`crate::schema::SECONDS`].
    pub unit: Unit,
}

impl Column {
    /// A column named `name` in `unit`, for constants.
    pub const fn fixed(name: &'static str, unit: Unit) -> Column {
        Column { name: Cow::Borrowed(name), unit }
    }

    /// A column named `name` in `unit`.
    pub fn new(name: impl Into<Cow<'static, str>>, unit: Unit) -> Column {
        Column { name: name.into(), unit }
    }
}

/// A plain table file and its CSV twin (one row per run, e.g. start-up times), rank 0 only.
#[derive(Debug)]
pub struct Table {
    out: Option<(String, Sink, Sink, Place)>,
    run: Option<String>,
}

impl Table {
    /// Opens `file` in the place's directory. A new file gets `header` as `#` lines and a
    /// `# columns:` line. With `append`, rows of later runs go at the end of an existing
    /// file: each run's rows follow a `# run: <run>` line (the header holds nothing that
    /// differs between runs), and its CSV rows end with the run's date.
    pub fn open(
        place: &Place,
        file: &str,
        header: &[String],
        columns: &[Column],
        append: Option<String>,
    ) -> std::io::Result<Table> {
        let csv_file = csv_twin(file);
        let (path, csv_path) = (place.dir.join(file), place.dir.join(&csv_file));
        // Each file gets its header when it starts (appending, one may exist without the other).
        let keep = |p: &Path| append.is_some() && p.metadata().is_ok_and(|m| m.len() > 0);
        let (dat_fresh, csv_fresh) = (!keep(&path), !keep(&csv_path));
        let mut dat = Sink::create(path, !dat_fresh)?;
        let csv = Sink::create(csv_path, !csv_fresh);
        let mut csv = csv.inspect_err(|_| {
            if dat_fresh {
                dat.discard()
            }
        })?;
        let mut heads = || -> std::io::Result<()> {
            if dat_fresh {
                let mut head: String = header.iter().map(|l| format!("# {l}\n")).collect();
                let names: Vec<&str> = columns.iter().map(|c| c.name.as_ref()).collect();
                head.push_str(&format!("# columns: {}\n", names.join(" ")));
                dat.append(head.as_bytes())?;
            }
            if csv_fresh {
                let mut names: Vec<String> =
                    columns.iter().map(|c| csv_name(&c.name, c.unit)).collect();
                if append.is_some() {
                    names.push(crate::schema::RUN_COLUMN.to_string());
                }
                csv.append(&csv_line(&names))?;
            }
            Ok(())
        };
        if let Err(e) = heads() {
            // A file this run started without its header holds no result: it does not stay.
            (dat_fresh.then_some(&dat).into_iter().chain(csv_fresh.then_some(&csv)))
                .for_each(Sink::discard);
            return Err(e);
        }
        if let Some(run) = &append {
            dat.append(format!("# run: {run}\n").as_bytes())?;
        }
        place.ledger.file_created(file, &csv_file)?;
        Ok(Table { out: Some((file.to_string(), dat, csv, place.clone())), run: append })
    }

    /// A table that writes nothing (other ranks, or no files asked for).
    pub fn inactive() -> Table {
        Table { out: None, run: None }
    }

    /// Appends a row of cells to both files; a write failure ends the job.
    pub fn row(&mut self, cells: &[String]) {
        if let Some((name, dat, csv, place)) = self.out.as_mut() {
            let line = cells.iter().map(|c| format!("{c:>14}")).collect::<Vec<_>>().join(" ");
            let mut record = cells.to_vec();
            record.extend(self.run.iter().map(|r| r.split(',').next().unwrap_or(r).to_string()));
            let dat_line = format!("{line}\n");
            let result = dat
                .append(dat_line.as_bytes())
                .and_then(|_| {
                    csv.append(&csv_line(&record)).inspect_err(|_| dat.undo(dat_line.len()))
                })
                .and_then(|_| place.ledger.row_written(name, false, 0));
            if let Err(e) = result {
                (place.fail)(&format!("cannot write {}: {e}", dat.path.display()));
            }
        }
    }
}

/// A text file written piece by piece (a suite's protocol), rank 0 only: each piece is
/// appended whole and flushed, so an interrupted run keeps what it finished.
#[derive(Debug)]
pub struct TextFile {
    out: Option<(String, Sink, Place)>,
}

impl TextFile {
    /// Creates `place.dir/file` and lists it in the record.
    pub fn create(place: &Place, file: &str) -> std::io::Result<TextFile> {
        let sink = Sink::create(place.dir.join(file), false)?;
        place.ledger.file_created(file, file)?;
        Ok(TextFile { out: Some((file.to_string(), sink, place.clone())) })
    }

    /// A file for ranks other than 0: text goes nowhere.
    pub fn inactive() -> TextFile {
        TextFile { out: None }
    }

    /// Path of the file (rank 0 only).
    pub fn path(&self) -> Option<&Path> {
        self.out.as_ref().map(|(_, sink, _)| sink.path.as_path())
    }

    /// Appends `text`; a write failure ends the job.
    pub fn write(&mut self, text: &str) {
        if let Some((_, sink, place)) = self.out.as_mut() {
            if let Err(e) = sink.append(text.as_bytes()) {
                (place.fail)(&format!("cannot write {}: {e}", sink.path.display()));
            }
        }
    }
}

/// A CSV table of a suite (one per IMB table, ...), rank 0 only: a header row, then rows
/// written and flushed one at a time.
#[derive(Debug)]
pub struct CsvTable {
    out: Option<(String, Sink, Place)>,
    width: usize,
}

impl CsvTable {
    /// Creates `place.dir/file` with the `columns` header row and lists it in the record.
    pub fn create(place: &Place, file: &str, columns: &[&str]) -> std::io::Result<CsvTable> {
        let mut sink = Sink::create(place.dir.join(file), false)?;
        sink.append(&csv_line(columns))?;
        place.ledger.file_created(file, file)?;
        Ok(CsvTable { out: Some((file.to_string(), sink, place.clone())), width: columns.len() })
    }

    /// A table for ranks other than 0, or when no tables were asked for: rows go nowhere.
    pub fn inactive() -> CsvTable {
        CsvTable { out: None, width: 0 }
    }

    /// Appends a row (one cell per column); a write failure ends the job.
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        if let Some((name, sink, place)) = self.out.as_mut() {
            assert_eq!(cells.len(), self.width, "one cell per column");
            let line = csv_line(cells.iter().map(|c| c.as_ref().as_bytes()));
            if let Err(e) =
                sink.append(&line).and_then(|_| place.ledger.row_written(name, false, 0))
            {
                (place.fail)(&format!("cannot write {}: {e}", sink.path.display()));
            }
        }
    }
}

/// Moves an earlier run's `name` and the files made from it (its CSV twin and plot)
/// aside, renamed with that run's date, so a new run never silently replaces results.
/// Returns `(old, new)` for each file moved. A read-only file is an error: paw never
/// touches a file someone protected.
pub fn keep_earlier(dir: &Path, name: &str) -> std::io::Result<Vec<(String, String)>> {
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    let mut family = vec![name.to_string()];
    if ext == "dat" {
        family.extend([format!("{stem}.csv"), format!("{stem}.png")]);
    }
    let existing: Vec<&String> = family.iter().filter(|f| dir.join(f).exists()).collect();
    for f in &existing {
        if std::fs::metadata(dir.join(f))?.permissions().readonly() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!("{f} exists and is read-only (paw never replaces a protected file)"),
            ));
        }
    }
    let Some(first) = existing.first() else {
        return Ok(Vec::new());
    };
    let date = earlier_date(&dir.join(first));
    let mut moved = Vec::new();
    for f in existing {
        let (s, e) = f.rsplit_once('.').unwrap_or((f, ""));
        let mut target = format!("{s}.{date}.{e}");
        let mut n = 2;
        while dir.join(&target).exists() {
            target = format!("{s}.{date}-{n}.{e}");
            n += 1;
        }
        std::fs::rename(dir.join(f), dir.join(&target))?;
        moved.push((f.clone(), target));
    }
    Ok(moved)
}

/// The date of the run that wrote `path` (its `date:` header), else its modification time,
/// as `YYYY-MM-DDTHHMMSSZ`.
fn earlier_date(path: &Path) -> String {
    let text = std::fs::read(path).unwrap_or_default();
    let text = String::from_utf8_lossy(&text[..text.len().min(8192)]);
    let from_header = text.lines().find_map(|l| {
        l.strip_prefix("# date: ")
            .or_else(|| {
                l.trim().strip_prefix("\"date\": \"").map(|d| d.trim_end_matches(['"', ',']))
            })
            .map(str::to_string)
    });
    let date = from_header.unwrap_or_else(|| {
        let secs = std::fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs());
        crate::meta::utc_from_unix(secs)
    });
    date.replace(':', "")
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
    format!("{}.dat", np_name(stem, count))
}

/// `<stem>-np_NNNN`, NNNN = `count` (tasks), the name of every file of a run before its
/// extension.
pub fn np_name(stem: &str, count: usize) -> String {
    format!("{stem}-np_{count:04}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Verdict;
    use crate::record::Record;
    use crate::schema::{BYTES, SECONDS, USEC};
    use crate::stats::Stats;

    fn never(message: &str) -> ! {
        panic!("write failed: {message}")
    }

    fn place(dir: &Path) -> Place {
        Place {
            dir: dir.to_path_buf(),
            ledger: Rc::new(Ledger::new(Record::default())),
            fail: never,
        }
    }

    const PLAIN: Layout = Layout { check_column: false, tolerance: 0.05 };

    fn spec(file: &str, extra: Vec<Column>) -> DatSpec {
        DatSpec {
            file: file.into(),
            x: Axis::new("message size", BYTES),
            y: Axis::new("one-way time", USEC),
            notes: vec!["ranks: minimum over tasks".into()],
            echo: false,
            extra,
        }
    }

    fn row(samples: &[f64]) -> Row {
        Row {
            stats: Stats::of(samples),
            nloop: 1000,
            nreps: samples.len(),
            check: Verdict::Unchecked,
            measurement: 0,
        }
    }

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
        assert_eq!(csv_twin("isend_time-np_0004.dat"), "isend_time-np_0004.csv");
        assert_eq!(csv_name("TASK_MIN", USEC), "task_min_us");
        assert_eq!(csv_name("bandwidth", crate::schema::MIB_PER_S), "bandwidth_MiB_per_s");
        assert_eq!(csv_name("TASKS", NONE), "tasks");
    }

    #[test]
    fn writes_header_and_flushed_rows_in_both_files() {
        let dir = tempfile::tempdir().unwrap();
        let p = place(dir.path());
        let mut f =
            DatFile::create(&p, &["paw x -- test".into()], &spec("x.dat", vec![]), PLAIN).unwrap();
        f.row(8, &row(&[1.0, 2.0, 3.0]));
        // Read back without dropping the writer: the row must already be on disk.
        let text = std::fs::read_to_string(dir.path().join("x.dat")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "# paw x -- test");
        assert_eq!(lines[1], "# ranks: minimum over tasks");
        assert_eq!(lines[2], "# x: SIZE = message size [bytes]");
        assert!(lines[3].starts_with("# y: one-way time [usec]"));
        assert_eq!(lines[4], format!("# columns: {}", sweep::COLUMNS.join(" ")));
        let cells: Vec<&str> = lines[5].split_whitespace().collect();
        assert_eq!(
            cells,
            [
                "8", "2.00000", "1.00000", "3.00000", "1.00000", "2.00000", "1000", "3", "1.00000",
                "3.00000", "1"
            ]
        );
        assert_eq!(lines.len(), 6);
        let csv = std::fs::read_to_string(dir.path().join("x.csv")).unwrap();
        assert_eq!(
            csv,
            "size_bytes,avg_us,min_us,max_us,stddev_us,median_us,nloop,nreps,ci_lo_us,ci_hi_us,noisy\n\
             8,2.00000,1.00000,3.00000,1.00000,2.00000,1000,3,1.00000,3.00000,1\n"
        );
        assert_eq!(p.ledger.noisy_rows(), (1, 1));
    }

    #[test]
    fn check_and_extra_columns() {
        let dir = tempfile::tempdir().unwrap();
        let layout = Layout { check_column: true, tolerance: 0.05 };
        let mut f = DatFile::create(
            &place(dir.path()),
            &[],
            &spec(
                "c.dat",
                vec![Column::new("TASK_MIN", USEC), Column::new("OVERLAP", crate::schema::PERCENT)],
            ),
            layout,
        )
        .unwrap();
        f.row_with(1, &row(&[1.0]).verdict(Verdict::Pass), &[1.5, 2.5]);
        f.row_with(2, &row(&[1.0]).verdict(Verdict::Fail), &[1.5, 2.5]);
        let text = std::fs::read_to_string(dir.path().join("c.dat")).unwrap();
        assert!(text.contains(&format!(
            "# columns: {} TASK_MIN OVERLAP CHECK\n",
            sweep::COLUMNS.join(" ")
        )));
        let last: Vec<&str> = text.lines().map(|l| l.split_whitespace().last().unwrap()).collect();
        assert_eq!(last[last.len() - 2..], ["pass", "fail"]);
        let cells: Vec<&str> = text.lines().last().unwrap().split_whitespace().collect();
        assert_eq!(cells[11..13], ["1.50000", "2.50000"]);
        let csv = std::fs::read_to_string(dir.path().join("c.csv")).unwrap();
        assert!(
            csv.starts_with("size_bytes,")
                && csv.lines().next().unwrap().ends_with(",task_min_us,overlap_percent,check")
        );
        assert!(csv.lines().last().unwrap().ends_with(",0,1.50000,2.50000,fail"), "{csv}");

        // A dimensionless extra column is a count, printed whole (ROUNDS).
        let layout = Layout { check_column: false, tolerance: 0.05 };
        let rounds = spec("r.dat", vec![Column::new("ROUNDS", NONE)]);
        let mut f = DatFile::create(&place(dir.path()), &[], &rounds, layout).unwrap();
        f.row_with(1, &row(&[1.0]), &[16384.0]);
        f.row_with(2, &row(&[1.0]), &[4.0]);
        let text = std::fs::read_to_string(dir.path().join("r.dat")).unwrap();
        let last: Vec<&str> = text.lines().map(|l| l.split_whitespace().last().unwrap()).collect();
        assert_eq!(last[last.len() - 2..], ["16384", "4"]);
    }

    #[test]
    fn failed_write_keeps_whole_rows_only() {
        // A full file system: /dev/full fails every write. The row must not be half there.
        let dir = tempfile::tempdir().unwrap();
        let mut sink = Sink::create(dir.path().join("s.dat"), false).unwrap();
        sink.append(b"whole row\n").unwrap();
        sink.file = File::options().write(true).open("/dev/full").unwrap();
        assert!(sink.append(b"another row\n").is_err());
        assert_eq!(sink.committed, 10);
    }

    #[test]
    fn append_table_marks_each_run() {
        let dir = tempfile::tempdir().unwrap();
        let p = place(dir.path());
        let cols = [Column::new("A", NONE), Column::new("B", SECONDS)];
        let mut t = Table::open(
            &p,
            "t.dat",
            &["start-up".into()],
            &cols,
            Some("2026-01-01T00:00:00Z, 1 task".into()),
        )
        .unwrap();
        t.row(&["1".into(), "0.5".into()]);
        let mut t = Table::open(
            &p,
            "t.dat",
            &["ignored".into()],
            &cols,
            Some("2026-01-02T00:00:00Z, 2 tasks".into()),
        )
        .unwrap();
        t.row(&["2".into(), "0.7".into()]);
        let text = std::fs::read_to_string(dir.path().join("t.dat")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[..3],
            ["# start-up", "# columns: A B", "# run: 2026-01-01T00:00:00Z, 1 task"]
        );
        assert!(!text.contains("ignored"));
        assert_eq!(lines[4], "# run: 2026-01-02T00:00:00Z, 2 tasks");
        assert_eq!(lines.len(), 6);
        let csv = std::fs::read_to_string(dir.path().join("t.csv")).unwrap();
        assert_eq!(csv, "a,b_s,run\n1,0.5,2026-01-01T00:00:00Z\n2,0.7,2026-01-02T00:00:00Z\n");
    }

    #[test]
    fn earlier_runs_are_kept_with_their_date() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("a.dat"), "# paw a\n# date: 2026-11-23T10:15:00Z\n").unwrap();
        std::fs::write(d.join("a.csv"), "x\n").unwrap();
        std::fs::write(d.join("a.png"), "png").unwrap();
        let moved = keep_earlier(d, "a.dat").unwrap();
        assert_eq!(moved.len(), 3);
        for ext in ["dat", "csv", "png"] {
            assert!(d.join(format!("a.2026-11-23T101500Z.{ext}")).exists(), "{ext}");
            assert!(!d.join(format!("a.{ext}")).exists());
        }
        // The same date again: a second suffix, nothing overwritten.
        std::fs::write(d.join("a.dat"), "# date: 2026-11-23T10:15:00Z\n").unwrap();
        keep_earlier(d, "a.dat").unwrap();
        assert!(d.join("a.2026-11-23T101500Z-2.dat").exists());
        assert!(keep_earlier(d, "none.dat").unwrap().is_empty());
    }

    #[test]
    fn read_only_earlier_file_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("r.dat");
        std::fs::write(&f, "old").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o444)).unwrap();
        let e = keep_earlier(dir.path(), "r.dat").unwrap_err();
        assert!(e.to_string().contains("read-only"), "{e}");
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "old");
    }

    #[test]
    fn unwritable_directory_is_an_error() {
        let p = place(Path::new("/nonexistent/paw"));
        assert!(DatFile::create(&p, &[], &spec("a.dat", vec![]), PLAIN).is_err());
    }
}
