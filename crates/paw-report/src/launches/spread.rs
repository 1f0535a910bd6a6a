//! How much a row varies from launch to launch, and what that allows: the rows of one file
//! share what they know of their spread ("moderated" variances, as Smyth's limma does for
//! many small samples at once: Smyth, "Linear models and empirical Bayes methods for
//! assessing differential expression", 2004), so that six launches per row give a usable
//! figure.
//!
//! Everything is on the logarithm of the figure: a launch 10 % slower is the same step at
//! 1 usec and at 100 usec. A launch whose figure lies beyond [`AWAY`] times the median of
//! its row's launches ran that row in another state of the machine (a change during the
//! launch that the probes around it missed) and is left out of the row.

/// A launch's figure beyond this factor of the row's median (either way) is left out.
pub const AWAY: f64 = 1.5;

/// Standard deviations of a launch on each side of the median in a row's band.
pub const BAND: f64 = 2.0;

/// The launches' figures of one row that count: all, but those beyond [`AWAY`] times their
/// median (with three launches or more; positive values only).
pub fn kept(values: &[f64]) -> Vec<f64> {
    let positive: Vec<f64> = values.iter().copied().filter(|v| *v > 0.0 && v.is_finite()).collect();
    if positive.len() < 3 {
        return positive;
    }
    let m = paw_base::median(&positive);
    positive.into_iter().filter(|v| *v <= m * AWAY && *v >= m / AWAY).collect()
}

/// One row's launches on the log scale: their count, mean and sum of squared deviations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Logs {
    /// Launches.
    pub n: usize,
    /// Mean of the logarithms.
    pub mean: f64,
    /// Sum of squared deviations of the logarithms from their mean.
    pub squares: f64,
}

impl Logs {
    /// The logarithms of `values` (every value positive).
    pub fn of(values: &[f64]) -> Logs {
        let logs: Vec<f64> = values.iter().map(|v| v.ln()).collect();
        let n = logs.len();
        let mean = if n == 0 { 0.0 } else { logs.iter().sum::<f64>() / n as f64 };
        Logs { n, mean, squares: logs.iter().map(|l| (l - mean).powi(2)).sum() }
    }

    /// The sample variance (NaN below two launches).
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            f64::NAN
        } else {
            self.squares / (self.n - 1) as f64
        }
    }
}

/// What the rows of one file say of a launch's spread: the prior variance and its degrees
/// of freedom, the median of the rows' variances weighed as one row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prior {
    /// The typical variance of a launch's log figure.
    pub variance: f64,
    /// Its weight, in degrees of freedom.
    pub df: f64,
}

impl Prior {
    /// The prior of rows with these (variance, degrees of freedom), fitted as Smyth's limma
    /// does (a scaled inverse chi-square over the rows' variances, by the moments of their
    /// logarithms): rows that vary alike give a prior of many degrees of freedom (a row
    /// leans on them), rows that vary unlike one of few (a row keeps its own). None without
    /// a row of two launches with some spread.
    pub fn of(rows: &[(f64, f64)]) -> Option<Prior> {
        let usable: Vec<(f64, f64)> =
            rows.iter().copied().filter(|(v, d)| v.is_finite() && *v > 0.0 && *d >= 1.0).collect();
        if usable.is_empty() {
            return None;
        }
        // e = log s^2 - digamma(d/2) + log(d/2): mean log s0^2 - (digamma(d0/2) - log(d0/2)),
        // variance trigamma(d/2) + trigamma(d0/2).
        let e: Vec<f64> =
            usable.iter().map(|(v, d)| v.ln() - digamma(d / 2.0) + (d / 2.0).ln()).collect();
        let n = e.len() as f64;
        let mean = e.iter().sum::<f64>() / n;
        let spread = if n > 1.0 {
            e.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let within = usable.iter().map(|(_, d)| trigamma(d / 2.0)).sum::<f64>() / n;
        let df = if spread - within > 0.0 { 2.0 * trigamma_inverse(spread - within) } else { MANY };
        let df = df.min(MANY);
        let variance = (mean + digamma(df / 2.0) - (df / 2.0).ln()).exp();
        Some(Prior { variance, df })
    }

    /// A row's moderated variance and its degrees of freedom: its own `variance` on `df`
    /// weighed with the prior's on its degrees of freedom.
    pub fn moderate(&self, variance: f64, df: f64) -> (f64, f64) {
        if !variance.is_finite() || df < 1.0 {
            return (self.variance, self.df);
        }
        ((self.df * self.variance + df * variance) / (self.df + df), self.df + df)
    }
}

/// The prior's degrees of freedom when the rows' variances agree as well as their own
/// degrees of freedom allow: as good as known.
const MANY: f64 = 1e4;

/// The digamma function (recurrence to x >= 6, then its asymptotic series).
fn digamma(mut x: f64) -> f64 {
    let mut r = 0.0;
    while x < 6.0 {
        r -= 1.0 / x;
        x += 1.0;
    }
    let f = 1.0 / (x * x);
    r + x.ln() - 0.5 / x - f * (1.0 / 12.0 - f * (1.0 / 120.0 - f * (1.0 / 252.0 - f / 240.0)))
}

/// The trigamma function (recurrence to x >= 6, then its asymptotic series).
fn trigamma(mut x: f64) -> f64 {
    let mut r = 0.0;
    while x < 6.0 {
        r += 1.0 / (x * x);
        x += 1.0;
    }
    let f = 1.0 / (x * x);
    r + 1.0 / x + f / 2.0 + f / x * (1.0 / 6.0 - f * (1.0 / 30.0 - f * (1.0 / 42.0 - f / 30.0)))
}

/// The inverse of the trigamma function (Newton's method from 0.5 + 1/y, as limma).
fn trigamma_inverse(y: f64) -> f64 {
    if y > 1e7 {
        return 1.0 / y.sqrt();
    }
    if y < 1e-6 {
        return 1.0 / y;
    }
    let mut x = 0.5 + 1.0 / y;
    for _ in 0..50 {
        let t = trigamma(x);
        // The derivative of trigamma (tetragamma), numerically.
        let h = 1e-5 * x;
        let slope = (trigamma(x + h) - trigamma(x - h)) / (2.0 * h);
        let step = t * (1.0 - t / y) / slope;
        x += step;
        if -step / x < 1e-8 {
            break;
        }
    }
    x
}

/// A row's band: the median of its launches plus and minus [`BAND`] moderated standard
/// deviations of a launch, never narrower than the order statistics' 95 % interval of the
/// median over those launches ([`super::merge::interval`]).
pub fn band(values: &[f64], sd: f64) -> (f64, f64) {
    let (lo, hi) = super::merge::interval(values);
    let m = paw_base::median(values);
    let wide = (BAND * sd).exp();
    (lo.min(m / wide), hi.max(m * wide))
}

/// The two-sided p-value of Student's t with `df` degrees of freedom.
pub fn t_p(t: f64, df: f64) -> f64 {
    if !t.is_finite() {
        return if t.is_nan() { 1.0 } else { 0.0 };
    }
    incomplete_beta(df / 2.0, 0.5, df / (df + t * t)).clamp(0.0, 1.0)
}

/// The one-sided quantile of Student's t with `df` degrees of freedom: t with P(T > t) =
/// `p` (bisection on [`t_p`]).
pub fn t_quantile(p: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1e3);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if t_p(mid, df) / 2.0 > p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The regularized incomplete beta function I_x(a, b) (a continued fraction, evaluated by
/// the modified Lentz method; Numerical Recipes §6.4).
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * fraction(a, b, x) / a
    } else {
        1.0 - front * fraction(b, a, 1.0 - x) / b
    }
}

