//! paw-hlrs: what HLRS's two benchmarks, b_eff and b_eff_io, share: the start of a run
//! (MPI, the command line every rank parses from one table, PAW_CHECK, `-h`, the output
//! directory), the memory per process, the output header, and sums over processes.
#![warn(missing_docs)]

use paw_core::cli::{self, Flag, Line};
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::{vars, About, SuiteRun};

/// A suite's command line, declared as one table of options.
pub trait CommandLine: Sized {
    /// The options for a run on `processes` processes, in `-h`'s order.
    fn flags(processes: usize) -> Vec<Flag<Self>>;
    /// The options before the command line: `drawn` is a number rank 0 drew from its
    /// clock (the same on every rank); `check` is whether PAW_CHECK=1 asks for the data check.
    fn defaults(drawn: u64, check: bool) -> Self;
    /// The options once every argument is read: checks and defaults that need them all.
    fn finish(self) -> Result<Self, String> {
        Ok(self)
    }
}

/// Reads `line` for `processes` processes through `O`'s table; `None` for `-h`.
pub fn parse<O: CommandLine>(
    line: &Line,
    processes: usize,
    check: bool,
) -> Result<Option<O>, String> {
    let mut o = O::defaults(line.drawn, check);
    match cli::parse(&O::flags(processes), line, &mut o, cli::no_operand)? {
        true => Ok(None),
        false => o.finish().map(Some),
    }
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

/// Starts MPI and the run of the suite `about` describes: every rank reads rank 0's command
/// line (and PAW_CHECK through paw-core's reader: 0 or 1); `None` after printing
/// [`About::help`] for `-h`.
/// Fewer than `least` processes is refused before anything else. Bad input is one line
/// from rank 0 and status 2 on every rank.
pub fn start<O: CommandLine>(about: &About, least: usize) -> paw_core::Result<Option<Started<O>>> {
    let name = about.name;
    let parse = |line: &Line, size| {
        let check = paw_core::check_requested(line).map_err(|e| e.to_string())?;
        parse(line, size, check)
    };
    let vars = [&vars::PAW_CHECK];
    let Some((world, opts)) = paw_core::start_suite(about, &O::flags(0), &vars, parse)? else {
        return Ok(None);
    };
    let size = world.size() as usize;
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
