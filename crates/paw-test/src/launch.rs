//! Launching a benchmark (under mpirun or directly) with a hard timeout.

use paw_report::Dat;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// Default hard limit for one launch.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Small workloads so that a test run finishes in seconds (warm-up sizes at the first
/// size, so a test may lower MAX freely).
const TINY: &[(&str, &str)] = &[
    ("NLOOP_MAX", "20"),
    ("NREPS", "3"),
    ("MIN_P2P_SIZE", "1"),
    ("MED_P2P_SIZE", "1"),
    ("MAX_P2P_SIZE", "4096"),
    ("MIN_COL_SIZE", "1"),
    ("MED_COL_SIZE", "1"),
    ("MAX_COL_SIZE", "4096"),
    ("MIN_BLAS_SIZE", "8"),
    ("MED_BLAS_SIZE", "8"),
    ("MAX_BLAS_SIZE", "64"),
    ("MIN_GPU_SIZE", "128"),
    ("MED_GPU_SIZE", "128"),
    ("MAX_GPU_SIZE", "65536"),
    ("MIN_GPU_BLAS_SIZE", "8"),
    ("MED_GPU_BLAS_SIZE", "8"),
    ("MAX_GPU_BLAS_SIZE", "64"),
];

/// Settings that keep a run of the whole program short, for tests that start every binary
/// as it comes (set where the binary's `-h` lists them). p2p_matrix maps the tasks: every
/// test task is on this one host. One thread per task: two tasks of two polling threads
/// outnumber a two-core machine's cores.
pub const SMALL: &[(&str, &str)] = &[
    ("STREAM_ARRAY_SIZE", "100000"),
    ("IO_FILE_SIZE", "1048576"),
    ("IO_TRANSFER_SIZE", "65536"),
    ("MATRIX_PER_TASK", "1"),
    ("MATRIX_SIZE", "65536"),
    ("MATRIX_WINDOW", "2"),
    ("MT_THREADS", "1"),
];

/// A launch to be made: program, task count (or none for a direct run), environment.
#[derive(Debug, Clone)]
pub struct Launch {
    program: PathBuf,
    np: Option<usize>,
    args: Vec<String>,
    env: BTreeMap<String, String>,
    timeout: Duration,
    fsize: Option<u64>,
    shared: bool,
    /// Whether the launcher may kill the other ranks at once when one exits with an error
    /// (Open MPI otherwise waits a second before SIGKILL): not when a test interrupts the
    /// job and the survivors must get time to clean up.
    quick_kill: bool,
    /// A command that stands for the launcher (it is given the launcher's arguments).
    via: Option<Vec<String>>,
    /// Started by srun (with these options) instead of the MPI launcher.
    srun: Option<Vec<String>>,
    /// Options for the MPI launcher, after `-np N`.
    launcher_args: Vec<String>,
}

/// A signal sent to a running job by [`Launch::run_interrupting`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interrupt {
    /// This signal to one rank (a process running the program), the last one started.
    Rank(i32),
    /// This signal to the launcher (mpirun) only.
    Launcher(i32),
}

/// What a finished (or killed) launch left behind.
#[derive(Debug)]
pub struct Outcome {
    /// The command line, for failure reports.
    pub command: String,
    /// Exit status; `None` when killed by a signal.
    pub code: Option<i32>,
    /// The hard timeout fired.
    pub timed_out: bool,
    /// The test killed the run on purpose.
    pub killed: bool,
    /// Wall time of the launch.
    pub elapsed: Duration,
    /// Everything written to standard output.
    pub stdout: String,
    /// Everything written to standard error.
    pub stderr: String,
    /// The output directory (PAW_OUTPUT_DIR); removed when the outcome is dropped.
    pub dir: TempDir,
    /// Processes of the job still alive after the harness killed it (should be none).
    pub survivors: Vec<i32>,
    /// With [`Launch::run_interrupting`]: how long the job took to end after the signal.
    pub after_interrupt: Option<Duration>,
    /// Files the job left in /dev/shm (a killed job's shared-memory segments), removed
    /// after it by the harness unless a process still holds them; none for a shared launch.
    pub shm_left: Vec<PathBuf>,
}

impl Launch {
    /// `mpirun -np <np> <program>` with tiny sizes, root allowed, oversubscription above
    /// two tasks, and a temporary PAW_OUTPUT_DIR.
    pub fn mpi(program: impl AsRef<Path>, np: usize) -> Launch {
        let mut l = Launch::direct(program);
        l.np = Some(np);
        l
    }

