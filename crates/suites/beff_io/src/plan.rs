//! The rules of b_eff_io (paper §5.1, Table 2, §5.4): the pattern table, the time each
//! pattern gets, the repeat decisions, the segment size of types 3 and 4, and the weights
//! that make one number.

/// 1 MB of the pattern table (chunk sizes are binary).
pub const MB: usize = 1 << 20;
/// 1 kB of the pattern table.
pub const KB: usize = 1 << 10;
/// Sum of the time units of all patterns.
pub const UNITS: u32 = 64;

/// The five pattern types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Type {
    /// 0: scatter -- a strided file view, MPI_File_write_all/read_all of L bytes in memory
    /// to L/l chunks of l bytes on disk.
    Scatter,
    /// 1: the shared file pointer, collective: MPI_File_write_ordered/read_ordered.
    Shared,
    /// 2: a separate file per process, noncollective.
    Separate,
    /// 3: one file, each process its own segment, noncollective (MPI_File_write_at).
    Segmented,
    /// 4: the same with collective calls (MPI_File_write_at_all).
    SegmentedCollective,
}

/// The types in order.
pub const TYPES: [Type; 5] =
    [Type::Scatter, Type::Shared, Type::Separate, Type::Segmented, Type::SegmentedCollective];

impl Type {
    /// The type's number (0-4).
    pub fn number(self) -> usize {
        self as usize
    }

    /// A short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Type::Scatter => "scatter",
            Type::Shared => "shared",
            Type::Separate => "separate",
            Type::Segmented => "segmented",
            Type::SegmentedCollective => "seg-coll",
        }
    }
}

/// One pattern of Table 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pattern {
    /// Its number in Table 2 (0-42).
    pub number: usize,
    /// Its type.
    pub kind: Type,
    /// Contiguous chunk on disk, bytes.
    pub l: usize,
    /// Contiguous chunk in memory per call, bytes (a multiple of l).
    pub big_l: usize,
    /// Time units (0: exactly one call).
    pub units: u32,
    /// Type 3/4's last pattern: writes what is left of the segment in 1 MB calls.
    pub fill: bool,
}

/// Largest MPART, bytes: one call's count must fit an MPI int, and the buffers memory.
pub const MPART_CAP: usize = 1 << 30;

/// MPART = max(2 MB, memory per process / 128), at most [`MPART_CAP`], bytes.
pub fn mpart(memory_bytes: u64) -> usize {
    (memory_bytes / 128).clamp(2 * MB as u64, MPART_CAP as u64) as usize
}

/// Table 2 with `mpart` for MPART: 9 scatter patterns, 8 shared, 8 separate, and 9 each
/// for the two segmented types (type 2's list and a fill-up pattern).
pub fn patterns(mpart: usize) -> Vec<Pattern> {
    let p = |number, kind, l, big_l, units| Pattern { number, kind, l, big_l, units, fill: false };
    let mut v = vec![
        p(0, Type::Scatter, MB, MB, 0),
        p(1, Type::Scatter, mpart, mpart, 4),
        p(2, Type::Scatter, MB, 2 * MB, 4),
        p(3, Type::Scatter, MB, MB, 4),
        p(4, Type::Scatter, 32 * KB, MB, 2),
        p(5, Type::Scatter, KB, MB, 2),
        p(6, Type::Scatter, 32 * KB + 8, MB + 256, 2),
        p(7, Type::Scatter, KB + 8, MB + 8 * KB, 2),
        p(8, Type::Scatter, MB + 8, MB + 8, 2),
    ];
    // Types 1 and 2: the chunk in memory is the chunk on disk.
    let shared = [
        (MB, 0),
        (mpart, 4),
        (MB, 2),
        (32 * KB, 1),
        (KB, 1),
        (32 * KB + 8, 1),
        (KB + 8, 1),
        (MB + 8, 2),
    ];
    let separate = [
        (MB, 0),
        (mpart, 2),
        (MB, 2),
        (32 * KB, 1),
        (KB, 1),
        (32 * KB + 8, 1),
        (KB + 8, 1),
        (MB + 8, 2),
    ];
    for (i, &(l, u)) in shared.iter().enumerate() {
        v.push(p(9 + i, Type::Shared, l, l, u));
    }
    for (kind, first) in
        [(Type::Separate, 17), (Type::Segmented, 25), (Type::SegmentedCollective, 34)]
    {
        for (i, &(l, u)) in separate.iter().enumerate() {
            v.push(p(first + i, kind, l, l, u));
        }
        if kind != Type::Separate {
            v.push(Pattern { number: first + 8, kind, l: MB, big_l: MB, units: 0, fill: true });
        }
    }
    v
}

