//! The measurement loop: warm-up, NLOOP decision, NREPS timed samples (more with
//! PAW_PRECISION), cross-rank combination.

use crate::calib::Calibration;
use crate::config::Until;
use crate::error::{Error, Result};
use crate::stats::Stats;
use crate::team::{Combine, Team};
use crate::{process, watchdog};
use std::fmt::Display;

mod describe;
mod measurement;

pub use measurement::{percentile, Measurement, Singles, Tail, TAIL_COLUMNS};

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
    /// Like `Batch`, with an iteration of ROUNDS rounds, ROUNDS set per workload
    /// ([`Bench::set_rounds`]): the sample is the elapsed time divided by NLOOP x ROUNDS x
    /// `ops_per_round`.
    Rounds {
        /// Operations one round counts for.
        ops_per_round: f64,
    },
}

impl Timing {
    fn ops_per_iter(self) -> f64 {
        match self {
            Timing::Batch { ops_per_iter } => ops_per_iter,
            Timing::Rounds { ops_per_round } => ops_per_round,
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
            Timing::Rounds { ops_per_round } => format!(
                "barrier, clock, NLOOP iterations of ROUNDS rounds each (ROUNDS per size, in \
                 its column), clock; sample = elapsed / (NLOOP x ROUNDS x {ops_per_round})"
            ),
        }
    }
}

/// Measures one workload after another, carrying the NLOOP calibration between them.
#[derive(Debug)]
pub struct Bench<'t, T: Team> {
    team: &'t T,
    timing: Timing,
    combine: Combine,
    rule: Combine,
    calibration: Calibration,
    last_nloop: Option<u64>,
    steps: usize,
    hang: Option<(i32, usize)>,
    warned: bool,
    tail: Option<Tail>,
    rounds: u64,
}

/// The warm-up of a workload never runs longer than this (seconds) beyond its first
/// iteration, so a large first workload does not run NLOOP_MAX times just to be estimated.
const WARMUP_SECONDS: f64 = 1.0;

/// How often a size whose samples fell below the floor is re-run with NLOOP doubled.
const MAX_RERUNS: u32 = 10;

/// [`Bench::calibrate_rounds`] makes an iteration this many times what it costs beyond its
/// rounds.
pub const ROUNDS_SHARE: f64 = 20.0;

/// The most rounds [`Bench::calibrate_rounds`] gives an iteration.
pub const MAX_ROUNDS: u64 = 1 << 16;

/// PAW_PRECISION never takes a size beyond this many samples.
pub const MAX_SAMPLES: usize = 10_000;

impl<'t, T: Team> Bench<'t, T> {
    /// A bench over `team` combining ranks by `combine` (the benchmark's own rule is
    /// `rule`, for the header); call [`Bench::measure`] once per workload, smallest first.
    pub fn new(
        team: &'t T,
        timing: Timing,
        combine: Combine,
        rule: Combine,
        calibration: Calibration,
    ) -> Self {
        assert!(calibration.loops().nreps >= 1);
        Bench {
            team,
            timing,
            combine,
            rule,
            calibration,
            last_nloop: None,
            steps: 0,
            hang: watchdog::test_hang(),
            warned: false,
            tail: None,
            rounds: 1,
        }
    }

    /// Rounds per iteration of the next workloads, under [`Timing::Rounds`].
    pub fn set_rounds(&mut self, rounds: u64) {
        assert!(
            rounds >= 1 && matches!(self.timing, Timing::Rounds { .. }),
            "rounds of Timing::Rounds"
        );
        self.rounds = rounds;
    }

    /// Rounds per iteration of the next workloads (1 but under [`Timing::Rounds`]).
    pub fn rounds(&self) -> u64 {
        self.rounds
    }

