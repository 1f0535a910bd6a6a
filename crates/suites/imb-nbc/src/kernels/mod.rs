//! The benchmarks of IMB-NBC: each non-blocking collective twice, `I<coll>` (its overlap
//! with computation) and `I<coll>_pure` (its time alone, run when named), listed in
//! [`BENCHMARKS`] in today's IMB's order. The collectives themselves are in [`ops`]; the
//! timing around them, the same for all, is [`Nbc::measure`].

pub mod mpi4;
pub mod ops;
pub mod persist;

use mpi_ext::persistent::Persistent;
use ops::{Expected, Op};
use paw_core::mpi::traits::*;
use paw_imb::buffers::{defects, test_corruption, Buffer};
pub use paw_imb::Ctx;
use paw_imb::{
    cpu::Exploit, settings, settings::FLOAT, Class, Edition, Gen, General, Mode, Options,
    ProcessTimes, Run, Started, Suite, Table,
};
use std::os::raw::c_int;

/// A benchmark of IMB-NBC.
pub type Benchmark = paw_imb::Benchmark<Kernel>;

/// IMB-NBC's benchmarks have no modes.
const PLAIN: &[Mode] = &[Mode::Plain];

/// Barriers before each timed loop (N_BARR).
const N_BARR: usize = 2;

/// How a benchmark posts its collective.
#[derive(Debug, Clone, Copy)]
pub enum Post {
    /// IMB-NBC: the non-blocking collective posted, overlapped and waited for at every
    /// iteration.
    Immediate(Op),
    /// IMB-MPI4: a persistent collective made once per length (untimed), then started,
    /// overlapped and waited for at every iteration.
    Persistent(persist::Init),
}

/// How an IMB-NBC or IMB-MPI4 benchmark runs its collective.
#[derive(Debug, Clone, Copy)]
pub struct Kernel {
    /// How the collective is posted.
    pub post: Post,
    /// What the receive buffer holds afterwards.
    pub expect: Expected,
    /// Ireduce's overlap loop takes root i mod Q, as today's IMB's does; the others keep
    /// root 0.
    pub cycle_root: bool,
    /// A barrier after every iteration, outside the timing (all but Ibarrier, which times
    /// its whole loop).
    pub sync: bool,
}

/// Send and receive buffers of one process.
#[derive(Debug)]
pub struct Bufs {
    /// Filled with BUF_VALUE(rank, i), never written by a collective.
    pub send: Buffer,
    /// Where data arrives.
    pub recv: Buffer,
}

/// What the collectives need for one length, made before timing.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Length X in bytes.
    pub x: usize,
    /// X in floats (reductions).
    pub floats: usize,
    /// X per process (the v variants' counts).
    pub counts: Vec<c_int>,
    /// i X (the v variants' displacements).
    pub displs: Vec<c_int>,
    /// L per process (Ireduce_scatter's counts).
    pub floats_each: Vec<c_int>,
}

impl Plan {
    fn new(x: usize, q: usize) -> Plan {
        let count = c_int::try_from(x).expect("length checked against the MPI count range");
        let displs = (0..q).map(|i| c_int::try_from(i * x).expect("buffers checked")).collect();
        let floats = x / FLOAT;
        let floats_each = vec![c_int::try_from(floats).expect("length checked"); q];
        Plan { x, floats, counts: vec![count; q], displs, floats_each }
    }
}

/// (send, receive) bytes per process for the buffer shapes of section A.
fn one_each(_: usize, x: usize, _: usize) -> (usize, usize) {
    (x, x)
}
fn gathers(q: usize, x: usize, _: usize) -> (usize, usize) {
    (x, q * x)
}
fn scatters(q: usize, x: usize, _: usize) -> (usize, usize) {
    (q * x, x)
}
fn all_to_all(q: usize, x: usize, _: usize) -> (usize, usize) {
    (q * x, q * x)
}

