//! Runtime validation of the data moved (`PAW_CHECK=1`).
//!
//! After the timed loops of a size, the sender fills its buffer with [`fill`] and the
//! transfer runs once more, untimed; the receiver counts [`mismatches`] against what the
//! sender must have written. The pattern depends on the sender's rank, the size and a
//! sequence number, so data from another rank, another size or an earlier transfer is caught.

/// Outcome of a size's data check, written in the CHECK column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Verdict {
    /// Checking is off (`PAW_CHECK` unset or 0): the column is absent or `-`.
    #[default]
    Unchecked,
    /// Every receiver got exactly the sender's pattern.
    Pass,
    /// Some receiver found a wrong byte.
    Fail,
}

impl Verdict {
    /// The CHECK column's text.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Unchecked => "-",
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
        }
    }
}

/// splitmix64: a cheap, well-mixed 64-bit hash.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn key(rank: i32, size: u64, seq: u64) -> u64 {
    mix(mix(mix(rank as u64) ^ size) ^ seq)
}

/// The pattern for (`rank`, `size`, `seq`), eight bytes per hash.
fn pattern(rank: i32, size: u64, seq: u64) -> impl Iterator<Item = u8> {
    let k = key(rank, size, seq);
    (0u64..).flat_map(move |word| mix(k ^ word).to_le_bytes())
}

/// Fills `buf` with the pattern of sender `rank`, transfer size `size` and sequence `seq`.
pub fn fill(buf: &mut [u8], rank: i32, size: u64, seq: u64) {
    for (b, p) in buf.iter_mut().zip(pattern(rank, size, seq)) {
        *b = p;
    }
}

/// How many bytes of `buf` differ from the pattern [`fill`] writes for the same arguments
/// (one more on the rank the test-only hook names, see [`differences`]).
pub fn mismatches(buf: &[u8], rank: i32, size: u64, seq: u64) -> usize {
    buf.iter().zip(pattern(rank, size, seq)).filter(|(b, p)| *b != p).count() + injected()
}

/// [`mismatches`] summed over the `len`-byte slots of `buf` (a message-rate test's
/// receive slots, each holding one message of `rank`'s pattern).
pub fn slots(buf: &[u8], len: usize, rank: i32, size: u64, seq: u64) -> usize {
    buf.chunks_exact(len).map(|slot| mismatches(slot, rank, size, seq)).sum()
}

/// [`mismatches`] summed over the `len`-byte blocks of `buf`, block `i` holding the
/// pattern of rank `sender(i)` (a gather's or an all-to-all's receive buffer).
pub fn blocks(buf: &[u8], len: usize, sender: impl Fn(usize) -> i32, size: u64, seq: u64) -> usize {
    buf.chunks_exact(len).enumerate().map(|(i, b)| mismatches(b, sender(i), size, seq)).sum()
}

/// How many bytes of `got` differ from `want` (beyond the shorter's length every byte
/// counts). With the test-only hook `PAW_TEST_CORRUPT=<rank>`, that rank finds one more
/// wrong byte in every check, so tests can see a failed check reported and failing the run.
pub fn differences(got: &[u8], want: &[u8]) -> usize {
    let common = got.iter().zip(want).filter(|(g, w)| g != w).count();
    common + got.len().abs_diff(want.len()) + injected()
}

/// The bytes of `rank`'s contribution to an MPI_SUM over MPI_UINT8_T among `tasks`
/// contributors: a pattern set by rank, size and sequence, kept small enough that no sum
/// overflows a byte (MPI libraries differ there: Open MPI's vectorised reduction
/// saturates where C arithmetic wraps, open-mpi/ompi#8045). Below 256 tasks every byte is
/// at most 255 / tasks; beyond, byte i is 1 on one rank only.
fn summand(rank: i32, size: u64, seq: u64, tasks: usize) -> impl Iterator<Item = u8> {
    let top = (255 / tasks.max(1)) as u16;
    let t = tasks as u64;
    pattern(rank, size, seq).enumerate().map(move |(i, p)| {
        if top >= 1 {
            (u16::from(p) % (top + 1)) as u8
        } else {
            ((i as u64 + seq) % t == rank as u64) as u8
        }
    })
}

