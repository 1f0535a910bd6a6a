//! The numbers that shape a run: the 21 message lengths, the loop length rule and the
//! averages that make b_eff (paper §4).

/// Number of message lengths.
pub const LENGTHS: usize = 21;

/// Repetitions of every measurement; the maximum bandwidth counts.
pub const REPETITIONS: usize = 3;

/// The 21 lengths: 1, 2, 4 ... 4096 bytes, then round(4096 a^k) for k = 1..8 with
/// a = (Lmax / 4096)^(1/8), the last exactly `lmax`. `lmax` must exceed 4096.
pub fn lengths(lmax: usize) -> [usize; LENGTHS] {
    assert!(lmax > 4096, "Lmax must exceed 4 kB");
    let a = (lmax as f64 / 4096.0).powf(1.0 / 8.0);
    std::array::from_fn(|i| match i {
        0..=12 => 1 << i,
        20 => lmax,
        _ => (4096.0 * a.powi(i as i32 - 12)).round() as usize,
    })
}

/// The factor from length i - 1 to length `i` as b_eff 3.6 divides its loop counts by it:
/// 2 up to 4 KiB, then a = (Lmax / 4096)^(1/8) (not the ratio of the rounded lengths).
pub fn length_factor(i: usize, lmax: usize) -> f64 {
    if i <= 12 {
        2.0
    } else {
        (lmax as f64 / 4096.0).powf(1.0 / 8.0)
    }
}

/// Loops of the calibration pass at the first length (b_eff 3.6's PRE_MSG_LOOPS).
pub const CALIBRATION_LOOPS: usize = 10;

/// Lengths below this index get one untimed step before each timed loop (b_eff 3.6's
/// WITH_PRELOOPS: 1 byte to 128 KiB at Lmax = 1 MiB).
pub const WARM_UP_BELOW: usize = 18;

/// b_eff 3.6's loop lengths: each length and method gets about `per_length` seconds over
/// all patterns together. Per repetition a calibration pass runs every pattern at the
/// first length with [`CALIBRATION_LOOPS`] loops; its time t0 (per method, rank 0's clock)
/// sets the most loops any length gets, max(10, 10 x per_length / t0), and the first
/// length runs half of that. Each later length runs the previous count divided by the
/// ratio of the lengths, scaled up by per_length / (the previous length's time over all
/// patterns) where that is above 1; at least 1, at most the most.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoopRule {
    /// Seconds per length and method over all patterns.
    pub per_length: f64,
}

impl LoopRule {
    /// b_eff 3.6's 0.5 s (TIMEPERLOOP).
    pub const FULL: LoopRule = LoopRule { per_length: 0.5 };
    /// Short mode: a hundredth of it.
    pub const SHORT: LoopRule = LoopRule { per_length: 0.005 };

    /// The most loops of any length, from the calibration pass's time (seconds).
    pub fn most(&self, calibration: f64) -> usize {
        let c = CALIBRATION_LOOPS as f64;
        if calibration <= 0.0 {
            return CALIBRATION_LOOPS;
        }
        ((c * self.per_length / calibration) as usize).max(CALIBRATION_LOOPS)
    }

    /// The loops of the first length.
    pub fn first(&self, most: usize) -> usize {
        most / 2
    }

    /// The loops of length `i` (from 1): `previous` loops took `previous_time` seconds over
    /// all patterns at length i - 1, which is `ratio` ([`length_factor`]) times shorter;
    /// without a time the count stays.
    pub fn next(&self, previous: usize, previous_time: f64, ratio: f64, most: usize) -> usize {
        if previous_time <= 0.0 {
            return previous;
        }
        let scale = (self.per_length / previous_time).max(1.0);
        let loops = (previous as f64 / ratio * scale).min(most as f64);
        (loops as usize).max(1)
    }
}

/// A process's own bandwidth in one measurement (b_eff 3.6): L x loops x its exchanges
/// per step / its own time, MB/s; infinite for a process outside the pattern, so that the
/// minimum over processes skips it.
pub fn own_bandwidth(len: usize, loops: usize, calls: usize, seconds: f64) -> f64 {
    if calls == 0 || seconds <= 0.0 {
        return f64::INFINITY;
    }
    paw_core::schema::MB_PER_S.of(len as f64 * loops as f64 * calls as f64 / seconds)
}

/// The pattern's bandwidth (b_eff 3.6): the least [`own_bandwidth`] over processes times
/// the messages of one step over rank 0's exchanges. Where every process exchanges alike,
/// that is L x messages x loops / the slowest time.
pub fn pattern_bandwidth(least: f64, messages: usize, calls0: usize) -> f64 {
    least * messages as f64 / calls0.max(1) as f64
}