/// The overlap benchmark `name` and its `_pure` twin, over `op`.
const fn pair(
    names: [&'static str; 2],
    op: Op,
    expect: Expected,
    unit: usize,
    memory: fn(usize, usize, usize) -> (usize, usize),
) -> [Benchmark; 2] {
    posted(names, Post::Immediate(op), expect, unit, memory)
}

/// The overlap benchmark `name` and its `_pure` twin, posted by `post`.
const fn posted(
    names: [&'static str; 2],
    post: Post,
    expect: Expected,
    unit: usize,
    memory: fn(usize, usize, usize) -> (usize, usize),
) -> [Benchmark; 2] {
    let overlap = Benchmark {
        name: names[0],
        class: Class::Collective,
        n_msg: 0,
        unit,
        has_bytes: true,
        modes: PLAIN,
        overlap: true,
        default: true,
        has_root: false,
        memory,
        kernel: Kernel { post, expect, cycle_root: false, sync: true },
    };
    let pure = Benchmark { name: names[1], overlap: false, default: false, ..overlap };
    [overlap, pure]
}

/// Both twins marked rooted, as today's IMB marks them (HAS_ROOT).
pub(crate) const fn rooted([overlap, pure]: [Benchmark; 2]) -> [Benchmark; 2] {
    [overlap.rooted(), pure.rooted()]
}

const IBCAST: [Benchmark; 2] =
    rooted(pair(["Ibcast", "Ibcast_pure"], ops::ibcast, ops::from_root, 1, one_each));
const IALLGATHER: [Benchmark; 2] =
    pair(["Iallgather", "Iallgather_pure"], ops::iallgather, ops::gathered, 1, gathers);
const IALLGATHERV: [Benchmark; 2] =
    pair(["Iallgatherv", "Iallgatherv_pure"], ops::iallgatherv, ops::gathered, 1, gathers);
const IGATHER: [Benchmark; 2] =
    rooted(pair(["Igather", "Igather_pure"], ops::igather, ops::gathered_at_root, 1, gathers));
const IGATHERV: [Benchmark; 2] =
    rooted(pair(["Igatherv", "Igatherv_pure"], ops::igatherv, ops::gathered_at_root, 1, gathers));
const ISCATTER: [Benchmark; 2] =
    rooted(pair(["Iscatter", "Iscatter_pure"], ops::iscatter, ops::scattered, 1, scatters));
const ISCATTERV: [Benchmark; 2] =
    rooted(pair(["Iscatterv", "Iscatterv_pure"], ops::iscatterv, ops::scattered, 1, scatters));
const IALLTOALL: [Benchmark; 2] =
    pair(["Ialltoall", "Ialltoall_pure"], ops::ialltoall, ops::exchanged, 1, all_to_all);
const IALLTOALLV: [Benchmark; 2] =
    pair(["Ialltoallv", "Ialltoallv_pure"], ops::ialltoallv, ops::exchanged, 1, all_to_all);
const IREDUCE: [Benchmark; 2] =
    pair(["Ireduce", "Ireduce_pure"], ops::ireduce, ops::summed_at_root, FLOAT, one_each);
const IREDUCE_SCATTER: [Benchmark; 2] = pair(
    ["Ireduce_scatter", "Ireduce_scatter_pure"],
    ops::ireduce_scatter,
    ops::summed_block,
    FLOAT,
    scatters,
);
const IALLREDUCE: [Benchmark; 2] =
    pair(["Iallreduce", "Iallreduce_pure"], ops::iallreduce, ops::summed, FLOAT, one_each);
const IBARRIER: [Benchmark; 2] =
    pair(["Ibarrier", "Ibarrier_pure"], ops::ibarrier, ops::nothing, 1, |_, _, _| (0, 0));

/// Every benchmark, in today's IMB's order: the thirteen overlap benchmarks, the default,
/// then their `_pure` twins, run when named.
pub const BENCHMARKS: &[Benchmark] = &[
    IBCAST[0],
    IALLGATHER[0],
    IALLGATHERV[0],
    IGATHER[0],
    IGATHERV[0],
    ISCATTER[0],
    ISCATTERV[0],
    IALLTOALL[0],
    IALLTOALLV[0],
    // Today's IMB marks Ireduce rooted and not Ireduce_pure.
    Benchmark { kernel: Kernel { cycle_root: true, ..IREDUCE[0].kernel }, ..IREDUCE[0] }.rooted(),
    IREDUCE_SCATTER[0],
    IALLREDUCE[0],
    Benchmark {
        has_bytes: false,
        kernel: Kernel { sync: false, ..IBARRIER[0].kernel },
        ..IBARRIER[0]
    },
    IBCAST[1],
    IALLGATHER[1],
    IALLGATHERV[1],
    IGATHER[1],
    IGATHERV[1],
    ISCATTER[1],
    ISCATTERV[1],
    IALLTOALL[1],
    IALLTOALLV[1],
    IREDUCE[1],
    IREDUCE_SCATTER[1],
    IALLREDUCE[1],
    Benchmark {
        has_bytes: false,
        kernel: Kernel { sync: false, ..IBARRIER[1].kernel },
        ..IBARRIER[1]
    },
];

/// One benchmark prepared on one group.
#[derive(Debug)]
pub struct Nbc<'a> {
    b: &'static Benchmark,
    ctx: Ctx<'a>,
    bufs: Bufs,
    work: Exploit,
    /// The command line's choices (`-warm_up`, `-off_cache`, `-root_shift`, `-sync` ...).
    o: Options,
}

/// The suite's `start`: buffers for the largest length of `b`.
pub fn start<'a>(b: &'static Benchmark, ctx: Ctx<'a>, o: &Options) -> Started<'a> {
    let (send, recv) = o.buffers(b, ctx.q);
    let bufs = Bufs { send: Buffer::filled(send, ctx.rank), recv: Buffer::filled(recv, ctx.rank) };
    Ok(Box::new(Nbc { b, ctx, bufs, work: Exploit::new(), o: o.clone() }))
}

/// Untimed runs before each length's measurement: a tenth of the repetitions, at least
/// min(10, n) (today's IMB).
fn warm_ups(n: usize) -> usize {
    (n / 10).max(n.min(10))
}

impl Nbc<'_> {
    /// N_BARR barriers, then `reps` iterations, each timed on its own (`-sync`: a barrier
    /// after each, outside the timing); `between` runs while each collective is in flight.
    /// Iteration i takes its root as `root_of(i)` and, with `-off_cache`, the buffers at its
    /// offset. Seconds per iteration.
    fn timed(
        &mut self,
        plan: &Plan,
        reps: usize,
        root_of: impl Fn(usize) -> usize,
        between: &mut dyn FnMut(),
    ) -> f64 {
        let (ctx, k, o) = (&self.ctx, &self.b.kernel, &self.o);
        let sync = k.sync && o.sync;
        let seconds = match k.post {
            Post::Immediate(op) => {
                let (send, recv) = o.spreads((self.b.memory)(ctx.q, plan.x, 1), reps);
                let bufs = &mut self.bufs;
                timed_loop(ctx, o, sync, reps, &mut |i| {
                    bufs.send.at(send.at(i));
                    bufs.recv.at(recv.at(i));
                    op(ctx, bufs, plan, root_of(i), between)
                })
            }
            // As today's IMB-MPI4: the request, made once, keeps its buffers and root.
            Post::Persistent(init) => {
                let mut request = init(ctx, &mut self.bufs, plan, 0);
                timed_loop(ctx, o, sync, reps, &mut |_| overlapped(&mut request, between))
            }
        };
        self.bufs.send.at(0);
        self.bufs.recv.at(0);
        seconds
    }

    /// The root of iteration i: 0, moving on by one at every iteration with `-root_shift on`
    /// (today's IMB).
    fn shifted(&self) -> impl Fn(usize) -> usize {
        let (q, shift) = (self.ctx.q, self.o.root_shift);
        move |i| if shift { i % q } else { 0 }
    }

    /// `n` untimed runs (a persistent collective made once for them).
    fn untimed(&mut self, plan: &Plan, root: usize, n: usize) {
        let (ctx, k) = (&self.ctx, &self.b.kernel);
        match k.post {
            Post::Immediate(op) => {
                (0..n).for_each(|_| op(ctx, &mut self.bufs, plan, root, &mut || {}))
            }
            Post::Persistent(init) if n > 0 => {
                let mut request = init(ctx, &mut self.bufs, plan, root);
                (0..n).for_each(|_| request.run());
            }
            Post::Persistent(_) => {}
        }
    }
}