/// Seconds pattern with `units` gets of the scheduled time `t` of a partition: T/3 x U/64.
pub fn pattern_time(t: f64, units: u32) -> f64 {
    t / 3.0 * f64::from(units) / f64::from(UNITS)
}

/// Rank 0's decision after `done` calls taking `elapsed` seconds of a pattern's `budget`:
/// how many calls the next batch makes (0: stop). Batches double (1, 1, 2, 4 ...), so the
/// decision -- a broadcast -- costs little against the calls; a batch that would not fit
/// shrinks to what the mean time per call says fits.
pub fn next_batch(done: u64, elapsed: f64, budget: f64) -> u64 {
    if done == 0 {
        return 1;
    }
    let per_call = elapsed / done as f64;
    let left = budget - elapsed;
    if per_call <= 0.0 || left < per_call {
        return 0;
    }
    let fits = (left / per_call) as u64;
    done.min(fits)
}

/// The segment of each process in types 3 and 4: the bytes type 2 wrote per process
/// (`chunks[i]` calls of its pattern `i`'s chunk), rounded up to a multiple of 1 MB.
pub fn segment_size(separate: &[Pattern], calls: &[u64]) -> u64 {
    let bytes: u64 = separate.iter().zip(calls).map(|(p, &n)| p.l as u64 * n).sum();
    bytes.div_ceil(MB as u64) * MB as u64
}

/// The b_eff_io of one access method: the mean over the five types with type 0 counted
/// twice (`by_type[t]`: bandwidth of type t; types not run are left out).
pub fn access_value(by_type: &[Option<f64>; 5]) -> f64 {
    let (mut sum, mut weight) = (0.0, 0.0);
    for (t, v) in by_type.iter().enumerate() {
        if let Some(v) = v {
            let w = if t == 0 { 2.0 } else { 1.0 };
            sum += w * v;
            weight += w;
        }
    }
    sum / weight
}

/// The b_eff_io of a partition: 25 % initial write, 25 % rewrite, 50 % read.
pub fn partition_value(write: f64, rewrite: f64, read: f64) -> f64 {
    0.25 * write + 0.25 * rewrite + 0.5 * read
}

/// Release 2.1's figure of a partition: sqrt(mean of the write types and rewrite type 0,
/// times the read value) -- the geometric form, reported beside the paper's.
pub fn release_21_value(write_types: &[f64], rewrite_scatter: f64, read: f64) -> f64 {
    let n = write_types.len() as f64 + 1.0;
    let write = (write_types.iter().sum::<f64>() + rewrite_scatter) / n;
    (write * read).sqrt()
}