    /// Chooses and sets ROUNDS for the next workload, under [`Timing::Rounds`]: doubled from
    /// 1 (at most `MAX_ROUNDS`) until one iteration of that many rounds (`iteration(rounds)`,
    /// timed here) lasts `ROUNDS_SHARE` times the larger of `overhead` (what an iteration
    /// costs beyond its rounds) and a one-round iteration, so that this cost weighs about
    /// 5 % of it. Rank 0 decides; every rank runs the same iterations.
    pub fn calibrate_rounds(&mut self, overhead: f64, mut iteration: impl FnMut(u64)) -> u64 {
        let (mut rounds, mut overhead) = (1, overhead);
        loop {
            let t0 = self.team.now();
            iteration(rounds);
            let t = self.team.now() - t0;
            if rounds == 1 {
                overhead = overhead.max(t);
            }
            let long = t >= ROUNDS_SHARE * overhead || rounds >= MAX_ROUNDS;
            if self.team.share_u64(long as u64) == 1 {
                break;
            }
            rounds *= 2;
        }
        self.set_rounds(rounds);
        rounds
    }

    /// Operations one iteration counts for.
    fn ops_per_iter(&self) -> f64 {
        self.timing.ops_per_iter() * self.rounds as f64
    }

    /// The bench with PAW_TAIL's single-iteration timing after each workload's samples.
    pub fn with_tail(self, tail: Option<Tail>) -> Self {
        Bench { tail, ..self }
    }