/// N_BARR barriers, then `reps` runs of `one` (given the iteration), each timed alone, a
/// barrier after each with `sync`: seconds per run.
fn timed_loop(ctx: &Ctx, o: &Options, sync: bool, reps: usize, one: &mut dyn FnMut(usize)) -> f64 {
    for _ in 0..N_BARR {
        o.barrier(ctx.comm);
    }
    let mut t = 0.0;
    for i in 0..reps {
        let start = paw_core::mpi::time();
        one(i);
        t += paw_core::mpi::time() - start;
        if sync {
            o.barrier(ctx.comm);
        }
    }
    t / reps.max(1) as f64
}

/// A started persistent collective: `between` while it is in flight, then its completion.
fn overlapped(request: &mut Persistent<'_>, between: &mut dyn FnMut()) {
    request.start();
    between();
    request.wait();
}

impl Run for Nbc<'_> {
    /// `_pure`: t_pure, the collective alone. Overlap benchmarks: t_pure first, then CPU
    /// work calibrated to this process's t_pure runs while each collective is in flight:
    /// t_ovrl (post to completion) and t_CPU (the work alone).
    fn measure(&mut self, _: Mode, x: usize, reps: usize) -> Result<ProcessTimes, String> {
        let plan = Plan::new(x, self.ctx.q);
        self.untimed(&plan, 0, if self.o.warm_up { warm_ups(reps) } else { 0 });
        let pure = self.timed(&plan, reps, self.shifted(), &mut || {});
        if !self.b.overlap {
            return Ok(ProcessTimes { t: pure * 1e6, ..Default::default() });
        }
        let passes = Exploit::passes_for(pure);
        let mut work = std::mem::take(&mut self.work);
        work.run(passes);
        let mut cpu = 0.0;
        let mut between = || {
            let start = paw_core::mpi::time();
            work.run(passes);
            cpu += paw_core::mpi::time() - start;
        };
        // Ireduce's overlap loop takes root i mod Q whatever -root_shift says (today's IMB).
        let (q, cycle, shifted) = (self.ctx.q, self.b.kernel.cycle_root, self.shifted());
        let root_of = move |i| if cycle { i % q } else { shifted(i) };
        let ovrl = self.timed(&plan, reps, root_of, &mut between);
        self.work = work;
        let n = reps.max(1) as f64;
        Ok(ProcessTimes { t: ovrl * 1e6, pure: pure * 1e6, cpu: cpu / n * 1e6, defects: 0.0 })
    }

    /// One more run, root Q-1 for the rooted ones, into a poisoned receive buffer.
    fn check(&mut self, _: Mode, x: usize, _: usize) -> Result<u64, String> {
        let plan = Plan::new(x, self.ctx.q);
        let (q, rank) = (self.ctx.q, self.ctx.rank);
        let root = q - 1;
        let expect = (self.b.kernel.expect)(rank, q, &plan, root);
        self.bufs.recv.poison_against(&expect);
        self.untimed(&plan, root, 1);
        if x > 0 && test_corruption(rank) {
            self.bufs.recv.bytes_mut(1)[0] ^= 1;
        }
        Ok(defects(&expect, &self.bufs.recv) as u64)
    }
}

