//! The tests that judge launches: per row a moderated t-test of the log figures of two
//! sets of launches ([`moderated_t`]), and Benjamini and Hochberg's step-up rule over the
//! rows of a comparison.

use super::spread::{t_p, Logs, Prior};

/// One row's test: the two-sided p-value, and whether the new launches are the costlier
/// (slower) on the log scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tested {
    /// Two-sided p-value.
    pub p: f64,
    /// Whether the new launches' mean log figure is above the base's.
    pub higher: bool,
}

/// The pooled variance of two rows of launches and its degrees of freedom.
pub fn pooled(base: &Logs, new: &Logs) -> (f64, f64) {
    let df = (base.n + new.n) as f64 - 2.0;
    if df < 1.0 {
        return (f64::NAN, 0.0);
    }
    ((base.squares + new.squares) / df, df)
}

/// The t-test of one row's launches with its variance moderated by `prior` (the file's
/// rows): t = difference of the mean logs over s sqrt(1/m + 1/n), on the pooled and the
/// prior's degrees of freedom together.
pub fn moderated_t(base: &Logs, new: &Logs, prior: &Prior) -> Tested {
    let (variance, df) = pooled(base, new);
    let (variance, df) = prior.moderate(variance, df);
    let diff = new.mean - base.mean;
    let se = (variance * (1.0 / base.n as f64 + 1.0 / new.n as f64)).sqrt();
    let p = if se > 0.0 {
        t_p(diff / se, df)
    } else if diff == 0.0 {
        1.0
    } else {
        0.0
    };
    Tested { p, higher: diff > 0.0 }
}

/// Benjamini and Hochberg's rule at false-discovery rate `q`: which of `p` (one p-value per
/// hypothesis) are rejected. With no change anywhere, the chance that any is rejected is at
/// most `q` (for independent or positively dependent tests).
pub fn benjamini_hochberg(p: &[f64], q: f64) -> Vec<bool> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let m = p.len() as f64;
    let last = order
        .iter()
        .enumerate()
        .rev()
        .find(|(k, &i)| p[i] <= (*k as f64 + 1.0) / m * q)
        .map(|(k, _)| k);
    let mut rejected = vec![false; p.len()];
    if let Some(last) = last {
        for &i in &order[..=last] {
            rejected[i] = true;
        }
    }
    rejected
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moderated_t_tests() {
        let prior = Prior { variance: 0.0025, df: 10.0 };
        let base = Logs::of(&[1.0, 1.05, 0.95, 1.02, 0.98, 1.0]);
        let slower: Vec<f64> = [1.0, 1.05, 0.95, 1.02, 0.98, 1.0].iter().map(|x| x * 1.1).collect();
        let t = moderated_t(&base, &Logs::of(&slower), &prior);
        assert!(t.higher && t.p < 0.01, "{t:?}");
        let same = moderated_t(&base, &base, &prior);
        assert!((same.p - 1.0).abs() < 1e-12);
        // A row with a wide spread of its own is judged with it.
        let wide = Logs::of(&[0.7, 1.4, 0.8, 1.3, 1.0, 0.9]);
        let shifted = Logs::of(&[0.77, 1.54, 0.88, 1.43, 1.1, 0.99]);
        assert!(moderated_t(&wide, &shifted, &prior).p > 0.05);
    }

    #[test]
    fn step_up_rule() {
        assert_eq!(benjamini_hochberg(&[0.01, 0.04, 0.03, 0.9], 0.05), [true, false, false, false]);
        assert_eq!(benjamini_hochberg(&[0.01, 0.02, 0.03, 0.04], 0.05), [true; 4]);
        assert_eq!(benjamini_hochberg(&[0.02, 0.9], 0.05), [true, false]);
        assert_eq!(benjamini_hochberg(&[0.03, 0.9], 0.05), [false, false]);
    }
}
