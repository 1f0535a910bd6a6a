//! `paw-report plan`: the settings scripts/qualify.sbatch takes on N nodes x T tasks, and
//! what each of its steps costs there -- wall time, message buffers per task and on node 0 --
//! from doc/scale.md's forms.
//!
//! The share rule: no task's message buffers may pass [`SHARE`] of its node's memory divided
//! by T. Sizes that would pass it come down to the largest power of two that fits: the
//! all-to-all family of the col step ([`COL`]) through MAX_COL_SIZE, IMB-MPI1 through
//! `-msglog`, the fan tests through MAX_P2P_SIZE. IMB's doubling series of process counts
//! (about twice the run at P) gives way to `-npmin P` above [`NPMIN_ABOVE`] tasks, and the
//! fabric map to its quick form (MATRIX_SHIFTS) above [`QUICK_ABOVE`] nodes.

use paw_base::vars;
use std::fmt::Write;

const MIB: f64 = (1u64 << 20) as f64;
const GIB: f64 = (1u64 << 30) as f64;

/// Memory per node by default, GB (2^30 B).
pub const DEFAULT_MEMORY_GB: f64 = 256.0;
/// Link goodput by default, GB/s (2^30 B/s): a 200 Gb/s link (doc/scale.md, "Predicted").
pub const DEFAULT_LINK_GB_S: f64 = 22.0;
/// Link latency by default, microseconds.
pub const DEFAULT_LATENCY_US: f64 = 1.5;

/// The fraction of a node's memory its tasks' message buffers may hold together.
pub const SHARE: f64 = 0.25;
/// Above this many tasks IMB runs at P only (`-npmin P`), not at 2, 4, ... P.
pub const NPMIN_ABOVE: u64 = 1024;
/// Above this many nodes the fabric map is the quick one.
pub const QUICK_ABOVE: u64 = 64;
/// The quick map's shifts (MATRIX_SHIFTS).
pub const QUICK_SHIFTS: u64 = 32;
/// WINDOW_SIZE of the fan tests (qualify.sbatch's FAN_WINDOW).
pub const FAN_WINDOW: u64 = 16;
/// Seconds an IMB suite may take before `-time` caps each length.
pub const IMB_BUDGET: f64 = 1800.0;
/// Launch and MPI start-up of a step on n nodes: a + b n seconds (doc/scale.md, fitted).
pub const LAUNCH: (f64, f64) = (0.34, 0.053);

/// p2p_matrix's defaults (MATRIX_SIZE, MATRIX_WINDOW, MATRIX_SAMPLES, MATRIX_LAT_ITERS; its
/// variables are declared in paw-mpi's p2p_matrix, which this crate does not link).
pub const MATRIX: Matrix = Matrix { size: 1 << 20, window: 8, samples: 5, lat_iters: 100 };
/// IMB-MPI1's and IMB-EXT's standard settings (paw-imb's settings.rs): lengths up to
/// 2^MAX_MSG_LOG, at most MSGS_PER_SAMPLE repetitions and OVERALL_VOL bytes per length.
const IMB_MAX_MSG_LOG: u32 = 22;
const IMB_PER_SAMPLE: f64 = 1000.0;
const IMB_OVERALL_VOL: f64 = 40.0 * MIB;
/// IMB-IO's longest length (settings_io.h): 2^24.
const IMB_IO_MAX: f64 = (1u64 << 24) as f64;
/// b_eff: 21 lengths x 3 methods, 3 repetitions, about 0.5 s each (b_eff's plan.rs).
const BEFF_SECONDS: f64 = 21.0 * 3.0 * 3.0 * 0.5;
/// b_eff's default memory per process at most, bytes (b_eff's DEFAULT_MEM_CAP_MIB).
const BEFF_MEM_CAP: f64 = 16384.0 * MIB;
/// b_eff_io's scheduled time in qualify.sbatch (`-T 900`), s.
const BEFF_IO_T: f64 = 900.0;
/// DGEMM of order 4000 (CORE_BLAS_SIZE, MAX_BLAS_SIZE in the nodes step): three matrices.
const DGEMM_BYTES: f64 = 3.0 * 4000.0 * 4000.0 * 8.0;
/// Samples per size of a paw sweep (NREPS unset: at least 10, up to about twice as many).
const SWEEP_SAMPLES: f64 = 10.0;

/// The fabric map's settings the plan times: p2p_matrix's defaults, or the user's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Matrix {
    /// MATRIX_SIZE, bytes.
    pub size: u64,
    /// MATRIX_WINDOW, messages.
    pub window: u64,
    /// MATRIX_SAMPLES.
    pub samples: u64,
    /// MATRIX_LAT_ITERS, round trips a latency sample.
    pub lat_iters: u64,
}

