//! The run record: one JSON file per run (`<benchmark>-np_NNNN.json`) with what a reader
//! needs to trust or compare the results (binary, arguments, settings, hosts, placement,
//! libraries, timer, paw version) and what the run produced (files, rows, exit status).
//! Rank 0 rewrites it after every row (to a temporary name, then renamed), so it is valid
//! JSON at every moment, also when the run is killed.

use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// One variable the benchmark read.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Setting {
    /// Its name.
    pub name: String,
    /// The value in effect (the default's text when unset).
    pub value: String,
    /// Whether the environment or an option set it.
    pub set: bool,
    /// The OSU-style option that set it, as typed (`-m 1:4M`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<String>,
}

/// A host and how many tasks ran there.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HostTasks {
    /// Host name.
    pub host: String,
    /// Tasks on it.
    pub tasks: usize,
}

/// The clock's figures.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct TimerRecord {
    /// The clock read.
    pub clock: String,
    /// Cost of one read, usec.
    pub overhead_usec: f64,
    /// Smallest step seen, usec.
    pub step_usec: f64,
    /// Declared resolution, seconds.
    pub tick_s: f64,
}

/// One file the run wrote, with its CSV twin.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileRecord {
    /// Its name in the output directory.
    pub name: String,
    /// The CSV file with the same rows.
    pub csv: String,
    /// Data rows written so far.
    pub rows: usize,
    /// Of those, rows marked NOISY.
    pub noisy_rows: usize,
    /// The figures its users quote from it, as the binary declares them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headlines: Vec<crate::Headline>,
}

/// Hosts, and tasks, that a record lists one by one: beyond, a record of 10 000 hosts and
/// 640 000 tasks would carry 25 MB of names.
pub const LISTED: usize = 256;

/// The run record's content (read back by paw-report; a key missing from an older
/// record reads as empty).
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Record {
    /// paw's version.
    pub paw_version: String,
    /// The git revision paw was built from, when built from a checkout.
    pub git_revision: Option<String>,
    /// The binary's name.
    pub binary: String,
    /// Its title.
    pub title: String,
    /// Its command-line arguments.
    pub arguments: Vec<String>,
    /// Start time, UTC, ISO 8601.
    pub date: String,
    /// `running` until the run ends (a record still saying so after the job ended belongs
    /// to a killed run), then `ok` or `failed`.
    pub status: String,
    /// The exit status, once the run ended.
    pub exit_code: Option<u8>,
    /// The error that ended the run, if any.
    pub error: Option<String>,
    /// Rank 0's peak resident memory at the end of the run, MiB (VmHWM; None where the
    /// system does not tell).
    pub peak_memory_mib: Option<f64>,
    /// Number of tasks.
    pub tasks: usize,
    /// Hosts, in order of first appearance (up to [`LISTED`] of them; beyond,
    /// `host_ranges`).
    pub hosts: Vec<HostTasks>,
    /// Beyond [`LISTED`] hosts: the hosts in ranges by task count
    /// ([`crate::meta::host_ranges`]).
    pub host_ranges: Option<String>,
    /// Per task: `host cpus=LIST` (up to [`LISTED`] tasks; beyond, none).
    pub placement: Vec<String>,
    /// The Slurm job and step, when Slurm started the run.
    pub slurm: Option<crate::meta::SlurmJob>,
    /// The MPI library, for MPI benchmarks.
    pub mpi_library: Option<String>,
    /// Other library lines (BLAS, thread level, GPU).
    pub libraries: Vec<String>,
    /// The variables the benchmark read.
    pub settings: Vec<Setting>,
    /// Other result-changing environment (MPI and threading tuning).
    pub environment: Vec<String>,
    /// Open MPI MCA parameter files in effect.
    pub mca_files: Vec<String>,
    /// The clock.
    pub timer: TimerRecord,
    /// The files written.
    pub files: Vec<FileRecord>,
    /// Files of earlier runs that were in the way, and the names they were kept under.
    pub kept: Vec<(String, String)>,
    /// The binary's headlines ([`crate::Spec::headlines`]), each given to the files it is
    /// read from as they are made.
    #[serde(skip)]
    pub headlines: Vec<crate::Headline>,
}

impl Record {
    /// `self` with the hosts and placement of `info`: one by one up to [`LISTED`] hosts
    /// and [`LISTED`] tasks; beyond, the hosts in ranges and no placement.
    pub fn placed(mut self, info: &crate::meta::RunInfo) -> Record {
        let hosts = info.hosts();
        if hosts.len() <= LISTED {
            self.hosts = hosts.into_iter().map(|(host, tasks)| HostTasks { host, tasks }).collect();
        } else {
            self.host_ranges = Some(crate::meta::host_ranges(&hosts));
        }
        if info.placement.len() <= LISTED {
            self.placement = info.placement.clone();
        }
        self
    }

    /// The hosts as one line: `host (N tasks), ...`, or their ranges.
    pub fn hosts_line(&self) -> String {
        match &self.host_ranges {
            Some(ranges) => ranges.clone(),
            None => {
                let s = |n: usize| if n == 1 { "" } else { "s" };
                let hosts = self
                    .hosts
                    .iter()
                    .map(|h| format!("{} ({} task{})", h.host, h.tasks, s(h.tasks)));
                hosts.collect::<Vec<_>>().join(", ")
            }
        }
    }
}

/// Rank 0's record and where it is kept; other ranks hold an inactive ledger.
#[derive(Debug, Default)]
pub struct Ledger {
    record: RefCell<Record>,
    path: RefCell<Option<PathBuf>>,
    saved: std::cell::Cell<Option<std::time::Instant>>,
    /// Per measurement (its id), whether a row of it was NOISY; rows of no measurement
    /// count one each.
    measured: RefCell<(std::collections::BTreeMap<u64, bool>, [usize; 2])>,
}

