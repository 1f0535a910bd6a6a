//! IMB's settings (guide §5.2.1: settings.h for IMB-MPI1 and IMB-EXT, settings_io.h for
//! IMB-IO) and the rules derived from them: message lengths, repetition counts, process
//! counts.

/// One suite's standard settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Largest repetition count (MSGSPERSAMPLE); `-iter` replaces it.
    pub msgs_per_sample: usize,
    /// Repetitions of non-aggregate benchmarks (MSGS_NONAGGR).
    pub msgs_nonaggr: usize,
    /// Bytes a benchmark moves per length at most, through fewer repetitions (OVERALL_VOL).
    pub overall_vol: usize,
    /// Standard lengths: 0 and 2^MINMSGLOG .. 2^MAXMSGLOG bytes.
    pub min_msg_log: u32,
    /// See `min_msg_log`.
    pub max_msg_log: u32,
    /// Runs of the pattern at the largest length before measuring (N_WARMUP; 0 for IO).
    pub n_warmup: usize,
    /// The warm-up and synchronisation in words, where the kernels do their own (today's
    /// suites: at every length); `None`: N_WARMUP runs at the largest length and N_BARR
    /// barriers before each timing.
    pub own_warm_up: Option<&'static str>,
    /// Barriers before each timing (N_BARR).
    pub n_barr: usize,
    /// CPU seconds to run concurrently with each non-blocking transfer (TARGET_CPU_SECS).
    pub target_cpu_secs: f64,
    /// Processes of a single transfer benchmark (2 for message passing, 1 for I/O).
    pub single_q: usize,
    /// Smallest process count by default (2, or 1 for I/O: guide §5.1.1).
    pub npmin: usize,
}

/// settings.h (guide Table 19): IMB-MPI1 and IMB-EXT.
pub const MESSAGE_PASSING: Settings = Settings {
    msgs_per_sample: 1000,
    msgs_nonaggr: 100,
    overall_vol: 40 << 20,
    min_msg_log: 0,
    max_msg_log: 22,
    n_warmup: 2,
    own_warm_up: None,
    n_barr: 2,
    target_cpu_secs: 0.01,
    single_q: 2,
    npmin: 2,
};

/// settings_io.h (guide §5.2.1): IMB-IO.
pub const IO: Settings = Settings {
    msgs_per_sample: 50,
    msgs_nonaggr: 10,
    overall_vol: 16 << 20,
    min_msg_log: 0,
    max_msg_log: 24,
    n_warmup: 0,
    own_warm_up: Some(ESTIMATE_IO),
    n_barr: 2,
    target_cpu_secs: 0.1,
    single_q: 1,
    npmin: 1,
};

/// IMB-IO's untimed pass before each timing, standing for today's IMB's repetition estimate.
pub const ESTIMATE_IO: &str =
    "min(n, 50) transfers untimed at every length as the timed ones go (today's IMB's \
     repetition estimate), file pointers back at 0, 2 MPI_Barrier before each timing";

/// Today's IMB-NBC and IMB-RMA: their kernels' warm-up and barriers.
pub const WARM_UP_2021: &str =
    "a tenth of the repetitions (at least min(10, n)) untimed at every length, 2 MPI_Barrier \
     before each timing";

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

/// Today's IMB's `-iter_policy multiple_np` count for length `x` on `q` processes, the
/// longest length of the run's range being `longest` (2^max_msg_log): MSGSPERSAMPLE
/// scaled down along a hyperbola, n = per_sample longest / (q max(x, 4) + longest), rounded,
/// then cut to a multiple of `q`, never below `q` (IMB_init_buffers_iter; 4 is the size of
/// its assign_type).
pub fn multiple_of_np(x: usize, per_sample: usize, q: usize, longest: usize) -> usize {
    let q = q.max(1);
    let spread = (q * x.max(FLOAT) + longest) as f64;
    let n = (per_sample as f64 * longest as f64 / spread + 0.5) as usize;
    (n - n % q).max(q)
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
        let s = MESSAGE_PASSING;
        let reps: Vec<usize> = standard_lengths(0, 22)
            .iter()
            .map(|&x| repetitions(x, s.msgs_per_sample, s.overall_vol))
            .collect();
        assert_eq!(reps[0], 1000);
        assert_eq!(reps[17], 640, "65536 bytes");
        assert_eq!(reps[22], 20, "2 MiB");
        assert_eq!(reps[23], 10, "4 MiB");
        assert_eq!(repetitions(1 << 30, 1000, s.overall_vol), 1, "never below one");
        assert_eq!(repetitions(100, 50, s.overall_vol), 50);
        // settings_io.h: the guide's Sample 3 (50 up to 256 KiB, then 32, 16, ..., 1).
        let io: Vec<usize> = standard_lengths(18, 24)
            .iter()
            .map(|&x| repetitions(x, IO.msgs_per_sample, IO.overall_vol))
            .collect();
        assert_eq!(io, [50, 50, 32, 16, 8, 4, 2, 1]);
        let nonaggr: Vec<usize> = [1 << 20, 1 << 21, 1 << 24]
            .iter()
            .map(|&x| repetitions(x, IO.msgs_nonaggr, IO.overall_vol))
            .collect();
        assert_eq!(nonaggr, [10, 8, 1]);
        assert_eq!(repetitions(1 << 20, 1000, 40 << 20), 40, "IMB's 40 at 1 MiB");
    }

    #[test]
    fn multiple_of_np_gives_intels_counts() {
        // Intel's IMB-MPI1 2021.11, `-msglog 0:22 -iter_policy multiple_np Bcast`, the
        // #repetitions column from 1 KiB to 4 MiB on 2 and on 3 processes.
        let counts = |q| -> Vec<usize> {
            standard_lengths(10, 22)[1..]
                .iter()
                .map(|&x| multiple_of_np(x, 1000, q, 1 << 22))
                .collect()
        };
        let two = [1000, 998, 998, 996, 992, 984, 970, 940, 888, 800, 666, 500, 332];
        let three = [999, 999, 996, 993, 987, 975, 954, 912, 840, 726, 570, 399, 249];
        assert_eq!(counts(2), two);
        assert_eq!(counts(3), three);
        assert_eq!(multiple_of_np(0, 1000, 2, 1 << 22), 1000, "length 0 counts as 4 bytes");
        assert_eq!(multiple_of_np(0, 1000, 3, 1 << 22), 999);
        assert_eq!(multiple_of_np(1 << 22, 10, 64, 1 << 22), 64, "never below the process count");
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