    /// The program run directly (node tests), with the same tiny sizes.
    ///
    /// Only the tiny settings the program reads (the variables its `-h` lists) are set: a
    /// paw binary warns about paw-like variables it does not read.
    pub fn direct(program: impl AsRef<Path>) -> Launch {
        let reads = variables_read(program.as_ref());
        let env = TINY
            .iter()
            .filter(|(k, _)| reads.iter().any(|r| r == k))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Launch {
            program: program.as_ref().to_path_buf(),
            np: None,
            args: Vec::new(),
            env,
            timeout: DEFAULT_TIMEOUT,
            fsize: None,
            shared: false,
            quick_kill: true,
            via: None,
            srun: None,
            launcher_args: Vec::new(),
        }
    }

    /// Runs the launch through `command`: an MPI launch's command (e.g. `netns-cluster run
    /// --slots 2`) takes the launcher's arguments and finds the launcher in `MPIRUN`; a
    /// direct launch's (e.g. `unshare --mount ...`) takes the program and its arguments.
    pub fn via<S: ToString>(mut self, command: impl IntoIterator<Item = S>) -> Launch {
        self.via = Some(command.into_iter().map(|a| a.to_string()).collect());
        self
    }

    /// Passes `options` to the MPI launcher (`mpirun -np N OPTIONS… program`), e.g.
    /// `-bind-to none`, which both Open MPI's and MPICH's launchers read.
    pub fn launcher_args<S: ToString>(mut self, options: impl IntoIterator<Item = S>) -> Launch {
        self.launcher_args.extend(options.into_iter().map(|a| a.to_string()));
        self
    }

    /// Starts the tasks with `srun -n NP --mpi=PLUGIN OPTIONS…` (in a Slurm cluster such as
    /// `scripts/slurm-local`'s), the plugin the one the MPI library speaks.
    pub fn srun<S: ToString>(mut self, options: impl IntoIterator<Item = S>) -> Launch {
        self.srun = Some(options.into_iter().map(|a| a.to_string()).collect());
        self
    }

    /// Sets an environment variable for the run (overrides the tiny defaults).
    pub fn env(mut self, key: &str, value: impl ToString) -> Launch {
        self.env.insert(key.to_string(), value.to_string());
        self
    }

    /// Removes one of the tiny defaults so the program's own default applies.
    pub fn unset(mut self, key: &str) -> Launch {
        self.env.remove(key);
        self
    }

    /// Appends a program argument.
    pub fn arg(mut self, arg: impl ToString) -> Launch {
        self.args.push(arg.to_string());
        self
    }

    /// Appends program arguments.
    pub fn args<S: ToString>(mut self, args: impl IntoIterator<Item = S>) -> Launch {
        self.args.extend(args.into_iter().map(|a| a.to_string()));
        self
    }

    /// Limits the size of any file the program writes to `bytes` (RLIMIT_FSIZE): a full
    /// disk. Under mpirun the ranks get the limit through `prlimit`, not the launcher.
    pub fn file_size_limit(mut self, bytes: u64) -> Launch {
        self.fsize = Some(bytes);
        self
    }

    /// Sets the hard timeout.
    pub fn timeout(mut self, t: Duration) -> Launch {
        self.timeout = t;
        self
    }

    /// Runs to completion (or the timeout), one launch at a time across all test processes.
    pub fn run(self) -> Outcome {
        self.run_until(|_| false)
    }

    /// Runs to completion like [`Launch::run`], but beside other shared launches: for
    /// short runs that measure nothing (bad input), which may run several at a time while
    /// no measuring launch runs.
    pub fn run_shared(mut self) -> Outcome {
        self.shared = true;
        self.run()
    }

    /// Runs, and kills the whole process tree with SIGKILL as soon as `stop(output_dir)`
    /// returns true (to test what an interrupted run leaves behind).
    ///
    /// Whatever happens (exit, timeout, a panic in this function), every process the launch
    /// started is killed before this returns: the test process is made a child subreaper so
    /// that ranks orphaned by the launcher stay its descendants and can be found.
    pub fn run_until(self, stop: impl Fn(&Path) -> bool) -> Outcome {
        self.run_with(|job, dir, _| {
            if stop(dir) {
                job.kill_all();
                true
            } else {
                false
            }
        })
    }

