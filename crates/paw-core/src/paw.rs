//! The MPI session: start-up, panic-to-abort, task-count check, world team, pairing.

use mpi::collective::SystemOperation;
use mpi::datatype::PartitionMut;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Threading;
use paw_base::cli::{Flag, Line};
use paw_base::meta::{self, RunInfo};
use paw_base::process;
use paw_base::spec::{Args, Spec};
use paw_base::vars::Var;
use paw_base::About;
use paw_base::Session;
use paw_base::{Combine, Team};
use paw_base::{Error, Result};
use std::ops::Deref;

/// MPI_COMM_WORLD as a [`Team`], timed with MPI_Wtime.
pub struct World {
    comm: SimpleCommunicator,
    local: usize,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "World(rank {} of {})", self.rank(), self.size())
    }
}

impl Team for World {
    fn rank(&self) -> i32 {
        self.comm.rank()
    }
    fn size(&self) -> usize {
        self.comm.size() as usize
    }
    fn local_size(&self) -> usize {
        self.local
    }
    fn barrier(&self) {
        self.comm.barrier();
    }
    fn now(&self) -> f64 {
        mpi::time()
    }
    fn tick(&self) -> f64 {
        mpi::time_resolution()
    }
    fn clock_name(&self) -> &'static str {
        "MPI_Wtime"
    }
    fn share_u64(&self, value: u64) -> u64 {
        let mut v = value;
        self.comm.process_at_rank(0).broadcast_into(&mut v);
        v
    }
    fn share_bytes(&self, bytes: Vec<u8>) -> Vec<u8> {
        let mut bytes = bytes;
        let len = self.share_u64(bytes.len() as u64);
        bytes.resize(len as usize, 0);
        if len > 0 {
            self.comm.process_at_rank(0).broadcast_into(&mut bytes[..]);
        }
        bytes
    }
    fn combine(&self, local: &[f64], how: Combine) -> Vec<f64> {
        let mut out = vec![0.0; local.len()];
        match how {
            Combine::Min => self.comm.all_reduce_into(local, &mut out[..], SystemOperation::min()),
            Combine::Max => self.comm.all_reduce_into(local, &mut out[..], SystemOperation::max()),
            Combine::Avg => {
                self.comm.all_reduce_into(local, &mut out[..], SystemOperation::sum());
                out.iter_mut().for_each(|x| *x /= self.size() as f64);
            }
        }
        out
    }
}

/// This task's partner in PAW's pairing (Fig. 7.1): task i with task (i + n/2) mod n.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    /// The partner's rank.
    pub partner: i32,
    /// True in the first half of the tasks (0 … n/2-1): the side that sends first.
    pub leader: bool,
}

impl Pair {
    /// The pairing of `rank` among `size` tasks (`size` even).
    pub fn of(rank: i32, size: i32) -> Pair {
        let half = size / 2;
        Pair { partner: (rank + half) % size, leader: rank < half }
    }
}

/// Starts MPI for a program with its own command line and repetition rules (the suites:
/// IMB, b_eff, PRESTA): MPI_Init, a panic on any rank ends the job through MPI_Abort,
/// errors are printed once by rank 0, and MPI is finalized when [`crate::main`] returns.
/// Nothing of PAW's configuration (NLOOP, NREPS, sizes) is read. Call inside
/// [`crate::main`]; returns MPI_COMM_WORLD.
pub fn start_mpi(name: &'static str) -> Result<SimpleCommunicator> {
    let universe =
        mpi::initialize().ok_or_else(|| Error::runtime("MPI was already initialised"))?;
    Ok(crate::runtime::adopt_mpi(name, universe))
}

/// [`start_mpi`] with MPI_Init_thread at `level`: MPI_COMM_WORLD and the level granted.
pub fn start_mpi_threaded(
    name: &'static str,
    level: Threading,
) -> Result<(SimpleCommunicator, Threading)> {
    let (universe, granted) = mpi::initialize_with_threading(level)
        .ok_or_else(|| Error::runtime("MPI was already initialised"))?;
    Ok((crate::runtime::adopt_mpi(name, universe), granted))
}

/// An MPI benchmark's session. MPI stays initialised until [`crate::main`] returns, so
/// create it inside `paw_core::main`.
///
/// Dereferences to [`Session<World>`] for what MPI and node benchmarks share (settings,
/// output files, metadata).
pub struct Paw {
    session: Session<World>,
    granted: Option<Threading>,
}

impl std::fmt::Debug for Paw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Paw")
            .field("session", &self.session)
            .field("granted", &self.granted)
            .finish_non_exhaustive()
    }
}

impl Paw {
    /// Starts MPI (MPI_Init) and checks the task count. See [`Paw::init_thread`].
    pub fn init(spec: &Spec) -> Result<Paw> {
        Self::start(spec, None)
    }

