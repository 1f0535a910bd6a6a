//! The benchmarks of IMB-MPI1 (guide §3.3, and six of today's IMB): one file per pattern,
//! listed in [`BENCHMARKS`] in output order. A kernel is one run of the pattern
//! ([`Kernel::pattern`]) and what the receive buffer must then hold ([`Kernel::expect`]);
//! the timing loop around it is [`Mpi1::measure`], the same for all (guide §5.2.8.1).
//! Each pattern exists for every element type ([`Element`]): the transfers move
//! `-data_type`'s elements (bytes by default), the reductions sum `-red_data_type`'s
//! (floats by default, as the files below describe them).

/// A pattern for each element type, in [`paw_imb::types::Element`] order.
macro_rules! typed {
    ($f:ident) => {
        [$f::<u8>, $f::<i8>, $f::<i32>, $f::<f32>, $f::<f64>]
    };
}

mod allgather;
mod allgatherv;
mod allreduce;
mod alltoall;
mod alltoallv;
mod barrier;
mod bcast;
mod exchange;
mod gather;
mod pingping;
mod pingpong;
mod reduce;
mod reduce_local;
mod reduce_scatter;
mod reduce_scatter_block;
mod scatter;
mod sendrecv;
mod uniband;

use paw_imb::buffers::{defects, test_corruption, Buffer, Expect};
use paw_imb::settings::{FLOAT, MESSAGE_PASSING};
pub use paw_imb::types::{Elem, Element};
use paw_imb::{settings, Edition, Mode, Options, ProcessTimes, Run, Started, Suite, Table};
pub use paw_imb::{Class, Ctx};
use std::os::raw::c_int;

/// A benchmark of IMB-MPI1.
pub type Benchmark = paw_imb::Benchmark<Kernel>;

/// How an IMB-MPI1 benchmark runs its pattern.
#[derive(Debug)]
pub struct Kernel {
    /// Reported time = measured time per sample x this (1/2 for PingPong's round trip).
    pub time_factor: f64,
    /// One run of the pattern over elements of each type ([`Element::index`]);
    /// `iteration` picks the root of rooted collectives.
    pub pattern: [Pattern; 5],
    /// What this process's receive buffer holds after run `iteration` of the pattern.
    pub expect: ExpectFn,
    /// The check run starts from a zeroed receive buffer (Reduce_local adds into it)
    /// rather than a poisoned one.
    pub zeroed: bool,
}

/// What this process's receive buffer holds after run `iteration` of a pattern.
pub type ExpectFn = fn(rank: usize, q: usize, plan: &Plan, iteration: usize) -> Expect;

/// A benchmark of the commonest shape: a length column, no modes or overlap columns, run
/// by default, not rooted; its kernel reports the sample's time per repetition and checks
/// from a poisoned receive buffer. `class`, the transfers counted per sample `n_msg`, the
/// element `unit` and `memory` as [`paw_imb::Benchmark`] has them.
const fn benchmark(
    name: &'static str,
    (class, n_msg, unit): (Class, usize, usize),
    memory: fn(usize, usize, usize) -> (usize, usize),
    pattern: [Pattern; 5],
    expect: ExpectFn,
) -> Benchmark {
    let kernel = Kernel { time_factor: 1.0, pattern, expect, zeroed: false };
    Benchmark::new(name, class, n_msg, kernel).in_units(unit).holding(memory)
}

/// `base` under another name, with its own pattern and check (the `v` forms of the rooted
/// collectives).
const fn variant(
    base: Benchmark,
    name: &'static str,
    pattern: [Pattern; 5],
    expect: ExpectFn,
) -> Benchmark {
    Benchmark { name, kernel: Kernel { pattern, expect, ..base.kernel }, ..base }
}

/// One run of a pattern; `iteration` picks the root of rooted collectives.
pub type Pattern = fn(&Ctx, &mut Bufs, &Plan, iteration: usize);

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
    /// The benchmark's elements: `-data_type`'s, the reductions' `-red_data_type`'s.
    pub elem: Element,
    /// X in elements (the reductions' L = X / sizeof(float) by default).
    pub n: usize,
    /// n per process (Allgatherv, Alltoallv counts).
    pub counts: Vec<c_int>,
    /// i n (Allgatherv, Alltoallv displacements); empty when Q X exceeds the MPI count
    /// range, which the option check refuses for those two benchmarks.
    pub displs: Vec<c_int>,
    /// Reduce_scatter's split of L elements (guide §3.3.4.2).
    pub scatter: Vec<c_int>,
    /// Messages per window (Uniband, Biband: `-window_size`).
    pub window: usize,
}

