//! The arithmetic of a side-by-side comparison: per row the ratio of the two programs'
//! medians over the pairs of runs, a 95 % interval for it by bootstrap over the pairs, and
//! the suite's headline (the geometric mean of its rows' ratios) with its own interval.

/// Resamples drawn for each interval.
const RESAMPLES: usize = 2000;

/// Whether two probes of the one-way latency saw the same level of the machine: within a
/// factor 2 of each other. Small VMs switch between levels 2-4x apart, so a run between
/// two probes on one level ran on it, and one between probes across levels may not have.
pub fn same_level(a: f64, b: f64) -> bool {
    a > 0.0 && b > 0.0 && a.max(b) <= 2.0 * a.min(b)
}

/// The median of `v` (NaN when empty).
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    match s.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => s[n / 2],
        n => (s[n / 2 - 1] + s[n / 2]) / 2.0,
    }
}

/// One figure of both programs over the pairs: the medians, their ratio (paw / original)
/// and its 95 % interval.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratio {
    /// paw's median.
    pub paw: f64,
    /// The original's median.
    pub original: f64,
    /// paw / original.
    pub ratio: f64,
    /// The interval's low end.
    pub lo: f64,
    /// The interval's high end.
    pub hi: f64,
}

impl Ratio {
    /// Whether the interval lies inside `lo..=hi`.
    pub fn inside(&self, lo: f64, hi: f64) -> bool {
        self.lo >= lo && self.hi <= hi
    }
}

/// A small fixed-seed generator (xorshift64*): the same intervals for the same numbers.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// The ratio of medians of each row and the headline, given per row the figures of each
/// pair (`paw[row][pair]`, `original[row][pair]`, every row with one figure per pair).
/// The intervals come from resampling the pairs (a whole pair at a time, every row with
/// the same draw), the 2.5th and 97.5th percentiles of the resampled ratios.
pub fn ratios(paw: &[Vec<f64>], original: &[Vec<f64>]) -> (Vec<Ratio>, Ratio) {
    let pairs = paw.first().map_or(0, Vec::len);
    let point = |pick: &[usize]| -> Vec<f64> {
        paw.iter()
            .zip(original)
            .map(|(p, o)| {
                let take = |v: &[f64]| pick.iter().map(|&i| v[i]).collect::<Vec<f64>>();
                median(&take(p)) / median(&take(o))
            })
            .collect()
    };
    let headline = |r: &[f64]| (r.iter().map(|x| x.ln()).sum::<f64>() / r.len() as f64).exp();
    let all: Vec<usize> = (0..pairs).collect();
    let at = point(&all);
    let mut draw = Draw(0x9E37_79B9_7F4A_7C15);
    let mut rows: Vec<Vec<f64>> = vec![Vec::with_capacity(RESAMPLES); paw.len()];
    let mut heads = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        let pick: Vec<usize> = (0..pairs).map(|_| draw.below(pairs)).collect();
        let r = point(&pick);
        heads.push(headline(&r));
        for (row, x) in rows.iter_mut().zip(r) {
            row.push(x);
        }
    }
    let interval = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let rank = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
        (rank(0.025), rank(0.975))
    };
    let per_row = paw
        .iter()
        .zip(original)
        .zip(rows)
        .zip(&at)
        .map(|(((p, o), resampled), &ratio)| {
            let (lo, hi) = interval(resampled);
            Ratio { paw: median(p), original: median(o), ratio, lo, hi }
        })
        .collect();
    let (lo, hi) = interval(heads);
    let head = Ratio { paw: f64::NAN, original: f64::NAN, ratio: headline(&at), lo, hi };
    (per_row, head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_ratios_and_intervals() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        // Row 1: the original twice paw's time in every pair: 0.5 exactly, interval 0.5-0.5.
        // Row 2: paw 10, 12, 11, 30, 10 against 10 each: median 11 / 10.
        let paw = vec![vec![1.0, 2.0, 3.0, 4.0, 5.0], vec![10.0, 12.0, 11.0, 30.0, 10.0]];
        let original = vec![vec![2.0, 4.0, 6.0, 8.0, 10.0], vec![10.0; 5]];
        let (rows, head) = ratios(&paw, &original);
        assert_eq!((rows[0].paw, rows[0].original, rows[0].ratio), (3.0, 6.0, 0.5));
        // A resample keeps each pair's two figures together: half in every draw.
        assert_eq!((rows[0].lo, rows[0].hi), (0.5, 0.5));
        assert!((rows[1].ratio - 1.1).abs() < 1e-12);
        assert!(rows[1].lo >= 1.0 && rows[1].hi <= 3.0, "{:?}", rows[1]);
        assert!(rows[1].lo <= 1.1 && rows[1].hi >= 1.1);
        assert!((head.ratio - (0.5f64 * 1.1).sqrt()).abs() < 1e-12);
        assert!(head.lo <= head.ratio && head.ratio <= head.hi);
        // The same numbers, the same intervals.
        assert_eq!(ratios(&paw, &original).0, rows);
    }

    #[test]
    fn doubled_times_give_one_half_and_an_interval_without_one() {
        let paw = vec![vec![0.3, 0.31, 0.29], vec![5.0, 5.5, 4.5]];
        let original: Vec<Vec<f64>> =
            paw.iter().map(|r| r.iter().map(|x| 2.0 * x).collect()).collect();
        let (rows, head) = ratios(&paw, &original);
        assert!(rows.iter().all(|r| r.ratio == 0.5));
        assert!((head.ratio - 0.5).abs() < 1e-12 && head.hi < 1.0, "{head:?}");
    }

    #[test]
    fn levels() {
        assert!(same_level(0.3, 0.55) && same_level(0.6, 0.3));
        assert!(!same_level(0.17, 0.65) && !same_level(0.0, 0.3));
    }
}