    /// Times PAW_TAIL's single iterations `singles` way (the caller knows its kernel: a
    /// ping-pong is [`Singles::Leader`], a collective [`Singles::Separated`]).
    pub fn singles(&mut self, singles: Singles) {
        if let Some(t) = self.tail.as_mut() {
            t.singles = singles;
        }
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
    /// `step` names the workload (a size, a kernel) for the watchdog.
    ///
    /// Runs a timed warm-up (one iteration, then up to the calibration's warm-up count but
    /// at most about a second more; its time per iteration is the slowest rank's), lets
    /// rank 0 choose NLOOP from it and broadcast it, then takes NREPS samples of NLOOP
    /// iterations each, with a barrier before every sample and nothing but `op` between the
    /// clock reads; with PAW_PRECISION, rank 0 adds samples until the median is as precise
    /// as asked or the time is spent. Per-repetition times are combined over ranks.
    pub fn measure(&mut self, step: impl Display, mut op: impl FnMut()) -> Result<Measurement> {
        let team = self.team;
        let label = step.to_string();
        let what = if label.parse::<f64>().is_ok() { "size" } else { "step" };
        watchdog::step(format!("the measurement at {what} {label}"));
        if self.hang == Some((team.rank(), self.steps)) {
            watchdog::hang_forever();
        }
        self.steps += 1;
        let nloop = self.choose_nloop(&mut op)?;
        let (nloop, mut local, first) = self.first_samples(&label, nloop, &mut op)?;
        let per_iter = nloop as f64 * self.ops_per_iter();
        let per_op = |v: &[f64]| v.iter().map(|s| s / per_iter).collect::<Vec<_>>();
        self.add_samples(&mut local, first, nloop, &per_op, &mut op);
        self.last_nloop = Some(nloop);
        let singles = match self.tail {
            Some(tail) => self.single_times(tail, &mut op),
            None => vec![],
        };
        static MEASUREMENTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Ok(Measurement {
            id: MEASUREMENTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            nloop,
            per_op: per_op(&team.combine(&local, self.combine)),
            task_min: per_op(&team.combine(&local, Combine::Min)),
            task_max: per_op(&team.combine(&local, Combine::Max)),
            singles,
        })
    }

    /// The warm-up and NLOOP: one timed iteration, then up to the calibration's warm-up
    /// count but at most about [`WARMUP_SECONDS`] more (exactly PAW_WARMUP where set; none
    /// for PAW_WARMUP=0 with NLOOP fixed); rank 0 chooses NLOOP from the
    /// slowest rank's time per iteration (rank 0 may have the least to do: a passive target).
    fn choose_nloop(&mut self, op: &mut impl FnMut()) -> Result<u64> {
        let team = self.team;
        let warmup = self.calibration.warmup_iterations(self.last_nloop);
        if let (0, Some(n)) = (warmup, self.calibration.loops().nloop) {
            return Ok(n);
        }
        team.barrier();
        let start = team.now();
        op();
        let probe = team.combine(&[team.now() - start], Combine::Max)[0];
        let wanted = warmup.saturating_sub(1);
        let affordable = match self.calibration.loops().warmup {
            Some(_) => u64::MAX,
            None => (WARMUP_SECONDS / probe.max(1e-12)) as u64,
        };
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
        let proposal = if team.is_root() { Some(self.calibration.nloop(t_iter)) } else { None };
        let ok = team.share_u64(!matches!(proposal, Some(Err(_))) as u64) == 1;
        match proposal {
            Some(Err(e)) => Err(Error::input(e)),
            _ if !ok => Err(Error::input("NLOOP settings cannot be met (reported by rank 0)")),
            Some(Ok(n)) => Ok(team.share_u64(n)),
            None => Ok(team.share_u64(0)),
        }
    }

    /// NREPS samples of `nloop` iterations, taken again with NLOOP doubled while rank 0
    /// finds them under the timer's floor (at most [`MAX_RERUNS`] times): the NLOOP used,
    /// this rank's samples and how long they took.
    fn first_samples(
        &mut self,
        step: &str,
        mut nloop: u64,
        op: &mut impl FnMut(),
    ) -> Result<(u64, Vec<f64>, f64)> {
        let team = self.team;
        let nreps = self.calibration.loops().nreps as usize;
        let mut reruns = 0;
        loop {
            let t0 = team.now();
            let local = self.samples(nreps, nloop, op);
            let first = team.now() - t0;
            let combined = team.combine(&local, self.combine);
            let shortest = combined.iter().copied().fold(f64::INFINITY, f64::min);
            // Rank 0 decides: go on, measure again with NLOOP doubled, or stop (a range of
            // the user's that cannot clear the floor).
            let decision = if team.is_root() {
                match self.calibration.again(nloop, shortest) {
                    Ok(Some(_)) if reruns < MAX_RERUNS && nloop < crate::calib::NLOOP_CAP / 2 => {
                        Ok(1)
                    }
                    Ok(_) => Ok(0),
                    Err(e) => Err(e),
                }
            } else {
                Ok(0)
            };
            match team.share_u64(decision.as_ref().map_or(2, |d| *d)) {
                2 => {
                    return Err(Error::input(decision.err().unwrap_or_else(|| {
                        "NLOOP settings cannot be met (reported by rank 0)".to_string()
                    })))
                }
                1 => {
                    nloop *= 2;
                    reruns += 1;
                }
                _ => {
                    if shortest < self.calibration.floor() && !self.warned {
                        self.warned = true;
                        process::warn(&format!(
                            "at step {step} samples of NLOOP={nloop} iterations last {:.3} usec, \
                             under the timer floor of {:.3} usec: their times carry the clock's error",
                            shortest * 1e6,
                            self.calibration.floor() * 1e6
                        ));
                    }
                    return Ok((nloop, local, first));
                }
            }
        }
    }

    /// Unless NREPS is fixed, rank 0 adds samples to `local` in growing batches until the
    /// interval is as narrow as asked, as long as the next batch fits in the size's budget
    /// (at its samples' mean time; 10 % slack, as that estimate is only an estimate).
    fn add_samples(
        &mut self,
        local: &mut Vec<f64>,
        first: f64,
        nloop: u64,
        per_op: &impl Fn(&[f64]) -> Vec<f64>,
        op: &mut impl FnMut(),
    ) {
        let team = self.team;
        let loops = *self.calibration.loops();
        let until = loops.until();
        if until == Until::Fixed {
            return;
        }
        let nreps = loops.nreps as usize;
        let budget = loops.budget(first);
        let started = team.now();
        let mut combined = team.combine(local, self.combine);
        loop {
            let add = (local.len() / 2).max(nreps).min(MAX_SAMPLES - local.len());
            let enough = team.is_root() && {
                let stats = Stats::of(&per_op(&combined));
                let reached = match until {
                    Until::Reach(p) => stats.relative_reach() <= p,
                    _ => !stats.noisy(loops.tolerance),
                };
                let spent = team.now() - started;
                let next = add as f64 * (first + spent) / local.len() as f64;
                reached || add == 0 || spent + next > budget * 1.1
            };
            if team.share_u64(enough as u64) == 1 {
                break;
            }
            local.extend(self.samples(add, nloop, op));
            combined = team.combine(local, self.combine);
        }
    }

    /// PAW_TAIL's single iterations: seconds per operation, ascending (rank 0's are the
    /// ones reported).
    fn single_times(&self, tail: Tail, op: &mut impl FnMut()) -> Vec<f64> {
        let team = self.team;
        let mut local = vec![0.0; tail.count as usize];
        team.barrier();
        match tail.singles {
            Singles::Leader => {
                let mut before = team.now();
                for t in local.iter_mut() {
                    op();
                    let now = team.now();
                    *t = now - before;
                    before = now;
                }
            }
            Singles::Separated => {
                for t in local.iter_mut() {
                    team.barrier();
                    let t0 = team.now();
                    op();
                    *t = team.now() - t0;
                }
                local = team.combine(&local, self.combine);
            }
        }
        watchdog::alive();
        let ops = self.ops_per_iter();
        let mut singles: Vec<f64> = local.iter().map(|t| t / ops).collect();
        singles.sort_by(f64::total_cmp);
        singles
    }

    /// `count` samples of `nloop` iterations each: this rank's seconds per sample.
    fn samples(&self, count: usize, nloop: u64, op: &mut impl FnMut()) -> Vec<f64> {
        let team = self.team;
        let mut local = vec![0.0; count];
        for sample in local.iter_mut() {
            *sample = match self.timing {
                Timing::Batch { .. } | Timing::Rounds { .. } => {
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
            watchdog::alive();
        }
        local
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calib::Policy;
    use crate::config::Loops;
    use crate::timer::TimerInfo;
    use std::cell::Cell;
    use std::sync::{Arc, Barrier, Mutex};

    /// A one-rank team whose clock only moves when the measured operation says so.
    type FakeTeam = ThreadTeam;

    impl ThreadTeam {
        /// A team of one, its clock at 0.
        fn alone() -> ThreadTeam {
            ThreadTeam {
                rank: 0,
                size: 1,
                clock: Cell::new(0.0),
                meet: Arc::new(Barrier::new(1)),
                slots: Arc::new(Mutex::new(vec![Vec::new()])),
            }
        }
    }

    const LOOPS: Loops = Loops {
        nloop: None,
        nloop_max: 100,
        nloop_max_set: false,
        nloop_min: Some(1),
        warmup: None,
        nreps: 5,
        nreps_set: true,
        precision: None,
        max_time: 10.0,
        max_time_set: false,
        tolerance: 0.05,
    };

    fn bench_with(
        team: &FakeTeam,
        loops: Loops,
        policy: Policy,
        floor: f64,
    ) -> Bench<'_, FakeTeam> {
        let timing = Timing::Batch { ops_per_iter: 2.0 };
        Bench::new(team, timing, Combine::Min, Combine::Min, Calibration::new(loops, floor, policy))
    }

    fn bench(team: &FakeTeam, policy: Policy, floor: f64) -> Bench<'_, FakeTeam> {
        bench_with(team, LOOPS, policy, floor)
    }

    /// A measurement at size 1 of an operation taking `seconds`, and how often it ran.
    fn counted(b: &mut Bench<'_, FakeTeam>, team: &FakeTeam, seconds: f64) -> (Measurement, u64) {
        let mut calls = 0u64;
        let m = b
            .measure(1, || {
                calls += 1;
                team.clock.set(team.clock.get() + seconds)
            })
            .unwrap();
        (m, calls)
    }

    #[test]
    fn round_trip_is_halved_and_nloop_shrinks_with_size() {
        let team = FakeTeam::alone();
        let mut b = bench(&team, Policy::Calibrated, 1e-6);
        let (m, calls) = counted(&mut b, &team, 2e-6);
        assert_eq!(m.nloop, 100);
        assert_eq!(calls, 100 + 5 * 100, "warm-up of NLOOP_MAX, then NREPS x NLOOP");
        assert_eq!(m.per_op.len(), 5);
        for t in &m.per_op {
            assert!((t - 1e-6).abs() < 1e-15, "one-way time is half the round trip: {t}");
        }
        // Ten times the work per iteration: a tenth of the iterations.
        let m = b.measure(2, || team.clock.set(team.clock.get() + 20e-6)).unwrap();
        assert_eq!(m.nloop, 10);
        let row = m.row(|t| t * 1e6);
        assert!((row.stats.mean - 10.0).abs() < 1e-9);
        assert_eq!(row.nreps, 5);
    }

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(percentile(&v, 50.0), 100.0);
        assert_eq!(percentile(&v, 99.0), 198.0);
        assert_eq!(percentile(&v, 100.0), 200.0);
        assert_eq!(percentile(&[7.0], 50.0), 7.0);
        assert_eq!(percentile(&[1.0, 2.0, 3.0], 90.0), 3.0, "ceil(2.7) = 3rd");
    }

    #[test]
    fn tail_times_single_iterations_after_the_samples() {
        // Every tenth call takes 10 usec, the others 2 (a round trip: 1 and 5 one way).
        let team = FakeTeam::alone();
        let timer = TimerInfo { overhead: 2e-8, step: 1e-8, tick: 1e-9 };
        let tail = Tail { count: 1000, singles: Singles::Leader, timer };
        let mut b = bench(&team, Policy::Calibrated, 1e-6).with_tail(Some(tail));
        let calls = Cell::new(0u64);
        let m = b
            .measure(1, || {
                calls.set(calls.get() + 1);
                let dt = if calls.get().is_multiple_of(10) { 10e-6 } else { 2e-6 };
                team.clock.set(team.clock.get() + dt)
            })
            .unwrap();
        assert_eq!(m.singles.len(), 1000);
        let [p50, p90, p99, max] = m.tail(|t| t * 1e6)[..] else { panic!() };
        assert!((p50 - 1.0).abs() < 1e-9 && (p90 - 1.0).abs() < 1e-9, "{p50} {p90}");
        assert!((p99 - 5.0).abs() < 1e-9 && (max - 5.0).abs() < 1e-9, "{p99} {max}");
        assert!(b.tail_line().unwrap().contains("PAW_TAIL=1000 single iterations"));
        assert_eq!(b.tail_columns().len(), 4);
        // Off: no columns, no values.
        let mut off = bench(&team, Policy::Calibrated, 1e-6);
        assert!(off.tail_columns().is_empty());
        let m = off.measure(1, || team.clock.set(team.clock.get() + 1e-6)).unwrap();
        assert!(m.tail(|t| t).is_empty());
    }

    #[test]
    fn rounds_divide_the_sample_by_the_rounds_of_each_workload() {
        let team = FakeTeam::alone();
        let loops = Loops { nloop: Some(4), ..LOOPS };
        let cal = Calibration::new(loops, 1e-9, Policy::Calibrated);
        let timing = Timing::Rounds { ops_per_round: 2.0 };
        let mut b = Bench::new(&team, timing, Combine::Min, Combine::Min, cal);
        for rounds in [1u64, 8] {
            b.set_rounds(rounds);
            // An iteration of `rounds` round trips of 2 usec each: 1 usec one way.
            let m =
                b.measure(1, || team.clock.set(team.clock.get() + rounds as f64 * 2e-6)).unwrap();
            assert!(m.per_op.iter().all(|t| (t - 1e-6).abs() < 1e-12), "{:?}", m.per_op);
        }
        assert!(timing.describe().contains("NLOOP x ROUNDS x 2"));
    }

    #[test]
    fn slow_first_workload_is_estimated_from_one_call() {
        // NLOOP_MAX warm-up iterations of 30 s would take an hour: the first call suffices,
        // and a sample is one call.
        let team = FakeTeam::alone();
        let mut b = bench(&team, Policy::Calibrated, 1e-6);
        let (m, calls) = counted(&mut b, &team, 30.0);
        assert_eq!((m.nloop, calls), (1, 1 + 5));
    }

    #[test]
    fn per_call_timing_counts_only_the_calls() {
        let team = FakeTeam::alone();
        let loops = Loops { nloop_max: 10, nreps: 3, ..LOOPS };
        let cal = Calibration::new(loops, 1e-9, Policy::Calibrated);
        let mut b = Bench::new(&team, Timing::PerCall, Combine::Min, Combine::Min, cal);
        let m = b.measure(1, || team.clock.set(team.clock.get() + 5e-6)).unwrap();
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
        let team = FakeTeam::alone();
        let mut b = bench(&team, Policy::Fewest, 1e-3);
        let mut first = true;
        let m = b
            .measure(1, || {
                let dt = if first { 1.0 } else { 1e-4 };
                first = false;
                team.clock.set(team.clock.get() + dt)
            })
            .unwrap();
        assert_eq!(m.nloop, 16, "1 -> 2 -> 4 -> 8 -> 16 iterations of 0.1 ms reach 1 ms");
        assert!(m.per_op.iter().all(|t| (t - 0.5e-4).abs() < 1e-12));
    }

    #[test]
    fn fixed_nloop_is_never_doubled() {
        let team = FakeTeam::alone();
        let loops = Loops { nloop: Some(3), ..LOOPS };
        let mut b = bench_with(&team, loops, Policy::Calibrated, 1e-3);
        let m = b.measure(1, || team.clock.set(team.clock.get() + 1e-6)).unwrap();
        assert_eq!(m.nloop, 3);
    }

    #[test]
    fn unmeetable_nloop_max_is_an_input_error() {
        let team = FakeTeam::alone();
        let loops = Loops { nloop_max: 5, nloop_max_set: true, nloop_min: Some(5), ..LOOPS };
        let mut b = bench_with(&team, loops, Policy::Calibrated, 1e-3);
        let e = b.measure(1, || team.clock.set(team.clock.get() + 1e-6)).unwrap_err();
        assert_eq!(e.code(), 2);
        assert!(e.message().contains("NLOOP_MAX=5 cannot both be met"), "{e}");
    }

    /// A clock that advances by a noisy operation time: every `spike`-th call takes ten
    /// times longer.
    fn noisy(team: &FakeTeam, calls: &Cell<u64>, spike: u64) {
        calls.set(calls.get() + 1);
        let dt = if calls.get().is_multiple_of(spike) {
            1e-3
        } else {
            1e-4 + (calls.get() % 7) as f64 * 1e-6
        };
        team.clock.set(team.clock.get() + dt);
    }

    #[test]
    fn precision_adds_samples_until_the_interval_is_narrow() {
        let team = FakeTeam::alone();
        let loops = Loops { nloop: Some(1), nreps: 5, precision: Some(0.02), ..LOOPS };
        let mut b = bench_with(&team, loops, Policy::Fewest, 1e-9);
        let calls = Cell::new(0);
        let m = b.measure(1, || noisy(&team, &calls, 3)).unwrap();
        let s = Stats::of(&m.per_op);
        assert!(m.per_op.len() > 5, "samples were added");
        assert!(s.relative_reach() <= 0.02, "{s:?}");
        // Without PAW_PRECISION: NREPS samples and a wide interval.
        let mut plain = bench_with(&team, Loops { precision: None, ..loops }, Policy::Fewest, 1e-9);
        let m = plain.measure(1, || noisy(&team, &calls, 3)).unwrap();
        assert_eq!(m.per_op.len(), 5);
    }

    #[test]
    fn precision_stops_at_the_time_budget() {
        // Every other sample is ten times longer: the interval never narrows below 2%, so
        // the 0.05 s budget (about 90 samples of 0.1-1 ms) ends the size before the next
        // batch would pass it.
        let team = FakeTeam::alone();
        let loops =
            Loops { nloop: Some(1), nreps: 5, precision: Some(0.02), max_time: 0.05, ..LOOPS };
        let mut b = bench_with(&team, loops, Policy::Fewest, 1e-9);
        let calls = Cell::new(0);
        let before = team.clock.get();
        let m = b.measure(1, || noisy(&team, &calls, 2)).unwrap();
        assert!(m.per_op.len() > 5 && m.per_op.len() < MAX_SAMPLES, "{}", m.per_op.len());
        let spent = team.clock.get() - before;
        assert!((0.03..0.05).contains(&spent), "stopped after {spent} s");
    }

    #[test]
    fn by_default_samples_are_added_until_the_row_is_not_noisy_within_a_budget() {
        let team = FakeTeam::alone();
        let loops = Loops { nloop: Some(1), nreps: 5, nreps_set: false, ..LOOPS };
        assert_eq!(loops.until(), Until::Narrow);
        let mut b = bench_with(&team, loops, Policy::Fewest, 1e-9);
        // A steady operation: the first samples are narrow, none is added.
        let m = b.measure(1, || team.clock.set(team.clock.get() + 1e-4)).unwrap();
        assert_eq!(m.per_op.len(), 5);
        // Every other call ten times longer never narrows: the budget (twice the first five
        // samples' time) ends the size after two batches of five, before a third of seven
        // would pass it.
        let calls = Cell::new(0);
        let m = b.measure(1, || noisy(&team, &calls, 2)).unwrap();
        assert_eq!(m.per_op.len(), 15);
        assert!(Stats::of(&m.per_op).noisy(0.05));
        let first: f64 = m.per_op[..5].iter().sum();
        let added: f64 = m.per_op[5..].iter().sum();
        assert!(added <= 2.2 * first, "{added} s added to {first} s");
        // Every third call longer: with PAW_MAX_TIME's second, samples are added until the
        // spikes fall outside the median's interval.
        let loops = Loops { max_time: 1.0, max_time_set: true, ..loops };
        let mut b = bench_with(&team, loops, Policy::Fewest, 1e-9);
        let m = b.measure(1, || noisy(&team, &calls, 3)).unwrap();
        let s = Stats::of(&m.per_op);
        assert!(m.per_op.len() > 10 && !s.noisy(0.05), "{} samples, {s:?}", m.per_op.len());
    }

    /// Ranks as threads: collectives meet at a barrier and exchange through shared slots.
    struct ThreadTeam {
        rank: i32,
        size: usize,
        clock: Cell<f64>,
        meet: Arc<Barrier>,
        slots: Arc<Mutex<Vec<Vec<f64>>>>,
    }

    impl ThreadTeam {
        fn exchange(&self, mine: Vec<f64>) -> Vec<Vec<f64>> {
            self.slots.lock().unwrap()[self.rank as usize] = mine;
            self.meet.wait();
            let all = self.slots.lock().unwrap().clone();
            self.meet.wait();
            all
        }
    }

    impl Team for ThreadTeam {
        fn rank(&self) -> i32 {
            self.rank
        }
        fn size(&self) -> usize {
            self.size
        }
        fn barrier(&self) {
            self.meet.wait();
        }
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
            self.exchange(vec![f64::from_bits(value)])[0][0].to_bits()
        }
        fn share_bytes(&self, bytes: Vec<u8>) -> Vec<u8> {
            bytes
        }
        fn combine(&self, local: &[f64], how: Combine) -> Vec<f64> {
            let all = self.exchange(local.to_vec());
            (0..local.len())
                .map(|i| {
                    let v = all.iter().map(|r| r[i]);
                    match how {
                        Combine::Min => v.fold(f64::INFINITY, f64::min),
                        Combine::Max => v.fold(f64::NEG_INFINITY, f64::max),
                        Combine::Avg => v.sum::<f64>() / self.size as f64,
                    }
                })
                .collect()
        }
    }