/// The suite: IMB-MPI1's settings, warm-up per length inside the kernels, no modes.
pub static SUITE: Suite<Kernel> = Suite {
    table: Table {
        name: "IMB-NBC",
        what: "MPI-NBC part",
        timed: "per benchmark, process count and length, on each active process: today's IMB's \
                repetition estimate (-estimate: one repetition, then min(n, 1000), untimed); \
                untimed warm-up runs (a tenth of the repetitions, at least min(10, n)); N_BARR = 2 \
                MPI_Barrier; then n iterations, each timed from posting the non-blocking collective to its \
                MPI_Wait, with an MPI_Barrier after each outside the timing (Ibarrier and -sync off: \
                none). \
                I<coll>_pure: the collective alone (t_pure). I<coll>: t_pure first, then n \
                iterations of post, CPU work calibrated to this process's t_pure, wait (t_ovrl); \
                the CPU work alone is t_CPU.",
        reported: "per length the repetitions n; I<coll>_pure: t_min, t_max and t_avg of t_pure \
                   over the active processes; I<coll>: t_ovrl, t_pure and t_CPU of the process \
                   with the largest t_ovrl and overlap[%] = 100 (t_pure + t_CPU - t_ovrl) / \
                   max(t_pure, t_CPU), held to 0..100.",
        benchmarks: BENCHMARKS,
        ..BASE.table
    },
    prologue: nbc_prologue,
    ..BASE

};

