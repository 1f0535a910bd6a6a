//! What a bench says of itself in the output headers: the timing model, how the tasks'
//! times combine, the loop policy, the repetitions, the interval and PAW_TAIL.

use super::{Bench, Singles, Tail, MAX_SAMPLES, TAIL_COLUMNS};
use crate::config::{Until, DEFAULT_BUDGET};
use crate::dat::Column;
use crate::stats::median_interval;
use crate::team::{Combine, Team};

impl<T: Team> Bench<'_, T> {
    /// Header lines stating the timing model, the rank combination, the loop policy, the
    /// repetitions and the interval.
    pub fn describe(&self) -> Vec<String> {
        let loops = self.calibration.loops();
        let ranks = if self.team.size() == 1 {
            "one process, nothing to combine".to_string()
        } else if self.combine != self.rule {
            format!(
                "{} (PAW_COMBINE={}; the benchmark's own rule: {})",
                self.combine.describe(),
                self.combine.name(),
                self.rule.name()
            )
        } else {
            self.combine.describe().to_string()
        };
        let n = loops.nreps;
        let budget = if loops.max_time_set {
            format!("{} s (PAW_MAX_TIME)", loops.max_time)
        } else {
            format!("{DEFAULT_BUDGET} x the first {n} samples' time")
        };
        let repetitions = match loops.until() {
            Until::Fixed => format!("NREPS={n} samples per size, fixed (PAW 1.6's rule; unset NREPS to add samples until the interval is narrow)"),
            Until::Reach(p) => format!(
                "at least NREPS={n} samples per size, more (in growing batches) until the \
                 median's 95% interval lies within +-{}% of it (PAW_PRECISION={p}) or the next \
                 batch would pass {} s spent on added samples (PAW_MAX_TIME), at most {MAX_SAMPLES}",
                p * 100.0,
                loops.max_time
            ),
            Until::Narrow => format!(
                "at least {n} samples per size, more (in growing batches) until the median's 95% \
                 interval is within PAW_TOLERANCE={} of it (the row is not NOISY) or the next batch \
                 would take the added samples' time past {budget}, at most {MAX_SAMPLES}: a NOISY row is one \
                 whose budget ran out (NREPS=N: exactly N samples, as PAW 1.6)",
                loops.tolerance
            ),
        };
        let (l, u, cover) = median_interval(n as usize);
        let example = if l == 1 {
            format!("with {n} samples MIN and MAX, coverage {:.1}%", cover * 100.0)
        } else {
            format!(
                "with {n} samples the {} and {}, coverage {:.1}%",
                ordinal(l),
                ordinal(u),
                cover * 100.0
            )
        };
        vec![
            format!("timing: {}", self.timing.describe()),
            format!("ranks combined: {ranks}"),
            format!("nloop: {}", self.calibration.describe()),
            format!("repetitions: {repetitions}"),
            format!(
                "interval: over the samples of this one launch: CI_LO, CI_HI bound the median \
                 with 95% confidence whatever the distribution: the l-th and (n+1-l)-th smallest \
                 of the n samples ({example}; below 6 samples no 95% interval exists and they are \
                 MIN and MAX); launches of the same command differ by more than this (paw-report \
                 launches: intervals over launches)"
            ),
            format!(
                "noisy: NOISY is 1 when CI_HI - CI_LO exceeds {}% of MEDIAN (PAW_TOLERANCE={})",
                loops.tolerance * 100.0,
                loops.tolerance
            ),
        ]
    }

    /// PAW_TAIL's columns (P50, P90, P99, PMAX in usec) for a time file's extra columns;
    /// none when PAW_TAIL is off.
    pub fn tail_columns(&self) -> Vec<Column> {
        match self.tail {
            Some(_) => TAIL_COLUMNS
                .iter()
                .map(|&(name, _)| Column::fixed(name, crate::schema::USEC))
                .collect(),
            None => vec![],
        }
    }

    /// The header line of a file with [`Bench::tail_columns`].
    pub fn tail_line(&self) -> Option<String> {
        self.tail.map(|t| t.describe(self.ops_per_iter(), self.combine))
    }
}

impl Tail {
    /// The header line: what was timed, how the percentiles are read, and how far the clock
    /// can be trusted for one iteration.
    fn describe(&self, ops_per_iter: f64, combine: Combine) -> String {
        let how = match self.singles {
            Singles::Leader => "iterations back to back, one clock read between two, on task \
                                0's clock"
                .to_string(),
            Singles::Separated => format!(
                "each call after a barrier, timed alone; per call the {}",
                combine.describe().replace(" of each repetition's time", "")
            ),
        };
        let per = if ops_per_iter == 1.0 {
            String::new()
        } else {
            format!(", divided by {ops_per_iter}")
        };
        let t = self.timer;
        let trusted = crate::timer::SAFETY * t.overhead.max(t.step);
        format!(
            "tail: PAW_TAIL={} single iterations per size after its samples ({how}{per}); \
             P50, P90, P99: nearest-rank percentiles of them, PMAX the longest, usec; each \
             iteration's time holds one clock read ({:.4} usec) on a clock whose smallest \
             step is {:.4} usec, so an iteration shorter than {:.3} usec carries more than 1% \
             clock error",
            self.count,
            t.overhead * 1e6,
            t.step * 1e6,
            trusted * 1e6
        )
    }
}

/// 1st, 2nd, 3rd, 4th ...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
