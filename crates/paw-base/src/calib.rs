//! How many iterations go between two clock reads (PAW §3, step 2).
//!
//! Only rank 0 calls into this module; the loop count it picks is broadcast.

use crate::config::Loops;

/// A first-workload sample is cut to about this many seconds when NLOOP_MAX iterations
/// would take longer (PAW assumes the first workload is small; a sweep may start large).
pub const FIRST_SAMPLE_CAP: f64 = 1.0;

/// Largest NLOOP ever chosen, whatever the estimates say.
pub const NLOOP_CAP: u64 = 1_000_000_000;

/// Which rule sets NLOOP (unless NLOOP fixes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// PAW §3: the first (smallest) workload runs NLOOP_MAX iterations (more if a sample
    /// would not clear the floor); that sample length becomes the budget, and later workloads
    /// run as many iterations as fit in it, within [lowest, NLOOP_MAX].
    Calibrated,
    /// The fewest iterations that clear the floor, at least NLOOP_MIN when set: one call
    /// per sample, as STREAM times its passes (single-size tests such as
    /// `blas_dgemm_single` and `stream`, whose one call lasts far longer than the floor).
    Fewest,
}

/// The loop-count decisions of one sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    loops: Loops,
    floor: f64,
    policy: Policy,
    budget: Option<f64>,
}

impl Calibration {
    /// A calibration with the given limits and floor (seconds a sample must last at least).
    pub fn new(loops: Loops, floor: f64, policy: Policy) -> Calibration {
        Calibration { loops, floor, policy, budget: None }
    }

    /// The sample length later workloads aim at, once the first workload set it.
    pub fn budget(&self) -> Option<f64> {
        self.budget
    }

    /// The shortest trustworthy sample, in seconds.
    pub fn floor(&self) -> f64 {
        self.floor
    }

    /// The loop controls in effect.
    pub fn loops(&self) -> &Loops {
        &self.loops
    }

    /// How many warm-up iterations to run (and time) before deciding NLOOP for a workload.
    ///
    /// The first workload of a calibrated sweep is timed with NLOOP_MAX iterations (PAW §3);
    /// later ones with a tenth of the previous NLOOP; [`Policy::Fewest`] and a fixed NLOOP
    /// with one; PAW_WARMUP, where set, decides (0 only with NLOOP fixed: nothing to time).
    pub fn warmup_iterations(&self, previous_nloop: Option<u64>) -> u64 {
        if let Some(w) = self.loops.warmup {
            return if self.loops.nloop.is_some() { w } else { w.max(1) };
        }
        match (self.policy, previous_nloop) {
            _ if self.loops.nloop.is_some() => 1,
            (Policy::Fewest, _) => 1,
            (Policy::Calibrated, None) => self.loops.nloop_max,
            (Policy::Calibrated, Some(n)) => (n / 10).max(1),
        }
    }

    /// NLOOP for a workload whose one iteration takes about `t_iter` seconds, or why the
    /// settings cannot be met: a range NLOOP_MIN..NLOOP_MAX the user set whose top is
    /// below what the floor needs (with NLOOP_MAX alone the floor wins, as the header says).
    pub fn nloop(&mut self, t_iter: f64) -> Result<u64, String> {
        if let Some(n) = self.loops.nloop {
            return Ok(n);
        }
        let t = t_iter.max(1e-12);
        let above_floor = ceil_count(self.floor / t);
        let max = self.loops.nloop_max;
        if let (true, Some(min)) = (self.loops.nloop_max_set, self.loops.nloop_min) {
            if above_floor > max {
                return Err(format!(
                    "NLOOP_MIN={min} and NLOOP_MAX={max} cannot both be met: one iteration takes \
                     {:.4} usec here, so {max} iterations last {:.4} usec, under the timer floor \
                     of {:.4} usec; accepted: NLOOP_MAX >= {above_floor}, or NLOOP={max} to run \
                     exactly {max} iterations per sample",
                    t * 1e6,
                    max as f64 * t * 1e6,
                    self.floor * 1e6
                ));
            }
        }
        let lowest = self.loops.lowest(t).max(above_floor);
        let n = match (self.policy, self.budget) {
            (Policy::Fewest, _) => self.loops.nloop_min.unwrap_or(1).max(above_floor),
            (Policy::Calibrated, None) => {
                // NLOOP_MAX iterations, unless a sample would then last more than
                // FIRST_SAMPLE_CAP seconds (a large first workload): then as many as fit.
                let fit = ceil_count(FIRST_SAMPLE_CAP / t).max(lowest);
                let n = max.max(above_floor).min(fit);
                self.budget = Some(n as f64 * t);
                n
            }
            (Policy::Calibrated, Some(budget)) => {
                ceil_count(budget / t).clamp(lowest, max.max(lowest))
            }
        };
        Ok(n.min(NLOOP_CAP))
    }