impl Matrix {
    /// The variables of these settings, each with its value.
    pub fn vars(&self) -> [(&'static str, u64); 4] {
        [
            ("MATRIX_SIZE", self.size),
            ("MATRIX_WINDOW", self.window),
            ("MATRIX_SAMPLES", self.samples),
            ("MATRIX_LAT_ITERS", self.lat_iters),
        ]
    }
}

/// The bytes each step's buffers hold: one place, to adjust when a binary changes.
pub mod memory {
    /// col_a2a (`factor` 2: send and receive buffers of P x size), col_agtr, col_agtrv,
    /// col_gtr, col_sct, col_rsb (`factor` 1: P x size and size), per task.
    pub fn col_wide(p: f64, size: f64, factor: f64) -> f64 {
        factor * p * size + if factor < 2.0 { size } else { 0.0 }
    }
    /// The other collectives: a send and a receive buffer of size, per task.
    pub fn col_narrow(size: f64) -> f64 {
        2.0 * size
    }
    /// p2p_fan_in's task 0 (one slot per message of a window, shared by the senders) and
    /// p2p_fan_out's receivers: W x MAX_P2P_SIZE with W = WINDOW_SIZE / (N - 1) rounded
    /// up (WINDOW_SIZE in flight at task 0), and a send buffer.
    pub fn fan(window: f64, n: f64, max: f64) -> f64 {
        (window / (n - 1.0).max(1.0)).ceil() * max + max
    }
    /// p2p_matrix on every node: MATRIX_WINDOW receive slots and a send buffer of
    /// MATRIX_SIZE.
    pub fn matrix_node(window: f64, size: f64) -> f64 {
        (window + 1.0) * size
    }
    /// p2p_matrix on node 0: its buffers, the judgement's histogram (8 MiB) and 64 bytes
    /// per node of its summaries, and four rows of 8 N (the matrices go to scratch files a
    /// row at a time).
    pub fn matrix_node0(n: f64, window: f64, size: f64) -> f64 {
        8.0 * super::MIB + 96.0 * n + matrix_node(window, size)
    }
    /// IMB-MPI1's largest per process: Alltoall's send and receive buffers, P x X each
    /// (Allgather, Gather: one of them).
    pub fn imb_mpi1(p: f64, x: f64) -> f64 {
        2.0 * p * x
    }
    /// The windowed point-to-point tests (p2p_mrate): WINDOW_SIZE x MAX_P2P_SIZE.
    pub fn p2p(window: f64, max: f64) -> f64 {
        window * max + max
    }
    /// b_eff: 2 x 6 messages of Lmax = memory per process / 128.
    pub fn b_eff(memory_per_process: f64) -> f64 {
        12.0 * memory_per_process / 128.0
    }
    /// b_eff_io: about two chunks of MPART = memory per process / 128 (2 MB to 1 GB).
    pub fn b_eff_io(memory_per_process: f64) -> f64 {
        let mb = (1u64 << 20) as f64;
        2.0 * (memory_per_process / 128.0).clamp(2.0 * mb, 1024.0 * mb)
    }
}

/// What the plan is made for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Machine {
    /// Nodes, N.
    pub nodes: u64,
    /// Tasks per node, T.
    pub tasks_per_node: u64,
    /// Memory of a node, GB (2^30 B).
    pub memory_gb: f64,
    /// Goodput of a node's link, GB/s (2^30 B/s).
    pub link_gb_s: f64,
    /// Latency of the fabric, microseconds.
    pub latency_us: f64,
    /// The fabric map's settings.
    pub map: Matrix,
    /// A launch and MPI start-up on n nodes: a + b n seconds, `(a, b)` ([`LAUNCH`], or the
    /// site's own, from initest).
    pub launch: (f64, f64),
}

impl Machine {
    fn p(&self) -> f64 {
        (self.nodes * self.tasks_per_node) as f64
    }
    fn n(&self) -> f64 {
        self.nodes as f64
    }
    fn t(&self) -> f64 {
        self.tasks_per_node as f64
    }
    /// Bytes per second.
    fn b(&self) -> f64 {
        self.link_gb_s * GIB
    }
    /// Seconds.
    fn lat(&self) -> f64 {
        self.latency_us * 1e-6
    }
    /// Launch and start-up on `n` nodes, s.
    fn launch(&self, n: f64) -> f64 {
        self.launch.0 + self.launch.1 * n
    }
    /// The share: bytes of message buffers a task may hold.
    pub fn share(&self) -> f64 {
        (self.memory_gb * GIB * SHARE / self.t()).floor()
    }
}

/// How a step's time is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// doc/scale.md's form with the machine's figures.
    Form,
    /// An order of magnitude: what it hinges on is in the step's note.
    Order,
    /// The benchmark's own schedule (b_eff_io's -T).
    Scheduled,
    /// Not predicted beyond the launch (the file system decides).
    Launch,
}

impl Basis {
    fn word(self) -> &'static str {
        match self {
            Basis::Form => "form",
            Basis::Order => "order",
            Basis::Scheduled => "scheduled",
            Basis::Launch => "launch only",
        }
    }
}

/// One line of the plan: a step, or a part of the fabric step.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The step (`fabric/p2p_matrix` for a part).
    pub name: &'static str,
    /// Predicted wall time, s.
    pub seconds: f64,
    /// Of which launches and MPI start-up ([`Machine::launch`]), s.
    pub launches: f64,
    /// How the time is known.
    pub basis: Basis,
    /// Peak message buffers of one task, bytes.
    pub task_bytes: f64,
    /// Peak on node 0, bytes.
    pub node0_bytes: f64,
    /// The settings qualify.sbatch passes this step, as `NAME=value` words.
    pub settings: Vec<String>,
    /// What the time hinges on.
    pub note: String,
    /// Counted in the total only when a node is slow (the retest).
    pub if_slow: bool,
}

/// The plan: the machine, the share, the settings and the steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// What it is for.
    pub machine: Machine,
    /// Bytes of message buffers a task may hold.
    pub share: f64,
    /// The settings for qualify.sbatch, `(name, value)`; an empty value: the default.
    pub env: Vec<(&'static str, String)>,
    /// A line per step, in qualify.sbatch's order.
    pub steps: Vec<Step>,
}

impl Plan {
    /// The value of setting `name` ("" when not planned).
    pub fn get(&self, name: &str) -> &str {
        self.env.iter().find(|(n, _)| *n == name).map_or("", |(_, v)| v.as_str())
    }
    /// Total time, s (`slow`: with one node slow).
    pub fn seconds(&self, slow: bool) -> f64 {
        self.steps.iter().filter(|s| slow || !s.if_slow).map(|s| s.seconds).sum()
    }
}