/// The logarithmic average (geometric mean) of positive values.
pub fn logavg(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}

/// The arithmetic mean.
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// b_eff from the per-pattern averages over the lengths: the logarithmic average of the
/// logarithmic averages of the ring and of the random patterns.
pub fn b_eff(ring: &[f64], random: &[f64]) -> f64 {
    logavg(&[logavg(ring), logavg(random)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_one_lengths() {
        let l = lengths(1 << 20);
        assert_eq!(l[..13], [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]);
        assert_eq!(l[13..], [8192, 16384, 32768, 65536, 131072, 262144, 524288, 1 << 20]);
        for lmax in [8192, 65536, 1_000_000, 48 << 20, (6 << 30) / 128, 1 << 30] {
            let l = lengths(lmax);
            assert_eq!(l[12], 4096);
            assert_eq!(l[20], lmax);
            assert!(l.windows(2).all(|w| w[0] < w[1]), "{lmax}: {l:?}");
            // Geometric: equal ratios up to rounding.
            let a = (lmax as f64 / 4096.0).powf(0.125);
            for k in 13..20 {
                assert!((l[k] as f64 / l[k - 1] as f64 - a).abs() < 1e-3 * a, "{lmax}: {l:?}");
            }
        }
    }

    #[test]
    fn loop_counts_follow_3_6() {
        let r = LoopRule::FULL;
        // The golden run's method 0, repetition 0: 35416 loops at 1 byte took 0.26 s over
        // all patterns, so 2 bytes get 35416 / 2 x 0.5 / 0.26.
        assert_eq!(r.next(35416, 0.26, 2.0, 100_000), 34053);
        assert_eq!(r.next(1000, 0.8, 2.0, 100_000), 500, "never scaled down");
        assert_eq!(r.next(1000, 0.1, 2.0, 1200), 1200, "at most the most");
        assert_eq!(r.next(1, 0.9, 2.0, 100), 1, "at least one loop");
        assert_eq!(r.most(1e-4), 50_000);
        assert_eq!(r.most(10.0), CALIBRATION_LOOPS);
        assert_eq!(r.first(50_000), 25_000);
        assert_eq!(r.next(700, 0.0, 2.0, 1000), 700, "no time: the count stays");
        assert_eq!(length_factor(12, 1 << 20), 2.0);
        assert!((length_factor(13, 1 << 20) - 2.0).abs() < 1e-12);
        assert!((length_factor(20, 1 << 28) - 4.0).abs() < 1e-12);
    }

    #[test]
    fn bandwidth_of_mixed_rings_follows_3_6() {
        // P = 7, ring1-3*2&+1: ranks 0-3 in rings of two (one exchange), 4-6 in a ring of
        // three (two); 2 + 2 + 6 = 10 messages a step. 1 MB, 1 loop.
        let own = |calls, t| own_bandwidth(1_000_000, 1, calls, t);
        let least = |times: [f64; 7]| {
            let calls = [1, 1, 1, 1, 2, 2, 2];
            (0..7).map(|p| own(calls[p], times[p])).fold(f64::INFINITY, f64::min)
        };
        // All equally fast: 10 messages of 1 MB in 1 s.
        assert!((pattern_bandwidth(least([1.0; 7]), 10, 1) - 10.0).abs() < 1e-12);
        // The ring of three twice as slow: its processes' own bandwidth equals the others',
        // so still 10, where messages / slowest time would say 5.
        let t = [1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0];
        assert!((pattern_bandwidth(least(t), 10, 1) - 10.0).abs() < 1e-12);
        // 3.6 credits 7 of the 10 messages (Pattern::credited): 7 x 1 MB / 1 s.
        assert!((pattern_bandwidth(least([1.0; 7]), 7, 1) - 7.0).abs() < 1e-12);
        // One process outside the pattern does not count.
        assert_eq!(own(0, 1.0), f64::INFINITY);
    }

    #[test]
    fn averages() {
        assert!((logavg(&[1.0, 100.0]) - 10.0).abs() < 1e-12);
        assert!((logavg(&[5.0, 5.0, 5.0]) - 5.0).abs() < 1e-12);
        assert!((mean(&[1.0, 2.0, 6.0]) - 3.0).abs() < 1e-12);
        // Rings and random patterns weigh the same, whatever their numbers.
        let b = b_eff(&[4.0, 4.0, 4.0, 4.0, 4.0, 4.0], &[1.0]);
        assert!((b - 2.0).abs() < 1e-12);
    }
}
