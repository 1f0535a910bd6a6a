//! Message buffers, their initialisation (guide §5.2.5) and the results check (§7.2).
//!
//! Buffers are float arrays (IMB's assign_type for MPI-1), viewed as bytes by the MPI_BYTE
//! benchmarks. A send buffer holds BUF_VALUE(rank, i) = 0.1 (rank+1) + i in element i, so
//! what arrives tells who sent it and from where in the buffer.

/// IMB's BUF_VALUE(rank, i) for MPI-1: 0.1 (rank+1) + i, as a float.
pub fn buf_value(rank: usize, i: usize) -> f32 {
    (0.1 * (rank as f64 + 1.0) + i as f64) as f32
}

/// A buffer of floats with byte views, seen from a start that `-off_cache` moves.
#[derive(Debug, Clone)]
pub struct Buffer {
    data: Vec<f32>,
    /// Where the views start, in floats ([`Buffer::at`]).
    start: usize,
}

impl Buffer {
    /// A buffer of at least `bytes` bytes, filled with BUF_VALUE(rank, i).
    pub fn filled(bytes: usize, rank: usize) -> Buffer {
        let n = bytes.div_ceil(4);
        Buffer { data: (0..n).map(|i| buf_value(rank, i)).collect(), start: 0 }
    }

    /// A buffer holding `floats`.
    pub fn from_floats(floats: Vec<f32>) -> Buffer {
        Buffer { data: floats, start: 0 }
    }

    /// A buffer holding `bytes`, padded to a whole float with 0xff.
    pub fn from_bytes(bytes: &[u8]) -> Buffer {
        let mut b = Buffer { data: vec![0.0; bytes.len().div_ceil(4)], start: 0 };
        b.poison();
        b.bytes_mut(bytes.len()).copy_from_slice(bytes);
        b
    }

    /// Moves the views to start `bytes` into the buffer (a multiple of 4; `-off_cache`).
    pub fn at(&mut self, bytes: usize) {
        debug_assert_eq!(bytes % 4, 0, "views start at a whole float");
        self.start = bytes / 4;
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.data.len() * 4
    }

    /// Whether the buffer holds nothing.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The first `n` bytes from the start.
    pub fn bytes(&self, n: usize) -> &[u8] {
        let all = &self.data[self.start..];
        // SAFETY: f32 has no padding and u8 has alignment 1, so the floats' memory is a
        // valid byte slice of 4 x len bytes for the lifetime of the borrow.
        let b = unsafe { std::slice::from_raw_parts(all.as_ptr().cast::<u8>(), all.len() * 4) };
        &b[..n]
    }

    /// The first `n` bytes from the start, writable.
    pub fn bytes_mut(&mut self, n: usize) -> &mut [u8] {
        let all = &mut self.data[self.start..];
        // SAFETY: as in `bytes`; any byte pattern is a valid f32, so writes through the
        // byte view cannot create an invalid value; the exclusive borrow is the only view.
        let b =
            unsafe { std::slice::from_raw_parts_mut(all.as_mut_ptr().cast::<u8>(), all.len() * 4) };
        &mut b[..n]
    }

    /// The first `n` floats from the start.
    pub fn floats(&self, n: usize) -> &[f32] {
        &self.data[self.start..self.start + n]
    }

    /// The first `n` floats from the start, writable.
    pub fn floats_mut(&mut self, n: usize) -> &mut [f32] {
        &mut self.data[self.start..self.start + n]
    }

    /// Overwrites every byte with 0xff (a NaN pattern no sender writes), before a check.
    pub fn poison(&mut self) {
        self.data.fill(f32::from_bits(u32::MAX));
    }

    /// Overwrites every byte with 0 (a check that adds into the buffer).
    pub fn zero(&mut self) {
        self.data.fill(0.0);
    }

    /// Before a check: every byte that `expect` names becomes its complement, so a byte
    /// that never arrives differs from what was expected; the rest becomes 0xff.
    pub fn poison_against(&mut self, expect: &Expect) {
        self.poison();
        if let Expect::Bytes(e) = expect {
            for (b, w) in self.bytes_mut(e.len()).iter_mut().zip(e) {
                *b = !w;
            }
        }
    }
}