    /// Runs, and sends `what` once `when(output_dir)` returns true; the job must then end
    /// by itself (the timeout still applies). The outcome says how long that took.
    pub fn run_interrupting(self, what: Interrupt, when: impl Fn(&Path) -> bool) -> Outcome {
        self.run_interrupting_at(what, move |dir, _| when(dir))
    }

    /// [`Launch::run_interrupting`], `when` given the output directory and the standard
    /// error so far (a progress line naming a step).
    pub fn run_interrupting_at(
        mut self,
        what: Interrupt,
        when: impl Fn(&Path, &str) -> bool,
    ) -> Outcome {
        self.quick_kill = false;
        let program = self.program.canonicalize().unwrap_or_else(|_| self.program.clone());
        self.run_with(move |job, dir, stderr| {
            if !when(dir, stderr) {
                return false;
            }
            let (pid, sig) = match what {
                Interrupt::Launcher(sig) => (job.child.id() as i32, sig),
                Interrupt::Rank(sig) => {
                    job.remember_descendants();
                    let ranks: Vec<i32> = job
                        .known
                        .iter()
                        .copied()
                        .filter(|p| {
                            std::fs::read_link(format!("/proc/{p}/exe")).is_ok_and(|e| e == program)
                        })
                        .collect();
                    match ranks.iter().max() {
                        Some(&p) => (p, sig),
                        None => return false, // not started yet
                    }
                }
            };
            // SAFETY: kill(2) with a pid and a signal number has no memory effects.
            unsafe { libc::kill(pid, sig) };
            true
        })
    }

    /// Runs to completion like [`Launch::run`], polling `react(standard error so far)`
    /// until it returns true (once): to change the machine under a running job when it
    /// reaches a step (a link's rate, say).
    pub fn run_reacting(self, mut react: impl FnMut(&str) -> bool) -> Outcome {
        let out = self.run_with(|_, _, stderr| react(stderr));
        Outcome { killed: false, ..out }
    }