impl Plan {
    /// The plan for length `x` of `elem` on `q` processes, windows of `window` messages.
    pub fn new(x: usize, elem: Element, q: usize, window: usize) -> Plan {
        let n = x / elem.size();
        let count = c_int::try_from(n).expect("length checked against the MPI count range");
        let counts = vec![count; q];
        let displs = match c_int::try_from(q * x) {
            Ok(_) => (0..q).map(|i| i as c_int * count).collect(),
            Err(_) => Vec::new(),
        };
        let scatter = reduce_scatter::split(n, q);
        Plan { x, elem, n, counts, displs, scatter, window }
    }
}

/// Every benchmark, in output order: the guide's 13 (§3.2), the default, with today's
/// IMB's source variants of PingPong and PingPing after each, then six more of today's IMB
/// and its windowed Uniband and Biband; today's run when named.
pub const BENCHMARKS: &[Benchmark] = &[
    pingpong::BENCHMARK,
    pingpong::SPECIFIC,
    pingpong::ANY,
    pingping::BENCHMARK,
    pingping::SPECIFIC,
    pingping::ANY,
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
    gather::GATHER,
    gather::GATHERV,
    scatter::SCATTER,
    scatter::SCATTERV,
    reduce_scatter_block::BENCHMARK,
    reduce_local::BENCHMARK,
    uniband::UNIBAND,
    uniband::BIBAND,
];

/// (send, receive) bytes for kernels that send and receive X.
pub(crate) fn one_each(_q: usize, x: usize, _reps: usize) -> (usize, usize) {
    (x, x)
}

/// One benchmark prepared on one group: its buffers, sized for the largest length (and,
/// with `-off_cache`, for its repetitions' offsets).
pub struct Mpi1<'a> {
    b: &'static Benchmark,
    ctx: Ctx<'a>,
    bufs: Bufs,
    o: Options,
}

/// The suite's `start`: buffers for the largest length of `b`.
pub fn start<'a>(b: &'static Benchmark, ctx: Ctx<'a>, o: &Options) -> Started<'a> {
    let (send, recv) = o.buffers(b, ctx.q);
    // A reduction's send buffer holds its elements' values; the others' BUF_VALUE floats.
    let send = match (b.unit, o.element(b.unit)) {
        (FLOAT, Element::Char) => Buffer::filled_as::<i8>(send, ctx.rank),
        (FLOAT, Element::Int) => Buffer::filled_as::<i32>(send, ctx.rank),
        (FLOAT, Element::Double) => Buffer::filled_as::<f64>(send, ctx.rank),
        _ => Buffer::filled(send, ctx.rank),
    };
    let bufs = Bufs {
        send,
        recv: Buffer::filled(recv, ctx.rank),
        batch: mpi_ext::batch::Batch::with_capacity(2 * o.window_size.max(1)),
    };
    Ok(Box::new(Mpi1 { b, ctx, bufs, o: o.clone() }))
}

impl Mpi1<'_> {
    /// The plan of length `x` in this benchmark's elements.
    fn plan(&self, x: usize) -> Plan {
        Plan::new(x, self.o.element(self.b.unit), self.ctx.q, self.o.window_size)
    }

    /// The pattern over this benchmark's elements.
    fn pattern(&self) -> Pattern {
        self.b.kernel.pattern[self.o.element(self.b.unit).index()]
    }

    /// The repetition a rooted collective takes its root from: `i` (IMB 3.0's moving
    /// root), or 0 with `-root_shift off`.
    fn root(&self, i: usize) -> usize {
        if self.o.root_shift {
            i
        } else {
            0
        }
    }
}