    /// Starts MPI with MPI_Init_thread at `level`; [`Paw::granted`] tells what was granted.
    ///
    /// `-h` prints the help and exits before MPI starts. A panic on any rank calls
    /// MPI_Abort, ending every rank. A wrong task count or unknown argument is an error on
    /// every rank, printed once by rank 0.
    pub fn init_thread(spec: &Spec, level: Threading) -> Result<Paw> {
        Self::start(spec, Some(level))
    }

    fn start(spec: &Spec, level: Option<Threading>) -> Result<Paw> {
        spec.exit_on_help();
        let (universe, granted) = match level {
            None => (mpi::initialize(), None),
            Some(l) => match mpi::initialize_with_threading(l) {
                Some((u, g)) => (Some(u), Some(g)),
                None => (None, None),
            },
        };
        let universe = universe.ok_or_else(|| Error::runtime("MPI was already initialised"))?;
        Self::adopt(spec, universe, level.zip(granted))
    }

    /// Builds the session around an MPI environment `main.rs` started itself (for tests
    /// that time MPI_Init: the clock must be read around the call in plain sight).
    /// `threading` is the (requested, granted) thread level when MPI_Init_thread was used.
    /// Call [`Spec::exit_on_help`] before starting MPI.
    pub fn adopt(
        spec: &Spec,
        universe: Universe,
        threading: Option<(Threading, Threading)>,
    ) -> Result<Paw> {
        let world = crate::runtime::adopt_mpi(spec.name, universe);
        let size = world.size();
        match spec.read_args(std::env::args().skip(1)) {
            Args::Bad(e) => return Err(Error::input(e)),
            Args::Run(given) => paw_base::osu::install(given),
            Args::Help => {}
        }
        spec.ranks.check(spec.name, size as usize)?;

        let placement = gather_strings(&world, &meta::placement());
        if let Some(shared) = meta::shared_cpus(&placement) {
            process::warn(&shared);
        }
        let mut libraries = vec![mpi_library()];
        if let Some((req, got)) = threading {
            libraries.push(format!("MPI thread level: requested {req:?}, granted {got:?}"));
        }
        let info = RunInfo {
            benchmark: spec.name.to_string(),
            title: spec.title.to_string(),
            date: meta::utc_now(),
            placement,
            tasks: size as usize,
            libraries,
            environment: Vec::new(),
            mca_files: crate::runtime::mca_files(),
            buffers: Some(paw_base::buffer::PLACEMENT.into()),
            timer: String::new(),
            slurm: meta::SlurmJob::current(),
        };
        let local = world.split_shared(world.rank()).size() as usize;
        let session = Session::new(World { comm: world, local }, spec, info)?;
        Ok(Paw { session, granted: threading.map(|(_, got)| got) })
    }

    /// MPI_COMM_WORLD.
    pub fn world(&self) -> &SimpleCommunicator {
        &self.session.team().comm
    }

    /// This task's rank.
    pub fn rank(&self) -> i32 {
        self.session.team().rank()
    }

    /// Number of tasks.
    pub fn size(&self) -> usize {
        self.session.team().size()
    }

    /// The thread level MPI granted, when started with [`Paw::init_thread`].
    pub fn granted(&self) -> Option<Threading> {
        self.granted
    }

    /// This task's partner (PAW Fig. 7.1).
    pub fn pair(&self) -> Pair {
        Pair::of(self.rank(), self.size() as i32)
    }
}

impl Deref for Paw {
    type Target = Session<World>;

    fn deref(&self) -> &Session<World> {
        &self.session
    }
}

/// The MPI library line of output headers.
fn mpi_library() -> String {
    format!("MPI: {}", crate::runtime::mpi_library_version())
}

/// `text` of rank `from`, on every rank of `comm` (collective).
pub fn broadcast_text(comm: &SimpleCommunicator, from: i32, mut text: Vec<u8>) -> String {
    let mut len = text.len() as u64;
    comm.process_at_rank(from).broadcast_into(&mut len);
    text.resize(len as usize, 0);
    comm.process_at_rank(from).broadcast_into(&mut text[..]);
    String::from_utf8_lossy(&text).into_owned()
}

/// The command line every rank parses (collective): rank 0's arguments, the files that
/// `flags` name in them (a file may be local to its node) and the variables `vars`, all read
/// on rank 0 and sent as JSON.
pub fn shared_line<O>(comm: &SimpleCommunicator, flags: &[Flag<O>], vars: &[&Var]) -> Result<Line> {
    let mut text = Vec::new();
    if comm.rank() == 0 {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let line = Line::read(args, flags, |f| std::fs::read_to_string(f))
            .with_vars(vars, &paw_base::config::ProcessEnv);
        text = serde_json::to_vec(&line).expect("a line is plain data");
    }
    serde_json::from_str(&broadcast_text(comm, 0, text))
        .map_err(|e| Error::runtime(format!("the command line from rank 0 is unreadable: {e}")))
}

