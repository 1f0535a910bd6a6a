//! What the MPI session (paw-core's `Paw`) and the node session ([`crate::Node`]) share:
//! the settings read on rank 0 and shared (and recorded where they are read, for the
//! header), loop controls and timer figures, run metadata, output files and the run record.

use crate::about::one_line;
use crate::bench::{Bench, Singles, Tail, Timing};
use crate::calib::{Calibration, Policy};
use crate::check::Verdict;
use crate::config::{self, Family, Loops, ProcessEnv, SizeRange, Until};
use crate::dat::{self, Column, DatFile, DatSpec, Layout, Place, Table};
use crate::error::{Error, Result};
use crate::meta::{self, RunInfo};
use crate::record::{HostTasks, Ledger, Record, Setting, TimerRecord};
use crate::spec::{Check, Spec};
use crate::team::{Combine, Team};
use crate::timer::TimerInfo;
use crate::vars::{Unread, Var};
use crate::{process, vars, watchdog};
use std::cell::{Cell, OnceCell, RefCell};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::rc::Rc;

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

/// Warns, on rank 0's standard error, about each variable of the environment that looks
/// like paw's but that `name` does not read (see [`vars::unread`]: paw's prefixes, one of
/// paw's names, in any case, or within two edits of one), naming the closest variable it
/// reads: a misspelled variable must not be silently ignored. With PAW_STRICT=1 the first
/// such variable is an input error instead. With `check`, PAW_CHECK is judged by the
/// benchmark's check: refused where nothing can be checked, pointed out where results are
/// always checked. Call it on rank 0.
pub fn warn_unknown_vars<'a>(
    name: &str,
    reads: impl Iterator<Item = &'a Var> + Clone,
    check: Option<Check>,
) -> Result<()> {
    let strict = config::parse_u64(&ProcessEnv, &vars::PAW_STRICT, 0..=1)?.is_some_and(|v| v == 1);
    let reads: Vec<&str> = reads.map(|v| v.name).collect();
    let mut env: Vec<(String, String)> = std::env::vars().collect();
    env.sort();
    for (var, value) in env {
        let Some(why) = vars::unread(&var, &reads) else { continue };
        let ignored = format!("{var} is not read by {name} and is ignored");
        let message = match (var.as_str(), check, why) {
            ("PAW_CHECK", Some(Check::Never), _) if value.trim() != "0" => {
                return Err(Error::input(format!(
                    "PAW_CHECK={value}: {name} moves no data it could check; accepted: PAW_CHECK \
                     unset or 0"
                )));
            }
            ("PAW_CHECK", Some(Check::Never), _) => continue,
            ("PAW_CHECK", Some(Check::Always(what)), _) => {
                format!("PAW_CHECK is not read by {name}: its results are always checked ({what})")
            }
            (_, _, Unread::Elsewhere) => format!("{ignored} (see {name} -h for what it reads)"),
            (_, _, Unread::Case(k)) if reads.contains(&k) => {
                format!("{ignored}; variable names are upper case: {k}")
            }
            (_, _, Unread::Case(k)) => {
                format!("{ignored}; paw spells it {k}, which {name} does not read either")
            }
            (_, _, Unread::Near(Some(k))) => {
                format!("{ignored}; the closest variable it reads is {k} (see {name} -h)")
            }
            (_, _, Unread::Near(None)) => format!("{ignored} (see {name} -h for what it reads)"),
        };
        if strict {
            return Err(Error::input(format!("{message} (PAW_STRICT=1)")));
        }
        process::warn(&message);
    }
    Ok(())
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
        shared(&team, || warn_unknown_vars(spec.name, spec.reads(), Some(spec.check)).map(|_| []))?;
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
        let timeout = session.knob(&vars::PAW_TIMEOUT, 0..=1_000_000)?;
        watchdog::start(timeout);
        // Already applied by warn_unknown_vars; read again to be recorded.
        session.knob(&vars::PAW_STRICT, 0..=1)?;
        if let Check::Data(_) = spec.check {
            session.checking = session.knob(&vars::PAW_CHECK, 0..=1)? == 1;
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
            hosts: self
                .info
                .hosts()
                .into_iter()
                .map(|(host, tasks)| HostTasks { host, tasks })
                .collect(),
            placement: self.info.placement.clone(),
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
            ..Default::default()
        }
    }

    /// Records that `var` was read, with the value in effect.
    fn note(&self, var: &Var, value: &str) {
        let mut reads = self.reads.borrow_mut();
        if !reads.iter().any(|s| s.name == var.name) {
            let set = std::env::var_os(var.name).is_some();
            reads.push(Setting { name: var.name.to_string(), value: value.to_string(), set });
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

    /// A family's MIN, MED (warm-up) and MAX sizes, read on rank 0 and shared (collective).
    pub fn sizes(&self, family: Family) -> Result<SizeRange> {
        self.read_sizes(family, true)
    }

    /// A family's MIN and MAX sizes, for a sweep without a warm-up size (MED is MIN).
    pub fn sweep(&self, family: Family) -> Result<SizeRange> {
        self.read_sizes(family, false)
    }

    fn read_sizes(&self, family: Family, warmup: bool) -> Result<SizeRange> {
        let [min, med, max] = shared(&self.team, || {
            let r = family.parse(&ProcessEnv, warmup)?;
            Ok([r.min, r.med, r.max])
        })?;
        let [vmin, vmed, vmax] = family.vars();
        self.note(&vmin, &min.to_string());
        if warmup {
            self.note(&vmed, &med.to_string());
        }
        self.note(&vmax, &max.to_string());
        Ok(SizeRange { min, med, max })
    }

    /// A whole-number variable in `range` (its default when unset), read on rank 0 and
    /// shared (collective).
    pub fn knob(&self, var: &Var, range: RangeInclusive<u64>) -> Result<u64> {
        let [v] = shared(&self.team, || {
            let v = config::parse_u64(&ProcessEnv, var, range)?;
            Ok([v.unwrap_or_else(|| panic!("{} has no numeric default", var.name))])
        })?;
        self.note(var, &v.to_string());
        Ok(v)
    }

    /// A byte count in `range` (its default when unset; K, M and G suffixes, see
    /// [`config::parse_size`]), read on rank 0 and shared (collective); noted in bytes.
    pub fn bytes(&self, var: &Var, range: RangeInclusive<u64>) -> Result<u64> {
        let [v] = shared(&self.team, || Ok([config::parse_size(&ProcessEnv, var, range)?]))?;
        self.note(var, &v.to_string());
        Ok(v)
    }

    /// A text variable (a path, a level name), rank 0's value on every rank; `None` unset.
    pub fn text(&self, var: &Var) -> Option<String> {
        let raw = std::env::var(var.name).ok();
        let shared =
            self.team.share_text(&format!("{}{}", raw.is_some() as u8, raw.unwrap_or_default()));
        let value = shared.strip_prefix('1').map(String::from);
        self.note(var, value.as_deref().unwrap_or(var.default));
        value
    }

    /// A thread count from the first of `vars` that is set (e.g. OPENBLAS_NUM_THREADS,
    /// then OMP_NUM_THREADS), checked as a whole number from 1 to 4096; `None` when none
    /// is set. Every variable of the list counts as read.
    pub fn threads(&self, vars: &[Var]) -> Result<Option<u64>> {
        let [n] = shared(&self.team, || {
            for v in vars {
                if std::env::var_os(v.name).is_some() {
                    return Ok([config::parse_u64(&ProcessEnv, v, 1..=4096)?.unwrap_or(0)]);
                }
            }
            Ok([0])
        })?;
        let set = vars.iter().position(|v| std::env::var_os(v.name).is_some());
        for (i, v) in vars.iter().enumerate() {
            let value = if Some(i) == set { n.to_string() } else { "-".to_string() };
            self.note(v, &value);
        }
        Ok((n > 0).then_some(n))
    }

    /// An error naming `var` unless `bytes` of buffers per process fit in the available
    /// memory of every node, for all the processes on it (collective: a size that cannot be
    /// allocated must not end in an out-of-memory kill).
    pub fn fits_in_memory(&self, bytes: u128, var: &str, what: &str) -> Result<()> {
        let available = meta::available_memory();
        let fits = available.is_none_or(|a| bytes * self.team.local_size() as u128 <= a as u128);
        if self.all_ok(fits) {
            return Ok(());
        }
        let gib = |b: f64| b / (1u64 << 30) as f64;
        Err(Error::input(format!(
            "{var}: {what} need {:.1} GiB per process ({} on this node), more than the {:.1} \
             GiB of memory available; accepted: a smaller {var}",
            gib(bytes as f64),
            self.team.local_size(),
            gib(available.unwrap_or(0) as f64)
        )))
    }

    /// NLOOP, NLOOP_MAX, NLOOP_MIN, NREPS, PAW_PRECISION, PAW_MAX_TIME, PAW_TOLERANCE, read
    /// once on rank 0 and shared (collective the first time).
    fn loops(&self) -> Result<Loops> {
        if let Some(l) = self.loops.get() {
            return Ok(*l);
        }
        let mut parsed = if self.team.is_root() { Some(Loops::parse(&ProcessEnv)) } else { None };
        let ok = self.team.share_u64(matches!(parsed, Some(Ok(_))) as u64) == 1;
        if !ok {
            return Err(match parsed.take() {
                Some(Err(e)) => e,
                _ => Error::input("invalid setting (reported by rank 0)"),
            });
        }
        let l = share_loops(&self.team, parsed.and_then(|p| p.ok()));
        let off = |v: Option<f64>| v.map_or("-".to_string(), |x| x.to_string());
        self.note(&vars::NLOOP, &l.nloop.map_or("-".to_string(), |n| n.to_string()));
        self.note(&vars::NLOOP_MAX, &l.nloop_max.to_string());
        self.note(
            &vars::NLOOP_MIN,
            &l.nloop_min.map_or(vars::NLOOP_MIN.default.to_string(), |n| n.to_string()),
        );
        self.note(&vars::NREPS, &l.nreps.to_string());
        self.note(&vars::PAW_PRECISION, &off(l.precision));
        let relative = l.until() == Until::Narrow && !l.max_time_set;
        self.note(&vars::PAW_MAX_TIME, &if relative { "-".into() } else { l.max_time.to_string() });
        self.note(&vars::PAW_TOLERANCE, &l.tolerance.to_string());
        let _ = self.loops.set(l);
        Ok(l)
    }

    /// PAW_COMBINE, when the benchmark reads it (collective the first time).
    fn combine_override(&self) -> Result<Option<Combine>> {
        if let Some(c) = self.combine.get() {
            return Ok(*c);
        }
        if !self.spec.reads_var(vars::PAW_COMBINE.name) {
            return Ok(None);
        }
        let [code] = shared(&self.team, || match std::env::var("PAW_COMBINE") {
            Err(_) => Ok([0]),
            Ok(v) => match Combine::parse(&v) {
                Some(c) => Ok([c as u64 + 1]),
                None => Err(Error::input(format!(
                    "PAW_COMBINE={v:?} is not a rule; accepted: min, max or avg"
                ))),
            },
        })?;
        let c = [Combine::Min, Combine::Max, Combine::Avg]
            .get((code as usize).wrapping_sub(1))
            .copied();
        let _ = self.combine.set(c);
        Ok(c)
    }

    /// The rule PAW_COMBINE sets, if the benchmark reads it and it is set (collective the
    /// first time).
    pub fn combine_setting(&self) -> Result<Option<Combine>> {
        self.combine_override()
    }

    /// A bench for a sweep with the given timing model and loop policy, the tasks' times
    /// combined by the Spec's rule (PAW_COMBINE may replace it). Collective: reads the loop
    /// variables the first time.
    pub fn bench(&self, timing: Timing, policy: Policy) -> Result<Bench<'_, T>> {
        let combine = self.spec.combine;
        let loops = self.loops()?;
        let chosen = self.combine_override()?;
        if self.spec.reads_var(vars::PAW_COMBINE.name) {
            self.note(&vars::PAW_COMBINE, chosen.unwrap_or(combine).name());
        }
        let calibration = Calibration::new(loops, self.timer.floor(), policy);
        let bench = Bench::new(&self.team, timing, chosen.unwrap_or(combine), combine, calibration);
        Ok(bench.with_tail(self.tail(timing)?))
    }

    /// PAW_TAIL, when the benchmark reads it and it is not 0 (collective). Single
    /// iterations are timed separately under [`Timing::PerCall`], else back to back.
    fn tail(&self, timing: Timing) -> Result<Option<Tail>> {
        if !self.spec.reads_var(vars::PAW_TAIL.name) {
            return Ok(None);
        }
        let count = self.knob(&vars::PAW_TAIL, 0..=1_000_000)?;
        if count == 0 {
            return Ok(None);
        }
        if count < 100 {
            return Err(Error::input(format!(
                "PAW_TAIL={count}: accepted 0 (off) or 100 to 1000000 single iterations (a \
                 99th percentile needs 100)"
            )));
        }
        let singles = if timing == Timing::PerCall { Singles::Separated } else { Singles::Leader };
        Ok(Some(Tail { count, singles, timer: self.timer }))
    }

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
            let hosts: Vec<String> =
                self.info.hosts().iter().map(|(h, n)| format!("{h} ({n})")).collect();
            let mut run =
                format!("{}, tasks {}, hosts {}", self.info.date, self.info.tasks, hosts.join(" "));
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

    /// Checks the output directory, keeps earlier runs' files, and starts the run record.
    /// A missing directory is an error, not created: a mistyped PAW_OUTPUT_DIR must not
    /// scatter results into a new directory.
    fn prepare(&self, file: &str, keep: bool) -> std::io::Result<()> {
        if self.host_dir && !self.dir.is_dir() {
            existing_dir(self.dir.parent().unwrap_or(Path::new(".")))?;
            std::fs::create_dir(&self.dir)?;
        }
        existing_dir(&self.dir)?;
        if !self.ledger.has_file() {
            let name = dat::np_file(&self.info.benchmark, self.info.tasks).replace(".dat", ".json");
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

/// Rank 0's loop settings on every rank (`mine` is rank 0's).
fn share_loops<T: Team>(team: &T, mine: Option<Loops>) -> Loops {
    let l = mine.unwrap_or(Loops {
        nloop: None,
        nloop_max: 0,
        nloop_max_set: false,
        nloop_min: None,
        nreps: 0,
        nreps_set: false,
        precision: None,
        max_time: 0.0,
        max_time_set: false,
        tolerance: 0.0,
    });
    let maybe = |v: Option<u64>| team.share_u64(v.unwrap_or(0));
    let nloop = maybe(l.nloop);
    let nloop_min = maybe(l.nloop_min);
    let precision = team.share_f64(l.precision.unwrap_or(f64::NAN));
    Loops {
        nloop: (nloop > 0).then_some(nloop),
        nloop_max: team.share_u64(l.nloop_max),
        nloop_max_set: team.share_u64(l.nloop_max_set as u64) == 1,
        nloop_min: (nloop_min > 0).then_some(nloop_min),
        nreps: team.share_u64(l.nreps),
        nreps_set: team.share_u64(l.nreps_set as u64) == 1,
        precision: (!precision.is_nan()).then_some(precision),
        max_time: team.share_f64(l.max_time),
        max_time_set: team.share_u64(l.max_time_set as u64) == 1,
        tolerance: team.share_f64(l.tolerance),
    }
}

/// An error unless `dir` is an existing directory: a mistyped PAW_OUTPUT_DIR must not
/// scatter results into a new directory.
pub fn existing_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let what = if dir.exists() { "is not a directory" } else { "does not exist" };
    Err(std::io::Error::new(std::io::ErrorKind::NotFound, what))
}

/// Sets the record's final status and prints how many rows were NOISY (rank 0).
pub fn finish(ledger: &Ledger, outcome: &Result<()>) {
    ledger.update(|r| {
        r.status = if outcome.is_ok() { "ok" } else { "failed" }.into();
        r.exit_code = Some(outcome.as_ref().map_or_else(Error::code, |_| 0));
        r.error = outcome.as_ref().err().map(|e| e.message().to_string());
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
        let why = match Loops::parse(&ProcessEnv).map(|l| l.until()) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dat::Axis;
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
            x: Axis::new("size", "bytes"),
            y: Axis::new("time", "usec"),
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
    fn a_missing_output_directory_is_an_input_error_that_names_it() {
        let _env = ENV.lock().unwrap_or_else(|p| p.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-such-dir");
        let (s, _vars) = session(&missing, &[]);
        let e = create(&s.unwrap()).unwrap_err();
        assert_eq!(e.code(), 2, "{e}");
        let text = e.to_string();
        assert!(text.contains("PAW_OUTPUT_DIR=") && text.contains("does not exist"), "{text}");
        assert!(!missing.exists(), "a mistyped directory must not be created");
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
