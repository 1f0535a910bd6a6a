//! A suite: its [`Table`] and how it runs, the hooks the driver calls ([`Suite::prologue`],
//! [`Suite::start`]), the group a benchmark runs on ([`Ctx`]) and what a started benchmark
//! answers ([`Run`], [`ProcessTimes`]).

use crate::options::Options;
use crate::table::{Benchmark, Mode, Table};
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;

/// One of the IMB suites: its [`Table`] (reached through it: `suite.name`) and the hooks
/// the driver calls.
pub struct Suite<K: 'static> {
    /// What the suite is.
    pub table: Table<K>,
    /// Runs on every rank before the general block (checks, calibrations); returns the
    /// lines that close the general block, or an input error.
    pub prologue: fn(&Options, &SimpleCommunicator) -> Result<String, String>,
    /// Prepares benchmark `b` on the active processes of one group (not timed).
    pub start: for<'a> fn(&'static Benchmark<K>, Ctx<'a>, &Options) -> Started<'a>,
}

impl<K> std::ops::Deref for Suite<K> {
    type Target = Table<K>;
    fn deref(&self) -> &Table<K> {
        &self.table
    }
}

impl<K> std::fmt::Debug for Suite<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Suite({})", self.name)
    }
}

/// The active processes of one group, as a benchmark sees them.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// The group's communicator.
    pub comm: &'a SimpleCommunicator,
    /// This process's rank in the group.
    pub rank: usize,
    /// Processes in the group (Q).
    pub q: usize,
    /// The group's number in a Multi- run; None otherwise.
    pub group: Option<usize>,
    /// Every active process, of every group.
    pub active: &'a SimpleCommunicator,
    /// Groups running at once (1 outside Multi- runs).
    pub groups: usize,
}

impl std::fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ctx(rank {} of {}, group {:?})", self.rank, self.q, self.group)
    }
}

impl Ctx<'_> {
    /// Runs `f` (collective over this group) one group after the other, not timed: for
    /// what must not happen in several groups at once (Open MPI 4.1 names the shared
    /// memory of a new window after an id that disjoint groups share).
    pub fn in_turn<R>(&self, f: impl FnOnce() -> R) -> R {
        let mut f = Some(f);
        let mut out = None;
        for g in 0..self.groups {
            if self.group.unwrap_or(0) == g {
                out = f.take().map(|f| f());
            }
            self.active.barrier();
        }
        out.expect("every group has its turn")
    }

    /// The neighbours in the periodic chain: (left, right).
    pub fn chain(&self) -> (i32, i32) {
        let q = self.q as i32;
        let r = self.rank as i32;
        ((r - 1 + q) % q, (r + 1) % q)
    }
}

/// A started benchmark, or why it cannot run (one line, an input error).
pub type Started<'a> = Result<Box<dyn Run + 'a>, String>;

/// A benchmark prepared for one process count: what the driver asks of it. Errors are
/// one line naming what failed; the driver ends the job with them.
pub trait Run {
    /// `n` untimed runs at length `x` before the measurements (N_WARMUP).
    fn warm_up(&mut self, _x: usize, _n: usize) -> Result<(), String> {
        Ok(())
    }

    /// N_BARR barriers, then `reps` repetitions at length `x` in `mode`, timed: this
    /// process's times in usec per repetition.
    fn measure(&mut self, mode: Mode, x: usize, reps: usize) -> Result<ProcessTimes, String>;

    /// `-check`: one more untimed run at length `x` in `mode` with `reps` repetitions, its
    /// results compared with what the buffer values put there: the wrong elements here.
    fn check(&mut self, mode: Mode, x: usize, reps: usize) -> Result<u64, String>;
}

/// What one process measured at one length: usec per transfer (t_ovrl where computation
/// overlaps it; negative when the process took no part in the timing), t_pure and t_CPU
/// (overlap benchmarks and Truly_passive_put, else 0), defects found by `-check`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ProcessTimes {
    /// usec per transfer.
    pub t: f64,
    /// usec per transfer without computation beside it.
    pub pure: f64,
    /// usec of computation per transfer, undisturbed.
    pub cpu: f64,
    /// Wrong elements found.
    pub defects: f64,
}

impl ProcessTimes {
    /// As numbers, to gather.
    pub fn to_array(self) -> [f64; 4] {
        [self.t, self.pure, self.cpu, self.defects]
    }

    /// Back from [`ProcessTimes::to_array`].
    pub fn from_slice(v: &[f64]) -> ProcessTimes {
        ProcessTimes { t: v[0], pure: v[1], cpu: v[2], defects: v[3] }
    }
}
