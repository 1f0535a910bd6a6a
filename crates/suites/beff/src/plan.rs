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

/// How long each measurement should last, and the loop count it starts from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoopRule {
    /// Loops of the shortest message, also the most any length gets.
    pub first: usize,
    /// Aim of one measurement, seconds (the middle of the paper's 2.5-5 ms).
    pub target: f64,
}

impl LoopRule {
    /// The paper's rule: 300 loops for the shortest message, each measurement 2.5-5 ms.
    pub const PAPER: LoopRule = LoopRule { first: 300, target: 0.00375 };
    /// Short mode: a tenth of both.
    pub const SHORT: LoopRule = LoopRule { first: 30, target: 0.000375 };

    /// The loop count of the next length: the time per loop measured at `length`
    /// (seconds) scaled by the ratio of lengths, fitted to the target; at least 1, at most
    /// `first`. Every rank computes it from the same all-reduced times, so every rank runs
    /// the same count.
    pub fn next(&self, per_loop: f64, length: usize, next_length: usize) -> usize {
        let predicted = per_loop * next_length as f64 / length as f64;
        if predicted <= 0.0 || !predicted.is_finite() {
            return self.first;
        }
        ((self.target / predicted) as usize).clamp(1, self.first)
    }
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
    fn loop_counts_fit_the_target() {
        let r = LoopRule::PAPER;
        assert_eq!(r.next(1e-6, 1, 2), 300, "short messages keep the first count");
        assert_eq!(r.next(1e-3, 1000, 1000), 3);
        assert_eq!(r.next(0.1, 1000, 2000), 1, "at least one loop");
        assert_eq!(r.next(0.0, 1, 2), 300);
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
