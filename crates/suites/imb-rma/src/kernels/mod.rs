//! The benchmarks of IMB-RMA (today's IMB, passive target only), listed in [`BENCHMARKS`] in
//! today's IMB's order. A benchmark is a [`Pattern`] of one [`Op`]; [`plan`] turns it into
//! each process's list of accesses, which the timed loop ([`Rma::timing`]) walks inside
//! one lock (or lock_all) epoch. The lock and unlock are outside the timing; two
//! MPI_Barrier come before it and one after.

mod plan;

use mpi_ext::rma::{Epoch, Landing, Window};
use mpi_ext::Plain;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::Buffer;
use paw_imb::buffers::{buf_value, sent_bytes, test_corruption};
use paw_imb::{
    cpu::Exploit, settings, settings::FLOAT, Class, Ctx, Edition, Gen, General, Mode, Options,
    ProcessTimes, Run, Started, Suite, Table,
};
use plan::{accesses, extent, Access, Completion, Offsets};

/// The one-sided operation of a benchmark (named as MPI names them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum Op {
    /// MPI_Put of bytes.
    Put,
    /// MPI_Get of bytes.
    Get,
    /// MPI_Accumulate of floats, MPI_SUM.
    Accumulate,
    /// MPI_Get_accumulate of floats, MPI_SUM, the old values into the result buffer.
    GetAccumulate,
    /// MPI_Fetch_and_op of one float, MPI_SUM.
    FetchAndOp,
    /// MPI_Compare_and_swap of one MPI_INT.
    CompareAndSwap,
}

/// Who does what to whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Rank 0 locks the last rank and issues the operations (`bidir`: the last rank does
    /// the same towards rank 0 at once); a flush after each (non-aggregate) or after all
    /// (aggregate); `local`: MPI_Win_flush_local.
    Pair { op: Op, bidir: bool, local: bool },
    /// Rank 0 opens lock_all and issues each operation to every other rank in turn; one
    /// MPI_Win_flush_all (`local`: flush_local_all) at the end.
    OneToAll { op: Op, local: bool },
    /// Every rank does OneToAll's pattern at once, into its own sections of the windows.
    AllToAll { op: Op, local: bool },
    /// A ring: lock left and right; per iteration one operation with each, then a flush of
    /// both.
    Exchange { op: Op },
    /// Rank 0 holds a lock on rank 1 for the whole run: MPI_Put, MPI_Win_flush,
    /// MPI_Barrier per iteration, with rank 1 waiting in the barrier (t_pure), then
    /// computing for t_pure before each barrier (t_ovrl).
    TrulyPassive,
}

impl Pattern {
    /// The pattern's operation.
    pub const fn op(self) -> Op {
        match self {
            Pattern::Pair { op, .. }
            | Pattern::OneToAll { op, .. }
            | Pattern::AllToAll { op, .. }
            | Pattern::Exchange { op } => op,
            Pattern::TrulyPassive => Op::Put,
        }
    }
}

/// A benchmark of IMB-RMA.
pub type Benchmark = paw_imb::Benchmark<Pattern>;

/// Non-aggregate table first, then aggregate, as today's IMB prints them.
const BOTH: &[Mode] = &[Mode::NonAggregate, Mode::Aggregate];
const ONE: &[Mode] = &[Mode::Plain];

/// Bytes of one element of the operation.
const fn element(op: Op) -> usize {
    match op {
        Op::Put | Op::Get => 1,
        _ => FLOAT,
    }
}

const fn bench(name: &'static str, class: Class, default: bool, kernel: Pattern) -> Benchmark {
    let op = kernel.op();
    let two_modes = matches!(kernel, Pattern::Pair { .. });
    Benchmark {
        name,
        class,
        n_msg: match class {
            Class::Collective | Class::TrulyPassive => 0,
            _ => 1,
        },
        unit: element(op),
        has_bytes: true,
        modes: if two_modes { BOTH } else { ONE },
        overlap: false,
        default,
        has_root: false,
        // Origin and result buffers, window: plan::extent's, for the operation that reads.
        memory: match kernel {
            Pattern::Pair { op: Op::FetchAndOp | Op::CompareAndSwap, .. } => {
                |_, _, _| (2 * FLOAT, FLOAT)
            }
            Pattern::Pair { .. } => |_, x, _| (2 * x, x),
            Pattern::OneToAll { .. } => |q, x, _| (q * x, x),
            Pattern::AllToAll { .. } => |q, x, _| (q * x, q * x),
            Pattern::Exchange { .. } => |_, x, _| (4 * x, 2 * x),
            Pattern::TrulyPassive => |_, x, _| (x, x),
        },
        kernel,
    }
}

