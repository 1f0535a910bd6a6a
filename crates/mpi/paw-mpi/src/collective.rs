//! What the blocking collectives share: the bench and its loop (IMB's by default, PAW
//! 1.6's with PAW_COMBINE), the roots of rooted calls and what the data check checks.

use paw_core::{Bench, Paw, Policy, Singles, Timing, World};

/// What the collective tests check with PAW_CHECK=1.
pub const COLLECTIVE_CHECK: &str = "one more call with buffers holding patterns set by rank, \
                                    size and sequence; every task compares what it holds with \
                                    what the operation must deliver (blocks from the right \
                                    ranks; sums exact, the values chosen so that no byte \
                                    overflows)";

/// The bench of an MPI-1 collective test and the roots of its calls. By default IMB's
/// loop, the maximum over tasks: calls back to back, a rooted call's root moving on after
/// every call, so that each call waits for the data of the one before. With PAW_COMBINE
/// set, PAW 1.6's loop (and OSU's): a barrier before each call, timed alone, root task 0,
/// the tasks' times combined by that rule.
pub fn collective_bench(paw: &Paw) -> paw_core::Result<(Bench<'_, World>, Roots)> {
    let imb = paw.combine_setting()?.is_none();
    let timing = if imb { Timing::Batch { ops_per_iter: 1.0 } } else { Timing::PerCall };
    let mut bench = paw.bench(timing, Policy::Calibrated)?;
    bench.singles(Singles::Separated);
    Ok((bench, Roots { rotate: imb, tasks: paw.size(), next: 0 }))
}

/// The root of each timed call of a rooted collective (see [`collective_bench`]).
#[derive(Debug, Clone)]
pub struct Roots {
    rotate: bool,
    tasks: usize,
    next: usize,
}

impl Roots {
    /// The root of the next call: task 0, or the task after the last call's root.
    pub fn take(&mut self) -> i32 {
        let root = self.next;
        if self.rotate {
            self.next = (self.next + 1) % self.tasks;
        }
        root as i32
    }
}
