//! The measurement loop: warm-up, NLOOP decision, NREPS timed samples, cross-rank combination.

use crate::calib::Calibration;
use crate::check::Verdict;
use crate::stats::Stats;
use crate::team::{Combine, Team};

/// How a sample's clock readings become a time per operation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Timing {
    /// NLOOP calls of the operation between two clock reads; the sample is the elapsed
    /// time divided by NLOOP x `ops_per_iter` (2 for a ping-pong reported one way).
    Batch {
        /// Operations one iteration counts for.
        ops_per_iter: f64,
    },
    /// Each of the NLOOP calls timed on its own, after a barrier outside the timing (for
    /// collectives: back-to-back calls would overlap); the sample is the sum of the NLOOP
    /// call times divided by NLOOP. Every call carries one clock read of overhead.
    PerCall,
}

impl Timing {
    fn ops_per_iter(self) -> f64 {
        match self {
            Timing::Batch { ops_per_iter } => ops_per_iter,
            Timing::PerCall => 1.0,
        }
    }

    /// Header text stating the model.
    pub fn describe(self) -> String {
        match self {
            Timing::Batch { ops_per_iter: 1.0 } => {
                "barrier, clock, NLOOP iterations, clock; sample = elapsed / NLOOP".to_string()
            }
            Timing::Batch { ops_per_iter } => format!(
                "barrier, clock, NLOOP iterations, clock; sample = elapsed / (NLOOP x {ops_per_iter})"
            ),
            Timing::PerCall => "NLOOP x (barrier, clock, one call, clock); sample = sum of the \
                                call times / NLOOP"
                .to_string(),
        }
    }
}

/// The outcome of measuring one workload.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    /// Iterations per sample.
    pub nloop: u64,
    /// Seconds per operation, one value per repetition, combined over ranks by the bench's
    /// rule.
    pub per_op: Vec<f64>,
    /// Seconds per operation per repetition, minimum over ranks.
    pub task_min: Vec<f64>,
    /// Seconds per operation per repetition, maximum over ranks.
    pub task_max: Vec<f64>,
}

/// Statistics of one derived quantity of a [`Measurement`], ready to be written as a row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// Statistics over the repetitions.
    pub stats: Stats,
    /// Iterations per sample.
    pub nloop: u64,
    /// Number of repetitions.
    pub nreps: usize,
    /// Data check of this size (`PAW_CHECK=1`).
    pub check: Verdict,
}

impl Row {
    /// The row with the data check's verdict attached.
    pub fn verdict(self, check: Verdict) -> Row {
        Row { check, ..self }
    }
}

impl Measurement {
    /// Medians over the repetitions of `f(minimum over ranks)` and `f(maximum over
    /// ranks)`: how far apart the fastest and slowest task were.
    pub fn spread(&self, f: impl Fn(f64) -> f64) -> [f64; 2] {
        let median = |v: &[f64]| Stats::of(&v.iter().map(|&t| f(t)).collect::<Vec<_>>()).median;
        [median(&self.task_min), median(&self.task_max)]
    }

    /// Row of `f(seconds per op)` over the repetitions, e.g. `|t| t * 1e6` for µs or
    /// `|t| bytes / t / MB` for bandwidth.
    pub fn row(&self, f: impl Fn(f64) -> f64) -> Row {
        let values: Vec<f64> = self.per_op.iter().map(|&t| f(t)).collect();
        Row {
            stats: Stats::of(&values),
            nloop: self.nloop,
            nreps: values.len(),
            check: Verdict::Unchecked,
        }
    }
}

/// Measures one workload after another, carrying the NLOOP calibration between them.
#[derive(Debug)]
pub struct Bench<'t, T: Team> {
    team: &'t T,
    timing: Timing,
    combine: Combine,
    calibration: Calibration,
    nreps: usize,
    last_nloop: Option<u64>,
}

/// The warm-up of a workload never runs longer than this (seconds) beyond its first
/// iteration, so a large first workload does not run NLOOP_MAX times just to be estimated.
const WARMUP_SECONDS: f64 = 1.0;

/// How often a size whose samples fell below the floor is re-run with NLOOP doubled.
const MAX_RERUNS: u32 = 10;