/// Fills `buf` with `rank`'s contribution to a checked MPI_SUM among `tasks` contributors.
pub fn fill_summand(buf: &mut [u8], rank: i32, size: u64, seq: u64, tasks: usize) {
    for (b, p) in buf.iter_mut().zip(summand(rank, size, seq, tasks)) {
        *b = p;
    }
}

/// What an MPI_SUM over MPI_UINT8_T of the [`fill_summand`] buffers of `ranks` (among
/// `tasks` contributors) must give, exactly.
pub fn sum_of(ranks: impl IntoIterator<Item = i32>, tasks: usize, size: u64, seq: u64) -> Vec<u8> {
    let mut sum = vec![0u8; size as usize];
    for r in ranks {
        for (s, p) in sum.iter_mut().zip(summand(r, size, seq, tasks)) {
            *s += p;
        }
    }
    sum
}

/// The rank `PAW_TEST_CORRUPT` names: a test-only hook with which that rank's data checks
/// find one more wrong byte (paw's checks) or a flipped byte (the suites'), so that tests
/// see a failed check reported.
pub fn corrupted_rank() -> Option<i64> {
    static TARGET: std::sync::OnceLock<Option<i64>> = std::sync::OnceLock::new();
    *TARGET
        .get_or_init(|| std::env::var("PAW_TEST_CORRUPT").ok().and_then(|v| v.trim().parse().ok()))
}

/// 1 on the rank [`corrupted_rank`] names, else 0.
fn injected() -> usize {
    (corrupted_rank() == Some(i64::from(crate::process::rank().max(0)))) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_buffer_passes() {
        let mut buf = vec![0u8; 1000];
        fill(&mut buf, 3, 1000, 7);
        assert_eq!(mismatches(&buf, 3, 1000, 7), 0);
    }

    #[test]
    fn corrupted_byte_is_reported() {
        let mut buf = vec![0u8; 4096];
        fill(&mut buf, 1, 4096, 0);
        buf[1234] ^= 0x01;
        assert_eq!(mismatches(&buf, 1, 4096, 0), 1);
        buf[0] = buf[0].wrapping_add(1);
        assert_eq!(mismatches(&buf, 1, 4096, 0), 2);
    }

    #[test]
    fn wrong_sender_size_or_sequence_is_caught() {
        let mut buf = vec![0u8; 64];
        fill(&mut buf, 1, 64, 5);
        assert!(mismatches(&buf, 2, 64, 5) > 48, "another rank's data");
        assert!(mismatches(&buf, 1, 32, 5) > 48, "data of another size");
        assert!(mismatches(&buf, 1, 64, 4) > 48, "stale data from an earlier transfer");
    }

    #[test]
    fn summands_never_overflow_and_differ_between_ranks() {
        for tasks in [1, 2, 3, 7, 64, 255, 256, 1000] {
            let sum = sum_of(0..tasks as i32, tasks, 4096, 3);
            assert_eq!(sum.len(), 4096);
            let mut a = vec![0u8; 4096];
            let mut b = vec![0u8; 4096];
            fill_summand(&mut a, 0, 4096, 3, tasks);
            fill_summand(&mut b, 1, 4096, 3, tasks);
            assert!(a != b, "{tasks} tasks: ranks 0 and 1 must differ");
        }
        let (mut a, mut b) = (vec![0u8; 100], vec![0u8; 100]);
        fill_summand(&mut a, 0, 100, 3, 2);
        fill_summand(&mut b, 1, 100, 3, 2);
        let want: Vec<u8> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        assert_eq!(sum_of([0, 1], 2, 100, 3), want);
        assert_eq!(differences(&want, &sum_of([0, 1], 2, 100, 3)), 0);
        assert_eq!(differences(&want[..99], &want), 1);
        assert!(sum_of([0], 2, 100, 3) != want, "a missing contribution is caught");
    }

    #[test]
    fn untouched_buffer_fails() {
        assert!(mismatches(&[0u8; 256], 0, 256, 0) > 240);
    }

    #[test]
    fn one_byte_messages_differ_between_senders() {
        // With 1-byte messages, the byte must still depend on the sender and the sequence.
        let firsts: std::collections::HashSet<u8> =
            (0..16).map(|s| pattern(0, 1, s).next().unwrap()).collect();
        assert!(firsts.len() > 8);
    }
}