    #[test]
    fn every_rank_runs_the_same_number_of_samples() {
        // Each rank sees different noise; only rank 0 decides, so all must agree on the
        // count (a disagreement would deadlock the barriers, or give unequal lengths).
        let size = 3;
        let meet = Arc::new(Barrier::new(size));
        let slots = Arc::new(Mutex::new(vec![Vec::new(); size]));
        let counts: Vec<(usize, u64)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..size)
                .map(|r| {
                    let (meet, slots) = (meet.clone(), slots.clone());
                    s.spawn(move || {
                        let team =
                            ThreadTeam { rank: r as i32, size, clock: Cell::new(0.0), meet, slots };
                        let loops = Loops {
                            nloop: Some(1),
                            nreps: 5,
                            precision: Some(0.01),
                            max_time: 1.0,
                            ..LOOPS
                        };
                        let cal = Calibration::new(loops, 1e-9, Policy::Calibrated);
                        let timing = Timing::Batch { ops_per_iter: 1.0 };
                        let mut b = Bench::new(&team, timing, Combine::Max, Combine::Max, cal);
                        let calls = Cell::new(r as u64);
                        let m = b
                            .measure(1, || {
                                calls.set(calls.get() + 1);
                                let dt = 1e-5 * (1.0 + (calls.get() * (r as u64 + 3) % 11) as f64);
                                team.clock.set(team.clock.get() + dt);
                            })
                            .unwrap();
                        (m.per_op.len(), m.nloop)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(counts[0].0 > 5, "samples were added: {counts:?}");
        assert!(counts.iter().all(|c| *c == counts[0]), "{counts:?}");
    }
}