    /// The launch loop: `act(job, dir, stderr so far)` is polled until it returns true
    /// (once).
    fn run_with(self, mut act: impl FnMut(&mut Job, &Path, &str) -> bool) -> Outcome {
        let _lock = launch_lock(self.shared);
        become_subreaper();
        let shm_before = shm_files();
        let dir = tempfile::tempdir().expect("temporary output directory");
        let mut cmd = self.command(dir.path());
        let command = describe(&cmd);
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null());
        cmd.process_group(0);
        if let (Some(limit), None) = (self.fsize, self.np) {
            // SAFETY: setrlimit in the child between fork and exec only changes the child's
            // own limit; it is async-signal-safe.
            unsafe {
                cmd.pre_exec(move || {
                    let lim = libc::rlimit { rlim_cur: limit, rlim_max: limit };
                    if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let start = Instant::now();
        let child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {command}: {e}"));
        let mut job = Job { child, known: Vec::new(), reaped: false };
        let out = drain(job.child.stdout.take().expect("stdout"));
        let err = drain(job.child.stderr.take().expect("stderr"));
        let (mut timed_out, mut killed) = (false, false);
        let mut acted_at = None;
        let mut polls = 0u32;
        let status = loop {
            if let Some(status) = job.child.try_wait().expect("wait") {
                job.reaped = true;
                break status;
            }
            if polls.is_multiple_of(20) {
                job.remember_descendants();
            }
            polls += 1;
            if start.elapsed() > self.timeout {
                timed_out = true;
                job.kill_all();
            } else if !killed && act(&mut job, dir.path(), &err.so_far()) {
                killed = true;
                acted_at = Some(Instant::now());
            }
            thread::sleep(Duration::from_millis(10));
        };
        let after_interrupt = acted_at.map(|t| t.elapsed());
        job.kill_all();
        let deadline = Instant::now() + Duration::from_secs(10);
        let survivors = job.survivors();
        // Alone, every new file there is this job's.
        let shm_left = if self.shared { Vec::new() } else { remove_orphaned_shm(&shm_before) };
        Outcome {
            command,
            code: status.code(),
            timed_out,
            killed,
            elapsed: start.elapsed(),
            stdout: out.collect(deadline),
            stderr: err.collect(deadline),
            dir,
            survivors,
            after_interrupt,
            shm_left,
        }
    }

    fn command(&self, out_dir: &Path) -> Command {
        let mut cmd = match (self.np, &self.srun) {
            (Some(np), Some(options)) => {
                let mut c = Command::new("srun");
                c.arg("-n").arg(np.to_string()).arg(format!("--mpi={}", srun_mpi_plugin()));
                c.args(options).arg(&self.program);
                c
            }
            (Some(np), None) => {
                let mut c = match &self.via {
                    Some(via) => {
                        let mut c = Command::new(&via[0]);
                        c.args(&via[1..]).env("MPIRUN", launcher());
                        c
                    }
                    None => Command::new(launcher()),
                };
                c.arg("-np").arg(np.to_string()).args(&self.launcher_args);
                if np > 2 && is_open_mpi() {
                    c.arg("--oversubscribe");
                }
                if self.quick_kill && is_open_mpi() {
                    // A failed job ends in a third of a second instead of one to two.
                    c.args(["--mca", "odls_base_sigkill_timeout", "0"]);
                }
                if let Some(limit) = self.fsize {
                    // The ranks' limit only: the launcher's shared-memory files are larger.
                    c.arg("prlimit").arg(format!("--fsize={limit}")).arg("--");
                }
                c.arg(&self.program);
                c
            }
            (None, _) => match &self.via {
                Some(via) => {
                    let mut c = Command::new(&via[0]);
                    c.args(&via[1..]).arg(&self.program);
                    c
                }
                None => Command::new(&self.program),
            },
        };
        cmd.args(&self.args);
        cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .env("PAW_OUTPUT_DIR", out_dir);
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }
}

impl Outcome {
    /// Everything a reader needs when a test fails.
    pub fn report(&self) -> String {
        format!(
            "command: {}\nexit code: {:?}  timed out: {}  killed: {}  elapsed: {:.1?}  \
             survivors: {:?}\nfiles: {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.command,
            self.code,
            self.timed_out,
            self.killed,
            self.elapsed,
            self.survivors,
            self.files(),
            self.stdout,
            self.stderr
        )
    }

    /// Panics with the report unless the run exited 0 within the timeout.
    pub fn success(&self) -> &Self {
        assert!(self.code == Some(0) && !self.timed_out, "expected success\n{}", self.report());
        assert!(self.survivors.is_empty(), "processes outlived the run\n{}", self.report());
        self
    }

    /// Panics with the report unless the run exited non-zero within the timeout and
    /// its standard error contains `needle`.
    pub fn failure(&self, needle: &str) -> &Self {
        assert!(!self.timed_out, "timed out instead of failing\n{}", self.report());
        assert!(self.code.is_some_and(|c| c != 0), "expected a non-zero exit\n{}", self.report());
        assert!(self.stderr.contains(needle), "standard error lacks {needle:?}\n{}", self.report());
        self
    }

    /// Lines of standard error that contain `needle`.
    pub fn stderr_lines(&self, needle: &str) -> Vec<&str> {
        self.stderr.lines().filter(|l| l.contains(needle)).collect()
    }

    /// Names of the files in the output directory, sorted.
    pub fn files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path())
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    /// Names of the `.dat` files in the output directory, sorted (each has a `.csv` twin,
    /// and the run a `.json` record, beside it).
    pub fn dat_files(&self) -> Vec<String> {
        self.files().into_iter().filter(|f| f.ends_with(".dat")).collect()
    }

    /// Reads and parses a data file; panics with the report if absent or malformed.
    pub fn dat(&self, name: &str) -> Dat {
        let path = self.dir.path().join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {name}: {e}\n{}", self.report()));
        Dat::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}\n{}", self.report()))
    }
}

/// The variables `program -h` lists (its "Variables" section), remembered per program.
pub fn variables_read(program: &Path) -> Vec<String> {
    static SEEN: std::sync::Mutex<BTreeMap<PathBuf, Vec<String>>> =
        std::sync::Mutex::new(BTreeMap::new());
    let mut seen = SEEN.lock().unwrap_or_else(|p| p.into_inner());
    seen.entry(program.to_path_buf())
        .or_insert_with(|| {
            let help =
                Command::new(program).arg("-h").output().map(|o| o.stdout).unwrap_or_default();
            help_variables(&String::from_utf8_lossy(&help))
        })
        .clone()
}

/// The names in the "Variables" section of a paw `-h` text.
pub fn help_variables(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Variables"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect()
}

/// The MPI launcher: `PAW_TEST_MPIRUN`, or `mpirun`.
pub fn launcher() -> String {
    std::env::var("PAW_TEST_MPIRUN").unwrap_or_else(|_| "mpirun".to_string())
}

/// What the launcher's `--version` prints (empty if it cannot be run).
fn launcher_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        Command::new(launcher())
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    })
}

