//! The benchmarks of IMB-IO (guide §4.2.4, Table 1), listed in [`BENCHMARKS`]: Open_Close
//! (open_close.rs) and the file transfers (transfer.rs), with the file names, the checks
//! made before anything runs ([`prologue`]) and CPU_Exploit (cpu.rs).

mod cpu;
mod open_close;
mod transfer;

use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_imb::settings::{process_counts, IO};
use paw_imb::{settings, Class, Ctx, Edition, Gen, General, Mode, Options, Started, Suite, Table};
use std::path::{Path, PathBuf};

/// Who shares a file (guide §4.2.4: the S_, P_ and C_ prefixes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// One process, its own file (S_).
    Single,
    /// Every process, non-collective calls (P_).
    Parallel,
    /// Every process, collective calls (C_).
    Collective,
}

/// How a transfer finds its place in the file (the postfixes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The individual file pointer; with several processes a view of disjoint contiguous
    /// blocks (`indv`).
    Individual,
    /// Explicit offsets (`expl`).
    Explicit,
    /// The shared file pointer; ordered for the collective calls (`shared`).
    Shared,
    /// A private file per process, opened on MPI_COMM_SELF (`priv`).
    Private,
}

/// What an IMB-IO benchmark does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// MPI_File_open / MPI_File_close of a file all processes share.
    OpenClose,
    /// Reads or writes.
    Transfer {
        /// S_, P_ or C_.
        scope: Scope,
        /// indv, expl, shared or priv.
        access: Access,
        /// Write (or read).
        write: bool,
        /// The non-blocking version ([I]Write, [I]Read), overlapped with CPU_Exploit.
        nonblocking: bool,
    },
}

/// A benchmark of IMB-IO.
pub type Benchmark = paw_imb::Benchmark<Kernel>;

/// I/O buffers: one portion to write from and one to read into (guide §7.1).
fn portions(_q: usize, x: usize, _reps: usize) -> (usize, usize) {
    (x, x)
}

const fn io(name: &'static str, scope: Scope, access: Access, write: bool, nb: bool) -> Benchmark {
    // Blocking writes run both modes; reads and the non-blocking ones aggregate only.
    let modes: &[Mode] =
        if write && !nb { &[Mode::Aggregate, Mode::NonAggregate] } else { &[Mode::Aggregate] };
    Benchmark {
        name,
        class: match scope {
            Scope::Single => Class::SingleTransfer,
            Scope::Parallel => Class::ParallelTransfer,
            Scope::Collective => Class::Collective,
        },
        n_msg: 1,
        unit: 1,
        has_bytes: true,
        modes,
        overlap: nb,
        default: true,
        has_root: false,
        memory: portions,
        kernel: Kernel::Transfer { scope, access, write, nonblocking: nb },
    }
}

/// The four benchmarks of one scope and access: Write, IWrite, Read, IRead.
macro_rules! four {
    ($s:literal, $a:literal, $scope:expr, $access:expr) => {
        [
            io(concat!($s, "_Write_", $a), $scope, $access, true, false),
            io(concat!($s, "_IWrite_", $a), $scope, $access, true, true),
            io(concat!($s, "_Read_", $a), $scope, $access, false, false),
            io(concat!($s, "_IRead_", $a), $scope, $access, false, true),
        ]
    };
}

const S_INDV: [Benchmark; 4] = four!("S", "Indv", Scope::Single, Access::Individual);
const S_EXPL: [Benchmark; 4] = four!("S", "Expl", Scope::Single, Access::Explicit);
const P_INDV: [Benchmark; 4] = four!("P", "Indv", Scope::Parallel, Access::Individual);
const P_EXPL: [Benchmark; 4] = four!("P", "Expl", Scope::Parallel, Access::Explicit);
const P_SHARED: [Benchmark; 4] = four!("P", "Shared", Scope::Parallel, Access::Shared);
const P_PRIV: [Benchmark; 4] = four!("P", "Priv", Scope::Parallel, Access::Private);
const C_INDV: [Benchmark; 4] = four!("C", "Indv", Scope::Collective, Access::Individual);
const C_EXPL: [Benchmark; 4] = four!("C", "Expl", Scope::Collective, Access::Explicit);
const C_SHARED: [Benchmark; 4] = four!("C", "Shared", Scope::Collective, Access::Shared);

