//! The rules of b_eff_io as release 2.1 applies them (paper §5.1, Table 2, §5.4, and 2.1's
//! source where the paper is silent): the pattern table, the time each pattern gets, the
//! per-call decision, the repeat counts and segment of types 3 and 4, the default
//! partitions, validity, and the averages that make one number.

/// 1 MB of the pattern table (chunk sizes are binary).
pub const MB: usize = paw_core::schema::MIB as usize;
/// 1 kB of the pattern table.
pub const KB: usize = 1 << 10;
/// Sum of the time units of the patterns of one access method over all types.
pub const UNITS: u32 = 64;
/// Sum of the time units of type 0 (the rewrite pass without -rewrite).
pub const SCATTER_UNITS: u32 = 22;
/// Scheduled time per partition from which a result is valid (2.1: T_CRIT), seconds.
pub const VALID_TN: f64 = 1800.0;

/// The three access methods, in 2.1's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Initial write (time-driven for types 0-2).
    Write,
    /// Rewrite of the same files with the write's repeat counts.
    Rewrite,
    /// Read with the write's repeat counts.
    Read,
}

/// The access methods in order.
pub const ACCESSES: [Access; 3] = [Access::Write, Access::Rewrite, Access::Read];

impl Access {
    /// The name in tables and files.
    pub fn name(self) -> &'static str {
        match self {
            Access::Write => "write",
            Access::Rewrite => "rewrite",
            Access::Read => "read",
        }
    }
}

/// The five pattern types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Type {
    /// 0: scatter -- a strided file view, MPI_File_write_all/read_all of L bytes in memory
    /// to L/l chunks of l bytes on disk.
    Scatter,
    /// 1: the shared file pointer, collective: MPI_File_write_ordered/read_ordered.
    Shared,
    /// 2: a separate file per process, noncollective (MPI_File_write).
    Separate,
    /// 3: one file, each process its own segment (a view from rank x segment),
    /// noncollective (MPI_File_write with the individual pointer).
    Segmented,
    /// 4: the same with collective calls (MPI_File_write_all).
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

    /// 2.1's name of the type (its protocol and hints file).
    pub fn name(self) -> &'static str {
        match self {
            Type::Scatter => "scatter",
            Type::Shared => "shared",
            Type::Separate => "separated",
            Type::Segmented => "segmented",
            Type::SegmentedCollective => "seg_coll",
        }
    }

    /// The type by 2.1's name.
    pub fn by_name(name: &str) -> Option<Type> {
        TYPES.into_iter().find(|t| t.name() == name)
    }
}

/// One pattern of Table 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pattern {
    /// Its number in Table 2 (0-42).
    pub number: usize,
    /// Its type.
    pub kind: Type,
    /// Contiguous chunk on disk, bytes (the fill pattern's is set per partition).
    pub l: usize,
    /// Contiguous chunk in memory per call, bytes (a multiple of l).
    pub big_l: usize,
    /// Time units (0: exactly one call).
    pub units: u32,
    /// Type 3/4's last pattern: one call writing what is left of the segment.
    pub fill: bool,
    /// Its row in 2.1's summary table (1-7: 1k, 1k+8, 32k, 32k+8, 1M, 1M+8, MPART), or
    /// `None` (the U = 0 pattern, pattern 2, the fill).
    pub row: Option<usize>,
}

/// The chunk sizes of the summary table's rows 1-7 for `mpart`.
pub fn rows(mpart: usize) -> [usize; 7] {
    [KB, KB + 8, 32 * KB, 32 * KB + 8, MB, MB + 8, mpart]
}

/// Largest MPART, bytes (2.1: 1024 MB, the largest power of two in an int).
pub const MPART_CAP: usize = 1 << 30;

/// MPART = max(2 MB, memory per process / 128), at most [`MPART_CAP`], bytes.
pub fn mpart(memory_bytes: u64) -> usize {
    (memory_bytes / 128).clamp(2 * MB as u64, MPART_CAP as u64) as usize
}

/// Table 2 with `mpart` for MPART: 9 scatter patterns, 8 shared, 8 separate, and 9 each
/// for the two segmented types (type 2's list and the fill pattern).
pub fn patterns(mpart: usize) -> Vec<Pattern> {
    let table_row = |l: usize| rows(mpart).iter().position(|&x| x == l).map(|i| i + 1);
    let p = |number, kind, l, big_l, units| {
        let row = if units == 0 || number == 2 { None } else { table_row(l) };
        Pattern { number, kind, l, big_l, units, fill: false, row }
    };
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
    // Types 1 and 2: the chunk in memory is the chunk on disk; they differ in MPART's U.
    let chunks = |mpart_u: u32| {
        [
            (MB, 0),
            (mpart, mpart_u),
            (MB, 2),
            (32 * KB, 1),
            (KB, 1),
            (32 * KB + 8, 1),
            (KB + 8, 1),
            (MB + 8, 2),
        ]
    };
    let (shared, separate) = (chunks(4), chunks(2));
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
            v.push(Pattern {
                number: first + 8,
                kind,
                l: 0,
                big_l: 0,
                units: 0,
                fill: true,
                row: None,
            });
        }
    }
    v
}

