//! What a measurement gives: the samples per operation combined over tasks, the fastest and
//! slowest task's, PAW_TAIL's single iterations, and the rows made of them.

use crate::check::Verdict;
use crate::dat::Row;
use crate::stats::Stats;
use crate::timer::TimerInfo;

/// How PAW_TAIL's single-iteration times are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Singles {
    /// Iterations back to back, one clock read between two, on task 0's clock (a
    /// ping-pong: task 0 starts every round trip).
    Leader,
    /// A barrier before each call, outside the timing; each call's time is the tasks'
    /// times combined by the bench's rule.
    Separated,
}

/// PAW_TAIL: after the samples of each workload, `count` iterations timed one by one, whose
/// percentiles are added to the row ([`Measurement::tail`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tail {
    /// Single iterations per workload.
    pub count: u64,
    /// How they are timed.
    pub singles: Singles,
    /// The clock they are read on (rank 0's figures).
    pub timer: TimerInfo,
}

/// The percentiles PAW_TAIL adds, as `(column, percent)`; PMAX is the longest.
pub const TAIL_COLUMNS: [(&str, f64); 4] =
    [("P50", 50.0), ("P90", 90.0), ("P99", 99.0), ("PMAX", 100.0)];

/// The nearest-rank `p`-th percentile of ascending `sorted` (not empty): the smallest value
/// with at least p % of the values at or below it.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The outcome of measuring one workload.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    /// This measurement among the process's (from 1): the rows derived from it (a time and
    /// a bandwidth) are one measured row when rows are counted.
    pub id: u64,
    /// Iterations per sample.
    pub nloop: u64,
    /// Seconds per operation, one value per repetition, combined over ranks by the bench's
    /// rule.
    pub per_op: Vec<f64>,
    /// Seconds per operation per repetition, minimum over ranks.
    pub task_min: Vec<f64>,
    /// Seconds per operation per repetition, maximum over ranks.
    pub task_max: Vec<f64>,
    /// PAW_TAIL's single-iteration times, seconds per operation, ascending (empty when off).
    pub singles: Vec<f64>,
}

impl Measurement {
    /// Medians over the repetitions of `f(minimum over ranks)` and `f(maximum over
    /// ranks)`: how far apart the fastest and slowest task were.
    pub fn spread(&self, f: impl Fn(f64) -> f64) -> [f64; 2] {
        let median = |v: &[f64]| Stats::of(&v.iter().map(|&t| f(t)).collect::<Vec<_>>()).median;
        [median(&self.task_min), median(&self.task_max)]
    }

    /// `f` of PAW_TAIL's percentiles ([`TAIL_COLUMNS`]), ready for the extra columns; empty
    /// when PAW_TAIL is off. `f` must not reverse the order (a time, not a rate).
    pub fn tail(&self, f: impl Fn(f64) -> f64) -> Vec<f64> {
        if self.singles.is_empty() {
            return vec![];
        }
        TAIL_COLUMNS.iter().map(|&(_, p)| f(percentile(&self.singles, p))).collect()
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
            measurement: self.id,
        }
    }
}
