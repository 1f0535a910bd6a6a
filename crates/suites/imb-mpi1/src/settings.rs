//! IMB's standard settings (guide §5.2.1, Table 19) and the rules derived from them:
//! message lengths, repetition counts, process counts, memory per process (§7.1).

/// Largest repetition count (MSGSPERSAMPLE); `-iter` replaces it.
pub const MSGSPERSAMPLE: usize = 1000;
/// Bytes a benchmark moves per message length at most, through fewer repetitions
/// (OVERALL_VOL, 40 MBytes).
pub const OVERALL_VOL: usize = 40 << 20;
/// Runs of the pattern at the largest length before measuring (N_WARMUP).
pub const N_WARMUP: usize = 2;
/// Barriers before each timing (N_BARR).
pub const N_BARR: usize = 2;
/// Standard lengths: 0 and 2^MINMSGLOG .. 2^MAXMSGLOG bytes.
pub const MINMSGLOG: u32 = 0;
/// See [`MINMSGLOG`].
pub const MAXMSGLOG: u32 = 22;
/// Bytes of a float, the unit of the reductions.
pub const FLOAT: usize = 4;

/// Repetitions for length `x`: `per_sample` for 0, else min(per_sample, max(1,
/// overall_vol / x)) (OVERALL_VOL, or what `-iter` set).
pub fn repetitions(x: usize, per_sample: usize, overall_vol: usize) -> usize {
    match overall_vol.checked_div(x) {
        None => per_sample,
        Some(fit) => per_sample.min(fit.max(1)),
    }
}

/// Lengths 0, 2^lo, ..., 2^hi.
pub fn standard_lengths(lo: u32, hi: u32) -> Vec<usize> {
    std::iter::once(0).chain((lo..=hi).map(|k| 1usize << k)).collect()
}

/// The lengths a benchmark with element size `unit` runs from the log-scale lengths:
/// those between 0 and `unit` are dropped and `unit` itself becomes the second smallest
/// (guide: "second smallest data transfer size is max(unit, 2^MINMSGLOG)").
pub fn lengths_for_unit(lengths: &[usize], unit: usize) -> Vec<usize> {
    let mut out: Vec<usize> = lengths.iter().copied().filter(|&x| x == 0 || x >= unit).collect();
    if lengths.iter().any(|&x| x > 0 && x < unit) && !out.contains(&unit) {
        let at = out.iter().position(|&x| x > unit).unwrap_or(out.len());
        out.insert(at, unit);
    }
    out
}

/// Process counts for `p` started processes and minimum `p_min` (guide §5.1.2.2):
/// P_min, 2 P_min, 4 P_min, ..., largest 2^x P_min < P, then P. P_min > P counts as P.
pub fn process_counts(p: usize, p_min: usize) -> Vec<usize> {
    let p = p.max(1) as u64;
    let doubled = paw_core::doubling((p_min as u64).clamp(1, p), p);
    doubled.into_iter().map(|q| q as usize).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetitions_follow_the_guide_sample() {
        let reps: Vec<usize> = standard_lengths(0, 22)
            .iter()
            .map(|&x| repetitions(x, MSGSPERSAMPLE, OVERALL_VOL))
            .collect();
        assert_eq!(reps[0], 1000);
        assert_eq!(reps[17], 640, "65536 bytes");
        assert_eq!(reps[22], 20, "2 MiB");
        assert_eq!(reps[23], 10, "4 MiB");
        assert_eq!(repetitions(1 << 30, 1000, OVERALL_VOL), 1, "never below one");
        assert_eq!(repetitions(100, 50, OVERALL_VOL), 50);
        assert_eq!(repetitions(1 << 20, 1000, 40 << 20), 40, "IMB's 40 at 1 MiB");
    }

    #[test]
    fn reductions_start_at_a_float() {
        let l = standard_lengths(0, 4);
        assert_eq!(lengths_for_unit(&l, FLOAT), [0, 4, 8, 16]);
        assert_eq!(lengths_for_unit(&l, 1), l);
        assert_eq!(lengths_for_unit(&standard_lengths(3, 5), FLOAT), [0, 8, 16, 32]);
        assert_eq!(lengths_for_unit(&[0, 1], FLOAT), [0, 4]);
    }

    #[test]
    fn process_counts_double_from_p_min() {
        assert_eq!(process_counts(11, 2), [2, 4, 8, 11]);
        assert_eq!(process_counts(8, 2), [2, 4, 8]);
        assert_eq!(process_counts(11, 5), [5, 10, 11]);
        assert_eq!(process_counts(3, 7), [3]);
        assert_eq!(process_counts(1, 2), [1]);
        assert_eq!(process_counts(4, 1), [1, 2, 4]);
    }
}