/// Untimed timings before each length's measurement: a tenth of the repetitions, at least
/// min(10, n) (today's IMB).
fn warm_ups(n: usize) -> usize {
    (n / 10).max(n.min(10))
}

const fn pair(name: &'static str, op: Op, bidir: bool, local: bool, default: bool) -> Benchmark {
    let class = if matches!(op, Op::FetchAndOp | Op::CompareAndSwap) {
        Class::SingleElement
    } else {
        Class::SingleTransfer
    };
    bench(name, class, default, Pattern::Pair { op, bidir, local })
}

/// Every benchmark, in today's IMB's order; Get_local and Get_all_local run when named.
pub const BENCHMARKS: &[Benchmark] = &[
    pair("Unidir_put", Op::Put, false, false, true),
    pair("Unidir_get", Op::Get, false, false, true),
    pair("Bidir_put", Op::Put, true, false, true),
    pair("Bidir_get", Op::Get, true, false, true),
    bench("One_put_all", Class::MultPassive, true, Pattern::OneToAll { op: Op::Put, local: false }),
    bench("One_get_all", Class::MultPassive, true, Pattern::OneToAll { op: Op::Get, local: false }),
    bench("All_put_all", Class::Collective, true, Pattern::AllToAll { op: Op::Put, local: false }),
    bench("All_get_all", Class::Collective, true, Pattern::AllToAll { op: Op::Get, local: false }),
    pair("Put_local", Op::Put, false, true, true),
    bench(
        "Put_all_local",
        Class::MultPassive,
        true,
        Pattern::OneToAll { op: Op::Put, local: true },
    ),
    bench("Exchange_put", Class::Collective, true, Pattern::Exchange { op: Op::Put }),
    bench("Exchange_get", Class::Collective, true, Pattern::Exchange { op: Op::Get }),
    pair("Accumulate", Op::Accumulate, false, false, true),
    pair("Get_accumulate", Op::GetAccumulate, false, false, true),
    pair("Fetch_and_op", Op::FetchAndOp, false, false, true),
    pair("Compare_and_swap", Op::CompareAndSwap, false, false, true),
    bench("Truly_passive_put", Class::TrulyPassive, true, Pattern::TrulyPassive),
    pair("Get_local", Op::Get, false, true, false),
    bench(
        "Get_all_local",
        Class::MultPassive,
        false,
        Pattern::OneToAll { op: Op::Get, local: true },
    ),
];

/// What a window element holds, for the timings and `-check`.
pub trait Element: Plain + paw_core::buffer::Element + PartialEq + Default {
    /// The origin buffer of `rank`.
    fn origins(rank: usize, n: usize) -> Buffer<Self>;
    /// The origin buffer of `rank` in the check run (where it must differ from the
    /// timings').
    fn check_origins(rank: usize, n: usize) -> Buffer<Self> {
        Self::origins(rank, n)
    }
    /// A window before the check run (the compare value of Compare_and_swap at 0).
    fn windows(rank: usize, n: usize) -> Buffer<Self>;
}

impl Element for u8 {
    fn origins(rank: usize, n: usize) -> Buffer<u8> {
        Buffer::from_slice(&sent_bytes(rank, 0, n))
    }
    fn windows(rank: usize, n: usize) -> Buffer<u8> {
        sent_bytes(rank, 0, n).into_iter().map(|b| !b).collect()
    }
}

impl Element for f32 {
    fn origins(rank: usize, n: usize) -> Buffer<f32> {
        (0..n).map(|i| buf_value(rank, i)).collect()
    }
    fn windows(_: usize, n: usize) -> Buffer<f32> {
        Buffer::zeroed(n)
    }
}

/// Compare_and_swap times, as today's IMB, swaps of 0 for 0 (the compare value always
/// matches, so every swap writes); the check swaps in values that show where they went.
impl Element for i32 {
    fn origins(_: usize, n: usize) -> Buffer<i32> {
        Buffer::zeroed(n)
    }
    fn check_origins(rank: usize, n: usize) -> Buffer<i32> {
        (0..n).map(|i| (1000 * rank + i + 1) as i32).collect()
    }
    fn windows(_: usize, n: usize) -> Buffer<i32> {
        Buffer::zeroed(n)
    }
}

/// One benchmark on one group: its window and buffers, for the largest length.
pub struct Rma<'a, T: Element> {
    b: &'static Benchmark,
    ctx: Ctx<'a>,
    window: Window<T>,
    origin: Buffer<T>,
    result: Landing<T>,
    /// Compare_and_swap's compare value (the window's initial value).
    compare: T,
    /// The command line's choices (`-warm_up`, `-off_cache`).
    o: Options,
}

