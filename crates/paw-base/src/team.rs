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
    /// Mean over tasks (OSU's rule for collectives).
    Avg,
}

impl Combine {
    /// Header text saying how ranks were combined.
    pub fn describe(self) -> &'static str {
        match self {
            Combine::Min => "minimum over tasks of each repetition's time",
            Combine::Max => "maximum over tasks of each repetition's time",
            Combine::Avg => "mean over tasks of each repetition's time",
        }
    }

    /// Reads a PAW_COMBINE value: `min`, `max` or `avg`.
    pub fn parse(text: &str) -> Option<Combine> {
        match text.trim() {
            "min" => Some(Combine::Min),
            "max" => Some(Combine::Max),
            "avg" => Some(Combine::Avg),
            _ => None,
        }
    }

    /// The PAW_COMBINE spelling.
    pub fn name(self) -> &'static str {
        match self {
            Combine::Min => "min",
            Combine::Max => "max",
            Combine::Avg => "avg",
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
    /// Ranks on this rank's node (1 for [`Solo`]).
    fn local_size(&self) -> usize {
        1
    }
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
    /// Rank 0's bytes, on every rank (`bytes` is ignored elsewhere).
    fn share_bytes(&self, bytes: Vec<u8>) -> Vec<u8>;
    /// Element-wise combination of `local` over all ranks, the same on every rank.
    fn combine(&self, local: &[f64], how: Combine) -> Vec<f64>;

    /// Rank 0's `value`, on every rank.
    fn share_f64(&self, value: f64) -> f64 {
        f64::from_bits(self.share_u64(value.to_bits()))
    }

    /// Rank 0's text, on every rank.
    fn share_text(&self, text: &str) -> String {
        String::from_utf8_lossy(&self.share_bytes(text.as_bytes().to_vec())).into_owned()
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
    fn share_bytes(&self, bytes: Vec<u8>) -> Vec<u8> {
        bytes
    }
    fn combine(&self, local: &[f64], _how: Combine) -> Vec<f64> {
        local.to_vec()
    }
}