impl<'t, T: Team> Bench<'t, T> {
    /// A bench over `team`; call [`Bench::measure`] once per workload, smallest first.
    pub fn new(
        team: &'t T,
        timing: Timing,
        combine: Combine,
        calibration: Calibration,
        nreps: usize,
    ) -> Self {
        assert!(nreps >= 1);
        Bench { team, timing, combine, calibration, nreps, last_nloop: None }
    }

    /// The calibration state (budget and floor), for reports.
    pub fn calibration(&self) -> &Calibration {
        &self.calibration
    }

    /// The ranks measured.
    pub fn team(&self) -> &T {
        self.team
    }

    /// The timing model.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// How per-rank times are combined.
    pub fn combine(&self) -> Combine {
        self.combine
    }

    /// Measures `op` (collective: every rank calls this with its side of the operation).
    ///
    /// Runs a timed warm-up (one iteration, then up to the calibration's warm-up count but
    /// at most about a second more; its time per iteration is the slowest rank's), lets
    /// rank 0 choose NLOOP from it and broadcast it, then takes NREPS
    /// samples of NLOOP iterations each, with a barrier before every sample and nothing but
    /// `op` between the clock reads. Per-repetition times are combined over ranks.
    pub fn measure(&mut self, mut op: impl FnMut()) -> Measurement {
        let team = self.team;
        // Every estimate is the slowest rank's: rank 0 may have the least to do (a passive
        // target). First one timed iteration: a warm-up, and a bound on what more cost.
        team.barrier();
        let start = team.now();
        op();
        let probe = team.combine(&[team.now() - start], Combine::Max)[0];
        let wanted = self.calibration.warmup_iterations(self.last_nloop).saturating_sub(1);
        let affordable = (WARMUP_SECONDS / probe.max(1e-12)) as u64;
        let more = team.share_u64(if team.is_root() { wanted.min(affordable) } else { 0 });
        let t_iter = if more == 0 {
            probe
        } else {
            team.barrier();
            let start = team.now();
            for _ in 0..more {
                op();
            }
            team.combine(&[(team.now() - start) / more as f64], Combine::Max)[0]
        };
        let proposal = if team.is_root() { self.calibration.nloop(t_iter) } else { 0 };
        let mut nloop = team.share_u64(proposal);

        let mut reruns = 0;
        let (local, samples) = loop {
            let mut local = vec![0.0; self.nreps];
            for sample in local.iter_mut() {
                *sample = match self.timing {
                    Timing::Batch { .. } => {
                        team.barrier();
                        let t0 = team.now();
                        for _ in 0..nloop {
                            op();
                        }
                        team.now() - t0
                    }
                    Timing::PerCall => {
                        let mut sum = 0.0;
                        for _ in 0..nloop {
                            team.barrier();
                            let t0 = team.now();
                            op();
                            sum += team.now() - t0;
                        }
                        sum
                    }
                };
            }
            let combined = team.combine(&local, self.combine);
            let shortest = combined.iter().copied().fold(f64::INFINITY, f64::min);
            let rerun = team.is_root()
                && reruns < MAX_RERUNS
                && nloop < crate::calib::NLOOP_CAP / 2
                && self.calibration.too_short(shortest);
            if team.share_u64(rerun as u64) == 0 {
                break (local, combined);
            }
            nloop *= 2;
            reruns += 1;
        };
        self.last_nloop = Some(nloop);
        let per_iter = nloop as f64 * self.timing.ops_per_iter();
        let per_op = |v: Vec<f64>| v.iter().map(|s| s / per_iter).collect::<Vec<_>>();
        Measurement {
            nloop,
            per_op: per_op(samples),
            task_min: per_op(team.combine(&local, Combine::Min)),
            task_max: per_op(team.combine(&local, Combine::Max)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calib::Policy;
    use crate::config::Loops;
    use std::cell::Cell;

    /// A one-rank team whose clock only moves when the measured operation says so.
    struct FakeTeam {
        clock: Cell<f64>,
    }

    impl Team for FakeTeam {
        fn rank(&self) -> i32 {
            0
        }
        fn size(&self) -> usize {
            1
        }
        fn barrier(&self) {}
        fn now(&self) -> f64 {
            self.clock.get()
        }
        fn tick(&self) -> f64 {
            1e-9
        }
        fn clock_name(&self) -> &'static str {
            "fake"
        }
        fn share_u64(&self, value: u64) -> u64 {
            value
        }
        fn combine(&self, local: &[f64], _: Combine) -> Vec<f64> {
            local.to_vec()
        }
    }

    fn bench(team: &FakeTeam, policy: Policy, floor: f64) -> Bench<'_, FakeTeam> {
        let loops = Loops { nloop_max: 100, nloop_min: 1, nreps: 5 };
        Bench::new(
            team,
            Timing::Batch { ops_per_iter: 2.0 },
            Combine::Min,
            Calibration::new(loops, floor, policy),
            5,
        )
    }

    #[test]
    fn round_trip_is_halved_and_nloop_shrinks_with_size() {
        let team = FakeTeam { clock: Cell::new(0.0) };
        let mut b = bench(&team, Policy::Calibrated, 1e-6);
        let mut calls = 0u64;
        let m = b.measure(|| {
            calls += 1;
            team.clock.set(team.clock.get() + 2e-6)
        });
        assert_eq!(m.nloop, 100);
        assert_eq!(calls, 100 + 5 * 100, "warm-up of NLOOP_MAX, then NREPS x NLOOP");
        assert_eq!(m.per_op.len(), 5);
        for t in &m.per_op {
            assert!((t - 1e-6).abs() < 1e-15, "one-way time is half the round trip: {t}");
        }
        // Ten times the work per iteration: a tenth of the iterations.
        let m = b.measure(|| team.clock.set(team.clock.get() + 20e-6));
        assert_eq!(m.nloop, 10);
        let row = m.row(|t| t * 1e6);
        assert!((row.stats.mean - 10.0).abs() < 1e-9);
        assert_eq!(row.nreps, 5);
    }

    #[test]
    fn slow_first_workload_is_estimated_from_one_call() {
        // NLOOP_MAX warm-up iterations of 30 s would take an hour: the first call suffices,
        // and a sample is one call.
        let team = FakeTeam { clock: Cell::new(0.0) };
        let mut b = bench(&team, Policy::Calibrated, 1e-6);
        let mut calls = 0u64;
        let m = b.measure(|| {
            calls += 1;
            team.clock.set(team.clock.get() + 30.0)
        });
        assert_eq!((m.nloop, calls), (1, 1 + 5));
    }

    #[test]
    fn per_call_timing_counts_only_the_calls() {
        let team = FakeTeam { clock: Cell::new(0.0) };
        let loops = Loops { nloop_max: 10, nloop_min: 1, nreps: 3 };
        let mut b = Bench::new(
            &team,
            Timing::PerCall,
            Combine::Min,
            Calibration::new(loops, 1e-9, Policy::Calibrated),
            3,
        );
        let m = b.measure(|| team.clock.set(team.clock.get() + 5e-6));
        assert_eq!(m.nloop, 10);
        assert!(m.per_op.iter().all(|t| (t - 5e-6).abs() < 1e-15), "{:?}", m.per_op);
        assert_eq!(m.task_min, m.per_op);
        let [fastest, slowest] = m.spread(|t| t * 1e6);
        assert!((fastest - 5.0).abs() < 1e-9 && (slowest - 5.0).abs() < 1e-9);
    }

    #[test]
    fn samples_below_floor_are_rerun_with_more_iterations() {
        // The warm-up looks slow (cold), the real operation is fast: the first NLOOP is too
        // small for the floor and must be doubled until samples clear it.
        let team = FakeTeam { clock: Cell::new(0.0) };
        let mut b = bench(&team, Policy::Fewest, 1e-3);
        let mut first = true;
        let m = b.measure(|| {
            let dt = if first { 1.0 } else { 1e-4 };
            first = false;
            team.clock.set(team.clock.get() + dt)
        });
        assert_eq!(m.nloop, 16, "1 -> 2 -> 4 -> 8 -> 16 iterations of 0.1 ms reach 1 ms");
        assert!(m.per_op.iter().all(|t| (t - 0.5e-4).abs() < 1e-12));
    }
}
