//! What the MPI session (paw-core's `Paw`) and the node session ([`crate::Node`]) share.
//! Here: start-up (timer figures, the environment checked, the watchdog, the run record)
//! and the data checks' verdicts; in `settings` the settings read on rank 0 and shared;
//! in `output` the files and their header.

use crate::bench::Timing;
use crate::check::Verdict;
use crate::config::Loops;
use crate::error::{Error, Result};
use crate::meta::{self, RunInfo};
use crate::record::{Ledger, Record, Setting, TimerRecord};
use crate::spec::{Check, Spec};
use crate::team::{Combine, Team};
use crate::timer::TimerInfo;
use crate::vars::Var;
use crate::{process, vars, watchdog};
use std::cell::{Cell, OnceCell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;

mod output;
mod settings;

pub use output::{existing_dir, finish, output_error};
pub(crate) use settings::shared;
pub use settings::warn_unknown_vars;

/// A benchmark's session over a [`Team`]: paw-core's `Paw` dereferences to
/// `Session<World>`, and [`crate::Node`] is `Session<Solo>`.
#[derive(Debug)]
pub struct Session<T: Team> {
    pub(crate) team: T,
    spec: Spec,
    info: RunInfo,
    timer: TimerInfo,
    reads: RefCell<Vec<Setting>>,
    loops: OnceCell<Loops>,
    combine: OnceCell<Option<Combine>>,
    checking: bool,
    failed_checks: Cell<u64>,
    dir: PathBuf,
    /// `dir` is a per-host subdirectory of the output directory, made when first written.
    host_dir: bool,
    ledger: Rc<Ledger>,
}

impl<T: Team> Session<T> {
    /// Measures the clock on every rank, keeping rank 0's figures; checks the environment
    /// for variables the benchmark does not read; reads the output directory, PAW_TIMEOUT
    /// (starting the watchdog) and, for a data-checking benchmark, PAW_CHECK.
    pub fn new(team: T, spec: &Spec, info: RunInfo) -> Result<Session<T>> {
        let local = TimerInfo::measure(|| team.now(), team.tick());
        let timer = TimerInfo {
            overhead: team.share_f64(local.overhead),
            step: team.share_f64(local.step),
            tick: team.share_f64(local.tick),
        };
        shared(&team, || {
            crate::osu::conflicts(crate::osu::all(), &crate::config::ProcessEnv)
                .map_err(Error::input)?;
            warn_unknown_vars(spec.name, spec.reads(), Some(spec.check)).map(|_| [])
        })?;
        let mut info = info;
        info.timer = timer.describe(team.clock_name());
        info.environment = meta::environment(|k| spec.reads_var(k));
        let dir = team.share_text(&std::env::var(vars::PAW_OUTPUT_DIR.name).unwrap_or_default());
        let mut session = Session {
            team,
            spec: *spec,
            info,
            timer,
            reads: RefCell::new(Vec::new()),
            loops: OnceCell::new(),
            combine: OnceCell::new(),
            checking: false,
            failed_checks: Cell::new(0),
            dir: if dir.is_empty() { PathBuf::from(".") } else { PathBuf::from(&dir) },
            host_dir: false,
            ledger: Rc::new(Ledger::default()),
        };
        if session.team.is_root() {
            session.ledger = Rc::new(Ledger::new(session.record()));
            let ledger = session.ledger.clone();
            process::at_exit(move |outcome| finish(&ledger, outcome));
        }
        session.note(&vars::PAW_OUTPUT_DIR, if dir.is_empty() { "." } else { &dir });
        let timeout = session.knob(&vars::PAW_TIMEOUT)?;
        watchdog::start(timeout);
        // Already applied by warn_unknown_vars; read again to be recorded.
        session.knob(&vars::PAW_STRICT)?;
        if session.knob(&vars::PAW_PLACEMENT_FILE)? == 1 {
            session.placement_file()?;
        }
        if let Check::Data(_) = spec.check {
            session.checking = session.knob(&vars::PAW_CHECK)? == 1;
        }
        // Every setting is checked before the benchmark starts work (finds a GPU,
        // allocates): the loop controls too, when the benchmark declares them.
        if spec.reads_var(vars::NREPS.name) {
            session.loops()?;
        }
        session.tail(Timing::PerCall)?;
        session.combine_override()?;
        Ok(session)
    }

    /// The run record as it stands at start-up.
    fn record(&self) -> Record {
        let (paw_version, git_revision) = crate::record::version();
        let mpi_library = self.info.libraries.iter().find_map(|l| l.strip_prefix("MPI: "));
        Record {
            paw_version,
            git_revision,
            binary: self.info.benchmark.clone(),
            title: self.info.title.clone(),
            arguments: std::env::args().skip(1).collect(),
            date: self.info.date.clone(),
            status: "running".into(),
            tasks: self.info.tasks,
            slurm: self.info.slurm.clone(),
            mpi_library: mpi_library.map(String::from),
            environment: self.info.environment.clone(),
            mca_files: self.info.mca_files.clone(),
            timer: TimerRecord {
                clock: self.team.clock_name().to_string(),
                overhead_usec: self.timer.overhead * 1e6,
                step_usec: self.timer.step * 1e6,
                tick_s: self.timer.tick,
            },
            headlines: self.spec.headlines.to_vec(),
            ..Default::default()
        }
        .placed(&self.info)
    }

    /// Records that `var` was read, with the value in effect.
    fn note(&self, var: &Var, value: &str) {
        let mut reads = self.reads.borrow_mut();
        if !reads.iter().any(|s| s.name == var.name) {
            let option = crate::osu::given(var.name).map(|g| g.option.clone());
            let set = std::env::var_os(var.name).is_some() || option.is_some();
            reads.push(Setting {
                name: var.name.to_string(),
                value: value.to_string(),
                set,
                option,
            });
            self.ledger.update(|r| r.settings = reads.clone());
        }
    }

    /// The variables read so far.
    pub fn settings(&self) -> Vec<Setting> {
        self.reads.borrow().clone()
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
            n => Err(Error::check(format!(
                "data check failed for {n} size(s): received data differ from what the \
                 operation must deliver (see the CHECK column)"
            ))),
        }
    }

    /// The ranks of this session.
    pub fn team(&self) -> &T {
        &self.team
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
        let line = line.into();
        self.ledger.update(|r| r.libraries.push(line.clone()));
        self.info.libraries.push(line);
    }

    /// The benchmark's description of itself.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The directory output files go to (PAW_OUTPUT_DIR, or the current directory).
    pub fn output_dir(&self) -> &Path {
        &self.dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calib::Policy;
    use crate::dat::{Axis, DatFile, DatSpec};
    use crate::schema::{BYTES, USEC};
    use crate::spec::Ranks;
    use crate::team::Solo;
    use std::sync::Mutex;

    /// The tests set PAW_OUTPUT_DIR and others in this process's environment: one at a time.
    static ENV: Mutex<()> = Mutex::new(());

    const SPEC: Spec = Spec {
        name: "session_test",
        title: "a session under test",
        timed: "nothing",
        reports: "nothing, {ranks}",
        ranks: Ranks::Node,
        combine: Combine::Min,
        vars: &[vars::MEASURE],
        check: Check::Never,
        files: crate::Files::Text("t.dat"),
        headlines: &[],
    };

    /// Variables set in this process's environment until dropped.
    struct Vars(Vec<&'static str>);

    impl Drop for Vars {
        fn drop(&mut self) {
            for k in &self.0 {
                std::env::remove_var(k);
            }
        }
    }

    /// A node session writing into `dir`, with `vars` set in the environment for as long as
    /// the returned guard lives (the output directory's name in errors is read from it).
    fn session(dir: &Path, vars: &[(&'static str, &str)]) -> (Result<Session<Solo>>, Vars) {
        std::env::set_var("PAW_OUTPUT_DIR", dir);
        for (k, v) in vars {
            std::env::set_var(k, v);
        }
        let guard = Vars(vars.iter().map(|(k, _)| *k).chain(["PAW_OUTPUT_DIR"]).collect());
        let info = RunInfo {
            benchmark: SPEC.name.into(),
            title: SPEC.title.into(),
            date: meta::utc_now(),
            tasks: 1,
            placement: vec![meta::placement()],
            ..RunInfo::default()
        };
        (Session::new(Solo::new(), &SPEC, info), guard)
    }

    /// Creates `t.dat` (and its CSV twin) in the session's directory.
    fn create(session: &Session<Solo>) -> Result<DatFile> {
        let bench = session.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
        let spec = DatSpec {
            file: "t.dat".into(),
            x: Axis::new("size", BYTES),
            y: Axis::new("time", USEC),
            notes: vec!["a note".into()],
            echo: false,
            extra: vec![],
        };
        session.dat(&bench, spec)
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut n: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    }

    #[test]
    fn files_and_record_go_to_the_output_directory_and_earlier_files_are_kept() {
        let _env = ENV.lock().unwrap_or_else(|p| p.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let (s, _vars) = session(dir.path(), &[]);
        let s = s.unwrap();
        drop(create(&s).unwrap());
        s.ledger.save().unwrap();
        assert_eq!(names(dir.path()), ["session_test-np_0001.json", "t.csv", "t.dat"]);
        let text = std::fs::read_to_string(dir.path().join("t.dat")).unwrap();
        assert!(text.starts_with("# paw session_test -- a session under test\n"), "{text}");
        assert!(text.contains("# a note\n"), "{text}");

        let (again, _vars) = session(dir.path(), &[]);
        drop(create(&again.unwrap()).unwrap());
        let kept: Vec<String> =
            names(dir.path()).into_iter().filter(|n| n.starts_with("t.") && n != "t.dat").collect();
        assert!(kept.iter().any(|n| n.ends_with(".dat") && n.len() > 5), "{kept:?}");
        assert!(kept.iter().any(|n| n.ends_with(".csv") && n != "t.csv"), "{kept:?}");
    }

    #[test]
    fn the_placement_file_lists_every_task_when_asked() {
        let _env = ENV.lock().unwrap_or_else(|p| p.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let (s, _vars) = session(dir.path(), &[("PAW_PLACEMENT_FILE", "1")]);
        let s = s.unwrap();
        s.ledger.save().unwrap();
        let file = "session_test_placement-np_0001.txt";
        assert_eq!(names(dir.path()), ["session_test-np_0001.json", file]);
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert_eq!(lines[1], format!("0 {}", meta::placement()));
        let record = std::fs::read_to_string(dir.path().join("session_test-np_0001.json")).unwrap();
        assert!(record.contains(file), "{record}");
        let (s, _vars) = session(dir.path(), &[("PAW_PLACEMENT_FILE", "2")]);
        assert!(s.is_err_and(|e| e.to_string().contains("PAW_PLACEMENT_FILE")));
    }

    #[test]
    fn a_missing_output_directory_is_made_in_an_existing_parent_only() {
        let _env = ENV.lock().unwrap_or_else(|p| p.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-such-dir").join("today");
        let (s, _vars) = session(&missing, &[]);
        let e = create(&s.unwrap()).unwrap_err();
        assert_eq!(e.code(), 2, "{e}");
        let text = e.to_string();
        assert!(text.contains("PAW_OUTPUT_DIR=") && text.contains("does not exist"), "{text}");
        assert!(!dir.path().join("no-such-dir").exists(), "a mistyped tree must not be made");

        let new = dir.path().join("today");
        let (s, _vars) = session(&new, &[]);
        drop(create(&s.unwrap()).unwrap());
        assert!(new.join("t.dat").is_file());
    }

    #[test]
    fn per_host_files_go_to_a_directory_named_after_the_host() {
        let _env = ENV.lock().unwrap_or_else(|p| p.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let (s, _vars) = session(dir.path(), &[]);
        let mut s = s.unwrap();
        s.per_host();
        drop(create(&s).unwrap());
        let host = meta::hostname();
        assert_eq!(names(dir.path()), std::slice::from_ref(&host));
        assert!(dir.path().join(&host).join("t.dat").is_file());
        assert_eq!(s.output_dir(), dir.path().join(&host));
    }

    #[test]
    fn settings_record_what_was_read_and_a_bad_value_is_refused_before_any_file() {
        let _env = ENV.lock().unwrap_or_else(|p| p.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let (s, vars) = session(dir.path(), &[("PAW_TIMEOUT", "0")]);
        let s = s.unwrap();
        drop(vars);
        let timeout = s.settings().into_iter().find(|v| v.name == "PAW_TIMEOUT").unwrap();
        assert_eq!((timeout.value.as_str(), timeout.set), ("0", true));
        let out = s.settings().into_iter().find(|v| v.name == "PAW_OUTPUT_DIR").unwrap();
        assert_eq!(out.value, dir.path().display().to_string());

        let e = session(dir.path(), &[("NREPS", "many")]).0.unwrap_err();
        assert!(e.to_string().contains("NREPS"), "{e}");
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    }
}