/// Starts a suite's binary: MPI, then every rank reads rank 0's command line through the
/// table `flags` and `parse` (given the world's size); the files it names and the variables
/// `vars` are read on rank 0 ([`shared_line`]). `parse` gives `None` for the help flag:
/// then rank 0 prints `about`'s help and this returns `None`. Bad input is one line from
/// rank 0 and status 2 on every rank.
pub fn start_suite<F, O>(
    about: &About,
    flags: &[Flag<F>],
    vars: &[&Var],
    parse: impl FnOnce(&Line, usize) -> std::result::Result<Option<O>, String>,
) -> Result<Option<(SimpleCommunicator, O)>> {
    suite_line(about, start_mpi(about.name)?, flags, vars, parse)
}

/// [`start_suite`] with MPI_Init_thread at `level`; the level granted comes with the options.
pub fn start_suite_threaded<F, O>(
    about: &About,
    level: Threading,
    flags: &[Flag<F>],
    vars: &[&Var],
    parse: impl FnOnce(&Line, usize) -> std::result::Result<Option<O>, String>,
) -> Result<Option<(SimpleCommunicator, Threading, O)>> {
    let (world, granted) = start_mpi_threaded(about.name, level)?;
    let started = suite_line(about, world, flags, vars, parse)?;
    Ok(started.map(|(world, o)| (world, granted, o)))
}

fn suite_line<F, O>(
    about: &About,
    world: SimpleCommunicator,
    flags: &[Flag<F>],
    vars: &[&Var],
    parse: impl FnOnce(&Line, usize) -> std::result::Result<Option<O>, String>,
) -> Result<Option<(SimpleCommunicator, O)>> {
    let line = shared_line(&world, flags, vars)?;
    match parse(&line, world.size() as usize).map_err(Error::input)? {
        Some(opts) => Ok(Some((world, opts))),
        None => {
            if world.rank() == 0 {
                println!("{}", about.help());
            }
            Ok(None)
        }
    }
}

/// Makes an outcome every rank's (collective): if any rank failed, every rank returns the
/// lowest failing rank's message as an input error.
pub fn agree<T>(comm: &SimpleCommunicator, mine: std::result::Result<T, String>) -> Result<T> {
    let n = comm.size();
    let me = if mine.is_err() { comm.rank() } else { n };
    let mut first = n;
    comm.all_reduce_into(&me, &mut first, SystemOperation::min());
    if first == n {
        return Ok(mine.unwrap_or_else(|_| unreachable!("no rank failed")));
    }
    let text = match &mine {
        Err(e) if comm.rank() == first => e.clone().into_bytes(),
        _ => Vec::new(),
    };
    Err(Error::input(broadcast_text(comm, first, text)))
}

/// MPI_Barrier for processes that may wait long (those outside a partition or pair of a
/// suite): a non-blocking barrier polled every millisecond, telling the watchdog the wait
/// is alive, so it does not end a job whose other processes are busy (collective).
pub fn waiting_barrier(comm: &SimpleCommunicator) {
    let mut request = comm.immediate_barrier();
    loop {
        match request.test() {
            Ok(_) => return,
            Err(pending) => request = pending,
        }
        paw_base::watchdog::alive();
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Gathers one string per rank onto rank 0 (other ranks get an empty list).
pub(crate) fn gather_strings(world: &SimpleCommunicator, mine: &str) -> Vec<String> {
    let root = world.process_at_rank(0);
    let len = mine.len() as i32;
    if world.rank() != 0 {
        root.gather_into(&len);
        root.gather_varcount_into(mine.as_bytes());
        return Vec::new();
    }
    let mut lens = vec![0i32; world.size() as usize];
    root.gather_into_root(&len, &mut lens[..]);
    let displs: Vec<i32> = lens
        .iter()
        .scan(0, |acc, &l| {
            let d = *acc;
            *acc += l;
            Some(d)
        })
        .collect();
    let mut buf = vec![0u8; lens.iter().sum::<i32>() as usize];
    {
        let mut partition = PartitionMut::new(&mut buf[..], &lens[..], &displs[..]);
        root.gather_varcount_into_root(mine.as_bytes(), &mut partition);
    }
    lens.iter()
        .zip(&displs)
        .map(|(&l, &d)| String::from_utf8_lossy(&buf[d as usize..(d + l) as usize]).into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Pair;

    #[test]
    fn pairing_follows_fig_7_1() {
        // 16 tasks: rank -> (partner, leader).
        for (rank, partner, leader) in [(0, 8, true), (7, 15, true), (8, 0, false), (15, 7, false)]
        {
            assert_eq!(Pair::of(rank, 16), Pair { partner, leader });
        }
        assert_eq!(Pair::of(1, 2), Pair { partner: 0, leader: false });
        for n in (2..64).step_by(2) {
            for r in 0..n {
                let p = Pair::of(r, n);
                assert_eq!(Pair::of(p.partner, n).partner, r, "pairing is symmetric");
                assert_ne!(Pair::of(p.partner, n).leader, p.leader);
            }
        }
    }
}