/// The col step's binaries in the plan's model: name, call cost, and the P x size factor
/// of their buffers (0: none).
pub const COL: &[(&str, Cost, f64)] = &[
    ("col_a2a", Cost::Wide, 2.0),
    ("col_acc", Cost::IntoOne, 0.0),
    ("col_acc_fence", Cost::IntoOne, 0.0),
    ("col_agtr", Cost::Wide, 1.0),
    ("col_agtrv", Cost::Wide, 1.0),
    ("col_ardc", Cost::Reduce, 0.0),
    ("col_bct", Cost::Tree, 0.0),
    ("col_gtr", Cost::Rooted, 1.0),
    ("col_racc", Cost::IntoOne, 0.0),
    ("col_rdc", Cost::Reduce, 0.0),
    ("col_rsb", Cost::Wide, 1.0),
    ("col_sct", Cost::Rooted, 1.0),
];

/// The time of one call of a collective of X bytes per task on q tasks, tq of them per node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cost {
    /// A pair: λ + X / B.
    Pair,
    /// A ring of neighbours (Sendrecv; Exchange twice): λ + X / B.
    Ring,
    /// Broadcast: log2 q λ + tq X / B.
    Tree,
    /// Reductions: 2 log2 q λ + 2 tq X / B.
    Reduce,
    /// Every task's X to every task (Allgather): log2 q λ + tq q X / B.
    Wide,
    /// Alltoall: q λ (a message to each) + tq q X / B.
    AllToAll,
    /// Gather, Scatter: log2 q λ + q X / B through the root's link.
    Rooted,
    /// Every task into task 0 (Accumulate): λ + q X / B.
    IntoOne,
    /// Barrier: 2 log2 q λ.
    Barrier,
    /// A window created and freed: 2 log2 q λ + 20 µs.
    Window,
}

impl Cost {
    fn seconds(self, m: &Machine, q: f64, x: f64) -> f64 {
        let (lat, b, log) = (m.lat(), m.b(), q.max(2.0).log2());
        let tq = q.min(m.t());
        match self {
            Cost::Pair | Cost::Ring => lat + x / b,
            Cost::Tree => log * lat + tq * x / b,
            Cost::Reduce => 2.0 * log * lat + 2.0 * tq * x / b,
            Cost::Wide => log * lat + tq * q * x / b,
            Cost::AllToAll => q * lat + tq * q * x / b,
            Cost::Rooted => log * lat + q * x / b,
            Cost::IntoOne => lat + q * x / b,
            Cost::Barrier => 2.0 * log * lat,
            Cost::Window => 2.0 * log * lat + 20e-6,
        }
    }
}

/// IMB-MPI1's default benchmarks (the 3.0 guide's 13): name, cost, time factor (a
/// PingPong repetition is a round trip; Exchange moves 2 X), runs at 2 tasks only.
const IMB_MPI1: &[(&str, Cost, f64, bool)] = &[
    ("PingPong", Cost::Pair, 2.0, true),
    ("PingPing", Cost::Pair, 1.0, true),
    ("Sendrecv", Cost::Ring, 1.0, false),
    ("Exchange", Cost::Ring, 2.0, false),
    ("Bcast", Cost::Tree, 1.0, false),
    ("Allgather", Cost::Wide, 1.0, false),
    ("Allgatherv", Cost::Wide, 1.0, false),
    ("Alltoall", Cost::AllToAll, 1.0, false),
    ("Alltoallv", Cost::AllToAll, 1.0, false),
    ("Reduce", Cost::Reduce, 1.0, false),
    ("Reduce_scatter", Cost::Reduce, 1.0, false),
    ("Allreduce", Cost::Reduce, 1.0, false),
    ("Barrier", Cost::Barrier, 1.0, false),
];

/// IMB-EXT's benchmarks, as [`IMB_MPI1`]'s (the one-sided transfers and Accumulate run in
/// both modes: twice).
const IMB_EXT: &[(&str, Cost, f64, bool)] = &[
    ("Window", Cost::Window, 1.0, false),
    ("Unidir_Put", Cost::Pair, 2.0, true),
    ("Unidir_Get", Cost::Pair, 2.0, true),
    ("Bidir_Get", Cost::Pair, 2.0, true),
    ("Bidir_Put", Cost::Pair, 2.0, true),
    ("Accumulate", Cost::IntoOne, 2.0, false),
];

/// 1, 2, 4 ... below `max`, then `max`.
fn doubling(max: f64) -> Vec<f64> {
    let mut sizes: Vec<f64> =
        std::iter::successors(Some(1.0), |s| Some(s * 2.0)).take_while(|s| *s < max).collect();
    sizes.push(max);
    sizes
}

/// A paw sweep's time (PAW §3's calibration): the first size runs NLOOP_MAX iterations (at
/// most 1 s), which is every later sample's budget, within NLOOP_MIN (10, fewer where 10
/// would pass 0.1 s) and NLOOP_MAX; [`SWEEP_SAMPLES`] samples per size.
fn sweep(sizes: &[f64], iteration: impl Fn(f64) -> f64) -> f64 {
    let budget = (1000.0 * iteration(sizes[0])).min(1.0);
    let per_size = |s: f64| {
        let w = iteration(s);
        let lowest = (0.1 / w).floor().clamp(1.0, 10.0);
        let nloop = (budget / w).floor().clamp(lowest, 1000.0);
        SWEEP_SAMPLES * nloop * w
    };
    sizes.iter().map(|&s| per_size(s)).sum()
}