/// The suite's `start`: window and buffers for the largest length and repetitions.
pub fn start<'a>(b: &'static Benchmark, ctx: Ctx<'a>, o: &Options) -> Started<'a> {
    Ok(match b.kernel.op() {
        Op::Put | Op::Get => Box::new(Rma::<u8>::new(b, ctx, o)),
        Op::CompareAndSwap => Box::new(Rma::<i32>::new(b, ctx, o)),
        _ => Box::new(Rma::<f32>::new(b, ctx, o)),
    })
}

impl<'a, T: Element> Rma<'a, T> {
    fn new(b: &'static Benchmark, ctx: Ctx<'a>, o: &Options) -> Self {
        // Room for every length, and with -off_cache for its repetitions' offsets.
        let (mut window, mut origin, mut result) = (0, 0, 0);
        for x in o.lengths.for_benchmark(b.unit) {
            let e = Self::elements(b, x);
            let (w, s, r) = extent(b.kernel, ctx.q, e);
            let by = Self::offsets(o, b, ctx.q, e, o.most_repetitions(x, ctx.q));
            window = window.max(by.window.bytes(w));
            origin = origin.max(by.origin.bytes(s));
            result = result.max(by.result.bytes(r));
        }
        // Open MPI 4.1 names a window's shared memory after an id disjoint groups share.
        let window = ctx.in_turn(|| Window::create(ctx.comm, T::windows(ctx.rank, window)));
        let origin = T::origins(ctx.rank, origin);
        let result = Landing::new(Buffer::<T>::zeroed(result));
        Rma { b, ctx, window, origin, result, compare: T::default(), o: o.clone() }
    }

    /// Where repetition i of `reps` at `e` elements per operation starts in each buffer,
    /// in elements: `-off_cache`'s rule applied to each buffer's extent.
    fn offsets(o: &Options, b: &Benchmark, q: usize, e: usize, reps: usize) -> Offsets {
        let size = size_of::<T>();
        let (window, origin, result) = extent(b.kernel, q, e);
        let spread = |n: usize| o.spreads((n * size, 0), reps).0.in_elements(size);
        Offsets { origin: spread(origin), window: spread(window), result: spread(result) }
    }

    /// Elements per operation at length `x` (one for the atomics).
    fn elements(b: &Benchmark, x: usize) -> usize {
        if b.kernel.op().single_element() {
            1
        } else {
            x / element(b.kernel.op())
        }
    }

    /// Two barriers, the accesses of one timing inside their epoch, one barrier: seconds
    /// from the first access to the completion of the last (0 on a process that only
    /// exposes its window).
    fn timing(&mut self, list: &[Access], epoch: &Completion, e: usize) -> f64 {
        let Rma { b, ctx, window, origin, result, compare, .. } = self;
        let op = b.kernel.op();
        let comm = ctx.comm;
        comm.barrier();
        comm.barrier();
        let mut seconds = 0.0;
        if !list.is_empty() {
            let (origin, compare, result) = (&origin[..], &*compare, &*result);
            match epoch {
                Completion::Locked { targets, local, flush_at_end } => {
                    window.locked(targets, |l| {
                        let flush = |t| if *local { l.flush_local(t) } else { l.flush(t) };
                        let start = paw_core::mpi::time();
                        for a in list {
                            issue(l, op, a, &origin[a.origin..a.origin + e], result, compare);
                            if a.flush {
                                targets.iter().for_each(|&t| flush(t));
                            }
                        }
                        if *flush_at_end {
                            targets.iter().for_each(|&t| flush(t));
                        }
                        seconds = paw_core::mpi::time() - start;
                    })
                }
                Completion::All { local } => window.locked_all(|p| {
                    let start = paw_core::mpi::time();
                    for a in list {
                        issue(p, op, a, &origin[a.origin..a.origin + e], result, compare);
                    }
                    if *local {
                        p.flush_local_all();
                    } else {
                        p.flush_all();
                    }
                    seconds = paw_core::mpi::time() - start;
                }),
            }
        }
        comm.barrier();
        seconds
    }