impl Run for Mpi1<'_> {
    fn warm_up(&mut self, x: usize, n: usize) -> Result<(), String> {
        let (plan, pattern) = (self.plan(x), self.pattern());
        for i in 0..n {
            let root = self.root(i);
            pattern(&self.ctx, &mut self.bufs, &plan, root);
        }
        Ok(())
    }

    /// The timing of the guide's §5.2.8.1: N_BARR barriers, then `reps` runs of the
    /// pattern between two MPI_Wtime reads, scaled by the time factor. With `-sync on` a
    /// collective's runs are timed one by one, a barrier after each outside the timing
    /// (today's IMB); with `-off_cache` run i uses the buffers at its offset.
    fn measure(&mut self, _: Mode, x: usize, reps: usize) -> Result<ProcessTimes, String> {
        let (plan, pattern) = (self.plan(x), self.pattern());
        let (b, k) = (self.b, &self.b.kernel);
        let (send, recv) = self.o.spreads((b.memory)(self.ctx.q, x, 1), reps);
        for _ in 0..MESSAGE_PASSING.n_barr {
            self.o.barrier(self.ctx.comm);
        }
        let mut elapsed = 0.0;
        if self.o.sync && b.class == Class::Collective && b.has_bytes {
            for i in 0..reps {
                self.bufs.send.at(send.at(i));
                self.bufs.recv.at(recv.at(i));
                let start = paw_core::mpi::time();
                let root = self.root(i);
                pattern(&self.ctx, &mut self.bufs, &plan, root);
                elapsed += paw_core::mpi::time() - start;
                self.o.barrier(self.ctx.comm);
            }
        } else {
            let start = paw_core::mpi::time();
            for i in 0..reps {
                self.bufs.send.at(send.at(i));
                self.bufs.recv.at(recv.at(i));
                let root = self.root(i);
                pattern(&self.ctx, &mut self.bufs, &plan, root);
            }
            elapsed = paw_core::mpi::time() - start;
        }
        self.bufs.send.at(0);
        self.bufs.recv.at(0);
        let seconds = elapsed / reps as f64 * k.time_factor;
        Ok(ProcessTimes { t: seconds * 1e6, ..Default::default() })
    }

    /// One more run into a poisoned (or zeroed) receive buffer, compared with what the
    /// senders' buffer values make of it.
    fn check(&mut self, _: Mode, x: usize, _: usize) -> Result<u64, String> {
        let (plan, pattern) = (self.plan(x), self.pattern());
        let (ctx, k) = (&self.ctx, &self.b.kernel);
        let iteration = self.root(ctx.q - 1);
        let expect = (k.expect)(ctx.rank, ctx.q, &plan, iteration);
        if k.zeroed {
            self.bufs.recv.zero();
        } else {
            self.bufs.recv.poison_against(&expect);
        }
        pattern(ctx, &mut self.bufs, &plan, iteration);
        if x > 0 && test_corruption(ctx.rank) {
            self.bufs.recv.bytes_mut(1)[0] ^= 1;
        }
        Ok(defects(&expect, &self.bufs.recv) as u64)
    }
}

/// The suite: settings.h, the benchmark table, no modes.
pub static SUITE: Suite<Kernel> = Suite {
    table: Table {
        name: "IMB-MPI1",
        what: "MPI-1 benchmarks",
        edition: Edition::V3,
        timed: "per benchmark, process count and length, on each active process: N_BARR = 2 \
                MPI_Barrier, then MPI_Wtime before and after n_sample runs of the benchmark's \
                pattern (guide §5.2.8.1), after N_WARMUP = 2 untimed runs at the largest length; \
                with -estimate on, today's IMB's repetition estimate before each timing (one run, \
                then min(n_sample, 1000), untimed).",
        reported: "per length the repetitions n_sample and each process's time t = Δt / n_sample \
                   (PingPong: Δt / 2 n_sample): single transfers t[usec] (the maximum), the \
                   others t_min, t_max and t_avg over the active processes; Mbytes/sec = \
                   messages per run x X / t for the transfers.",
        settings: settings::MESSAGE_PASSING,
        benchmarks: BENCHMARKS,
        windows: false,
        io: false,
        general: paw_imb::General::ALL,
        inert: paw_imb::General::NONE,
        refuse_unrunnable: false,
        shape: |_, _| Some(String::new()),
    },
    prologue: |_, _| Ok(String::new()),
    start,
};
