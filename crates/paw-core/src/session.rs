//! What the MPI session ([`crate::Paw`]) and the node session ([`crate::Node`]) share:
//! loop controls and timer figures, settings read on rank 0 and shared, run metadata,
//! output files.

use crate::bench::{Bench, Timing};
use crate::calib::{Calibration, Policy};
use crate::check::Verdict;
use crate::config::{self, Family, Loops, ProcessEnv, SizeRange};
use crate::dat::{DatFile, DatSpec, Table};
use crate::error::{Error, Result};
use crate::meta::RunInfo;
use crate::team::{Combine, Team};
use crate::timer::TimerInfo;
use std::cell::Cell;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// A benchmark's session over a [`Team`]: [`crate::Paw`] dereferences to
/// `Session<World>`, and [`crate::Node`] is `Session<Solo>`.
#[derive(Debug)]
pub struct Session<T: Team> {
    pub(crate) team: T,
    loops: Loops,
    timer: TimerInfo,
    info: RunInfo,
    checking: bool,
    failed_checks: Cell<u64>,
}

/// Runs `parse` on rank 0 and gives its result to every rank.
///
/// Other ranks get a placeholder error: only rank 0 prints, so they need no message.
pub(crate) fn shared<T: Team, const N: usize>(
    team: &T,
    parse: impl FnOnce() -> Result<[u64; N]>,
) -> Result<[u64; N]> {
    let mut result = if team.is_root() { Some(parse()) } else { None };
    let ok = team.share_u64(matches!(result, Some(Ok(_))) as u64) == 1;
    if !ok {
        return match result.take() {
            Some(Err(e)) => Err(e),
            _ => Err(Error::input("invalid setting (reported by rank 0)")),
        };
    }
    let mine = match result {
        Some(Ok(values)) => values,
        _ => [0; N],
    };
    Ok(mine.map(|v| team.share_u64(v)))
}

impl<T: Team> Session<T> {
    /// Measures the clock on every rank, keeping rank 0's figures, and reads the loop controls.
    pub(crate) fn new(team: T, info: RunInfo) -> Result<Session<T>> {
        let local = TimerInfo::measure(|| team.now(), team.tick());
        let timer = TimerInfo {
            overhead: team.share_f64(local.overhead),
            step: team.share_f64(local.step),
            tick: team.share_f64(local.tick),
        };
        let [nloop_max, nloop_min, nreps] = shared(&team, || {
            let l = Loops::parse(&ProcessEnv)?;
            Ok([l.nloop_max, l.nloop_min, l.nreps])
        })?;
        let mut info = info;
        info.timer = timer.describe(team.clock_name());
        let [checking] =
            shared(&team, || Ok([config::parse_u64(&ProcessEnv, "PAW_CHECK", 0, 0..=1)?]))?;
        let loops = Loops { nloop_max, nloop_min, nreps };
        Ok(Session {
            team,
            loops,
            timer,
            info,
            checking: checking == 1,
            failed_checks: Cell::new(0),
        })
    }

    /// Whether `PAW_CHECK=1` asked for the data moved to be checked after each size.
    pub fn checking(&self) -> bool {
        self.checking
    }

    /// Combines the mismatches every rank found in one size's check (collective) into the
    /// verdict for that size's rows; a failure is remembered for [`Session::checks_passed`].
    pub fn verdict(&self, local_mismatches: usize) -> Verdict {
        if !self.checking {
            return Verdict::Unchecked;
        }
        let worst = self.team.combine(&[local_mismatches as f64], Combine::Max)[0];
        if worst > 0.0 {
            self.failed_checks.set(self.failed_checks.get() + 1);
            Verdict::Fail
        } else {
            Verdict::Pass
        }
    }

    /// Whether `ok` holds on every rank (collective).
    pub fn all_ok(&self, ok: bool) -> bool {
        self.team.combine(&[if ok { 1.0 } else { 0.0 }], Combine::Min)[0] == 1.0
    }

    /// An error if any size failed its data check: call it last, so a corrupt run exits
    /// non-zero after writing every row.
    pub fn checks_passed(&self) -> Result<()> {
        match self.failed_checks.get() {
            0 => Ok(()),
            n => Err(Error::runtime(format!(
                "data check failed for {n} size(s): received bytes differ from what was sent \
                 (see the CHECK column)"
            ))),
        }
    }

    /// The ranks of this session.
    pub fn team(&self) -> &T {
        &self.team
    }

    /// NLOOP_MAX, NLOOP_MIN and NREPS.
    pub fn loops(&self) -> Loops {
        self.loops
    }

    /// Rank 0's timer figures.
    pub fn timer(&self) -> TimerInfo {
        self.timer
    }