    /// Truly_passive_put: rank 0's t_pure and t_ovrl in seconds per iteration; rank 1
    /// waits in MPI_Barrier, then computes for rank 0's t_pure before each barrier.
    fn truly_passive(&mut self, e: usize, reps: usize, by: &Offsets) -> (f64, f64) {
        let Rma { ctx, window, origin, .. } = self;
        let comm = ctx.comm;
        let other = comm.process_at_rank(1 - ctx.rank as i32);
        comm.barrier();
        comm.barrier();
        let times = if ctx.rank == 0 {
            let origin = &origin[..];
            window.locked(&[1], |l| {
                let phase = || {
                    let start = paw_core::mpi::time();
                    for i in 0..reps {
                        let from = by.origin.at(i);
                        l.put(&origin[from..from + e], 1, by.window.at(i));
                        l.flush(1);
                        comm.barrier();
                    }
                    (paw_core::mpi::time() - start) / reps as f64
                };
                let pure = phase();
                other.send(&pure);
                comm.barrier();
                let ovrl = phase();
                (pure, ovrl)
            })
        } else {
            (0..reps).for_each(|_| comm.barrier());
            let (pure, _) = other.receive::<f64>();
            comm.barrier();
            let passes = Exploit::passes_for(pure);
            let mut work = Exploit::new();
            for _ in 0..reps {
                work.run(passes);
                comm.barrier();
            }
            (0.0, 0.0)
        };
        comm.barrier();
        times
    }
}

/// Issues `a` through any epoch: `origin` is the access's section of the origin buffer;
/// what it reads lands in `result` from element `a.result`.
fn issue<'s, T: Element>(
    e: &Epoch<'s, '_, T>,
    op: Op,
    a: &Access,
    origin: &'s [T],
    result: &'s Landing<T>,
    compare: &'s T,
) {
    let (sum, (t, d, at)) = (SystemOperation::sum(), (a.target, a.disp, a.result));
    match op {
        Op::Put => e.put(origin, t, d),
        Op::Get => e.get_landing(result, at, origin.len(), t, d),
        Op::Accumulate => e.accumulate(origin, t, d, sum),
        Op::GetAccumulate => e.get_accumulate(origin, result, at, t, d, sum),
        Op::FetchAndOp => e.fetch_and_op(&origin[0], result, at, t, d, sum),
        Op::CompareAndSwap => e.compare_and_swap(&origin[0], compare, result, at, t, d),
    }
}

impl<T: Element> Run for Rma<'_, T> {
    /// The warm-up timings, then the measured one.
    fn measure(&mut self, mode: Mode, x: usize, reps: usize) -> Result<ProcessTimes, String> {
        let e = Self::elements(self.b, x);
        let (q, rank) = (self.ctx.q, self.ctx.rank);
        let by = Self::offsets(&self.o, self.b, q, e, reps);
        if self.b.kernel == Pattern::TrulyPassive {
            if self.o.warm_up {
                self.truly_passive(e, warm_ups(reps), &by);
            }
            let (pure, ovrl) = self.truly_passive(e, reps, &by);
            return Ok(ProcessTimes { t: ovrl * 1e6, pure: pure * 1e6, ..Default::default() });
        }
        let (list, epoch) = accesses(self.b.kernel, rank, q, e, reps, &by, mode);
        let warm = if self.o.warm_up { warm_ups(reps) } else { 0 };
        if warm > 0 {
            self.timing(&list[..list.len() / reps.max(1) * warm], &epoch, e);
        }
        let seconds = self.timing(&list, &epoch, e);
        // A process that only exposes its window reports -1: left out of the statistics.
        let t = if list.is_empty() { -1.0 } else { seconds / reps.max(1) as f64 * 1e6 };
        Ok(ProcessTimes { t, ..Default::default() })
    }

    /// One more timing of one repetition, from freshly written windows and a poisoned
    /// result buffer; then each process compares its window with what the accesses of all
    /// processes put there, and its result buffer with the windows it read.
    fn check(&mut self, mode: Mode, x: usize, _: usize) -> Result<u64, String> {
        let (q, rank) = (self.ctx.q, self.ctx.rank);
        let e = Self::elements(self.b, x);
        let len = self.window.len();
        self.ctx.comm.barrier();
        self.window.locked(&[rank as i32], |_| self.window.store(0, &T::windows(rank, len)));
        let poison = T::check_origins(q + 7, self.result.len());
        self.result.contents().copy_from_slice(&poison);
        let checked = T::check_origins(rank, self.origin.len());
        let timed = std::mem::replace(&mut self.origin, checked);
        if self.b.kernel == Pattern::TrulyPassive {
            self.truly_passive(e, 1, &Offsets::NONE);
        } else {
            let (list, epoch) = accesses(self.b.kernel, rank, q, e, 1, &Offsets::NONE, mode);
            self.timing(&list, &epoch, e);
        }
        let op = self.b.kernel.op();
        let mut want = T::windows(rank, len);
        for r in 0..q {
            let (list, _) = accesses(self.b.kernel, r, q, e, 1, &Offsets::NONE, mode);
            let from = T::check_origins(r, self.origin.len());
            for a in list.iter().filter(|a| op.writes() && a.target == rank as i32) {
                want[a.disp..a.disp + e].copy_from_slice(&from[a.origin..a.origin + e]);
            }
        }
        self.origin = timed;
        let mut got = vec![T::default(); len];
        self.window.locked(&[rank as i32], |_| self.window.load(0, &mut got));
        let mut wrong = got.iter().zip(&want).filter(|(g, w)| g != w).count();
        if op.reads() {
            let (list, _) = accesses(self.b.kernel, rank, q, e, 1, &Offsets::NONE, mode);
            let results = self.result.contents();
            for a in &list {
                let read = T::windows(a.target as usize, a.disp + e);
                let got = &results[a.result..a.result + e];
                wrong += got.iter().zip(&read[a.disp..]).filter(|(g, w)| g != w).count();
            }
        }
        if e > 0 && test_corruption(rank) {
            wrong += 1;
        }
        Ok(wrong as u64)
    }
}