/// The time units of one whole run's access methods: write and read 64 each, rewrite 22
/// (type 0 only) or 64 with -rewrite; 2.1 divides a partition's time by this sum.
pub fn units_per_partition(rewrite_all: bool) -> u32 {
    2 * UNITS + if rewrite_all { UNITS } else { SCATTER_UNITS }
}

/// Seconds pattern with `units` gets of a partition's time `tn`: Tn x U / 150 (192 with
/// -rewrite).
pub fn pattern_time(tn: f64, units: u32, rewrite_all: bool) -> f64 {
    tn * f64::from(units) / f64::from(units_per_partition(rewrite_all))
}

/// 2.1's decision after the `calls`-th call of a time-driven pattern, `elapsed` seconds
/// after its start: another call follows if the pattern's time at the mean rate so far,
/// after one more call, stays within `budget`.
pub fn another_call(calls: u64, elapsed: f64, budget: f64) -> bool {
    elapsed * (calls + 1) as f64 / calls as f64 <= budget
}

/// The repeat counts of type 3 (and 4) from the write's counts of types 0-2 (`reps`, by
/// pattern number): pattern 0 once; patterns 1-7 the least of type 0's chunks written (its
/// pattern 2 skipped), ten times type 1's calls and type 2's calls; and the segment: the
/// bytes of those calls per process rounded up to a multiple of 1 MB. Returns the counts
/// of patterns 0-7, the segment and the fill pattern's bytes (segment minus the rest).
pub fn segment(table: &[Pattern], reps: &[u64]) -> ([u64; 8], u64, u64) {
    let of = |t: Type| -> Vec<&Pattern> { table.iter().filter(|p| p.kind == t).collect() };
    let (scatter, shared, separate, seg) =
        (of(Type::Scatter), of(Type::Shared), of(Type::Separate), of(Type::Segmented));
    let mut counts = [1u64; 8];
    let mut bytes = seg[0].big_l as u64;
    for k in 1..8 {
        let p0 = scatter[if k <= 1 { k } else { k + 1 }];
        let chunks = reps[p0.number] * (p0.big_l / p0.l) as u64;
        counts[k] = chunks.min(10 * reps[shared[k].number]).min(reps[separate[k].number]);
        bytes += counts[k] * seg[k].big_l as u64;
    }
    let segment = bytes.div_ceil(MB as u64) * MB as u64;
    (counts, segment, segment - bytes)
}

/// 2.1's figure of a partition: sqrt( mean(write types 0-4, rewrite type 0) x (read:
/// type 0 twice, types 1-4 once, over 6) ).
pub fn release_21(write: &[f64; 5], rewrite_scatter: f64, read: &[f64; 5]) -> f64 {
    let w = (write.iter().sum::<f64>() + rewrite_scatter) / 6.0;
    (w * weighted(read)).sqrt()
}

/// The mean over the five types with type 0 counted twice (2.1's "weighted average
/// bandwidth" of an access method; the paper's per-access value).
pub fn weighted(by_type: &[f64; 5]) -> f64 {
    (2.0 * by_type[0] + by_type[1..].iter().sum::<f64>()) / 6.0
}

/// The paper's figure of a partition (§5.1): 25 % write, 25 % rewrite, 50 % read, each
/// [`weighted`] (the rewrite of type 0 alone where only type 0 is rewritten).
pub fn paper(write: f64, rewrite: f64, read: f64) -> f64 {
    0.25 * write + 0.25 * rewrite + 0.5 * read
}

