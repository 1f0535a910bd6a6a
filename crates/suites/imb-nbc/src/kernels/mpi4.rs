//! IMB-MPI4: today's IMB's MPI-4 part, the thirteen persistent collectives timed as IMB-NBC
//! times the non-blocking ones (`<Coll>_persist` with CPU work overlapped, `_pure` alone),
//! each made once per length before its timing. The library must have them (MPI-4); the
//! prologue refuses one that does not.

use super::{
    all_to_all, gathers, one_each, ops, persist, posted, prologue as cpu_line, scatters, Benchmark,
    Kernel, Post, BASE,
};
use paw_imb::settings::FLOAT;
use paw_imb::{Gen, General, Options, Suite, Table};

const fn twins(
    names: [&'static str; 2],
    init: persist::Init,
    expect: ops::Expected,
    unit: usize,
    memory: fn(usize, usize, usize) -> (usize, usize),
) -> [Benchmark; 2] {
    posted(names, Post::Persistent(init), expect, unit, memory)
}

const BCAST: [Benchmark; 2] = super::rooted(twins(
    ["Bcast_persist", "Bcast_persist_pure"],
    persist::bcast,
    ops::from_root,
    1,
    one_each,
));
const ALLGATHER: [Benchmark; 2] = twins(
    ["Allgather_persist", "Allgather_persist_pure"],
    persist::allgather,
    ops::gathered,
    1,
    gathers,
);
const ALLGATHERV: [Benchmark; 2] = twins(
    ["Allgatherv_persist", "Allgatherv_persist_pure"],
    persist::allgatherv,
    ops::gathered,
    1,
    gathers,
);
const GATHER: [Benchmark; 2] = super::rooted(twins(
    ["Gather_persist", "Gather_persist_pure"],
    persist::gather,
    ops::gathered_at_root,
    1,
    gathers,
));
const GATHERV: [Benchmark; 2] = super::rooted(twins(
    ["Gatherv_persist", "Gatherv_persist_pure"],
    persist::gatherv,
    ops::gathered_at_root,
    1,
    gathers,
));
const SCATTER: [Benchmark; 2] = super::rooted(twins(
    ["Scatter_persist", "Scatter_persist_pure"],
    persist::scatter,
    ops::scattered,
    1,
    scatters,
));
const SCATTERV: [Benchmark; 2] = super::rooted(twins(
    ["Scatterv_persist", "Scatterv_persist_pure"],
    persist::scatterv,
    ops::scattered,
    1,
    scatters,
));
const ALLTOALL: [Benchmark; 2] = twins(
    ["Alltoall_persist", "Alltoall_persist_pure"],
    persist::alltoall,
    ops::exchanged,
    1,
    all_to_all,
);
const ALLTOALLV: [Benchmark; 2] = twins(
    ["Alltoallv_persist", "Alltoallv_persist_pure"],
    persist::alltoallv,
    ops::exchanged,
    1,
    all_to_all,
);
const REDUCE: [Benchmark; 2] = twins(
    ["Reduce_persist", "Reduce_persist_pure"],
    persist::reduce,
    ops::summed_at_root,
    FLOAT,
    one_each,
);
const REDUCE_SCATTER: [Benchmark; 2] = twins(
    ["Reduce_scatter_persist", "Reduce_scatter_persist_pure"],
    persist::reduce_scatter,
    ops::summed_block,
    FLOAT,
    scatters,
);
const ALLREDUCE: [Benchmark; 2] = twins(
    ["Allreduce_persist", "Allreduce_persist_pure"],
    persist::allreduce,
    ops::summed,
    FLOAT,
    one_each,
);
const BARRIER: [Benchmark; 2] = twins(
    ["Barrier_persist", "Barrier_persist_pure"],
    persist::barrier,
    ops::nothing,
    1,
    |_, _, _| (0, 0),
);

/// Barrier_persist: no length, no barrier after each iteration (as Ibarrier).
const fn lengthless(b: Benchmark) -> Benchmark {
    Benchmark { has_bytes: false, kernel: Kernel { sync: false, ..b.kernel }, ..b }
}

/// Run only when named: today's IMB leaves Allgather_persist out of its default list.
const fn named_only(b: Benchmark) -> Benchmark {
    Benchmark { default: false, ..b }
}

/// Every benchmark, in today's IMB's order: the thirteen overlap benchmarks (all but
/// Allgather_persist the default), then their `_pure` twins, run when named.
pub const BENCHMARKS: &[Benchmark] = &[
    BCAST[0],
    named_only(ALLGATHER[0]),
    ALLGATHERV[0],
    GATHER[0],
    GATHERV[0],
    SCATTER[0],
    SCATTERV[0],
    ALLTOALL[0],
    ALLTOALLV[0],
    // Today's IMB marks Reduce_persist rooted and not Reduce_persist_pure.
    REDUCE[0].rooted(),
    REDUCE_SCATTER[0],
    ALLREDUCE[0],
    lengthless(BARRIER[0]),
    BCAST[1],
    ALLGATHER[1],
    ALLGATHERV[1],
    GATHER[1],
    GATHERV[1],
    SCATTER[1],
    SCATTERV[1],
    ALLTOALL[1],
    ALLTOALLV[1],
    REDUCE[1],
    REDUCE_SCATTER[1],
    ALLREDUCE[1],
    lengthless(BARRIER[1]),
];

/// The suite: IMB-NBC's rules and tables over persistent collectives.
pub static SUITE: Suite<Kernel> = Suite {
    table: Table {
        name: "IMB-MPI4",
        what: "MPI-4 part",
        timed: "per benchmark, process count and length, on each active process: the persistent \
                collective made (MPI_<coll>_init, untimed); today's IMB's repetition \
                estimate (-estimate: one repetition, then min(n, 1000), untimed); untimed warm-up \
                runs (a tenth of the repetitions, at least min(10, n)); N_BARR = 2 MPI_Barrier; \
                then n iterations, each timed from MPI_Start to MPI_Wait, with an MPI_Barrier \
                after each outside the timing (Barrier_persist and -sync off: none). \
                <coll>_persist_pure: the collective alone \
                (t_pure). <coll>_persist: t_pure first, then n iterations of MPI_Start, CPU work \
                calibrated to this process's t_pure, MPI_Wait (t_ovrl); the CPU work alone is \
                t_CPU. The request is freed after the timing.",
        reported: "per length the repetitions n; <coll>_persist_pure: t_min, t_max and t_avg of \
                   t_pure over the active processes; <coll>_persist: t_ovrl, t_pure and t_CPU of \
                   the process with the largest t_ovrl and overlap[%] = 100 (t_pure + t_CPU - \
                   t_ovrl) / max(t_pure, t_CPU), held to 0..100.",
        benchmarks: BENCHMARKS,
        general: General::ALL.without(&[Gen::OffCache, Gen::RootShift, Gen::DataTypes]),
        // Intel's IMB-MPI4 makes each request once per length, at offset 0 and root 0.
        inert: General::of(&[Gen::OffCache, Gen::RootShift]),
        ..BASE.table
    },
    prologue,
    ..BASE
};

/// Refuses a library without the MPI-4 persistent collectives (one line naming it and the
/// first one missing); then IMB-NBC's CPU-work line.
fn prologue(
    o: &Options,
    world: &paw_core::mpi::topology::SimpleCommunicator,
) -> Result<String, String> {
    if let Some(name) = mpi_ext::persistent::missing() {
        return Err(format!(
            "{} has no {} (an MPI-4 persistent collective): IMB-MPI4 needs an MPI-4 library \
             (MPICH 4, Open MPI 5, Intel MPI 2021.x)",
            paw_core::mpi_library_version().lines().next().unwrap_or("the MPI library"),
            name.to_string_lossy()
        ));
    }
    cpu_line(o, world, BENCHMARKS)
}