/// The suite: IMB-MPI1's settings, warm-up per length inside the kernels, both modes for
/// the pair benchmarks.
pub static SUITE: Suite<Pattern> = Suite {
    table: Table {
        name: "IMB-RMA",
        what: "MPI-RMA part",
        edition: Edition::V2021,
        timed: "per benchmark, process count, mode and length: today's IMB's repetition \
                estimate (-estimate: one timing of one repetition, then of min(n, 1000), untimed); \
                untimed warm-up timings (a tenth of the repetitions, at least min(10, n)), then 2 \
                MPI_Barrier, the origins' \
                operations inside one passive-target epoch (MPI_Win_lock shared, or \
                MPI_Win_lock_all) with the lock and unlock outside the timing, 1 MPI_Barrier. \
                Non-aggregate: a flush after every operation; aggregate: one after all n. \
                Truly_passive_put: MPI_Put, MPI_Win_flush, MPI_Barrier per iteration with the \
                target waiting (t_pure), then with the target computing for t_pure before each \
                barrier (t_ovrl).",
        reported: "per length the repetitions n and each origin's time t = Δt / n: pair and \
                   one-to-all benchmarks t[usec] (the slowest origin) and Mbytes/sec = X / t; \
                   All_* and Exchange_* t_min, t_max, t_avg; Truly_passive_put t_pure and t_ovrl \
                   of the origin.",
        settings: settings::Settings {
            n_warmup: 0,
            own_warm_up: Some(settings::WARM_UP_2021),
            ..settings::MESSAGE_PASSING
        },
        benchmarks: BENCHMARKS,
        windows: true,
        io: false,
        general: General::of(&[Gen::OffCache, Gen::WarmUp, Gen::MsgPause, Gen::Estimate]),
        // Intel's IMB-RMA has no rooted collective, no -sync barrier and only MPI_Barrier.
        inert: General::of(&[Gen::RootShift, Gen::Sync, Gen::ImbBarrier]),
        refuse_unrunnable: false,
        shape: |_, _| Some(String::new()),
    },
    prologue,
    start,
};

/// Measures the CPU work's rate on every process before any timing, when
/// Truly_passive_put runs.
fn prologue(o: &Options, world: &SimpleCommunicator) -> Result<String, String> {
    let passive = o.benchmarks.iter().any(|&i| BENCHMARKS[i].kernel == Pattern::TrulyPassive);
    if !passive {
        return Ok(String::new());
    }
    let rate = paw_imb::cpu::rate();
    world.barrier();
    Ok(format!(
        "# CPU work (Truly_passive_put)   :   10 x 10 matrix-vector passes, {:.0} Mflop/s \
         (rank 0)\n",
        rate.mflops
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_covers_what_start_allocates() {
        for b in BENCHMARKS {
            for (q, x) in [(2, 4096), (4, 1 << 22), (3, 4)] {
                let size = element(b.kernel.op());
                let e = if b.kernel.op().single_element() { 1 } else { x / size };
                let (window, origin, result) = extent(b.kernel, q, e);
                let (send, receive) = (b.memory)(q, x, 1000);
                assert!((origin + result) * size <= send.max(size * 2), "{} {q} {x}", b.name);
                assert!(window * size <= receive.max(size), "{} {q} {x}", b.name);
                assert!(send <= 4 * q * x.max(FLOAT), "{}: no repetitions in it", b.name);
            }
        }
    }
}