/// The process counts IMB runs a benchmark on: 2 for a pair, else 2, 4 ... P from `npmin`.
fn imb_counts(p: f64, npmin: f64, pair: bool) -> Vec<f64> {
    if pair {
        return vec![2.0];
    }
    let mut counts: Vec<f64> =
        std::iter::successors(Some(npmin), |q| Some(q * 2.0)).take_while(|q| *q < p).collect();
    counts.push(p);
    counts
}

/// An IMB suite's time: per benchmark, count and length min(per-sample, OVERALL_VOL / X)
/// repetitions, each length at most `cap` s (`-time`) but one repetition.
fn imb_seconds(
    m: &Machine,
    table: &[(&str, Cost, f64, bool)],
    max_log: u32,
    npmin: f64,
    cap: Option<f64>,
) -> f64 {
    let lengths: Vec<f64> =
        std::iter::once(0.0).chain((0..=max_log).map(|k| (1u64 << k) as f64)).collect();
    let mut total = 0.0;
    for &(_, cost, factor, pair) in table {
        for q in imb_counts(m.p(), npmin, pair) {
            let xs = if cost == Cost::Barrier { &lengths[..1] } else { &lengths[..] };
            for &x in xs {
                let reps = if x == 0.0 {
                    IMB_PER_SAMPLE
                } else {
                    (IMB_OVERALL_VOL / x).floor().clamp(1.0, IMB_PER_SAMPLE)
                };
                let t = factor * cost.seconds(m, q, x);
                total += match cap {
                    Some(c) => (reps * t).min(c.max(t)),
                    None => reps * t,
                };
            }
        }
    }
    total
}

/// p2p_matrix's own time with `k` shifts and as many latency rounds: k x (SAMPLES + 1) x
/// (barrier + WINDOW x SIZE / B) + k x (SAMPLES + 1) x (barrier + 2 LAT_ITERS λ), the
/// barrier 2 log2 N λ.
fn map_seconds(m: &Machine, k: f64) -> f64 {
    let mx = m.map;
    let barrier = 2.0 * m.n().max(2.0).log2() * m.lat();
    let shift = barrier + (mx.window * mx.size) as f64 / m.b();
    let round = barrier + 2.0 * mx.lat_iters as f64 * m.lat();
    k * (mx.samples + 1) as f64 * (shift + round)
}

/// An IMB suite's time, and with `-time` added to `args` when it would pass [`IMB_BUDGET`]:
/// each length capped at the budget shared evenly by benchmarks, counts and lengths.
fn imb_within_budget(
    m: &Machine,
    table: &[(&str, Cost, f64, bool)],
    max_log: u32,
    npmin: f64,
    args: &mut Vec<String>,
) -> (f64, Option<f64>) {
    let whole = imb_seconds(m, table, max_log, npmin, None);
    if whole <= IMB_BUDGET {
        return (whole, None);
    }
    let lengths = (max_log + 2) as f64;
    let counts = imb_counts(m.p(), npmin, false).len() as f64;
    let per = IMB_BUDGET / (table.len() as f64 * lengths * counts);
    let cap = ((per * 10.0).floor() / 10.0).max(0.1);
    args.push(format!("-time {cap}"));
    (imb_seconds(m, table, max_log, npmin, Some(cap)), Some(cap))
}

/// The largest power of two at most `most` whose `bytes(size)` fits `limit`; `None` when
/// `most` itself fits (nothing to cap), `Some(1)` when nothing does.
fn capped(most: u64, limit: f64, bytes: impl Fn(f64) -> f64) -> Option<u64> {
    if bytes(most as f64) <= limit {
        return None;
    }
    let mut s = 1u64 << (63 - most.leading_zeros());
    while s > 1 && bytes(s as f64) > limit {
        s /= 2;
    }
    Some(s)
}

fn default_of(v: &vars::Var) -> u64 {
    v.default.parse().expect("a whole-number default")
}