/// 2.1's default partitions of `p` processes: 1 alone; 1 and 2; else
/// 2^round(0.35 log2 P), 2^round(0.70 log2 P) and P (1 for the first at P = 3, 3 for the
/// second at P = 4), without repeats.
pub fn default_partitions(p: usize) -> Vec<usize> {
    let at = |f: f64| 2f64.powi(((p as f64).log2() * f + 0.5000001) as i32).round() as usize;
    let mut v = match p {
        1 => vec![1],
        2 => vec![1, 2],
        _ => vec![if p == 3 { 1 } else { at(0.35) }, if p == 4 { 3 } else { at(0.70) }, p],
    };
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
        for (i, p) in t.iter().enumerate() {
            assert_eq!(p.number, i);
            assert!(p.fill || p.big_l % p.l == 0, "L is a multiple of l: {p:?}");
        }
        let count = |k: Type| t.iter().filter(|p| p.kind == k).count();
        assert_eq!(TYPES.map(count), [9, 8, 8, 9, 9]);
        let units = |k: Type| t.iter().filter(|p| p.kind == k).map(|p| p.units).sum::<u32>();
        assert_eq!(TYPES.map(units), [SCATTER_UNITS, 12, 10, 10, 10]);
        assert_eq!(TYPES.map(units).iter().sum::<u32>(), UNITS);
        assert_eq!((t[6].l, t[6].big_l), (32776, 1048832));
        assert_eq!((t[7].l, t[7].big_l / t[7].l), (1032, 1024));
        assert_eq!((t[1].l, t[10].l, t[18].l), (4 * MB, 4 * MB, 4 * MB));
        assert!(t[33].fill && t[42].fill && t.iter().filter(|p| p.fill).count() == 2);
        assert_eq!(t[26], Pattern { number: 26, kind: Type::Segmented, ..t[18] });
        // Rows of the summary table: every type has one pattern per row 1-7.
        for k in TYPES {
            let mut r: Vec<usize> =
                t.iter().filter(|p| p.kind == k).filter_map(|p| p.row).collect();
            r.sort();
            assert_eq!(r, [1, 2, 3, 4, 5, 6, 7], "{k:?}");
        }
        assert_eq!((t[2].row, t[3].row, t[1].row), (None, Some(5), Some(7)));
        assert_eq!(mpart(128 << 20), 2 * MB);
        assert_eq!(mpart(1 << 30), 8 * MB);
        assert_eq!(mpart(1 << 40), MPART_CAP, "1 GiB at most");
    }

    #[test]
    fn time_split_and_decisions() {
        // -T 60, two partitions: Tn = 30 s; pattern 1 (U = 4) gets 30 x 4 / 150 = 0.8 s,
        // as 2.1's protocol says (Tp= 0.80).
        assert!((pattern_time(30.0, 4, false) - 0.8).abs() < 1e-12);
        assert!((pattern_time(30.0, 4, true) - 0.625).abs() < 1e-12);
        assert_eq!(units_per_partition(false), 150);
        assert_eq!(units_per_partition(true), 192);
        assert_eq!(pattern_time(1800.0, 0, false), 0.0);
        assert!(!another_call(1, 0.001, 0.0), "U = 0: exactly one call");
        assert!(another_call(1, 0.3, 0.8));
        assert!(!another_call(1, 0.5, 0.8), "two calls at 0.5 s each would pass 0.8 s");
        assert!(another_call(9, 0.7, 0.8) && !another_call(9, 0.75, 0.8));
    }

    #[test]
    fn segments_follow_the_golden_run() {
        // 2.1's protocol of -T 60 at n = 2: type 0 r = 1, 86, 85, 169, 84, 56, 76, 52, 84;
        // type 1 r = 1, 87, 96, 1569, 26265, 1239, 24919, 85; type 2 r = 1, 85, 169, 2514,
        // 44980, 2261, 44519, 166. Type 3 then ran 85, 169, 2514, 44980, 2261, 44519, 84
        // and filled 23424 bytes of a 661 MB segment.
        let t = patterns(2 * MB);
        let mut reps = vec![0u64; 43];
        let set = |reps: &mut Vec<u64>, first: usize, r: &[u64]| {
            reps[first..first + r.len()].copy_from_slice(r);
        };
        set(&mut reps, 0, &[1, 86, 85, 169, 84, 56, 76, 52, 84]);
        set(&mut reps, 9, &[1, 87, 96, 1569, 26265, 1239, 24919, 85]);
        set(&mut reps, 17, &[1, 85, 169, 2514, 44980, 2261, 44519, 166]);
        let (counts, segment, fill) = segment(&t, &reps);
        assert_eq!(counts, [1, 85, 169, 2514, 44980, 2261, 44519, 84]);
        assert_eq!((segment >> 20, fill), (661, 23424));
    }

    #[test]
    fn figures_by_hand() {
        // Release 2.1: writes 10, 20, 30, 40, 50 and rewrite 60 -> 35; read 80 (type 0
        // twice) and 20, 20, 20, 20 -> 40; sqrt(35 x 40).
        let r = release_21(&[10.0, 20.0, 30.0, 40.0, 50.0], 60.0, &[80.0, 20.0, 20.0, 20.0, 20.0]);
        assert!((r - (35.0f64 * 40.0).sqrt()).abs() < 1e-12);
        assert!((weighted(&[100.0, 50.0, 40.0, 30.0, 20.0]) - 340.0 / 6.0).abs() < 1e-12);
        assert!((paper(40.0, 80.0, 100.0) - 80.0).abs() < 1e-12);
    }

    #[test]
    fn default_partitions_as_2_1() {
        assert_eq!(default_partitions(1), [1]);
        assert_eq!(default_partitions(2), [1, 2]);
        assert_eq!(default_partitions(3), [1, 2, 3]);
        assert_eq!(default_partitions(4), [2, 3, 4]);
        assert_eq!(default_partitions(8), [2, 4, 8]);
        assert_eq!(default_partitions(16), [2, 8, 16]);
        assert_eq!(default_partitions(64), [4, 16, 64]);
        assert_eq!(default_partitions(1024), [16, 128, 1024], "3.5 rounds up");
    }
}