fn fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    d = 1.0 / if d.abs() < TINY { TINY } else { d };
    let mut h = d;
    for m in 1..300 {
        let m = m as f64;
        for step in 0..2 {
            let num = if step == 0 {
                m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m))
            } else {
                -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0))
            };
            d = 1.0 + num * d;
            d = 1.0 / if d.abs() < TINY { TINY } else { d };
            c = 1.0 + num / c;
            if c.abs() < TINY {
                c = TINY;
            }
            h *= d * c;
            if step == 1 && (d * c - 1.0).abs() < 1e-14 {
                return h;
            }
        }
    }
    h
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let sum = G[1..].iter().enumerate().fold(G[0], |s, (i, g)| s + g / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launches_of_another_state_are_left_out_of_their_row() {
        assert_eq!(kept(&[1.0, 1.1, 0.95, 3.0, 1.05]), [1.0, 1.1, 0.95, 1.05]);
        assert_eq!(kept(&[1.0, 3.0]), [1.0, 3.0], "two launches: no median to judge by");
    }

    #[test]
    fn student_t() {
        // Tables: t = 2.228 at 10 df and t = 12.706 at 1 df are the 5 % two-sided points.
        assert!((t_p(2.228, 10.0) - 0.05).abs() < 2e-4, "{}", t_p(2.228, 10.0));
        assert!((t_p(12.706, 1.0) - 0.05).abs() < 2e-4);
        assert!((t_p(0.0, 5.0) - 1.0).abs() < 1e-12);
        assert!(t_p(40.0, 20.0) < 1e-15);
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
        assert!((t_quantile(0.025, 10.0) - 2.228).abs() < 1e-3);
        assert!((t_quantile(0.025, 1e6) - 1.96).abs() < 1e-3);
    }

    #[test]
    fn moderated_variances_lean_to_the_files_as_far_as_the_rows_agree() {
        assert!((digamma(1.0) + 0.577_215_664_9).abs() < 1e-9);
        assert!((trigamma(1.0) - std::f64::consts::PI.powi(2) / 6.0).abs() < 1e-9);
        assert!((trigamma(trigamma_inverse(0.3)) - 0.3).abs() < 1e-9);
        // Variances as alike as five degrees of freedom allow: a prior of many.
        let alike =
            Prior::of(&[(0.0020, 5.0), (0.0025, 5.0), (0.0030, 5.0), (0.0022, 5.0)]).unwrap();
        assert!(alike.df > 100.0, "{alike:?}");
        // Variances 100 times apart: a prior of few; a row keeps most of its own.
        let unlike = Prior::of(&[(0.0001, 5.0), (0.01, 5.0), (0.0003, 5.0), (0.02, 5.0)]).unwrap();
        assert!(unlike.df < 3.0, "{unlike:?}");
        let (v, _) = unlike.moderate(0.02, 5.0);
        assert!(v > 0.013, "{v}");
        let prior = Prior { variance: 0.02, df: 5.0 };
        assert_eq!(prior.moderate(0.0, 5.0), (0.01, 10.0));
        assert_eq!(prior.moderate(f64::NAN, 0.0), (0.02, 5.0));
        let l = Logs::of(&[1.0, std::f64::consts::E]);
        assert!((l.mean - 0.5).abs() < 1e-12 && (l.variance() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_band_is_the_wider_of_two_sds_and_the_order_statistics() {
        let v = [1.0, 1.01, 0.99, 1.02, 0.98, 1.0];
        let (lo, hi) = band(&v, 0.05);
        assert!((lo - (-0.1f64).exp()).abs() < 1e-9 && (hi - 0.1f64.exp()).abs() < 1e-9);
        assert_eq!(band(&v, 0.0), (0.98, 1.02));
    }
}