/// Every benchmark, in the guide's Table 1 order.
pub const BENCHMARKS: &[Benchmark] = &[
    Benchmark {
        name: "Open_Close",
        class: Class::Other,
        n_msg: 0,
        unit: 1,
        has_bytes: false,
        modes: &[Mode::Plain],
        overlap: false,
        default: true,
        has_root: false,
        memory: |_, _, _| (0, 0),
        kernel: Kernel::OpenClose,
    },
    S_INDV[0],
    S_INDV[1],
    S_INDV[2],
    S_INDV[3],
    S_EXPL[0],
    S_EXPL[1],
    S_EXPL[2],
    S_EXPL[3],
    P_INDV[0],
    P_INDV[1],
    P_INDV[2],
    P_INDV[3],
    P_EXPL[0],
    P_EXPL[1],
    P_EXPL[2],
    P_EXPL[3],
    P_SHARED[0],
    P_SHARED[1],
    P_SHARED[2],
    P_SHARED[3],
    P_PRIV[0],
    P_PRIV[1],
    P_PRIV[2],
    P_PRIV[3],
    C_INDV[0],
    C_INDV[1],
    C_INDV[2],
    C_INDV[3],
    C_EXPL[0],
    C_EXPL[1],
    C_EXPL[2],
    C_EXPL[3],
    C_SHARED[0],
    C_SHARED[1],
    C_SHARED[2],
    C_SHARED[3],
];

/// The default file name (settings_io.h FILENAME).
const FILENAME: &str = "IMB_out";

/// A file of the run: `-dir`/`-prefix`, `_g<group>` in a Multi- run, `_<rank>` when the
/// file is one process's (guide §5.2.3.2).
fn file_name(o: &Options, group: Option<usize>, rank: Option<usize>) -> PathBuf {
    let mut name = o.prefix.clone().unwrap_or_else(|| FILENAME.to_string());
    if let Some(g) = group {
        name += &format!("_g{g}");
    }
    if let Some(r) = rank {
        name += &format!("_{r}");
    }
    Path::new(o.dir.as_deref().unwrap_or(".")).join(name)
}

/// Before anything runs, on every rank: the directory must exist and be writable, no
/// file of the run may exist already (rank 0 looks), and CPU_Exploit is calibrated if a
/// non-blocking benchmark is selected; returns the CPU_Exploit line of the header.
pub fn prologue(o: &Options, world: &SimpleCommunicator) -> Result<String, String> {
    let dir = o.dir.as_deref().unwrap_or(".");
    paw_core::scratch::check_dir(Path::new(dir), "-dir ")?;
    if world.rank() == 0 {
        if let Some(taken) = names(o, world.size() as usize).into_iter().find(|p| p.exists()) {
            return Err(format!(
                "{} exists; IMB-IO writes only files it creates (remove it, or choose \
                 another -dir or -prefix)",
                taken.display()
            ));
        }
    }
    let nonblocking = o.benchmarks.iter().any(|&i| BENCHMARKS[i].overlap);
    if !nonblocking {
        return Ok(String::new());
    }
    let c = cpu::calibrate(IO.target_cpu_secs);
    Ok(format!(
        "# CPU_Exploit                    :   100 x 100 matrix-vector products, {:.0} Mflop/s \
         (rank 0), t_CPU {:.4} s per call (TARGET_CPU_SECS {})\n",
        c.mflops, c.seconds, IO.target_cpu_secs
    ))
}