/// What IMB-NBC and IMB-MPI4 share: today's rules, IMB-MPI1's settings with the warm-up at
/// every length inside the kernels, no modes, the same start.
const BASE: Suite<Kernel> = Suite {
    table: Table {
        name: "",
        what: "",
        edition: Edition::V2021,
        timed: "",
        reported: "",
        settings: settings::Settings {
            n_warmup: 0,
            own_warm_up: Some(settings::WARM_UP_2021),
            ..settings::MESSAGE_PASSING
        },
        benchmarks: &[],
        windows: false,
        io: false,
        general: General::ALL.without(&[Gen::ImbBarrier, Gen::DataTypes]),
        // Intel's IMB-NBC never hands -imb_barrier to its kernels.
        inert: General::of(&[Gen::ImbBarrier]),
        refuse_unrunnable: false,
        shape: |_, _| Some(String::new()),
    },
    prologue: nbc_prologue,
    start,
};

/// IMB-NBC's prologue: the CPU-work line.
fn nbc_prologue(
    o: &Options,
    world: &paw_core::mpi::topology::SimpleCommunicator,
) -> Result<String, String> {
    prologue(o, world, BENCHMARKS)
}

/// Measures the CPU work's rate on every process (once, before any benchmark of `table`
/// that overlaps); the header line gives rank 0's.
fn prologue(
    o: &Options,
    world: &paw_core::mpi::topology::SimpleCommunicator,
    table: &[Benchmark],
) -> Result<String, String> {
    if !o.benchmarks.iter().any(|&i| table[i].overlap) {
        return Ok(String::new());
    }
    let rate = paw_imb::cpu::rate();
    world.barrier();
    Ok(format!(
        "# CPU work (overlap)             :   10 x 10 matrix-vector passes, {:.0} Mflop/s \
         (rank 0), as long as each process's own t_pure\n",
        rate.mflops
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_collective_has_its_pure_twin_in_order() {
        assert_eq!(BENCHMARKS.len(), 26);
        for (a, p) in BENCHMARKS[..13].iter().zip(&BENCHMARKS[13..]) {
            assert_eq!(format!("{}_pure", a.name), p.name);
            assert!(a.default && a.overlap && !p.default && !p.overlap, "{}", a.name);
            assert_eq!(a.has_bytes, p.has_bytes);
        }
        let cycling: Vec<&str> =
            BENCHMARKS.iter().filter(|b| b.kernel.cycle_root).map(|b| b.name).collect();
        assert_eq!(cycling, ["Ireduce"]);
    }

    #[test]
    fn warm_up_is_a_tenth_and_at_least_ten() {
        assert_eq!(warm_ups(1000), 100);
        assert_eq!(warm_ups(40), 10);
        assert_eq!(warm_ups(3), 3);
    }
}