    /// Whether a measured sample (seconds for NLOOP iterations) is too short to trust and
    /// the workload should be measured again with NLOOP doubled (never with NLOOP fixed).
    pub fn too_short(&self, sample: f64) -> bool {
        self.loops.nloop.is_none() && sample < self.floor
    }

    /// After samples of `nloop` iterations whose shortest lasted `shortest` seconds: the
    /// NLOOP to measure again with (doubled), none if the samples are long enough, or why
    /// the user's range NLOOP_MIN..NLOOP_MAX cannot give samples that long.
    pub fn again(&self, nloop: u64, shortest: f64) -> Result<Option<u64>, String> {
        if !self.too_short(shortest) {
            return Ok(None);
        }
        let max = self.loops.nloop_max;
        match self.loops.nloop_min {
            Some(min) if self.loops.nloop_max_set && 2 * nloop > max => Err(format!(
                "NLOOP_MIN={min} and NLOOP_MAX={max} cannot both be met: samples of {nloop} \
                 iterations last {:.4} usec here, under the timer floor of {:.4} usec; accepted: \
                 NLOOP_MAX >= {}, or NLOOP={max} to run exactly {max} iterations per sample",
                shortest * 1e6,
                self.floor * 1e6,
                ceil_count(self.floor / shortest * nloop as f64)
            )),
            _ => Ok(Some(2 * nloop)),
        }
    }

    /// Header text stating the policy in words, and PAW_WARMUP where set.
    pub fn describe(&self) -> String {
        match self.loops.warmup {
            Some(w) => format!(
                "{}; warm-up: PAW_WARMUP={w} untimed iterations before each size's samples",
                self.policy_text()
            ),
            None => self.policy_text(),
        }
    }

    fn policy_text(&self) -> String {
        let floor = format!(
            "the timer floor of {:.3} usec (100 x max(timer overhead, step))",
            self.floor * 1e6
        );
        if let Some(n) = self.loops.nloop {
            return format!(
                "fixed by NLOOP={n}: {n} iterations per sample at every size, no calibration; \
                 a sample shorter than {floor} is kept as asked (and warned about)"
            );
        }
        let lowest = match self.loops.nloop_min {
            Some(n) => format!("at least NLOOP_MIN={n}"),
            None => format!(
                "at least {} (NLOOP_MIN's default; fewer only where {} iterations would last \
                 over {} s)",
                Loops::DEFAULT_MIN.min(self.loops.nloop_max),
                Loops::DEFAULT_MIN.min(self.loops.nloop_max),
                Loops::DEFAULT_MIN_SECONDS
            ),
        };
        match self.policy {
            Policy::Calibrated => format!(
                "calibrated (PAW 1.6 section 3): the first size runs NLOOP_MAX={} iterations per \
                 sample (fewer if a sample would pass {FIRST_SAMPLE_CAP} s); each later size runs \
                 as many as fit in that sample's length, {lowest} and at most NLOOP_MAX; never a \
                 sample shorter than {floor}: a size whose samples fall below it is measured \
                 again with NLOOP doubled; NLOOP=N fixes the count",
                self.loops.nloop_max
            ),
            Policy::Fewest => match self.loops.nloop_min {
                Some(n) => format!(
                    "the fewest iterations per sample that clear {floor}, at least NLOOP_MIN={n}; \
                     NLOOP=N fixes the count"
                ),
                None => format!(
                    "the fewest iterations per sample that clear {floor} (one call per sample \
                     where a call lasts longer); NLOOP=N fixes the count"
                ),
            },
        }
    }
}

