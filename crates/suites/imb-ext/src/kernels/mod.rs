//! The benchmarks of IMB-EXT (guide §4.2.3), listed in [`BENCHMARKS`] in the guide's
//! Table 1 order: the one-sided transfers (transfer.rs) and the window overhead
//! (window.rs).

mod transfer;
mod window;

use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_imb::{
    settings, settings::FLOAT, Class, Ctx, Edition, Gen, General, Mode, Options, Started, Suite,
    Table,
};

/// What an IMB-EXT benchmark does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// MPI_Put: rank 0 into rank 1's window, or both ways (`bidir`).
    Put {
        /// Both ranks put (Bidir_Put).
        bidir: bool,
    },
    /// MPI_Get: rank 0 from rank 1's window, or both ways (`bidir`).
    Get {
        /// Both ranks get (Bidir_Get).
        bidir: bool,
    },
    /// MPI_Accumulate, MPI_FLOAT, MPI_SUM, of every process into root 0's window.
    Accumulate,
    /// MPI_Win_create / MPI_Win_fence / one MPI_Put / MPI_Win_fence / MPI_Win_free.
    Window,
}

/// A benchmark of IMB-EXT.
pub type Benchmark = paw_imb::Benchmark<Kernel>;

/// Every one-sided transfer benchmark runs both modes, each its own table.
const BOTH: &[Mode] = &[Mode::Aggregate, Mode::NonAggregate];

/// Origin buffer and window of `reps` transfers of `x` bytes to disjoint offsets (the
/// aggregate mode at the largest length: what transfer.rs allocates).
fn disjoint(_q: usize, x: usize, reps: usize) -> (usize, usize) {
    (reps * x, reps * x)
}

/// Unidir_ and Bidir_ benchmarks: two processes, throughput X / t (guide Tables 3-6).
const fn single(name: &'static str, kernel: Kernel) -> Benchmark {
    Benchmark::new(name, Class::SingleTransfer, 1, kernel).in_modes(BOTH).holding(disjoint)
}

/// Every benchmark, in output order (guide Table 1).
pub const BENCHMARKS: &[Benchmark] = &[
    Benchmark::new("Window", Class::Other, 0, Kernel::Window).holding(|_, x, _| (0, x)),
    single("Unidir_Put", Kernel::Put { bidir: false }),
    single("Unidir_Get", Kernel::Get { bidir: false }),
    single("Bidir_Get", Kernel::Get { bidir: true }),
    single("Bidir_Put", Kernel::Put { bidir: true }),
    Benchmark::new("Accumulate", Class::Collective, 0, Kernel::Accumulate)
        .in_units(FLOAT)
        .in_modes(BOTH)
        .holding(disjoint),
];

/// The suite's `start`: a transfer benchmark's window and origin buffer, made once for
/// every length and mode (transfer.rs); Window makes its own windows in the timing.
pub fn start<'a>(b: &'static Benchmark, ctx: Ctx<'a>, o: &Options) -> Started<'a> {
    let bytes = transfer::span(o, &o.lengths.for_benchmark(b.unit), ctx.q);
    Ok(match b.kernel {
        Kernel::Window => Box::new(window::Lifecycle { ctx }),
        Kernel::Accumulate => {
            let (window, origin) = transfer::floats_for(ctx.rank, bytes);
            Box::new(transfer::Transfer::new(ctx, b.kernel, window, origin, o))
        }
        kernel => {
            let (window, origin) = transfer::bytes_for(kernel, ctx.rank, bytes);
            Box::new(transfer::Transfer::new(ctx, kernel, window, origin, o))
        }
    })
}

/// Before anything runs, the other limit of Open MPI 4.1's one-sided components (groups of
/// one process are refused by the options, `Suite::windows`): no Multi-Window with several
/// groups (windows created at the
/// same moment in disjoint groups get the same shared-memory segment name and break each
/// other; the other benchmarks create their windows one group after the other, outside
/// the timing, but Window times the creation). Refused with one line rather than ended by
/// MPI.
pub fn prologue(o: &Options, world: &SimpleCommunicator) -> Result<String, String> {
    let np = world.size() as usize;
    let window = o.benchmarks.iter().any(|&i| BENCHMARKS[i].kernel == Kernel::Window);
    let open_mpi = paw_core::mpi_library_version().contains("Open MPI");
    if window && o.multi.is_some() && np >= 2 * o.npmin && open_mpi {
        return Err("Multi-Window cannot run with Open MPI: windows created at once in \
                    several groups share a segment name and fail; run Window without -multi, \
                    or the others with -multi (accepted: -multi with Unidir_Put, Unidir_Get, \
                    Bidir_Get, Bidir_Put, Accumulate)"
            .to_string());
    }
    Ok(String::new())
}

/// The suite: settings.h, the benchmark table.
pub static SUITE: Suite<Kernel> = Suite {
    table: Table {
        name: "IMB-EXT",
        what: "one-sided benchmarks",
        edition: Edition::V3,
        timed: "per benchmark, process count, mode and length, on each active process: N_BARR = \
                2 MPI_Barrier, then MPI_Wtime around M transfers: aggregate mode M = n_sample \
                transfers to disjoint offsets, then one MPI_Win_fence; non-aggregate mode M times \
                one transfer to the window's start and a fence (guide §4.2.2.2, §4.2.3, \
                §5.2.8.2; with -off_cache transfer i at (i mod k) d in both modes, as today's \
                IMB); windows are created untimed. With -estimate on, today's IMB's repetition \
                estimate before each timing (one transfer, then min(M, 1000), untimed).",
        reported: "per length the repetitions M and each process's time t = Δt / M: t_min, t_max \
                   and t_avg over the active processes (Unidir_/Bidir_ and the single transfers: \
                   t[usec]); Mbytes/sec = transfers x X / t.",
        settings: settings::MESSAGE_PASSING,
        benchmarks: BENCHMARKS,
        windows: true,
        io: false,
        general: General::of(&[Gen::OffCache, Gen::WarmUp, Gen::MsgPause, Gen::Estimate]),
        // Intel's IMB-EXT kernels call MPI_Barrier whatever -imb_barrier says.
        inert: General::of(&[Gen::ImbBarrier]),
        refuse_unrunnable: true,
        shape: |_, _| Some(String::new()),
    },
    prologue,
    start,
};