    /// Run metadata (the header of every file).
    pub fn info(&self) -> &RunInfo {
        &self.info
    }

    /// Adds a library line (e.g. the BLAS build) to the header of files created afterwards.
    pub fn add_library(&mut self, line: impl Into<String>) {
        self.info.libraries.push(line.into());
    }

    /// A family's MIN/MED/MAX sizes, read on rank 0 and shared (collective).
    pub fn sizes(&self, family: Family) -> Result<SizeRange> {
        let [min, med, max] = shared(&self.team, || {
            let r = family.parse(&ProcessEnv)?;
            Ok([r.min, r.med, r.max])
        })?;
        Ok(SizeRange { min, med, max })
    }

    /// A benchmark-specific whole-number variable, read on rank 0 and shared (collective).
    pub fn knob(&self, name: &str, default: u64, range: RangeInclusive<u64>) -> Result<u64> {
        let [v] =
            shared(&self.team, || Ok([config::parse_u64(&ProcessEnv, name, default, range)?]))?;
        Ok(v)
    }

    pub(crate) fn make_bench(
        &self,
        timing: Timing,
        combine: Combine,
        policy: Policy,
    ) -> Bench<'_, T> {
        let calibration = Calibration::new(self.loops, self.timer.floor(), policy);
        Bench::new(&self.team, timing, combine, calibration, self.loops.nreps as usize)
    }

    /// Creates a data file on rank 0 with the run header and the bench's description
    /// (collective: an unwritable output directory is an error on every rank).
    pub fn dat(&self, bench: &Bench<'_, T>, spec: DatSpec) -> Result<DatFile> {
        let mut header = self.info.header_lines();
        header.extend(bench.describe());
        if self.checking {
            header.push(
                "check: PAW_CHECK=1 -- after each size's timed loops, one untimed transfer of a \
                 pattern set by sender rank, size and sequence; receivers compare every byte"
                    .to_string(),
            );
        }
        let file =
            self.on_root(&spec.file, |dir| DatFile::create(dir, &header, &spec, self.checking))?;
        Ok(file.unwrap_or_else(DatFile::inactive))
    }

    /// Opens a plain table `file` on rank 0 (collective): the run header, `notes` and a
    /// `# columns:` line when the file is new; with `append`, rows go after those of
    /// earlier runs (their header is kept).
    pub fn table(
        &self,
        file: &str,
        notes: &[String],
        columns: &str,
        append: bool,
    ) -> Result<Table> {
        let mut header = self.info.header_lines();
        header.extend(notes.iter().cloned());
        header.push(format!("columns: {columns}"));
        let table = self.on_root(file, |dir| Table::open(&dir.join(file), &header, append))?;
        Ok(table.unwrap_or_else(Table::inactive))
    }

    /// Runs `create` in the output directory on rank 0; every rank learns whether it worked.
    fn on_root<F>(
        &self,
        file: &str,
        create: impl FnOnce(&Path) -> std::io::Result<F>,
    ) -> Result<Option<F>> {
        let mut created = None;
        let mut failure = None;
        if self.team.is_root() {
            let dir = output_dir();
            match std::fs::create_dir_all(&dir).and_then(|_| create(&dir)) {
                Ok(f) => created = Some(f),
                Err(e) => failure = Some(output_error(&dir, file, &e)),
            }
        }
        if self.team.share_u64(failure.is_some() as u64) == 1 {
            return Err(failure
                .unwrap_or_else(|| Error::runtime("cannot create output (reported by rank 0)")));
        }
        Ok(created)
    }
}

/// The directory output files go to: `PAW_OUTPUT_DIR`, or the current directory.
pub fn output_dir() -> PathBuf {
    match std::env::var_os("PAW_OUTPUT_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from("."),
    }
}

fn output_error(dir: &std::path::Path, file: &str, e: &std::io::Error) -> Error {
    let source = match std::env::var("PAW_OUTPUT_DIR") {
        Ok(v) if !v.is_empty() => format!("PAW_OUTPUT_DIR={v}"),
        _ => "the current directory".to_string(),
    };
    Error::input(format!(
        "cannot write {file} in {source} ({}: {e}); accepted: a writable directory",
        dir.display()
    ))
}

impl<T: Team> Bench<'_, T> {
    /// Header lines stating the timing model, the rank combination and the loop policy.
    pub fn describe(&self) -> Vec<String> {
        let ranks = if self.team().size() == 1 {
            "one process, nothing to combine"
        } else {
            self.combine().describe()
        };
        vec![
            format!("timing: {}", self.timing().describe()),
            format!("ranks combined: {ranks}"),
            format!("nloop: {}", self.calibration().describe()),
        ]
    }
}