/// Smallest whole count >= `x`, ignoring floating-point fuzz (100.00000000000001 is 100).
fn ceil_count(x: f64) -> u64 {
    if x.is_finite() {
        ((x * (1.0 - 1e-9)).ceil().max(1.0) as u64).min(NLOOP_CAP)
    } else {
        NLOOP_CAP
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOOPS: Loops = Loops {
        nloop: None,
        nloop_max: 1000,
        nloop_max_set: false,
        nloop_min: Some(1),
        warmup: None,
        nreps: 10,
        nreps_set: true,
        precision: None,
        max_time: 10.0,
        max_time_set: false,
        tolerance: 0.05,
    };

    #[test]
    fn first_size_runs_nloop_max_and_sets_budget() {
        let mut c = Calibration::new(LOOPS, 2.5e-6, Policy::Calibrated);
        assert_eq!(c.warmup_iterations(None), 1000);
        assert_eq!(c.nloop(0.5e-6), Ok(1000));
        assert!((c.budget().unwrap() - 0.5e-3).abs() < 1e-12);
    }

    #[test]
    fn first_size_below_floor_is_raised() {
        // 1 ns per iteration x 1000 = 1 µs < 2.5 µs floor: NLOOP becomes 2500.
        let mut c = Calibration::new(LOOPS, 2.5e-6, Policy::Calibrated);
        assert_eq!(c.nloop(1e-9), Ok(2500));
    }

    #[test]
    fn later_sizes_shrink_but_respect_bounds() {
        let mut c = Calibration::new(LOOPS, 2.5e-6, Policy::Calibrated);
        c.nloop(1e-6).unwrap(); // budget 1 ms
        assert_eq!(c.warmup_iterations(Some(1000)), 100);
        assert_eq!(c.nloop(1e-6), Ok(1000));
        assert_eq!(c.nloop(4e-6), Ok(250));
        assert_eq!(c.nloop(1e-3), Ok(1));
        assert_eq!(c.nloop(1.0), Ok(1), "never below one iteration");
        assert_eq!(c.nloop(1e-7), Ok(1000), "never above NLOOP_MAX");
    }

    #[test]
    fn default_minimum_gives_large_sizes_ten_transfers() {
        let loops = Loops { nloop_min: None, ..LOOPS };
        let mut c = Calibration::new(loops, 2.5e-6, Policy::Calibrated);
        c.nloop(0.25e-6).unwrap(); // 1-byte ping-pong: budget 0.25 ms
        assert_eq!(c.nloop(400e-6), Ok(10), "a 4 MiB round trip: 10, not 1");
        assert_eq!(c.nloop(0.05), Ok(2), "10 x 50 ms would pass 0.1 s");
        assert_eq!(c.nloop(12.0), Ok(1));
    }

    #[test]
    fn fixed_nloop_is_exact() {
        let loops = Loops { nloop: Some(5), ..LOOPS };
        let mut c = Calibration::new(loops, 2.5e-6, Policy::Calibrated);
        assert_eq!(c.warmup_iterations(None), 1);
        let set = Calibration::new(Loops { warmup: Some(0), ..loops }, 1e-6, Policy::Calibrated);
        assert_eq!(set.warmup_iterations(Some(1000)), 0, "PAW_WARMUP=0 with NLOOP fixed");
        let calibrated = |w| Loops { warmup: Some(w), ..LOOPS };
        let c0 = Calibration::new(calibrated(0), 1e-6, Policy::Calibrated);
        assert_eq!(c0.warmup_iterations(None), 1, "a calibrated NLOOP needs one timed call");
        let c50 = Calibration::new(calibrated(50), 1e-6, Policy::Calibrated);
        assert_eq!((c50.warmup_iterations(None), c50.warmup_iterations(Some(10))), (50, 50));
        assert_eq!(c.nloop(1e-9), Ok(5), "below the floor, as asked");
        assert_eq!(c.nloop(10.0), Ok(5));
        assert!(!c.too_short(1e-12));
        assert!(c.describe().contains("NLOOP=5"));
    }

    #[test]
    fn nloop_max_the_floor_cannot_meet_is_an_error() {
        let loops = Loops { nloop_max: 5, nloop_max_set: true, nloop_min: Some(5), ..LOOPS };
        let mut c = Calibration::new(loops, 2.5e-6, Policy::Calibrated);
        let e = c.nloop(0.25e-6).unwrap_err();
        assert!(e.contains("NLOOP_MIN=5 and NLOOP_MAX=5 cannot both be met"), "{e}");
        assert!(e.contains("NLOOP_MAX >= 10") && e.contains("NLOOP=5"), "{e}");
        assert_eq!(c.nloop(1e-6), Ok(5), "met where iterations are long enough");
        // NLOOP_MAX alone is a bound the floor may pass.
        let loops = Loops { nloop_max: 5, nloop_max_set: true, nloop_min: None, ..LOOPS };
        let mut c = Calibration::new(loops, 2.5e-6, Policy::Calibrated);
        assert_eq!(c.nloop(0.25e-6), Ok(10));
    }

    #[test]
    fn doubling_stops_at_a_range_the_user_set() {
        let c = Calibration::new(LOOPS, 2.5e-6, Policy::Calibrated);
        assert_eq!(c.again(100, 1e-6), Ok(Some(200)), "too short: doubled");
        assert_eq!(c.again(100, 1e-5), Ok(None), "long enough");
        let range = Loops { nloop_max: 3, nloop_max_set: true, nloop_min: Some(3), ..LOOPS };
        let c = Calibration::new(range, 2.5e-6, Policy::Calibrated);
        let e = c.again(3, 1e-6).unwrap_err();
        assert!(
            e.contains("NLOOP_MIN=3 and NLOOP_MAX=3 cannot both be met")
                && e.contains("NLOOP_MAX >= 8"),
            "{e}"
        );
    }

    #[test]
    fn large_first_workload_is_not_run_nloop_max_times() {
        let mut c = Calibration::new(LOOPS, 2.5e-6, Policy::Calibrated);
        assert_eq!(c.nloop(12.5), Ok(1), "a 12.5 s DGEMM runs once per sample");
        let mut c = Calibration::new(LOOPS, 2.5e-6, Policy::Calibrated);
        assert_eq!(c.nloop(0.01), Ok(100), "1000 x 10 ms would exceed the 1 s cap");
        assert!((c.budget().unwrap() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn nloop_min_is_honoured() {
        let loops = Loops { nloop_min: Some(20), ..LOOPS };
        let mut c = Calibration::new(loops, 2.5e-6, Policy::Calibrated);
        c.nloop(1e-6).unwrap();
        assert_eq!(c.nloop(1e-3), Ok(20));
    }

    #[test]
    fn fewest_ignores_the_default_minimum() {
        let loops = Loops { nloop_min: None, ..LOOPS };
        let mut c = Calibration::new(loops, 1e-4, Policy::Fewest);
        assert_eq!(c.nloop(0.02), Ok(1), "one STREAM pass per sample");
        assert_eq!(c.nloop(1e-6), Ok(100), "but never below the floor");
    }

    #[test]
    fn fewest_clears_the_floor() {
        let mut c = Calibration::new(LOOPS, 1e-4, Policy::Fewest);
        assert_eq!(c.warmup_iterations(None), 1);
        assert_eq!(c.nloop(2.0), Ok(1));
        assert_eq!(c.nloop(1e-6), Ok(100));
        assert!(c.too_short(0.5e-4));
        assert!(!c.too_short(1e-4));
    }

    #[test]
    fn zero_time_estimate_does_not_overflow() {
        let mut c = Calibration::new(LOOPS, 1e-4, Policy::Calibrated);
        assert_eq!(c.nloop(0.0), Ok(100_000_000), "estimate clamped to 1 ps");
        let mut c = Calibration::new(LOOPS, 1.0, Policy::Fewest);
        assert_eq!(c.nloop(0.0), Ok(NLOOP_CAP));
    }
}
