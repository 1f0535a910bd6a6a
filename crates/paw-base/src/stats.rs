//! Summary statistics over the repetitions of one measurement, with a distribution-free
//! confidence interval for the median.

/// Mean, extremes, spread, median and the median's 95% interval of a set of samples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    /// Arithmetic mean.
    pub mean: f64,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
    /// Sample standard deviation (divides by n-1); 0 for a single sample.
    pub stddev: f64,
    /// Middle sample (mean of the two middle samples for an even count).
    pub median: f64,
    /// Lower end of the median's interval (see `median_interval`).
    pub ci_lo: f64,
    /// Upper end of the median's interval.
    pub ci_hi: f64,
    /// Number of samples.
    pub n: usize,
}

/// Confidence the median's interval aims at.
pub const CONFIDENCE: f64 = 0.95;

/// The ranks (1-based, `l <= u`) of the order statistics that bound the median of `n`
/// samples with at least 95% confidence, whatever their distribution, and the interval's
/// exact coverage.
///
/// The median lies between the l-th and the (n+1-l)-th smallest sample unless at most l-1
/// samples fall on one side of it, which happens with probability 2 P(B <= l-1), B ~
/// Binomial(n, 1/2). `l` is the largest rank with 2 P(B <= l-1) <= 5%. Below 6 samples no
/// rank qualifies: the interval is then [min, max], with coverage 1 - 2^(1-n).
pub fn median_interval(n: usize) -> (usize, usize, f64) {
    assert!(n >= 1, "interval of no samples");
    let tail = 1.0 - CONFIDENCE;
    // ln P(B = k), built up from ln P(B = 0) = -n ln 2; P(B <= k) accumulated in order.
    let mut ln_pk = -(n as f64) * std::f64::consts::LN_2;
    let mut cdf = ln_pk.exp();
    let mut l = 0;
    for k in 0..n / 2 {
        // cdf = P(B <= k): rank k + 1 qualifies when both tails together stay within 5%.
        if 2.0 * cdf <= tail {
            l = k + 1;
        } else {
            break;
        }
        ln_pk += ((n - k) as f64).ln() - ((k + 1) as f64).ln();
        cdf += ln_pk.exp();
    }
    if l == 0 {
        return (1, n, 1.0 - 2.0 * 0.5f64.powi(n as i32));
    }
    // Coverage of rank l: 1 - 2 P(B <= l-1).
    let mut ln_p = -(n as f64) * std::f64::consts::LN_2;
    let mut below = ln_p.exp();
    for k in 0..l - 1 {
        ln_p += ((n - k) as f64).ln() - ((k + 1) as f64).ln();
        below += ln_p.exp();
    }
    (l, n + 1 - l, 1.0 - 2.0 * below)
}

/// The median of `values`, NaN values left out (NaN when none is left).
pub fn median(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
    v.sort_by(f64::total_cmp);
    middle(&v)
}

