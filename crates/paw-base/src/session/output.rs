//! A session's output: the header every file starts with, the .dat files and tables with
//! their CSV twins, where they go (the output directory, a directory per host), earlier
//! files kept, and the run record's last word.

use super::Session;
use crate::about::one_line;
use crate::bench::Bench;
use crate::config::{Loops, Until};
use crate::dat::{self, Column, DatFile, DatSpec, Layout, Place, Table};
use crate::error::{Error, Result};
use crate::meta::{self};
use crate::osu::Settings;
use crate::record::{Ledger, Setting};
use crate::spec::Check;
use crate::team::Team;
use crate::{process, vars};
use std::path::Path;

impl<T: Team> Session<T> {
    /// The header lines every file of this run starts with: the run, the settings read,
    /// the environment, the timer, and what the benchmark times and reports.
    fn header(&self) -> Vec<String> {
        let mut lines = self.info.header_lines();
        let reads = self.reads.borrow();
        let show = |s: &Setting| {
            if s.value.contains(' ') {
                format!("{}=\"{}\"", s.name, s.value)
            } else {
                format!("{}={}", s.name, s.value)
            }
        };
        let set: Vec<String> = reads.iter().filter(|s| s.set).map(show).collect();
        let unset: Vec<String> = reads.iter().filter(|s| !s.set).map(show).collect();
        lines.push(format!(
            "settings: {}",
            if set.is_empty() { "(none set)".into() } else { set.join(" ") }
        ));
        lines.push(format!(
            "defaults: {}",
            if unset.is_empty() { "(none)".into() } else { unset.join(" ") }
        ));
        let mut options: Vec<(String, Vec<&str>)> = Vec::new();
        for s in reads.iter() {
            let Some(option) = &s.option else { continue };
            match options.iter_mut().find(|(o, _)| o == option) {
                Some((_, names)) => names.push(&s.name),
                None => options.push((option.clone(), vec![&s.name])),
            }
        }
        if !options.is_empty() {
            let said: Vec<String> =
                options.iter().map(|(o, names)| format!("{} from {o}", names.join(", "))).collect();
            lines.push(format!("options: {}", said.join("; ")));
        }
        lines.extend(self.info.environment_lines());
        lines.push(format!("timed: {}", one_line(self.spec.timed)));
        lines.push(format!("reported: {}", one_line(&self.spec.reported())));
        let check = match self.spec.check {
            Check::Data(what) if self.checking => format!("on (PAW_CHECK=1): {}", one_line(what)),
            Check::Data(_) => "off (PAW_CHECK=1 turns it on)".to_string(),
            Check::Always(what) => format!("always: {}", one_line(what)),
            Check::Never => "none".to_string(),
        };
        lines.push(format!("check: {check}"));
        lines
    }

    /// Creates a data file and its CSV twin on rank 0 with the run header and the bench's
    /// description (collective: an unwritable output directory is an error on every rank).
    pub fn dat(&self, bench: &Bench<'_, T>, spec: DatSpec) -> Result<DatFile> {
        let layout = Layout {
            check_column: self.checking,
            tolerance: bench.calibration().loops().tolerance,
        };
        let mut header = self.header();
        header.extend(bench.describe());
        let tail = bench.tail_columns();
        if !tail.is_empty() && spec.extra.iter().any(|c| tail.contains(c)) {
            header.extend(bench.tail_line());
        }
        let file =
            self.on_root(&spec.file, true, |place| DatFile::create(place, &header, &spec, layout))?;
        Ok(file.unwrap_or_else(|| DatFile::inactive(layout)))
    }

    /// Opens a plain table `file` and its CSV twin on rank 0 (collective). A new file gets
    /// the run header, `notes` and a `# columns:` line. With `append`, rows go after those of
    /// earlier runs, each run's behind a `# run:` line with its date, tasks, hosts and Slurm
    /// job (the header then holds only what all runs share).
    pub fn table(
        &self,
        file: &str,
        notes: &[String],
        columns: &[Column],
        append: bool,
    ) -> Result<Table> {
        let mut header = if append {
            let mut h = vec![format!("paw {} -- {}", self.info.benchmark, self.info.title)];
            h.extend(self.info.libraries.iter().map(|l| format!("library: {l}")));
            h.push(
                "one row per run, each after a '# run:' line (date, tasks, hosts, Slurm job)"
                    .into(),
            );
            h
        } else {
            self.header()
        };
        header.extend(notes.iter().cloned());
        let run = append.then(|| {
            let hosts = self.info.hosts_summary();
            let mut run = format!("{}, tasks {}, hosts {hosts}", self.info.date, self.info.tasks);
            if let Some(job) = &self.info.slurm {
                run += &format!(", slurm job {}", job.job_id);
                if let Some(step) = &job.step_id {
                    run += &format!(" step {step}");
                }
            }
            run
        });
        let table = self.on_root(file, !append, |place| {
            Table::open(place, file, &header, columns, run.clone())
        })?;
        Ok(table.unwrap_or_else(Table::inactive))
    }