/// The default partitions of `p` processes: a small, a medium and the whole set (P/4,
/// P/2, P, each at least 1, without repeats).
pub fn default_partitions(p: usize) -> Vec<usize> {
    let mut v: Vec<usize> =
        [p.div_ceil(4), p.div_ceil(2), p].into_iter().map(|n| n.max(1)).collect();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pattern_table() {
        let t = patterns(4 * MB);
        assert_eq!(t.len(), 43);
        assert_eq!(t.iter().map(|p| p.units).sum::<u32>(), UNITS);
        for (i, p) in t.iter().enumerate() {
            assert_eq!(p.number, i);
            assert_eq!(p.big_l % p.l, 0, "L is a multiple of l: {p:?}");
        }
        let count = |k: Type| t.iter().filter(|p| p.kind == k).count();
        assert_eq!(TYPES.map(count), [9, 8, 8, 9, 9]);
        let units = |k: Type| t.iter().filter(|p| p.kind == k).map(|p| p.units).sum::<u32>();
        assert_eq!(TYPES.map(units), [22, 12, 10, 10, 10]);
        assert_eq!((t[6].l, t[6].big_l), (32776, 1048832));
        assert_eq!((t[7].l, t[7].big_l / t[7].l), (1032, 1024));
        assert_eq!((t[1].l, t[10].l, t[18].l), (4 * MB, 4 * MB, 4 * MB));
        assert!(t[33].fill && t[42].fill && t.iter().filter(|p| p.fill).count() == 2);
        assert_eq!(t[26], Pattern { number: 26, kind: Type::Segmented, ..t[18] });
        assert_eq!(mpart(128 << 20), 2 * MB);
        assert_eq!(mpart(1 << 30), 8 * MB);
        assert_eq!(mpart(1 << 40), MPART_CAP, "1 GiB at most");
    }

    #[test]
    fn time_split_and_batches() {
        assert!((pattern_time(1800.0, 4) - 37.5).abs() < 1e-12);
        assert_eq!(pattern_time(1800.0, 0), 0.0);
        let all: f64 = patterns(2 * MB).iter().map(|p| pattern_time(90.0, p.units)).sum();
        assert!((all - 30.0).abs() < 1e-12, "the patterns share T/3");
        assert_eq!(next_batch(0, 0.0, 1.0), 1);
        assert_eq!(next_batch(1, 0.1, 1.0), 1);
        assert_eq!(next_batch(4, 0.2, 10.0), 4, "doubling: the next batch is all done so far");
        assert_eq!(next_batch(8, 0.8, 1.05), 2, "shrunk to what fits");
        assert_eq!(next_batch(8, 0.95, 1.0), 0);
    }

    #[test]
    fn segments_round_up_to_a_megabyte() {
        let t = patterns(2 * MB);
        let separate: Vec<Pattern> =
            t.iter().filter(|p| p.kind == Type::Separate).copied().collect();
        assert_eq!(segment_size(&separate, &[1, 0, 0, 0, 0, 0, 0, 0]), MB as u64);
        assert_eq!(segment_size(&separate, &[1, 1, 0, 0, 1, 0, 0, 0]), 4 * MB as u64);
        assert_eq!(segment_size(&separate, &[0; 8]), 0);
    }

    #[test]
    fn weights_by_hand() {
        // Types 100, 50, 40, 30, 20 MB/s: (2 x 100 + 50 + 40 + 30 + 20) / 6 = 56.67.
        let a = access_value(&[Some(100.0), Some(50.0), Some(40.0), Some(30.0), Some(20.0)]);
        assert!((a - 340.0 / 6.0).abs() < 1e-9);
        // Rewrite of type 0 only: the type-0 value itself.
        assert!((access_value(&[Some(80.0), None, None, None, None]) - 80.0).abs() < 1e-12);
        assert!((partition_value(40.0, 80.0, 100.0) - 80.0).abs() < 1e-12);
        // Release 2.1: writes 10, 20 and rewrite 30 -> 20; read 80 -> sqrt(1600) = 40.
        assert!((release_21_value(&[10.0, 20.0], 30.0, 80.0) - 40.0).abs() < 1e-12);
        assert_eq!(default_partitions(1), [1]);
        assert_eq!(default_partitions(2), [1, 2]);
        assert_eq!(default_partitions(8), [2, 4, 8]);
        assert_eq!(default_partitions(3), [1, 2, 3]);
    }
}