/// The middle of sorted values (the mean of the two middle ones for an even count; NaN
/// for none).
fn middle(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

impl Stats {
    /// Statistics of `samples`. Panics on an empty slice or a NaN sample: both are bugs.
    pub fn of(samples: &[f64]) -> Stats {
        assert!(!samples.is_empty(), "statistics of no samples");
        assert!(samples.iter().all(|x| !x.is_nan()), "NaN sample");
        let n = samples.len();
        let mean = samples.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = middle(&sorted);
        let (l, u, _) = median_interval(n);
        Stats {
            mean,
            min: sorted[0],
            max: sorted[n - 1],
            stddev: var.sqrt(),
            median,
            ci_lo: sorted[l - 1],
            ci_hi: sorted[u - 1],
            n,
        }
    }

    /// How far the interval reaches from the median, relative to it: the larger of
    /// (median - CI_LO) and (CI_HI - median), over the median (0 for a zero median). The
    /// interval lies within +-p of the median when this is at most p.
    pub fn relative_reach(&self) -> f64 {
        if self.median == 0.0 {
            0.0
        } else {
            (self.median - self.ci_lo).max(self.ci_hi - self.median) / self.median.abs()
        }
    }

    /// Whether the median's interval is wider than `tolerance` times the median.
    pub fn noisy(&self, tolerance: f64) -> bool {
        self.median != 0.0 && (self.ci_hi - self.ci_lo) > tolerance * self.median.abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let s = Stats::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.mean, 5.0);
        assert_eq!(s.min, 2.0);
        assert_eq!(s.max, 9.0);
        assert_eq!(s.median, 4.5);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0, f64::NAN]), 2.5);
        assert!(median(&[f64::NAN]).is_nan());
        // Sample variance: 32 / 7.
        assert!((s.stddev - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!(s.n, 8);
        // n = 8: ranks 1 and 8.
        assert_eq!((s.ci_lo, s.ci_hi), (2.0, 9.0));
    }

    #[test]
    fn interval_ranks_match_binomial_tables() {
        // (n, l, u, coverage) from the binomial distribution with p = 1/2.
        for (n, l, u, cover) in [
            (5, 1, 5, 0.9375),
            (6, 1, 6, 0.96875),
            (10, 2, 9, 0.978515625),
            (20, 6, 15, 0.958610534),
            (50, 18, 33, 0.967160862),
            (100, 40, 61, 0.964799800),
        ] {
            let (gl, gu, gc) = median_interval(n);
            assert_eq!((gl, gu), (l, u), "n = {n}");
            assert!((gc - cover).abs() < 1e-8, "n = {n}: coverage {gc} vs {cover}");
        }
        assert_eq!(median_interval(1), (1, 1, 0.0));
        assert_eq!(median_interval(3).0, 1);
        // Large n: the ranks approach n/2 -/+ 1.96 sqrt(n)/2.
        let (l, u, c) = median_interval(10_000);
        assert!((4900..=4903).contains(&l) && u == 10_001 - l && c >= 0.95, "{l} {u} {c}");
    }

    #[test]
    fn interval_of_ten_samples_uses_second_and_ninth() {
        let v: Vec<f64> = (1..=10).map(f64::from).rev().collect();
        let s = Stats::of(&v);
        assert_eq!((s.ci_lo, s.ci_hi, s.median), (2.0, 9.0, 5.5));
    }

    #[test]
    fn noisy_at_the_tolerance() {
        // Ten samples: the interval is [x(2), x(9)] = [99, 101], 2% of the median 100.
        let v = [90.0, 99.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 101.0, 150.0];
        let s = Stats::of(&v);
        assert_eq!((s.ci_lo, s.ci_hi), (99.0, 101.0));
        assert!((s.relative_reach() - 0.01).abs() < 1e-12);
        assert!(s.noisy(0.019) && !s.noisy(0.02) && !s.noisy(0.05));
        // An asymmetric interval reaches as far as its farther end.
        let s = Stats::of(&[99.0, 99.9, 100.0, 100.0, 100.0, 100.0, 100.0, 103.0, 103.0, 120.0]);
        assert_eq!((s.ci_lo, s.median, s.ci_hi), (99.9, 100.0, 103.0));
        assert!((s.relative_reach() - 0.03).abs() < 1e-12);
    }

    #[test]
    fn odd_count_median_ignores_order() {
        let s = Stats::of(&[9.0, 1.0, 5.0]);
        assert_eq!(s.median, 5.0);
        assert_eq!((s.min, s.max), (1.0, 9.0));
    }

    #[test]
    fn single_sample_has_no_spread() {
        let s = Stats::of(&[3.5]);
        assert_eq!((s.mean, s.min, s.max, s.median, s.stddev), (3.5, 3.5, 3.5, 3.5, 0.0));
        assert!(!s.noisy(0.05));
    }

    #[test]
    #[should_panic(expected = "no samples")]
    fn empty_is_a_bug() {
        Stats::of(&[]);
    }
}
