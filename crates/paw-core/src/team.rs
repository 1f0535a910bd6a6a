//! The ranks taking part in a measurement, seen through the few operations the
//! measurement loop needs. MPI runs use the world communicator; node tests run [`Solo`].

use std::time::Instant;

/// How per-rank times of one repetition become one number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combine {
    /// Minimum over tasks (PAW §7: point-to-point and most collectives).
    Min,
    /// Maximum over tasks (PAW §7.1: Bcast and Scatter; start-up time).
    Max,
}

impl Combine {
    /// Header text saying how ranks were combined.
    pub fn describe(self) -> &'static str {
        match self {
            Combine::Min => "minimum over tasks of each repetition's time",
            Combine::Max => "maximum over tasks of each repetition's time",
        }
    }
}

/// The collective operations the measurement loop relies on.
///
/// Every method is collective: all ranks call it in the same order.
pub trait Team {
    /// This rank (0 for [`Solo`]).
    fn rank(&self) -> i32;
    /// Number of ranks.
    fn size(&self) -> usize;
    /// Whether this rank makes the decisions (rank 0).
    fn is_root(&self) -> bool {
        self.rank() == 0
    }
    /// Waits for every rank.
    fn barrier(&self);
    /// Seconds since an arbitrary origin.
    fn now(&self) -> f64;
    /// The clock's declared resolution in seconds.
    fn tick(&self) -> f64;
    /// Name of the clock, for headers.
    fn clock_name(&self) -> &'static str;
    /// Rank 0's `value`, on every rank.
    fn share_u64(&self, value: u64) -> u64;
    /// Element-wise combination of `local` over all ranks, the same on every rank.
    fn combine(&self, local: &[f64], how: Combine) -> Vec<f64>;

    /// Rank 0's `value`, on every rank.
    fn share_f64(&self, value: f64) -> f64 {
        f64::from_bits(self.share_u64(value.to_bits()))
    }
}

/// A single process without MPI (node tests: BLAS, STREAM); timed with a monotonic clock.
#[derive(Debug, Clone, Copy)]
pub struct Solo {
    origin: Instant,
}

impl Solo {
    /// A single-process team whose clock starts now.
    pub fn new() -> Solo {
        Solo { origin: Instant::now() }
    }
}

impl Default for Solo {
    fn default() -> Self {
        Solo::new()
    }
}

impl Team for Solo {
    fn rank(&self) -> i32 {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn barrier(&self) {}
    fn now(&self) -> f64 {
        self.origin.elapsed().as_secs_f64()
    }
    fn tick(&self) -> f64 {
        1e-9
    }
    fn clock_name(&self) -> &'static str {
        "std::time::Instant (CLOCK_MONOTONIC)"
    }
    fn share_u64(&self, value: u64) -> u64 {
        value
    }
    fn combine(&self, local: &[f64], _how: Combine) -> Vec<f64> {
        local.to_vec()
    }
}
