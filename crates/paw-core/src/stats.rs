//! Summary statistics over the NREPS repetitions of one measurement.

/// Mean, extremes, spread and median of a set of samples.
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
    /// Number of samples.
    pub n: usize,
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
        let median =
            if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 };
        Stats { mean, min: sorted[0], max: sorted[n - 1], stddev: var.sqrt(), median, n }
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
        // Sample variance: 32 / 7.
        assert!((s.stddev - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!(s.n, 8);
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
    }

    #[test]
    #[should_panic(expected = "no samples")]
    fn empty_is_a_bug() {
        Stats::of(&[]);
    }
}