    /// Writes `bytes` (an image) as `file` in the output directory on rank 0, an earlier
    /// run's file kept, and lists it in the run record (collective).
    pub fn write_file(&self, file: &str, bytes: &[u8]) -> Result<()> {
        self.on_root(file, true, |place| {
            std::fs::write(place.dir.join(file), bytes)?;
            place.ledger.file_created(file, file)
        })?;
        Ok(())
    }

    /// Writes every task's host and CPUs, a line per rank, to
    /// `<benchmark>_placement-np_NNNN.txt` on rank 0 (collective; PAW_PLACEMENT_FILE=1):
    /// the full list that headers and the run record shorten beyond 16 and 256 hosts.
    pub(crate) fn placement_file(&self) -> Result<()> {
        let stem = format!("{}_placement", self.info.benchmark);
        let file = dat::np_name(&stem, self.info.tasks) + ".txt";
        self.on_root(&file, true, |place| {
            let mut text = format!(
                "# paw {}: every task's host and CPUs, a line per rank (rank host cpus=...)\n",
                self.info.benchmark
            );
            for (rank, p) in self.info.placement.iter().enumerate() {
                text += &format!("{rank} {p}\n");
            }
            std::fs::write(place.dir.join(&file), text)?;
            place.ledger.file_created(&file, &file)
        })?;
        Ok(())
    }

    /// A scratch file in the output directory on rank 0 (collective: every rank learns
    /// whether it was made, and leaves with rank 0's error if not): room for data that
    /// outgrows memory, not a result. It has no name (removed as it is made), so that no
    /// ending of the run leaves it behind. `None` on the other ranks.
    pub fn scratch(&self, what: &str) -> Result<Option<std::fs::File>> {
        let mut made = None;
        let mut failure = None;
        if self.team.is_root() {
            match existing_dir(&self.dir).and_then(|_| tempfile::tempfile_in(&self.dir)) {
                Ok(f) => made = Some(f),
                Err(e) => {
                    failure =
                        Some(output_error(&self.dir, &format!("a scratch file for {what}"), &e))
                }
            }
        }
        let code = self.team.share_u64(failure.as_ref().map_or(0, |e| u64::from(e.code())));
        if code != 0 {
            return Err(failure.unwrap_or_else(|| {
                Error::with_code(code as u8, "cannot create output (reported by rank 0)")
            }));
        }
        Ok(made)
    }

    /// Runs `create` in the output directory on rank 0, with `keep` after moving an
    /// earlier run's file of that name aside (renamed with its date); every rank learns
    /// whether it worked.
    fn on_root<F>(
        &self,
        file: &str,
        keep: bool,
        create: impl FnOnce(&Place) -> std::io::Result<F>,
    ) -> Result<Option<F>> {
        let mut created = None;
        let mut failure = None;
        if self.team.is_root() {
            let place =
                Place { dir: self.dir.clone(), ledger: self.ledger.clone(), fail: process::fatal };
            match self.prepare(file, keep).and_then(|_| create(&place)) {
                Ok(f) => created = Some(f),
                Err(e) => failure = Some(output_error(&self.dir, file, &e)),
            }
        }
        // Every rank leaves with rank 0's error and its exit status.
        let code = self.team.share_u64(failure.as_ref().map_or(0, |e| u64::from(e.code())));
        if code != 0 {
            return Err(failure.unwrap_or_else(|| {
                Error::with_code(code as u8, "cannot create output (reported by rank 0)")
            }));
        }
        Ok(created)
    }