/// Whether the launcher is Open MPI's (it needs --oversubscribe beyond the core count).
pub fn is_open_mpi() -> bool {
    launcher_version().contains("Open MPI")
}

/// Whether the launcher is Intel MPI's hydra.
pub fn is_intel_mpi() -> bool {
    launcher_version().contains("Intel(R) MPI")
}

/// Whether the library under test has MPI-4's persistent collectives: not Open MPI before
/// 5 (the binaries of the Makefile's MPI4 list refuse to run there).
pub fn has_mpi4() -> bool {
    let v = launcher_version();
    !v.contains("Open MPI") || v.contains("(Open MPI) 5")
}

/// srun's MPI plugin for the MPI library of the binaries: `pmix` for Open MPI (Debian's
/// has no PMI-2), `pmi2` for MPICH (Debian's speaks PMI-1 and 2, not PMIx).
pub fn srun_mpi_plugin() -> &'static str {
    if is_open_mpi() {
        "pmix"
    } else {
        "pmi2"
    }
}

/// Whether `np` tasks outnumber this machine's cores under an MPI that polls without ever
/// yielding the processor (MPICH 4.0 with UCX: three tasks on two cores run about 100 times
/// slower than two, whatever MPIR_CVAR_POLLS_BEFORE_YIELD says). Tests skip such counts,
/// saying so.
pub fn crowded(np: usize) -> bool {
    !is_open_mpi() && np > thread::available_parallelism().map_or(1, |n| n.get())
}

/// The counts of `counts` that are not [`crowded`], saying on standard error which are
/// skipped.
pub fn task_counts(counts: &[usize]) -> Vec<usize> {
    let (keep, skip): (Vec<usize>, Vec<usize>) = counts.iter().partition(|&&np| !crowded(np));
    if !skip.is_empty() {
        eprintln!("skipped: {skip:?} tasks, more than this machine's cores, under {}", launcher());
    }
    keep
}

/// Whether the launcher ends a job whose task died by SIGTERM to the others, with time to
/// clean up before SIGKILL, and reports a signal it forwarded in its exit status (Open
/// MPI). MPICH's hydra SIGKILLs the other tasks at once and may exit 0 after forwarding
/// SIGTERM or SIGINT.
pub fn launcher_is_graceful() -> bool {
    is_open_mpi()
}

/// Holds the lock every test process takes for a launch: exclusive, so that launches run
/// one at a time, or shared among launches that measure nothing.
pub(crate) fn launch_lock(shared: bool) -> File {
    let path = std::env::temp_dir().join("paw-test-launch.lock");
    let f = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    if shared {
        f.lock_shared().expect("lock");
    } else {
        f.lock().expect("lock");
    }
    f
}

/// A pipe being read to the end on its own thread.
struct Drain(mpsc::Receiver<String>, Arc<Mutex<Vec<u8>>>);

impl Drain {
    /// What was read so far.
    fn so_far(&self) -> String {
        String::from_utf8_lossy(&self.1.lock().unwrap_or_else(|p| p.into_inner())).into_owned()
    }

    /// What was read, waiting at most until `deadline` for the writers to go away.
    fn collect(self, deadline: Instant) -> String {
        let wait = deadline.saturating_duration_since(Instant::now());
        self.0
            .recv_timeout(wait)
            .unwrap_or_else(|_| "(output not closed in time: a process survived the kill)".into())
    }
}

fn drain(mut r: impl Read + Send + 'static) -> Drain {
    let (tx, rx) = mpsc::channel();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let shared = Arc::clone(&seen);
    thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(n @ 1..) = r.read(&mut chunk) {
            shared.lock().unwrap_or_else(|p| p.into_inner()).extend_from_slice(&chunk[..n]);
        }
        let all = shared.lock().unwrap_or_else(|p| p.into_inner());
        let _ = tx.send(String::from_utf8_lossy(&all).into_owned());
    });
    Drain(rx, seen)
}