/// GB, rounded down to two significant digits (IMB's -mem).
fn gb(bytes: f64) -> String {
    let x = bytes / GIB;
    let unit = 10f64.powi(x.log10().floor() as i32 - 1);
    let digits = (x / unit + 1e-9).floor();
    // Printed from the integer of digits, so no 0.30000000000000004.
    let places = (-(unit.log10().round() as i32)).max(0) as usize;
    let text = format!("{:.places$}", digits * unit);
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// The plan for `m`.
pub fn plan(m: &Machine) -> Plan {
    let (n, t, p, share) = (m.n(), m.t(), m.p(), m.share());
    let mut steps = Vec::new();
    let mut env: Vec<(&'static str, String)> = Vec::new();
    let step =
        |name, (launches, own): (f64, f64), basis, task_bytes, node0_bytes, settings, note| Step {
            name,
            seconds: launches + own,
            launches,
            basis,
            task_bytes,
            node0_bytes,
            settings,
            note,
            if_slow: false,
        };

    // core: latency, p2p_multitask, DGEMM, STREAM.
    steps.push(step(
        "core",
        (4.0 * m.launch(n), 120.0),
        Basis::Order,
        DGEMM_BYTES,
        DGEMM_BYTES,
        vec![],
        "4 launches and about 2 min of run-core, constant".into(),
    ));
    steps.push(step(
        "nodes",
        (2.0 * m.launch(n), 60.0),
        Basis::Order,
        DGEMM_BYTES,
        DGEMM_BYTES,
        vec![],
        "a copy per node at once: STREAM, DGEMM order 4000 (gpu_dgemm where a GPU is), constant"
            .into(),
    ));
    let p2p_window = default_of(&vars::WINDOW_SIZE) as f64;
    let p2p_max = default_of(&vars::MAX_P2P_SIZE) as f64;
    steps.push(step(
        "p2p",
        (13.0 * m.launch(2.0), 13.0 * 5.0),
        Basis::Order,
        memory::p2p(p2p_window, p2p_max),
        memory::p2p(p2p_window, p2p_max),
        vec![],
        "13 tests between two nodes, about 5 s each, constant".into(),
    ));

    // col: the all-to-all family's MAX_COL_SIZE within the share.
    let col_max = default_of(&vars::MAX_COL_SIZE);
    let col_med = default_of(&vars::MED_COL_SIZE);
    let wide: Vec<&str> = COL.iter().filter(|c| c.2 > 0.0).map(|c| c.0).collect();
    let most = COL.iter().map(|c| c.2).fold(0.0, f64::max);
    let col_cap = capped(col_max, share, |s| memory::col_wide(p, s, most));
    env.push(("PLAN_COL_WIDE", wide.join(" ")));
    env.push(("PLAN_MAX_COL_SIZE", col_cap.map_or(String::new(), |s| s.to_string())));
    env.push((
        "PLAN_MED_COL_SIZE",
        col_cap.filter(|s| *s < col_med).map_or(String::new(), |s| s.to_string()),
    ));
    let mut col_seconds = 0.0;
    let mut col_task: f64 = 0.0;
    for &(_, cost, factor) in COL {
        let max = if factor > 0.0 { col_cap.unwrap_or(col_max) } else { col_max } as f64;
        col_seconds += sweep(&doubling(max), |s| cost.seconds(m, p, s));
        let bytes =
            if factor > 0.0 { memory::col_wide(p, max, factor) } else { memory::col_narrow(max) };
        col_task = col_task.max(bytes);
    }
    let col_settings = match col_cap {
        Some(s) => {
            let med = if s < col_med { format!(" MED_COL_SIZE={s}") } else { String::new() };
            vec![format!("MAX_COL_SIZE={s}{med} ({})", wide.join(" "))]
        }
        None => vec![],
    };
    steps.push(step(
        "col",
        (COL.len() as f64 * m.launch(n), col_seconds),
        Basis::Order,
        col_task,
        col_task * t,
        col_settings,
        format!(
            "{} binaries, a sweep each: {SWEEP_SAMPLES} samples a size, calls as log2 P λ or P x size / B",
            COL.len()
        ),
    ));

    // fabric: the map (quick above QUICK_ABOVE nodes), its retest, the fan tests.
    let shifts = if m.nodes > QUICK_ABOVE { QUICK_SHIFTS.min(m.nodes - 1) } else { 0 };
    env.push(("PLAN_MATRIX_SHIFTS", if shifts > 0 { shifts.to_string() } else { String::new() }));
    let k = if shifts > 0 { shifts as f64 } else { (n - 1.0).max(1.0) };
    let mx = m.map;
    let barrier = 2.0 * n.max(2.0).log2() * m.lat();
    let rounds = (mx.samples + 1) as f64;
    let map = map_seconds(m, k);
    let (w, sz) = (mx.window as f64, mx.size as f64);
    steps.push(step(
        "fabric/p2p_matrix",
        (m.launch(n), map),
        Basis::Form,
        memory::matrix_node(w, sz),
        memory::matrix_node0(n, w, sz),
        // The user's settings, where they differ from p2p_matrix's defaults.
        (shifts > 0)
            .then(|| format!("MATRIX_SHIFTS={shifts}"))
            .into_iter()
            .chain(
                mx.vars()
                    .iter()
                    .zip(MATRIX.vars())
                    .filter(|(v, d)| v.1 != d.1)
                    .map(|(v, _)| format!("{}={} (yours)", v.0, v.1)),
            )
            .collect(),
        format!(
            "{k} shifts and rounds x {rounds} samples x (barrier + {} x {} B / B; + 2 x {} λ)",
            mx.window, mx.size, mx.lat_iters
        ),
    ));
    // One slow node at a quarter of the rate, retested as a node: 3 windows out and in.
    let slow = 3.0 * rounds * (barrier + 4.0 * (mx.window * mx.size) as f64 / m.b());
    steps.push(Step {
        if_slow: true,
        ..step(
            "fabric/retest",
            (0.0, slow),
            Basis::Form,
            memory::matrix_node(w, sz),
            memory::matrix_node0(n, w, sz),
            vec![],
            format!("only with suspects: one node at 1/4 rate, retested as a node: 3 x {rounds} windows"),
        )
    });
    // With a slow node every shift waits for its links: each window at a quarter of the rate.
    let waits = k * rounds * 3.0 * (mx.window * mx.size) as f64 / m.b();
    steps.push(Step {
        if_slow: true,
        ..step(
            "fabric/slow shifts",
            (0.0, waits),
            Basis::Form,
            memory::matrix_node(w, sz),
            memory::matrix_node0(n, w, sz),
            vec![],
            "only with a slow node: every shift waits for its links, 4 x the window".into(),
        )
    });
    env.push(("PLAN_FAN_WINDOW", FAN_WINDOW.to_string()));
    let fw = FAN_WINDOW as f64;
    let fan_cap = capped(p2p_max as u64, share, |s| memory::fan(fw, n, s));
    let p2p_med = default_of(&vars::MED_P2P_SIZE);
    env.push(("PLAN_FAN_MAX_P2P_SIZE", fan_cap.map_or(String::new(), |s| s.to_string())));
    env.push((
        "PLAN_FAN_MED_P2P_SIZE",
        fan_cap.filter(|s| *s < p2p_med).map_or(String::new(), |s| s.to_string()),
    ));
    let fan_max = fan_cap.map_or(p2p_max, |s| s as f64);
    // WINDOW_SIZE / (N - 1) messages from each, rounded up: about WINDOW_SIZE at task 0.
    let senders = (n - 1.0).max(1.0);
    let window = |s: f64| 2.0 * m.lat() + senders * (fw / senders).ceil() * s / m.b();
    let mut fan_settings = vec![format!("FAN_WINDOW={FAN_WINDOW}")];
    if let Some(s) = fan_cap {
        fan_settings.push(format!("MAX_P2P_SIZE={s}"));
    }
    steps.push(step(
        "fabric/fan_in+out",
        (2.0 * m.launch(n), 2.0 * sweep(&doubling(fan_max), window)),
        Basis::Form,
        memory::fan(fw, n, fan_max),
        memory::fan(fw, n, fan_max),
        fan_settings,
        format!("per window (N-1) x ceil({FAN_WINDOW} / (N-1)) x size / B, 1 B - {fan_max} B, two tests"),
    ));

    // IMB: -npmin P above NPMIN_ABOVE tasks, -msglog within the share, -mem the share.
    let npmin = m.nodes * m.tasks_per_node > NPMIN_ABOVE;
    let first = if npmin { p } else { 2.0 };
    let mem = gb(share);
    let guard = mem.parse::<f64>().unwrap_or(0.0) * GIB;
    let count_limit = i32::MAX as f64;
    let mut log = IMB_MAX_MSG_LOG;
    while log > 0
        && (memory::imb_mpi1(p, (1u64 << log) as f64) > guard
            || p * (1u64 << log) as f64 > count_limit)
    {
        log -= 1;
    }
    let mut mpi1 = Vec::new();
    if npmin {
        mpi1.push(format!("-npmin {p}"));
    }
    if log < IMB_MAX_MSG_LOG {
        mpi1.push(format!("-msglog 0:{log}"));
    }
    mpi1.push(format!("-mem {mem}"));
    let (imb1, cap) = imb_within_budget(m, IMB_MPI1, log, first, &mut mpi1);
    let imb1_task = memory::imb_mpi1(p, (1u64 << log) as f64);
    env.push(("PLAN_IMB_MPI1_ARGS", mpi1.join(" ")));
    steps.push(step(
        "imb-mpi1",
        (m.launch(n), imb1),
        Basis::Order,
        imb1_task,
        imb1_task * t,
        vec![format!("IMB_MPI1_ARGS='{}'", mpi1.join(" "))],
        format!(
            "13 benchmarks, lengths 0 - 2^{log} B, min(1000, 40 MB / X) repetitions{}{}",
            if npmin { ", at P only" } else { ", at 2, 4 ... P (about 2 x the run at P)" },
            cap.map_or(String::new(), |c| format!(", at most {c} s a length"))
        ),
    ));
    let npmin_args = if npmin { format!("-npmin {p}") } else { String::new() };
    let mut ext_args: Vec<String> = if npmin { vec![npmin_args.clone()] } else { vec![] };
    let (ext, ext_cap) = imb_within_budget(m, IMB_EXT, IMB_MAX_MSG_LOG, first, &mut ext_args);
    let ext_args = ext_args.join(" ");
    env.push(("PLAN_IMB_EXT_ARGS", ext_args.clone()));
    env.push(("PLAN_IMB_IO_ARGS", npmin_args.clone()));
    let own = |name: &str, args: &str| {
        if args.is_empty() {
            vec![]
        } else {
            vec![format!("{name}='{args}'")]
        }
    };
    let ext_bytes = 2.0 * (1u64 << IMB_MAX_MSG_LOG) as f64;
    steps.push(step(
        "imb-ext",
        (m.launch(n), ext),
        Basis::Order,
        ext_bytes,
        ext_bytes * t,
        own("IMB_EXT_ARGS", &ext_args),
        format!(
            "one-sided pairs, Window, Accumulate into task 0 (P x X / B){}",
            ext_cap.map_or(String::new(), |c| format!(", at most {c} s a length"))
        ),
    ));
    steps.push(step(
        "imb-io",
        (m.launch(n), 0.0),
        Basis::Launch,
        IMB_IO_MAX,
        IMB_IO_MAX * t,
        own("IMB_IO_ARGS", &npmin_args),
        "the file system decides: lengths to 16 MB, min(50, 16 MB / X) repetitions".into(),
    ));

    // b_eff, b_eff_io: their own schedules, their own memory.
    let per_process = m.memory_gb * GIB / t;
    let beff = memory::b_eff(per_process.min(BEFF_MEM_CAP));
    steps.push(step(
        "b_eff",
        (m.launch(n), BEFF_SECONDS),
        Basis::Order,
        beff,
        beff * t,
        vec![],
        "about 0.5 s per length and method, 21 x 3, 3 repetitions, whatever P".into(),
    ));
    let beff_io = memory::b_eff_io(per_process);
    steps.push(step(
        "b_eff_io",
        (m.launch(n), BEFF_IO_T),
        Basis::Scheduled,
        beff_io,
        beff_io * t,
        vec![],
        format!("-T {BEFF_IO_T}, one partition of all tasks"),
    ));
    steps.push(step(
        "presta",
        (5.0 * m.launch(n), 60.0 + 10000.0 * Cost::Reduce.seconds(m, p, 8.0)),
        Basis::Order,
        2.0 * p2p_max,
        2.0 * p2p_max * t,
        vec![],
        "com, laten, rma over pairs at once (constant); allred, globalop as Allreduce".into(),
    ));
    let counts = imb_counts(n, 1.0, false);
    steps.push(step(
        "initest",
        (counts.iter().map(|&c| m.launch(c)).sum(), 0.0),
        Basis::Order,
        0.0,
        0.0,
        vec![],
        format!("a start-up at each of {} node counts: the site's launcher decides", counts.len()),
    ));
    Plan { machine: *m, share, env, steps }
}

/// Bytes in MB (2^20 B), as few digits as read well.
fn mb(bytes: f64) -> String {
    let v = bytes / MIB;
    if v >= 100.0 || v == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn secs(s: f64) -> String {
    if s >= 100.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.1}")
    }
}

/// The plan for people: the machine, the share, a table, the total.
pub fn render(plan: &Plan) -> String {
    let m = &plan.machine;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "qualification plan: {} nodes x {} tasks = {} tasks; {} GB a node, link {} GB/s, \
         latency {} us (GB = 2^30 B, MB = 2^20 B)",
        m.nodes,
        m.tasks_per_node,
        m.nodes * m.tasks_per_node,
        m.memory_gb,
        m.link_gb_s,
        m.latency_us
    );
    let _ = writeln!(
        out,
        "share: a task's message buffers at most 1/{} of the node's memory / {} tasks = {} MB",
        (1.0 / SHARE).round(),
        m.tasks_per_node,
        mb(plan.share)
    );
    let _ = writeln!(
        out,
        "{:<18} {:>9} {:>14} {:>13}  {:<11}  settings; what it hinges on",
        "step", "time (s)", "per task (MB)", "node 0 (MB)", "basis"
    );
    for s in &plan.steps {
        let settings = if s.settings.is_empty() { "defaults".into() } else { s.settings.join(" ") };
        let _ = writeln!(
            out,
            "{:<18} {:>9} {:>14} {:>13}  {:<11}  {settings}; {}",
            s.name,
            secs(s.seconds),
            mb(s.task_bytes),
            mb(s.node0_bytes),
            s.basis.word(),
            s.note
        );
    }
    let peak = |f: fn(&Step) -> f64| plan.steps.iter().map(f).fold(0.0, f64::max);
    let (task, node0) = (peak(|s| s.task_bytes), peak(|s| s.node0_bytes));
    let launches: f64 = plan.steps.iter().map(|s| s.launches).sum();
    for (label, slow) in [("total", false), ("total, a slow node", true)] {
        let s = plan.seconds(slow);
        let _ = writeln!(
            out,
            "{label:<18} {:>9} {:>14} {:>13}  ({:.1} h, of which launches {} s; memory: the \
             peak of the steps)",
            secs(s),
            mb(task),
            mb(node0),
            s / 3600.0,
            secs(launches)
        );
    }
    let _ = writeln!(
        out,
        "launches: {} + {} N s each ({})",
        plan.machine.launch.0,
        plan.machine.launch.1,
        if plan.machine.launch == LAUNCH {
            "doc/scale.md, through a sequential remote agent; a site's launcher may start \
             faster: initest measures it, --launch takes it"
        } else {
            "yours (--launch)"
        }
    );
    out
}