    /// Checks the output directory (made if only its last part is missing), keeps earlier
    /// runs' files, and starts the run record.
    fn prepare(&self, file: &str, keep: bool) -> std::io::Result<()> {
        if self.host_dir && !self.dir.is_dir() {
            existing_dir(self.dir.parent().unwrap_or(Path::new(".")))?;
            std::fs::create_dir(&self.dir)?;
        }
        existing_dir(&self.dir)?;
        if !self.ledger.has_file() {
            // The record's NNNN is its files': the threads of a node test, else the tasks.
            let count = np_of(file).unwrap_or(self.info.tasks);
            let name = dat::np_name(&self.info.benchmark, count) + ".json";
            self.keep(&name)?;
            self.ledger.place(self.dir.join(name))?;
        }
        if keep {
            self.keep(file)?;
        }
        Ok(())
    }

    fn keep(&self, file: &str) -> std::io::Result<()> {
        let moved = dat::keep_earlier(&self.dir, file)?;
        self.ledger.update(|r| r.kept.extend(moved));
        Ok(())
    }

    /// Sends this session's files to a subdirectory of the output directory named after
    /// this host (one copy per node started by a launcher), made when first written.
    pub(crate) fn per_host(&mut self) {
        self.dir = self.dir.join(meta::hostname());
        self.host_dir = true;
    }

    /// PAW's file name for a quantity at a task (or thread) count: `<stem>-np_NNNN.dat`.
    pub fn np_file(&self, stem: &str, count: usize) -> String {
        dat::np_file(stem, count)
    }
}

/// The NNNN of a file named `<stem>-np_NNNN.<ext>`.
fn np_of(file: &str) -> Option<usize> {
    let (_, tail) = file.rsplit_once("-np_")?;
    tail.split('.').next()?.parse().ok()
}

/// Makes `dir` ready for output: an existing directory, or one made now in an existing
/// parent (said on standard error). A missing parent is an error: a mistyped path must not
/// scatter results into a new tree.
pub fn existing_dir(dir: &Path) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    if dir.is_dir() {
        return Ok(());
    }
    if dir.exists() {
        return Err(Error::new(ErrorKind::NotFound, "is not a directory"));
    }
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        let why = format!("does not exist, nor does {}, where it would be made", parent.display());
        return Err(Error::new(ErrorKind::NotFound, why));
    }
    match std::fs::create_dir(dir) {
        Ok(()) => eprintln!("{}: made the output directory {}", process::name(), dir.display()),
        Err(e) if e.kind() == ErrorKind::AlreadyExists && dir.is_dir() => {}
        Err(e) => return Err(e),
    }
    Ok(())
}

/// Sets the record's final status and prints how many rows were NOISY (rank 0).
pub fn finish(ledger: &Ledger, outcome: &Result<()>) {
    ledger.update(|r| {
        r.status = if outcome.is_ok() { "ok" } else { "failed" }.into();
        r.exit_code = Some(outcome.as_ref().map_or_else(Error::code, |_| 0));
        r.error = outcome.as_ref().err().map(|e| e.message().to_string());
        r.peak_memory_mib = crate::meta::peak_memory().map(|b| b as f64 / (1u64 << 20) as f64);
    });
    let _ = ledger.save();
    let kept = ledger.kept();
    if let Some((old, new)) = kept.first() {
        let more = match kept.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        eprintln!(
            "{}: earlier results were kept, renamed with their run's date: {old} -> {new}{more}",
            process::name()
        );
    }
    let (noisy, rows) = ledger.noisy_rows();
    if noisy > 0 {
        let why = match Loops::parse(&Settings).map(|l| l.until()) {
            Ok(Until::Fixed) => {
                "NREPS fixes the samples per size; unset, samples are added \
                                 until the interval is narrow"
            }
            Ok(Until::Reach(_)) => "PAW_MAX_TIME ran out first at those sizes",
            _ => {
                "their size's time budget ran out first; PAW_MAX_TIME=S gives each size S \
                  seconds of added samples"
            }
        };
        eprintln!(
            "{}: {noisy} of {rows} rows are NOISY (the median's 95% interval is wider than \
             PAW_TOLERANCE of it): {why}",
            process::name()
        );
    }
}

/// The error for an output file that cannot be created in `dir`, naming where the
/// directory came from (PAW_OUTPUT_DIR or the current directory).
pub fn output_error(dir: &Path, file: &str, e: &std::io::Error) -> Error {
    let source = match std::env::var(vars::PAW_OUTPUT_DIR.name) {
        Ok(v) if !v.is_empty() => format!("PAW_OUTPUT_DIR={v}"),
        _ => "the current directory".to_string(),
    };
    Error::input(format!(
        "cannot write {file} in {source} ({}: {e}); accepted: an existing writable directory",
        dir.display()
    ))
}
