//! How many iterations go between two clock reads (PAW §3, step 2).
//!
//! Only rank 0 calls into this module; the loop count it picks is broadcast.

use crate::config::Loops;

/// A first-workload sample is cut to about this many seconds when NLOOP_MAX iterations
/// would take longer (PAW assumes the first workload is small; a sweep may start large).
pub const FIRST_SAMPLE_CAP: f64 = 1.0;

/// Largest NLOOP ever chosen, whatever the estimates say.
pub const NLOOP_CAP: u64 = 1_000_000_000;

/// Which rule sets NLOOP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// PAW §3: the first (smallest) workload runs NLOOP_MAX iterations (more if a sample
    /// would not clear the floor); that sample length becomes the budget, and later workloads
    /// run as many iterations as fit in it, within [max(NLOOP_MIN, floor), NLOOP_MAX].
    Calibrated,
    /// The fewest iterations that clear the floor, at least NLOOP_MIN (single-size node
    /// tests such as `blas_dgemm_single` and `stream`, whose one call lasts far longer
    /// than the floor).
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

    /// How many warm-up iterations to run (and time) before deciding NLOOP for a workload.
    ///
    /// The first workload of a calibrated sweep is timed with NLOOP_MAX iterations (PAW §3);
    /// later ones with a tenth of the previous NLOOP; [`Policy::Fewest`] with one.
    pub fn warmup_iterations(&self, previous_nloop: Option<u64>) -> u64 {
        match (self.policy, previous_nloop) {
            (Policy::Fewest, _) => 1,
            (Policy::Calibrated, None) => self.loops.nloop_max,
            (Policy::Calibrated, Some(n)) => (n / 10).max(1),
        }
    }

    /// NLOOP for a workload whose one iteration takes about `t_iter` seconds.
    pub fn nloop(&mut self, t_iter: f64) -> u64 {
        let t = t_iter.max(1e-12);
        let above_floor = ceil_count(self.floor / t);
        let lowest = self.loops.nloop_min.max(above_floor);
        let n = match (self.policy, self.budget) {
            (Policy::Fewest, _) => lowest,
            (Policy::Calibrated, None) => {
                // NLOOP_MAX iterations, unless a sample would then last more than
                // FIRST_SAMPLE_CAP seconds (a large first workload): then as many as fit.
                let fit = ceil_count(FIRST_SAMPLE_CAP / t).max(lowest);
                let n = self.loops.nloop_max.max(above_floor).min(fit);
                self.budget = Some(n as f64 * t);
                n
            }
            (Policy::Calibrated, Some(budget)) => {
                let highest = self.loops.nloop_max.max(lowest);
                ceil_count(budget / t).clamp(lowest, highest)
            }
        };
        n.min(NLOOP_CAP)
    }

    /// Whether a measured sample (seconds for NLOOP iterations) is too short to trust.
    pub fn too_short(&self, sample: f64) -> bool {
        sample < self.floor
    }

    /// Header text stating the policy.
    pub fn describe(&self) -> String {
        let floor = format!(
            "a sample must last >= {:.3} usec (100 x max(timer overhead, step); PAW asks 10x)",
            self.floor * 1e6
        );
        match self.policy {
            Policy::Calibrated => format!(
                "calibrated (PAW 3): first size runs NLOOP_MAX={} iterations per sample (fewer if a \
                 sample would exceed 1 s); later sizes \
                 keep that sample length, NLOOP within [max(NLOOP_MIN={}, floor), NLOOP_MAX]; {floor}; \
                 a size whose samples fall below the floor is re-run with NLOOP doubled",
                self.loops.nloop_max, self.loops.nloop_min
            ),
            Policy::Fewest => format!(
                "fewest iterations per sample that clear the floor, at least NLOOP_MIN={}; {floor}",
                self.loops.nloop_min
            ),
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

    const LOOPS: Loops = Loops { nloop_max: 1000, nloop_min: 1, nreps: 10 };

    #[test]
    fn first_size_runs_nloop_max_and_sets_budget() {
        let mut c = Calibration::new(LOOPS, 2.5e-6, Policy::Calibrated);
        assert_eq!(c.warmup_iterations(None), 1000);
        assert_eq!(c.nloop(0.5e-6), 1000);
        assert!((c.budget().unwrap() - 0.5e-3).abs() < 1e-12);
    }

    #[test]
    fn first_size_below_floor_is_raised() {
        // 1 ns per iteration x 1000 = 1 µs < 2.5 µs floor: NLOOP becomes 2500.
        let mut c = Calibration::new(LOOPS, 2.5e-6, Policy::Calibrated);
        assert_eq!(c.nloop(1e-9), 2500);
    }

    #[test]
    fn later_sizes_shrink_but_respect_bounds() {
        let mut c = Calibration::new(LOOPS, 2.5e-6, Policy::Calibrated);
        c.nloop(1e-6); // budget 1 ms
        assert_eq!(c.warmup_iterations(Some(1000)), 100);
        assert_eq!(c.nloop(1e-6), 1000);
        assert_eq!(c.nloop(4e-6), 250);
        assert_eq!(c.nloop(1e-3), 1);
        assert_eq!(c.nloop(1.0), 1, "never below one iteration");
        assert_eq!(c.nloop(1e-7), 1000, "never above NLOOP_MAX");
    }

    #[test]
    fn large_first_workload_is_not_run_nloop_max_times() {
        let mut c = Calibration::new(LOOPS, 2.5e-6, Policy::Calibrated);
        assert_eq!(c.nloop(12.5), 1, "a 12.5 s DGEMM runs once per sample");
        let mut c = Calibration::new(LOOPS, 2.5e-6, Policy::Calibrated);
        assert_eq!(c.nloop(0.01), 100, "1000 x 10 ms would exceed the 1 s cap");
        assert!((c.budget().unwrap() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn nloop_min_is_honoured() {
        let loops = Loops { nloop_min: 20, ..LOOPS };
        let mut c = Calibration::new(loops, 2.5e-6, Policy::Calibrated);
        c.nloop(1e-6);
        assert_eq!(c.nloop(1e-3), 20);
    }

    #[test]
    fn fewest_clears_the_floor() {
        let mut c = Calibration::new(LOOPS, 1e-4, Policy::Fewest);
        assert_eq!(c.warmup_iterations(None), 1);
        assert_eq!(c.nloop(2.0), 1);
        assert_eq!(c.nloop(1e-6), 100);
        assert!(c.too_short(0.5e-4));
        assert!(!c.too_short(1e-4));
    }

    #[test]
    fn zero_time_estimate_does_not_overflow() {
        let mut c = Calibration::new(LOOPS, 1e-4, Policy::Calibrated);
        assert_eq!(c.nloop(0.0), 100_000_000, "estimate clamped to 1 ps");
        let mut c = Calibration::new(LOOPS, 1.0, Policy::Fewest);
        assert_eq!(c.nloop(0.0), NLOOP_CAP);
    }
}
