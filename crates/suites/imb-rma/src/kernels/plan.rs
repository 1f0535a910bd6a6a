//! What each process does in one timing of a pattern, as a list of accesses made before
//! the timing: the timed loop only walks it, and `-check` works out from every process's
//! list what must then be in each window and result buffer.

use super::{Op, Pattern};
use paw_imb::placement::Spread;
use paw_imb::Mode;

/// One operation of an origin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    /// Target rank.
    pub target: i32,
    /// First element of the origin buffer it sends from (puts, accumulates, atomics).
    pub origin: usize,
    /// First element of the target's window.
    pub disp: usize,
    /// First element of the result buffer it reads into (gets, fetching atomics).
    pub result: usize,
    /// Flush every locked target after it (non-aggregate, Exchange).
    pub flush: bool,
}

/// Where repetition i's accesses start in the origin, window and result buffers, in
/// elements (`-off_cache`: each repetition past the cache; otherwise all at the start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offsets {
    /// In the origin buffer.
    pub origin: Spread,
    /// In the target's window.
    pub window: Spread,
    /// In the result buffer.
    pub result: Spread,
}

impl Offsets {
    /// Every repetition at the start of every buffer.
    pub const NONE: Offsets =
        Offsets { origin: Spread::NONE, window: Spread::NONE, result: Spread::NONE };
}

impl Access {
    /// This access in repetition `i`, moved by `by`.
    fn in_repetition(self, i: usize, by: &Offsets) -> Access {
        Access {
            origin: self.origin + by.origin.at(i),
            disp: self.disp + by.window.at(i),
            result: self.result + by.result.at(i),
            ..self
        }
    }
}

/// How the origin opens its epoch and completes what it issued (for a process that issues
/// nothing, unused).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// MPI_Win_lock (shared) of these targets; at the end MPI_Win_flush of each
    /// (`local`: MPI_Win_flush_local) unless every access flushed already.
    Locked { targets: Vec<i32>, local: bool, flush_at_end: bool },
    /// MPI_Win_lock_all; at the end MPI_Win_flush_all (`local`: flush_local_all).
    All { local: bool },
}

/// The accesses of `rank` among `q` processes in one timing of `reps` operations of `e`
/// elements, in issue order, and its epoch; an empty list for a process that only exposes
/// its window. As today's IMB, every repetition uses the same memory (the origin's first
/// elements, the same window elements of a target, the same result elements per target)
/// unless `by` moves each repetition's (`-off_cache`). Where several origins write one
/// window (All_*, Exchange_*), each has its own section.
pub fn accesses(
    pattern: Pattern,
    rank: usize,
    q: usize,
    e: usize,
    reps: usize,
    by: &Offsets,
    mode: Mode,
) -> (Vec<Access>, Completion) {
    let each = mode == Mode::NonAggregate;
    let r = rank as i32;
    let last = q as i32 - 1;
    let repeat = |round: Vec<Access>| -> Vec<Access> {
        (0..reps).flat_map(|i| round.iter().map(move |a| a.in_repetition(i, by))).collect()
    };
    match pattern {
        Pattern::Pair { bidir, local, .. } => {
            let target = match rank {
                0 => last,
                _ if bidir && r == last => 0,
                _ => return (Vec::new(), Completion::All { local }),
            };
            let list = repeat(vec![Access { target, origin: 0, disp: 0, result: 0, flush: each }]);
            (list, Completion::Locked { targets: vec![target], local, flush_at_end: !each })
        }
        Pattern::OneToAll { local, .. } | Pattern::AllToAll { local, .. } => {
            let all = matches!(pattern, Pattern::AllToAll { .. });
            if !all && rank != 0 {
                return (Vec::new(), Completion::All { local });
            }
            // Every target in turn from the next rank on.
            let disp = if all { rank * e } else { 0 };
            let round = (1..q)
                .map(|k| Access {
                    target: ((rank + k) % q) as i32,
                    origin: 0,
                    disp,
                    result: (k - 1) * e,
                    flush: false,
                })
                .collect();
            (repeat(round), Completion::All { local })
        }
        Pattern::Exchange { .. } => {
            let (left, right) = ((r + last) % q as i32, (r + 1) % q as i32);
            // X bytes to the left, the next X to the right; a window holds what came from
            // the left, then what came from the right.
            let round = vec![
                Access { target: left, origin: 0, disp: e, result: 0, flush: false },
                Access { target: right, origin: e, disp: 0, result: e, flush: true },
            ];
            (
                repeat(round),
                Completion::Locked {
                    targets: vec![left, right],
                    local: false,
                    flush_at_end: false,
                },
            )
        }
        Pattern::TrulyPassive => {
            let round = if rank == 0 {
                vec![Access { target: 1, origin: 0, disp: 0, result: 0, flush: true }]
            } else {
                Vec::new()
            };
            (
                repeat(round),
                Completion::Locked { targets: vec![1], local: false, flush_at_end: false },
            )
        }
    }
}