/// `n` copies of `value`, every page written now: a zeroed allocation is mapped lazily,
/// and a page first touched inside a timed loop would be timed.
pub fn touched<T: Copy>(value: T, n: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    v.resize(n, value);
    v
}

/// A self-test of `-check`: whether `PAW_TEST_CORRUPT` names group rank `rank`, which
/// then flips one received byte after every check run (never in timed runs), so the
/// defects column and the exit status can be seen to work.
pub fn test_corruption(rank: usize) -> bool {
    paw_core::check::corrupted_rank() == Some(rank as i64)
}

/// The bytes `offset .. offset + len` of the send buffer of group rank `rank`.
pub fn sent_bytes(rank: usize, offset: usize, len: usize) -> Vec<u8> {
    Buffer::filled(offset + len, rank).bytes(offset + len)[offset..].to_vec()
}

/// What a receive buffer must hold after one run of a pattern.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// Nothing is received here (a reduction's non-root, a sender).
    Nothing,
    /// The first bytes of the receive buffer, exactly.
    Bytes(Vec<u8>),
    /// The first floats of the receive buffer: sums of `terms` floats each, exact in f64;
    /// a float may differ by the rounding of `terms` additions.
    Sums { values: Vec<f64>, terms: usize },
}

/// Elements of `received` that differ from `expect`: bytes for byte data, floats outside
/// the rounding bound (terms x f32 epsilon x |value|) for sums.
pub fn defects(expect: &Expect, received: &Buffer) -> usize {
    match expect {
        Expect::Nothing => 0,
        Expect::Bytes(e) => received.bytes(e.len()).iter().zip(e).filter(|(g, w)| g != w).count(),
        Expect::Sums { values, terms } => {
            let got = received.floats(values.len());
            let eps = *terms as f64 * f32::EPSILON as f64;
            got.iter()
                .zip(values)
                .filter(|(&g, &w)| {
                    let close = (g as f64 - w).abs() <= eps * w.abs().max(1.0);
                    !close // NaN is never close
                })
                .count()
        }
    }
}

/// The element-wise sum over ranks `0..q` of the first `n` send floats starting at
/// element `from`.
pub fn sums(q: usize, from: usize, n: usize) -> Expect {
    let values =
        (from..from + n).map(|i| (0..q).map(|r| buf_value(r, i) as f64).sum::<f64>()).collect();
    Expect::Sums { values, terms: q }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_copy_has_no_defects() {
        let mut got = Buffer::filled(100, 9);
        got.poison();
        got.bytes_mut(37).copy_from_slice(&sent_bytes(3, 0, 37));
        assert_eq!(defects(&Expect::Bytes(sent_bytes(3, 0, 37)), &got), 0);
    }

    #[test]
    fn corruption_is_counted() {
        let mut got = Buffer::filled(64, 1);
        let expect = Expect::Bytes(sent_bytes(1, 0, 64));
        assert_eq!(defects(&expect, &got), 0);
        got.bytes_mut(64)[10] ^= 0x04;
        got.bytes_mut(64)[63] = 0;
        assert_eq!(defects(&expect, &got), 2);
        // Data from another sender or another offset is wrong everywhere it differs.
        assert!(defects(&Expect::Bytes(sent_bytes(2, 0, 64)), &got) > 0);
        assert!(defects(&Expect::Bytes(sent_bytes(1, 8, 56)), &got) > 0);
        // A stale (poisoned) buffer is all defects, 0xff bytes included.
        got.poison_against(&expect);
        assert_eq!(defects(&expect, &got), 64);
        let ones = Expect::Bytes(vec![0xff; 8]);
        got.poison_against(&ones);
        assert_eq!(defects(&ones, &got), 8);
    }

    #[test]
    fn sums_allow_rounding_but_not_errors() {
        let q = 4;
        let mut got = Buffer::filled(4 * 1000, 0);
        for i in 0..1000 {
            got.floats_mut(1000)[i] = (0..q).map(|r| buf_value(r, i)).sum();
        }
        let expect = sums(q, 0, 1000);
        assert_eq!(defects(&expect, &got), 0);
        got.floats_mut(1000)[500] += 1.0;
        assert_eq!(defects(&expect, &got), 1);
        got.poison();
        assert_eq!(defects(&expect, &got), 1000, "NaN is a defect");
    }
}