fn describe(cmd: &Command) -> String {
    let mut s = String::new();
    for (k, v) in cmd.get_envs() {
        if let Some(v) = v {
            s.push_str(&format!("{}={} ", k.to_string_lossy(), v.to_string_lossy()));
        }
    }
    s.push_str(&cmd.get_program().to_string_lossy());
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// A running launch: the launcher process and every descendant seen so far.
struct Job {
    child: Child,
    known: Vec<i32>,
    /// The launcher was waited for: its pid (and group id) may now belong to others.
    reaped: bool,
}

impl Job {
    /// Records the launcher's current descendants (ranks may later be orphaned).
    fn remember_descendants(&mut self) {
        if self.reaped {
            return; // the launcher's pid may be someone else's now
        }
        for pid in descendants(self.child.id() as i32) {
            if !self.known.contains(&pid) {
                self.known.push(pid);
            }
        }
    }

    /// SIGKILLs the launcher, its process group and every descendant, current or
    /// remembered, then reaps those that were re-parented to this process.
    fn kill_all(&mut self) {
        self.remember_descendants();
        let root = self.child.id() as i32;
        let me = std::process::id() as i32;
        if !self.reaped {
            // SAFETY: kill(2) with a pid and a signal number has no memory effects; the
            // launcher is not reaped yet, so `root` is still its pid and its group's id.
            unsafe {
                libc::kill(root, libc::SIGKILL);
                libc::kill(-root, libc::SIGKILL);
            }
        }
        for &pid in &self.known {
            // Only processes still ours: in the launcher's tree, or orphans re-parented to
            // this process (a recycled pid belongs to someone else and has another parent).
            let ours = parent_of(pid).is_some_and(|pp| {
                pp == me || self.known.contains(&pp) || (pp == root && !self.reaped)
            });
            if ours {
                // SAFETY: kill(2) with a pid and a signal number has no memory effects.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        for &pid in &self.known {
            if parent_of(pid) == Some(me) {
                // SAFETY: reaps a child of this process that was killed above; the status
                // pointer may be null.
                unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
            }
        }
    }
}

impl Job {
    /// Remembered processes that are still running (zombies count as gone).
    fn survivors(&self) -> Vec<i32> {
        // Give SIGKILL a moment to land.
        thread::sleep(Duration::from_millis(50));
        self.known
            .iter()
            .copied()
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/stat"))
                    .ok()
                    .and_then(|st| st.rfind(')').map(|i| st[i + 1..].trim_start().starts_with('Z')))
                    .is_some_and(|zombie| !zombie)
            })
            .collect()
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // Also on a panic in the polling loop: never leave a job running.
        self.kill_all();
        let _ = self.child.wait();
    }
}

/// Where MPI libraries keep their shared-memory segments.
const SHM: &str = "/dev/shm";

/// The names in [`SHM`].
fn shm_files() -> BTreeSet<std::ffi::OsString> {
    std::fs::read_dir(SHM).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default()
}

/// Removes the files of [`SHM`] not in `before` that no process maps or holds open: the
/// segments of a job whose tasks were killed (Open MPI's `vader_segment.*`), which the
/// library removes only when the job ends by itself. Returns every file not in `before`.
fn remove_orphaned_shm(before: &BTreeSet<std::ffi::OsString>) -> Vec<PathBuf> {
    let new: Vec<PathBuf> =
        shm_files().difference(before).map(|n| Path::new(SHM).join(n)).collect();
    if new.is_empty() {
        return new;
    }
    let mut held = BTreeSet::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if let Ok(maps) = std::fs::read_to_string(e.path().join("maps")) {
            held.extend(maps.lines().filter_map(|l| l.find(SHM).map(|i| PathBuf::from(&l[i..]))));
        }
        for fd in std::fs::read_dir(e.path().join("fd")).into_iter().flatten().flatten() {
            held.extend(std::fs::read_link(fd.path()));
        }
    }
    for path in new.iter().filter(|p| !held.contains(*p)) {
        let _ = std::fs::remove_file(path);
    }
    new
}

/// Makes this process adopt orphaned descendants (Linux PR_SET_CHILD_SUBREAPER).
fn become_subreaper() {
    // SAFETY: prctl with an integer option and flag has no memory effects; failure only
    // means orphans are re-parented to init, where the /proc walk no longer finds them.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
}

/// The parent pid of `pid`, if it is alive.
fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Every live descendant of `root`, from /proc.
fn descendants(root: i32) -> Vec<i32> {
    let mut parent_of: Vec<(i32, i32)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
                continue;
            };
            // Fields after the command name (which may hold spaces) close with ')'.
            if let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) {
                if let Some(ppid) = rest.split_whitespace().nth(1).and_then(|p| p.parse().ok()) {
                    parent_of.push((pid, ppid));
                }
            }
        }
    }
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let p = found[i];
        found.extend(parent_of.iter().filter(|(_, pp)| *pp == p).map(|(c, _)| *c));
        i += 1;
    }
    found.remove(0);
    found
}
