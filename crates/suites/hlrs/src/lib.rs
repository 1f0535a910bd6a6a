//! paw-hlrs: what HLRS's two benchmarks, b_eff and b_eff_io, share: the start of a run
//! (MPI, the command line read on rank 0 with PAW_CHECK and shared, `-h`, the output
//! directory), the memory per process, the output header, and sums over processes.
#![warn(missing_docs)]

use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::{vars, About, SuiteRun};

/// A suite's command line: parsed on rank 0, sent to every rank as text.
pub trait CommandLine: Sized {
    /// Parses the arguments (without the program name) for `processes` processes;
    /// `check` is whether PAW_CHECK=1 asks for the suite's data check. Runs on rank 0 only.
    fn parse(args: &[String], processes: usize, check: bool) -> Result<Self, String>;
    /// The options as text for [`CommandLine::decode`].
    fn encode(&self) -> String;
    /// The options [`CommandLine::encode`] wrote.
    fn decode(text: &str) -> Self;
    /// Whether `-h` asked for the help text.
    fn help(&self) -> bool;
}

/// A started run.
pub struct Started<O> {
    /// MPI_COMM_WORLD.
    pub world: SimpleCommunicator,
    /// The options, the same on every rank.
    pub opts: O,
    /// Output files and the run record.
    pub run: SuiteRun,
}

impl<O: std::fmt::Debug> std::fmt::Debug for Started<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Started({:?})", self.opts)
    }
}

/// Starts MPI and the run of the suite `about` describes: rank 0 reads the command line
/// (PAW_CHECK through paw-core's reader: 0 or 1) and every rank gets the outcome; `None`
/// after printing [`About::help`] for `-h`.
/// Fewer than `least` processes is refused before anything else. Bad input is one line
/// from rank 0 and status 2 on every rank.
pub fn start<O: CommandLine>(about: &About, least: usize) -> paw_core::Result<Option<Started<O>>> {
    let name = about.name;
    let world = paw_core::start_mpi(name)?;
    let size = world.size() as usize;
    let text = paw_core::parse_on_root(&world, |args| {
        let check = paw_core::check_requested().map_err(|e| e.to_string())?;
        O::parse(args, size, check).map(|o| o.encode())
    })?;
    let opts = O::decode(&text);
    if opts.help() {
        if world.rank() == 0 {
            println!("{}", about.help());
        }
        return Ok(None);
    }
    if size < least {
        return Err(paw_core::Error::input(format!(
            "{name} needs at least {least} processes (mpirun -np P with P >= {least}); this run \
             has {size}"
        )));
    }
    let run = SuiteRun::start(about, &world, &[vars::PAW_CHECK], None, true)?;
    Ok(Some(Started { world, opts, run }))
}

/// Runs an HLRS benchmark as the whole program: [`start`], then `body` with the started
/// run (nothing after `-h`); an error becomes one line from rank 0 and the exit status.
pub fn run<O: CommandLine>(
    about: &About,
    least: usize,
    body: impl FnOnce(Started<O>) -> paw_core::Result<()>,
) -> std::process::ExitCode {
    paw_core::main(about.name, || match start::<O>(about, least)? {
        Some(started) => body(started),
        None => Ok(()),
    })
}

/// Memory per process, MiB: this host's memory divided by its processes, at most `cap`,
/// the smallest over all hosts (collective).
pub fn memory_per_process(world: &SimpleCommunicator, cap: u64) -> u64 {
    let host = world.split_shared(0);
    let total = paw_core::total_memory().unwrap_or(0) >> 20;
    let mine = (total / host.size() as u64).clamp(1, cap.max(1));
    let mut least = 0u64;
    world.all_reduce_into(&mine, &mut least, SystemOperation::min());
    least
}

/// The output header as `# ` lines ([`SuiteRun::header_lines`] with the suite's `own`
/// lines). Rank 0 also prints it.
pub fn header(world: &SimpleCommunicator, run: &SuiteRun, own: Vec<String>) -> String {
    let text = run.header(&own);
    if world.rank() == 0 {
        print!("{text}");
    }
    text
}

/// The sum of `mine` over all processes (collective): defects, errors.
pub fn total(world: &SimpleCommunicator, mine: u64) -> u64 {
    let mut all = 0u64;
    world.all_reduce_into(&mine, &mut all, SystemOperation::sum());
    all
}
