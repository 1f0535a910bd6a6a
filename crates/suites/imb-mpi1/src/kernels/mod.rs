//! The benchmarks of IMB-MPI1 (guide §3.3): one file per pattern, listed in [`BENCHMARKS`]
//! in output order. A kernel is one run of the pattern ([`Benchmark::pattern`]) and what
//! the receive buffer must then hold ([`Benchmark::expect`]); the timing loop around it is
//! [`measure`], the same for all (guide §5.2.8.1).

mod allgather;
mod allgatherv;
mod allreduce;
mod alltoall;
mod alltoallv;
mod barrier;
mod bcast;
mod exchange;
mod pingping;
mod pingpong;
mod reduce;
mod reduce_scatter;
mod sendrecv;

use crate::buffers::{Buffer, Expect};
use crate::settings::{FLOAT, N_BARR};
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use std::os::raw::c_int;

/// IMB's classes (guide §3.3.1): they decide the process counts and the table columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Two active processes; time and throughput of one message.
    SingleTransfer,
    /// Every process sends and receives; throughput from the turnover per process.
    ParallelTransfer,
    /// MPI collectives; times only.
    Collective,
}

/// The active processes of one group, as a kernel sees them.
pub struct Ctx<'a> {
    /// The group's communicator.
    pub comm: &'a SimpleCommunicator,
    /// This process's rank in the group.
    pub rank: usize,
    /// Processes in the group (Q).
    pub q: usize,
}

impl std::fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ctx(rank {} of {})", self.rank, self.q)
    }
}

impl Ctx<'_> {
    /// The neighbours in the periodic chain: (left, right).
    pub fn chain(&self) -> (i32, i32) {
        let q = self.q as i32;
        let r = self.rank as i32;
        ((r - 1 + q) % q, (r + 1) % q)
    }
}

/// Send and receive buffers of one process.
#[derive(Debug)]
pub struct Bufs {
    /// Filled with BUF_VALUE(rank, i), never written by a kernel.
    pub send: Buffer,
    /// Where messages arrive.
    pub recv: Buffer,
    /// Request storage for MPI_Isend + MPI_Waitall, reused (Exchange).
    pub batch: mpi_ext::batch::Batch,
}

/// Everything a pattern needs for one message length, computed before timing so the timed
/// loop allocates nothing.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Message length X in bytes.
    pub x: usize,
    /// X in floats (reductions: L = X / sizeof(float)).
    pub floats: usize,
    /// X per process (Allgatherv, Alltoallv counts).
    pub counts: Vec<c_int>,
    /// i X (Allgatherv, Alltoallv displacements); empty when Q X exceeds the MPI count
    /// range, which the option check refuses for those two benchmarks.
    pub displs: Vec<c_int>,
    /// Reduce_scatter's split of L floats (guide §3.3.4.2).
    pub scatter: Vec<c_int>,
}

impl Plan {
    /// The plan for length `x` on `q` processes.
    pub fn new(x: usize, q: usize) -> Plan {
        let floats = x / FLOAT;
        let count = c_int::try_from(x).expect("length checked against the MPI count range");
        let counts = vec![count; q];
        let displs = match c_int::try_from(q * x) {
            Ok(_) => (0..q).map(|i| i as c_int * count).collect(),
            Err(_) => Vec::new(),
        };
        Plan { x, floats, counts, displs, scatter: reduce_scatter::split(floats, q) }
    }
}

/// One benchmark of the table.
#[derive(Debug)]
pub struct Benchmark {
    /// Name as the guide spells it (matched case-insensitively).
    pub name: &'static str,
    /// Its class.
    pub class: Class,
    /// Messages per sample counted by the throughput (turnover factor n_msg); 0: no
    /// throughput column.
    pub n_msg: usize,
    /// Reported time = measured time per sample x this (1/2 for PingPong's round trip).
    pub time_factor: f64,
    /// Smallest non-zero length: sizeof(float) for reductions, 1 otherwise.
    pub unit: usize,
    /// Whether the table has a length column (all but Barrier).
    pub has_bytes: bool,
    /// (send, receive) bytes per process for length `x` on `q` processes (guide §7.1).
    pub memory: fn(q: usize, x: usize) -> (usize, usize),
    /// One run of the pattern; `iteration` picks the root of rooted collectives.
    pub pattern: fn(&Ctx, &mut Bufs, &Plan, iteration: usize),
    /// What this process's receive buffer holds after run `iteration` of the pattern.
    pub expect: fn(rank: usize, q: usize, plan: &Plan, iteration: usize) -> Expect,
}

/// Every benchmark, in output order (guide §3.2).
pub const BENCHMARKS: &[Benchmark] = &[
    pingpong::BENCHMARK,
    pingping::BENCHMARK,
    sendrecv::BENCHMARK,
    exchange::BENCHMARK,
    bcast::BENCHMARK,
    allgather::BENCHMARK,
    allgatherv::BENCHMARK,
    alltoall::BENCHMARK,
    alltoallv::BENCHMARK,
    reduce::BENCHMARK,
    reduce_scatter::BENCHMARK,
    allreduce::BENCHMARK,
    barrier::BENCHMARK,
];

/// (send, receive) bytes for kernels that send and receive X.
pub(crate) fn one_each(_q: usize, x: usize) -> (usize, usize) {
    (x, x)
}

/// The timing of the guide's §5.2.8.1: N_BARR barriers, then `reps` runs of the pattern
/// between two MPI_Wtime reads. Returns seconds per run, scaled by the time factor.
pub fn measure(b: &Benchmark, ctx: &Ctx, bufs: &mut Bufs, plan: &Plan, reps: usize) -> f64 {
    for _ in 0..N_BARR {
        ctx.comm.barrier();
    }
    let start = paw_core::mpi::time();
    for i in 0..reps {
        (b.pattern)(ctx, bufs, plan, i);
    }
    (paw_core::mpi::time() - start) / reps as f64 * b.time_factor
}

/// Looks a benchmark up by name, ignoring case.
pub fn find(name: &str) -> Option<usize> {
    BENCHMARKS.iter().position(|b| b.name.eq_ignore_ascii_case(name))
}