/// The settings as shell assignments for qualify.sbatch's `eval` (an empty value: the
/// binary's default).
pub fn render_env(plan: &Plan) -> String {
    plan.env
        .iter()
        .map(
            |(name, value)| {
                if value.is_empty() {
                    format!("{name}=\n")
                } else {
                    format!("{name}='{value}'\n")
                }
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(nodes: u64, tasks_per_node: u64) -> Machine {
        Machine {
            nodes,
            tasks_per_node,
            memory_gb: DEFAULT_MEMORY_GB,
            link_gb_s: DEFAULT_LINK_GB_S,
            latency_us: DEFAULT_LATENCY_US,
            map: MATRIX,
            launch: LAUNCH,
        }
    }

    fn step<'a>(plan: &'a Plan, name: &str) -> &'a Step {
        plan.steps.iter().find(|s| s.name == name).unwrap()
    }

    #[test]
    fn at_1000_nodes_of_64_tasks_the_wide_buffers_fit_the_share() {
        let plan = plan(&machine(1000, 64));
        // 256 GB / 4 / 64 tasks = 1 GiB a task.
        assert_eq!(plan.share, GIB);
        // Alltoall: 2 x 64 000 x size <= 1 GiB: 8192 (16384 would need 2 GB).
        assert_eq!(plan.get("PLAN_MAX_COL_SIZE"), "8192");
        assert_eq!(plan.get("PLAN_MED_COL_SIZE"), "8192");
        assert!(2.0 * 64000.0 * 8192.0 <= plan.share && 2.0 * 64000.0 * 16384.0 > plan.share);
        assert_eq!(step(&plan, "col").task_bytes, 2.0 * 64000.0 * 8192.0);
        assert_eq!(plan.get("PLAN_COL_WIDE"), "col_a2a col_agtr col_agtrv col_gtr col_rsb col_sct");
        let imb = plan.get("PLAN_IMB_MPI1_ARGS");
        assert!(imb.starts_with("-npmin 64000 -msglog 0:13 -mem 1"), "{imb}");
        // IMB-EXT's Accumulate into task 0 (64 000 x 4 MiB a call) passes the budget.
        assert_eq!(plan.get("PLAN_IMB_EXT_ARGS"), "-npmin 64000 -time 12.5");
        assert_eq!(plan.get("PLAN_IMB_IO_ARGS"), "-npmin 64000");
        assert_eq!(plan.get("PLAN_MATRIX_SHIFTS"), "32");
        assert_eq!(plan.get("PLAN_FAN_WINDOW"), "16");
        assert_eq!(plan.get("PLAN_FAN_MAX_P2P_SIZE"), "");
        // Node 0 of the map: the histogram, 96 B a node, 9 windows of 1 MiB.
        let node0 = 8.0 * MIB + 96000.0 + 9.0 * MIB;
        assert_eq!(step(&plan, "fabric/p2p_matrix").node0_bytes, node0);
        for s in &plan.steps {
            assert!(s.task_bytes <= plan.share, "{}: {} B", s.name, s.task_bytes);
        }
        // The quick map: 32 shifts whatever N (doc/scale.md: 0.14 s).
        let map = step(&plan, "fabric/p2p_matrix").seconds - plan.machine.launch(1000.0);
        assert!((map - 0.14).abs() < 0.01, "{map}");
    }

    #[test]
    fn at_10000_nodes_the_lengths_come_down_further() {
        let plan = plan(&machine(10000, 64));
        assert_eq!(plan.get("PLAN_MAX_COL_SIZE"), "512");
        assert!(plan.get("PLAN_IMB_MPI1_ARGS").starts_with("-npmin 640000 -msglog 0:9 -mem 1"));
        assert!(plan.seconds(false) < 6.0 * 3600.0, "{}", render(&plan));
    }

    #[test]
    fn at_16_nodes_nothing_is_capped() {
        let plan = plan(&machine(16, 1));
        for name in ["PLAN_MAX_COL_SIZE", "PLAN_MATRIX_SHIFTS", "PLAN_FAN_MAX_P2P_SIZE"] {
            assert_eq!(plan.get(name), "", "{name}");
        }
        assert_eq!(plan.get("PLAN_IMB_MPI1_ARGS"), "-mem 64");
        assert_eq!(plan.get("PLAN_IMB_EXT_ARGS"), "");
        // The full map: 15 shifts of 6 x (barrier + 8 MiB / 22 GiB/s), as doc/scale.md.
        let map = step(&plan, "fabric/p2p_matrix").seconds - plan.machine.launch(16.0);
        assert!((map - 15.0 * 6.0 * (0.355e-3 + 0.3e-3 + 2.0 * 2.0 * 4.0 * 1.5e-6)).abs() < 1e-3);
    }

    #[test]
    fn the_map_follows_doc_scale_md() {
        // Predicted: 0.3 s at 64 nodes, 4.3 at 1000, 44 at 10 000 (full map), 0.14 quick.
        for (n, want) in [(64, 0.3), (1000, 4.3), (10000, 44.0)] {
            let full = map_seconds(&machine(n, 64), n as f64 - 1.0);
            assert!((full / want - 1.0).abs() < 0.2, "{n}: {full} against {want}");
        }
        let quick = map_seconds(&machine(10000, 64), 32.0);
        assert!((quick / 0.14 - 1.0).abs() < 0.2, "{quick}");
    }

    #[test]
    fn small_memory_caps_the_fan_tests_and_imb() {
        // 0.25 GB / 4 / 8 = 8 MiB a task; 2 nodes: 16 slots of 1 MB and a send buffer do
        // not fit, of 256 KiB they do.
        let two = plan(&Machine { memory_gb: 0.25, ..machine(2, 8) });
        assert_eq!(two.get("PLAN_FAN_MAX_P2P_SIZE"), "262144");
        assert_eq!(two.get("PLAN_FAN_MED_P2P_SIZE"), "");
        // 0.5 GB / 4 / 8 = 16 MiB a task; 4 nodes: 16 / 3 = 6 slots of 1 MB fit.
        let plan = plan(&Machine { memory_gb: 0.5, ..machine(4, 8) });
        assert_eq!(plan.get("PLAN_FAN_MAX_P2P_SIZE"), "");
        let imb = plan.get("PLAN_IMB_MPI1_ARGS");
        // -mem 0.015 (16 MiB rounded down to two digits); 2 x 32 x 2^b within it: b = 17.
        assert_eq!(imb, "-msglog 0:17 -mem 0.015", "{imb}");
        assert_eq!(gb(2.9425 * GIB), "2.9");
        assert_eq!(gb(64.0 * GIB), "64");
        assert_eq!(gb(0.3 * GIB), "0.3");
        assert_eq!(gb(GIB), "1");
    }

    #[test]
    fn the_env_form_is_shell_assignments() {
        let text = render_env(&plan(&machine(1000, 64)));
        for line in text.lines() {
            let (name, value) = line.split_once('=').unwrap();
            assert!(
                name.starts_with("PLAN_")
                    && name
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
            );
            assert!(
                value.is_empty() || (value.starts_with('\'') && value.ends_with('\'')),
                "{line}"
            );
        }
        assert!(text.contains("PLAN_MATRIX_SHIFTS='32'\n"), "{text}");
    }

    #[test]
    fn the_table_has_units_and_a_total() {
        let text = render(&plan(&machine(16, 1)));
        assert!(text.contains("time (s)") && text.contains("per task (MB)"), "{text}");
        assert!(text.contains("GB = 2^30 B, MB = 2^20 B"), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.iter().any(|l| l.starts_with("total ")), "{text}");
        for name in [
            "core",
            "nodes",
            "p2p",
            "col",
            "fabric/p2p_matrix",
            "fabric/retest",
            "fabric/fan_in+out",
            "imb-mpi1",
            "imb-ext",
            "imb-io",
            "b_eff ",
            "b_eff_io",
            "presta",
            "initest",
        ] {
            assert!(lines.iter().any(|l| l.starts_with(name)), "{name}\n{text}");
        }
    }
}