/// Elements of the window, origin and result buffers one process needs for operations of
/// `e` elements on `q` processes.
pub fn extent(pattern: Pattern, q: usize, e: usize) -> (usize, usize, usize) {
    let (window, origin, results) = match pattern {
        Pattern::Pair { .. } | Pattern::TrulyPassive => (e, e, e),
        Pattern::OneToAll { .. } => (e, e, (q - 1) * e),
        Pattern::AllToAll { .. } => (q * e, e, (q - 1) * e),
        Pattern::Exchange { .. } => (2 * e, 2 * e, 2 * e),
    };
    let results = if pattern.op().reads() { results } else { 0 };
    (window.max(1), origin.max(1), results)
}

impl Op {
    /// Whether the operation brings data back to the origin (into its result buffer).
    pub fn reads(self) -> bool {
        matches!(self, Op::Get | Op::GetAccumulate | Op::FetchAndOp | Op::CompareAndSwap)
    }

    /// Whether it changes the target's window.
    pub fn writes(self) -> bool {
        self != Op::Get
    }

    /// Fetch_and_op and Compare_and_swap work on one element.
    pub fn single_element(self) -> bool {
        matches!(self, Op::FetchAndOp | Op::CompareAndSwap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_go_from_the_first_to_the_last_rank() {
        let p = Pattern::Pair { op: Op::Put, bidir: false, local: false };
        let (list, epoch) = accesses(p, 0, 2, 8, 3, &Offsets::NONE, Mode::NonAggregate);
        assert_eq!(list.len(), 3);
        assert!(list.iter().all(|a| a.target == 1 && a.disp == 0 && a.flush));
        assert_eq!(
            epoch,
            Completion::Locked { targets: vec![1], local: false, flush_at_end: false }
        );
        assert!(
            accesses(p, 1, 2, 8, 3, &Offsets::NONE, Mode::Aggregate).0.is_empty(),
            "the target only exposes"
        );
        let bidir = Pattern::Pair { op: Op::Get, bidir: true, local: false };
        let (list, epoch) = accesses(bidir, 1, 2, 8, 2, &Offsets::NONE, Mode::Aggregate);
        assert!(list.iter().all(|a| a.target == 0 && !a.flush));
        assert_eq!(
            epoch,
            Completion::Locked { targets: vec![0], local: false, flush_at_end: true }
        );
    }

    #[test]
    fn all_to_all_origins_write_their_own_sections() {
        let p = Pattern::AllToAll { op: Op::Get, local: false };
        let mut seen = Vec::new();
        for r in 0..4 {
            let (list, _) = accesses(p, r, 4, 2, 1, &Offsets::NONE, Mode::Plain);
            let results: Vec<usize> = list.iter().map(|a| a.result).collect();
            assert_eq!(results, [0, 2, 4], "a result section per target");
            for a in list {
                assert_ne!(a.target, r as i32);
                seen.push((a.target, a.disp));
            }
        }
        let n = seen.len();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), n, "no two origins write the same window section");
        let (window, _, results) = extent(p, 4, 2);
        assert!(seen.iter().all(|&(_, d)| d + 2 <= window));
        assert_eq!(results, 6);
    }

    #[test]
    fn exchange_fills_both_sections_of_each_neighbour() {
        let p = Pattern::Exchange { op: Op::Put };
        let mut from: Vec<(i32, usize)> = Vec::new();
        for r in 0..3 {
            from.extend(
                accesses(p, r, 3, 4, 1, &Offsets::NONE, Mode::Plain)
                    .0
                    .iter()
                    .map(|a| (a.target, a.disp)),
            );
        }
        from.sort();
        assert_eq!(from, [(0, 0), (0, 4), (1, 0), (1, 4), (2, 0), (2, 4)]);
    }

    #[test]
    fn off_cache_moves_every_repetition_in_each_buffer() {
        let p = Pattern::Pair { op: Op::Get, bidir: false, local: false };
        let spread = |offset, cycle| Spread { offset, cycle };
        let by = Offsets { origin: spread(80, 3), window: spread(96, 2), result: spread(112, 3) };
        let (list, _) = accesses(p, 0, 2, 16, 4, &by, Mode::Aggregate);
        let at: Vec<(usize, usize, usize)> =
            list.iter().map(|a| (a.origin, a.disp, a.result)).collect();
        assert_eq!(at, [(0, 0, 0), (80, 96, 112), (160, 0, 224), (0, 96, 0)]);
        let all = Pattern::AllToAll { op: Op::Put, local: false };
        let (list, _) = accesses(all, 1, 3, 4, 2, &by, Mode::Plain);
        let disp: Vec<usize> = list.iter().map(|a| a.disp).collect();
        assert_eq!(disp, [4, 4, 100, 100], "the own section, moved per repetition");
    }
}