/// How often at most rows alone cause a rewrite of the record: a sweep of small sizes writes
/// rows every few milliseconds, and each rewrite is a window in which a SIGKILL (a launcher
/// ending a job's survivors) would leave the temporary file behind.
const ROW_SAVES: std::time::Duration = std::time::Duration::from_secs(1);

impl Ledger {
    /// A ledger holding `record`, not yet written anywhere.
    pub fn new(record: Record) -> Ledger {
        Ledger {
            record: RefCell::new(record),
            path: RefCell::new(None),
            saved: Default::default(),
            measured: Default::default(),
        }
    }

    /// Changes the record (no write).
    pub fn update(&self, f: impl FnOnce(&mut Record)) {
        f(&mut self.record.borrow_mut());
    }

    /// Whether the record has a file yet.
    pub fn has_file(&self) -> bool {
        self.path.borrow().is_some()
    }

    /// Starts writing the record to `path`. Its temporary name is registered as a scratch
    /// file, so that a run ended by a signal between a write and its rename leaves none.
    pub fn place(&self, path: PathBuf) -> std::io::Result<()> {
        crate::scratch::register([temporary(&path)]);
        *self.path.borrow_mut() = Some(path);
        self.save()
    }

    /// Adds a file the run writes, and its CSV twin.
    pub fn file_created(&self, name: &str, csv: &str) -> std::io::Result<()> {
        let mut record = self.record.borrow_mut();
        let headlines = record.headlines.iter().filter(|h| h.reads(name)).cloned().collect();
        record.files.push(FileRecord {
            name: name.to_string(),
            csv: csv.to_string(),
            rows: 0,
            noisy_rows: 0,
            headlines,
        });
        drop(record);
        self.save()
    }

    /// Counts a row written to `name`, derived from `measurement` (0: none); the record file
    /// follows at most once a second (and at every other change, and at the end).
    pub fn row_written(&self, name: &str, noisy: bool, measurement: u64) -> std::io::Result<()> {
        if let Some(f) = self.record.borrow_mut().files.iter_mut().find(|f| f.name == name) {
            f.rows += 1;
            f.noisy_rows += noisy as usize;
        }
        let mut measured = self.measured.borrow_mut();
        if measurement == 0 {
            measured.1[0] += noisy as usize;
            measured.1[1] += 1;
        } else {
            *measured.0.entry(measurement).or_default() |= noisy;
        }
        if self.saved.get().is_some_and(|t| t.elapsed() < ROW_SAVES) {
            return Ok(());
        }
        self.save()
    }

    /// Measured rows marked NOISY and measured rows written, over every file: the rows of
    /// one measurement (a time and its bandwidth) count once.
    pub fn noisy_rows(&self) -> (usize, usize) {
        let (by_id, [plain_noisy, plain]) = &*self.measured.borrow();
        (by_id.values().filter(|n| **n).count() + plain_noisy, by_id.len() + plain)
    }

    /// The files of earlier runs kept under new names.
    pub fn kept(&self) -> Vec<(String, String)> {
        self.record.borrow().kept.clone()
    }

    /// Rewrites the record, if it has a file: to a temporary name, then renamed over it.
    pub fn save(&self) -> std::io::Result<()> {
        let Some(path) = self.path.borrow().clone() else {
            return Ok(());
        };
        let bytes = serde_json::to_vec_pretty(&*self.record.borrow())?;
        self.saved.set(Some(std::time::Instant::now()));
        crate::scratch::undivided(|| write_atomically(&path, &bytes))
    }
}

/// The name the record is written under before it is renamed over `path`.
fn temporary(path: &Path) -> PathBuf {
    path.with_extension("json.tmp")
}

fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temporary(path);
    std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, path)).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// paw's version and git revision, for the record.
pub fn version() -> (String, Option<String>) {
    (env!("CARGO_PKG_VERSION").to_string(), option_env!("PAW_GIT_REVISION").map(String::from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_is_rewritten_and_valid_at_every_step() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x-np_0002.json");
        let ledger = Ledger::new(Record {
            binary: "x".into(),
            status: "running".into(),
            ..Default::default()
        });
        ledger.place(path.clone()).unwrap();
        ledger.file_created("a.dat", "a.csv").unwrap();
        ledger.row_written("a.dat", false, 0).unwrap();
        ledger.row_written("a.dat", true, 0).unwrap();
        let read = || -> serde_json::Value {
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
        };
        // Rows alone rewrite the record at most once a second; any save writes them all.
        ledger.save().unwrap();
        let v = read();
        assert_eq!(v["files"][0]["rows"], 2);
        assert_eq!(v["files"][0]["noisy_rows"], 1);
        assert_eq!(v["status"], "running");
        assert_eq!(ledger.noisy_rows(), (1, 2));
        assert!(!dir.path().join("x-np_0002.json.tmp").exists());
    }

    #[test]
    fn the_rows_of_one_measurement_count_once() {
        let ledger = Ledger::new(Record::default());
        ledger.file_created("t.dat", "t.csv").unwrap();
        ledger.file_created("bw.dat", "bw.csv").unwrap();
        for (id, noisy) in [(1, true), (2, false)] {
            ledger.row_written("t.dat", noisy, id).unwrap();
            ledger.row_written("bw.dat", noisy, id).unwrap();
        }
        assert_eq!(ledger.noisy_rows(), (1, 2));
        let text = serde_json::to_string(&*ledger.record.borrow()).unwrap();
        let back: Record = serde_json::from_str(&text).unwrap();
        assert_eq!(back.files[1].noisy_rows, 1, "each file still counts its own");
    }
}