/// Every file name the run may use on `np` processes.
fn names(o: &Options, np: usize) -> Vec<PathBuf> {
    let mut all = vec![file_name(o, None, None)];
    // Every process count of the run, and 1 for the S_ benchmarks.
    let mut counts = process_counts(np, o.npmin);
    counts.insert(0, 1);
    counts.dedup();
    match o.multi {
        None => all.extend((0..np).map(|r| file_name(o, None, Some(r)))),
        Some(_) => {
            for q in counts {
                for g in 0..np / q {
                    all.push(file_name(o, Some(g), None));
                    all.extend((0..q).map(|r| file_name(o, Some(g), Some(r))));
                }
            }
        }
    }
    all
}

/// The suite's `start`. Every process registers its group's files for removal (all the
/// private ones too), so that the survivors of a killed process remove its file.
pub fn start<'a>(b: &'static Benchmark, ctx: Ctx<'a>, o: &Options) -> Started<'a> {
    let shared = file_name(o, ctx.group, None);
    Ok(match b.kernel {
        Kernel::OpenClose => {
            paw_core::scratch::register([shared.clone()]);
            Box::new(open_close::OpenClose::new(ctx, shared))
        }
        Kernel::Transfer { scope, access, write, nonblocking } => {
            let private = access == Access::Private;
            let own = scope == Scope::Single || private;
            if private {
                paw_core::scratch::register((0..ctx.q).map(|r| file_name(o, ctx.group, Some(r))));
            } else {
                paw_core::scratch::register([shared.clone()]);
            }
            let path = if private { file_name(o, ctx.group, Some(ctx.rank)) } else { shared };
            let lengths = o
                .lengths_for(b.unit)
                .into_iter()
                .map(|x| (x, o.most_repetitions(x, ctx.q)))
                .collect();
            Box::new(transfer::Transfer::new(
                ctx,
                path,
                own,
                (scope, access),
                write,
                nonblocking,
                lengths,
            ))
        }
    })
}

/// The suite: settings_io.h, the benchmark table.
pub static SUITE: Suite<Kernel> = Suite {
    table: Table {
        name: "IMB-IO",
        what: "MPI-IO benchmarks",
        edition: Edition::V3,
        timed: "per benchmark, process count, mode and length: the file opened and its view set \
                untimed, then min(M, 50) transfers as timed below, untimed (today's IMB's \
                estimate), and the file pointers back at 0; N_BARR = 2 MPI_Barrier, then \
                MPI_Wtime around M transfers of the process's portion of X (P_, C_: X split over \
                the processes in 4-byte units, as IMB splits it; S_: all of X): \
                blocking writes aggregate (n_sample transfers, then one completion: \
                MPI_File_sync, MPI_Barrier, MPI_File_sync) and non-aggregate (each transfer \
                followed by a completion), reads aggregate only, from a file written once per \
                benchmark and process count beforehand, as IMB writes it (one process, pieces of \
                at most 1 MiB, no sync); \
                non-blocking I/O timed alone (t_pure) and as M rounds of initiate / CPU_Exploit / \
                wait (t_ovrl); Open_Close: MPI_File_open and MPI_File_close.",
        reported: "per length the repetitions M and each process's time t = Δt / M: t_min, t_max \
                   and t_avg over the active processes; Mbytes/sec = X / t; non-blocking I/O also \
                   t_ovrl, t_pure, t_CPU (the calibrated CPU_Exploit period) and overlap = (t_pure + \
                   t_CPU - t_ovrl) / min(t_pure, t_CPU), in percent, held to 0..100.",
        settings: settings::IO,
        benchmarks: BENCHMARKS,
        windows: false,
        io: true,
        general: General::of(&[Gen::MsgPause]),
        // Intel's IMB-IO never moves its buffers, warms up or uses its own barrier.
        inert: General::of(&[Gen::OffCache, Gen::WarmUp, Gen::ImbBarrier]),
        refuse_unrunnable: true,
        shape: |_, _| Some(String::new()),
    },
    prologue,
    start,

};
