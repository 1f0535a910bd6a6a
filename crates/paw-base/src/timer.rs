//! Timer overhead and resolution (PAW §3, step 1).

/// What the clock costs and how finely it ticks, measured on this rank.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimerInfo {
    /// Seconds one clock read costs (median over batches of back-to-back reads).
    pub overhead: f64,
    /// Smallest non-zero step seen between consecutive reads, in seconds.
    pub step: f64,
    /// The resolution the clock declares (MPI_Wtick), in seconds.
    pub tick: f64,
}

/// A timed sample must last at least this many times the larger of overhead and step.
///
/// PAW asks for 10x; 100x keeps the clock's own error under 1% of a sample.
pub const SAFETY: f64 = 100.0;

impl TimerInfo {
    /// Measures `now` (a clock in seconds) whose declared resolution is `tick`.
    pub fn measure(now: impl Fn() -> f64, tick: f64) -> TimerInfo {
        const BATCH: usize = 10_000;
        let mut per_read = Vec::with_capacity(7);
        let mut step = f64::INFINITY;
        for _ in 0..7 {
            let start = now();
            let mut prev = start;
            for _ in 0..BATCH {
                let t = now();
                let d = t - prev;
                if d > 0.0 && d < step {
                    step = d;
                }
                prev = t;
            }
            per_read.push((prev - start) / BATCH as f64);
        }
        per_read.sort_by(f64::total_cmp);
        let overhead = per_read[per_read.len() / 2];
        if !step.is_finite() {
            // The clock never moved during the measurement: fall back to its declared tick.
            step = tick;
        }
        TimerInfo { overhead, step, tick }
    }

    /// The shortest sample PAW may trust: [`SAFETY`] x max(overhead, step).
    pub fn floor(&self) -> f64 {
        SAFETY * self.overhead.max(self.step)
    }

    /// One header line describing the clock.
    pub fn describe(&self, clock: &str) -> String {
        format!(
            "{clock}: overhead {:.4} usec per read, smallest step {:.4} usec, declared tick {:.3e} s",
            self.overhead * 1e6,
            self.step * 1e6,
            self.tick
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn fake_clock_overhead_and_step() {
        // Every read advances the clock by 25 ns.
        let t = Cell::new(0.0f64);
        let info = TimerInfo::measure(
            || {
                t.set(t.get() + 25e-9);
                t.get()
            },
            1e-9,
        );
        assert!((info.overhead - 25e-9).abs() < 1e-12, "{info:?}");
        assert!((info.step - 25e-9).abs() < 1e-12, "{info:?}");
        assert!((info.floor() - 2.5e-6).abs() < 1e-12);
    }

    #[test]
    fn coarse_clock_step_dominates_floor() {
        // A clock that moves in 1 µs steps every 100 reads, each read costing 10 ns.
        let n = Cell::new(0u64);
        let info = TimerInfo::measure(
            || {
                n.set(n.get() + 1);
                (n.get() / 100) as f64 * 1e-6
            },
            1e-6,
        );
        assert!((info.step - 1e-6).abs() < 1e-12, "{info:?}");
        assert!((info.floor() - 1e-4).abs() < 1e-12);
    }

    #[test]
    fn real_clock_is_sane() {
        let origin = std::time::Instant::now();
        let info = TimerInfo::measure(|| origin.elapsed().as_secs_f64(), 1e-9);
        assert!(info.overhead > 0.0 && info.overhead < 1e-5, "{info:?}");
        assert!(info.step > 0.0 && info.step < 1e-3, "{info:?}");
    }
}
