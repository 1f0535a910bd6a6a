//! Parsing and checking the values of environment variables.
//!
//! Parsing here is pure: it reads through a [`Lookup`] so tests need no process
//! environment. Sessions parse on rank 0 only and share the result, because a launcher
//! may not forward the environment to every node.

use crate::error::{Error, Result};
use crate::vars;
use crate::vars::{Accepts, Var, LOOP_LIMIT};
use std::ops::RangeInclusive;

pub use crate::vars::{MPI_COUNT_LIMIT, SIZE_LIMIT};

/// A source of environment values (the process environment, or a map in tests).
pub trait Lookup {
    /// The raw value of `name`, if set.
    fn get(&self, name: &str) -> Option<String>;
}

/// The process environment.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProcessEnv;

impl Lookup for ProcessEnv {
    fn get(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }
}

impl<F: Fn(&str) -> Option<String>> Lookup for F {
    fn get(&self, name: &str) -> Option<String> {
        self(name)
    }
}

/// Whether PAW_CHECK in `env` asks for the data check (0 or 1, else bad input): how the
/// suites read it (from their shared command line), by the same rule as a PAW binary's
/// session (which also records the setting).
pub fn check_requested(env: &impl Lookup) -> Result<bool> {
    Ok(parse_u64(env, &crate::vars::PAW_CHECK, 0..=1)? == Some(1))
}

/// Reads `var` as a whole number in `range`, or its default when unset (`None` when the
/// default is `-`, off).
pub fn parse_u64(env: &impl Lookup, var: &Var, range: RangeInclusive<u64>) -> Result<Option<u64>> {
    let accepted = || format!("accepted: a whole number from {} to {}", range.start(), range.end());
    let Some(raw) = env.get(var.name) else {
        return Ok(var.default.parse().ok());
    };
    let value: u64 = raw.trim().parse().map_err(|_| {
        // A number of another kind (-1, 2.5) is out of the range, not "not a number".
        let what = match raw.trim().parse::<f64>() {
            Ok(_) => "is not a whole number from the range",
            Err(_) => "is not a number",
        };
        Error::input(format!("{}={raw:?} {what}; {}", var.name, accepted()))
    })?;
    if !range.contains(&value) {
        return Err(Error::input(format!("{}={raw} is out of range; {}", var.name, accepted())));
    }
    Ok(Some(value))
}

/// A byte count: a whole number with an optional binary suffix K, M or G (x 1024, 1024^2,
/// 1024^3; either case), as IMB, OSU and sysfs write sizes. None for anything else or an
/// overflow.
pub fn bytes(text: &str) -> Option<u64> {
    let (digits, shift) = match text.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&text[..text.len() - 1], 10),
        Some('M') => (&text[..text.len() - 1], 20),
        Some('G') => (&text[..text.len() - 1], 30),
        _ => (text, 0),
    };
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// Reads `var` as a byte count in `range`: a whole number with an optional binary suffix
/// K, M or G (x 1024, 1024^2, 1024^3; either case), as IMB and OSU read sizes; its default
/// when unset.
pub fn parse_size(env: &impl Lookup, var: &Var, range: RangeInclusive<u64>) -> Result<u64> {
    let accepted = || {
        format!(
            "accepted: a whole number from {} to {} (bytes; an optional K, M or G suffix \
             multiplies by 1024, 1024^2, 1024^3)",
            range.start(),
            range.end()
        )
    };
    let raw = env.get(var.name).unwrap_or_else(|| var.default.to_string());
    let value = bytes(raw.trim()).ok_or_else(|| {
        Error::input(format!("{}={raw:?} is not a number; {}", var.name, accepted()))
    })?;
    if !range.contains(&value) {
        return Err(Error::input(format!("{}={raw} is out of range; {}", var.name, accepted())));
    }
    Ok(value)
}

/// Reads `var` as a number in `range` (a fraction, seconds), or its default when unset
/// (`None` when the default is `-`, off).
pub fn parse_f64(env: &impl Lookup, var: &Var, range: RangeInclusive<f64>) -> Result<Option<f64>> {
    let accepted = || format!("accepted: a number from {} to {}", range.start(), range.end());
    let Some(raw) = env.get(var.name) else {
        return Ok(var.default.parse().ok());
    };
    let value: f64 = raw.trim().parse().map_err(|_| {
        Error::input(format!("{}={raw:?} is not a number; {}", var.name, accepted()))
    })?;
    if !(value.is_finite() && range.contains(&value)) {
        return Err(Error::input(format!("{}={raw} is out of range; {}", var.name, accepted())));
    }
    Ok(Some(value))
}

/// Loop controls and statistics settings shared by every measured sweep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Loops {
    /// NLOOP: iterations per sample at every size, when fixed by the user.
    pub nloop: Option<u64>,
    /// NLOOP_MAX: iterations of the first (smallest) workload; upper bound afterwards.
    pub nloop_max: u64,
    /// Whether NLOOP_MAX was set (a set bound the floor cannot meet is an error).
    pub nloop_max_set: bool,
    /// NLOOP_MIN, when set; unset, the default minimum yields for long iterations.
    pub nloop_min: Option<u64>,
    /// PAW_WARMUP: untimed iterations before each workload's samples, when set.
    pub warmup: Option<u64>,
    /// NREPS: samples per workload size (before any are added: see [`Until`]).
    pub nreps: u64,
    /// Whether NREPS was set (without PAW_PRECISION: exactly NREPS samples).
    pub nreps_set: bool,
    /// PAW_PRECISION: wanted relative half-width of the median's interval.
    pub precision: Option<f64>,
    /// PAW_MAX_TIME: seconds a size may spend on added samples.
    pub max_time: f64,
    /// Whether PAW_MAX_TIME was set (unset, the default sampling has a relative budget).
    pub max_time_set: bool,
    /// PAW_TOLERANCE: relative width of the median's interval above which a row is NOISY.
    pub tolerance: f64,
}

/// When a size stops taking samples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Until {
    /// NREPS set, PAW_PRECISION not: exactly NREPS samples, as PAW 1.6 takes them.
    Fixed,
    /// PAW_PRECISION set: until the median's interval reaches no further than this
    /// fraction of it, or the next batch would take the added samples past PAW_MAX_TIME.
    Reach(f64),
    /// Neither set (the default): until the row is not NOISY (the interval within
    /// PAW_TOLERANCE of the median), or the size's budget ([`Loops::budget`]) is spent.
    Narrow,
}

/// Without PAW_PRECISION and PAW_MAX_TIME, samples added to a size may take this many
/// times as long as its first NREPS samples: a size costs at most three times its fixed
/// count.
pub const DEFAULT_BUDGET: f64 = 2.0;

impl Loops {
    /// NLOOP_MIN when unset: at least this many iterations per sample ...
    pub const DEFAULT_MIN: u64 = 10;
    /// ... unless they would last longer than this many seconds together.
    pub const DEFAULT_MIN_SECONDS: f64 = 0.1;

    /// Parses the variables of [`vars::MEASURE`].
    pub fn parse(env: &impl Lookup) -> Result<Loops> {
        let count = |v: &Var, hi: u64| parse_u64(env, v, 1..=hi);
        let nloop = count(&vars::NLOOP, LOOP_LIMIT)?;
        let nloop_max = count(&vars::NLOOP_MAX, LOOP_LIMIT)?.unwrap_or(1000);
        let nloop_min = env.get(vars::NLOOP_MIN.name).map(|_| count(&vars::NLOOP_MIN, LOOP_LIMIT));
        let nloop_min = nloop_min.transpose()?.flatten();
        let warmup = parse_u64(env, &vars::PAW_WARMUP, 0..=LOOP_LIMIT)?;
        let nreps = count(&vars::NREPS, 1_000_000)?.unwrap_or(10);
        let precision = parse_f64(env, &vars::PAW_PRECISION, 1e-6..=1.0)?;
        let max_time = parse_f64(env, &vars::PAW_MAX_TIME, 0.0..=86_400.0)?.unwrap_or(10.0);
        let tolerance = parse_f64(env, &vars::PAW_TOLERANCE, 0.0..=100.0)?.unwrap_or(0.05);
        if let Some(min) = nloop_min.filter(|&m| m > nloop_max) {
            return Err(Error::input(format!(
                "NLOOP_MIN={min} is larger than NLOOP_MAX={nloop_max}; accepted: NLOOP_MIN <= \
                 NLOOP_MAX (or NLOOP=N for exactly N iterations)"
            )));
        }
        let nloop_max_set = env.get(vars::NLOOP_MAX.name).is_some();
        let nreps_set = env.get(vars::NREPS.name).is_some();
        let max_time_set = env.get(vars::PAW_MAX_TIME.name).is_some();
        Ok(Loops {
            nloop,
            nloop_max,
            nloop_max_set,
            nloop_min,
            warmup,
            nreps,
            nreps_set,
            precision,
            max_time,
            max_time_set,
            tolerance,
        })
    }

    /// When a size stops taking samples.
    pub fn until(&self) -> Until {
        match self.precision {
            Some(p) => Until::Reach(p),
            None if self.nreps_set => Until::Fixed,
            None => Until::Narrow,
        }
    }

    /// Seconds a size may spend on added samples when its first NREPS took `first`:
    /// PAW_MAX_TIME when set or with PAW_PRECISION, else [`DEFAULT_BUDGET`] x `first`.
    pub fn budget(&self, first: f64) -> f64 {
        if self.max_time_set || self.precision.is_some() {
            self.max_time
        } else {
            DEFAULT_BUDGET * first
        }
    }

    /// The lowest NLOOP for an iteration of `t` seconds, before the timer floor.
    pub fn lowest(&self, t: f64) -> u64 {
        match self.nloop_min {
            Some(n) => n,
            None => {
                let fit = (Self::DEFAULT_MIN_SECONDS / t.max(1e-12)).floor() as u64;
                fit.clamp(1, Self::DEFAULT_MIN).min(self.nloop_max)
            }
        }
    }
}

/// A family of size variables from PAW Table 3.1: `MIN_<X>_SIZE`, `MED_<X>_SIZE`, `MAX_<X>_SIZE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// MPI point-to-point message sizes in bytes.
    P2p,
    /// MPI collective message sizes in bytes.
    Col,
    /// BLAS matrix order N.
    Blas,
    /// GPU BLAS matrix order N.
    GpuBlas,
    /// GPU transfer sizes in bytes.
    Gpu,
}

impl Family {
    /// The MIN, MED and MAX variables.
    pub fn vars(self) -> [Var; 3] {
        match self {
            Family::P2p => [vars::MIN_P2P_SIZE, vars::MED_P2P_SIZE, vars::MAX_P2P_SIZE],
            Family::Col => [vars::MIN_COL_SIZE, vars::MED_COL_SIZE, vars::MAX_COL_SIZE],
            Family::Blas => [vars::MIN_BLAS_SIZE, vars::MED_BLAS_SIZE, vars::MAX_BLAS_SIZE],
            Family::GpuBlas => {
                [vars::MIN_GPU_BLAS_SIZE, vars::MED_GPU_BLAS_SIZE, vars::MAX_GPU_BLAS_SIZE]
            }
            Family::Gpu => [vars::MIN_GPU_SIZE, vars::MED_GPU_SIZE, vars::MAX_GPU_SIZE],
        }
    }

    /// Parses MIN, MAX and, with `warmup`, MED (else MED is MIN); MIN must not exceed MAX.
    pub fn parse(self, env: &impl Lookup, warmup: bool) -> Result<SizeRange> {
        let [vmin, vmed, vmax] = self.vars();
        let read = |v: &Var| -> Result<u64> {
            match v.accepts {
                Accepts::Bytes(lo, hi) => parse_size(env, v, lo..=hi),
                Accepts::Whole(lo, hi) => {
                    Ok(parse_u64(env, v, lo..=hi)?.expect("size variables have defaults"))
                }
                Accepts::Said => panic!("{} is a size without a range", v.name),
            }
        };
        let min = read(&vmin)?;
        let max = read(&vmax)?;
        if min > max {
            return Err(Error::input(format!(
                "{}={min} is larger than {}={max}; accepted: {} <= {}",
                vmin.name, vmax.name, vmin.name, vmax.name
            )));
        }
        if !warmup {
            return Ok(SizeRange { min, med: min, max });
        }
        // A warm-up size the user set must lie in the sweep; the default follows MAX down.
        let med = read(&vmed)?;
        if env.get(vmed.name).is_none() {
            return Ok(SizeRange { min, med: med.clamp(min, max), max });
        }
        if !(min..=max).contains(&med) {
            return Err(Error::input(format!(
                "{}={med} lies outside {}={min} .. {}={max}; accepted: {} <= {} <= {}",
                vmed.name, vmin.name, vmax.name, vmin.name, vmed.name, vmax.name
            )));
        }
        Ok(SizeRange { min, med, max })
    }
}

/// Smallest, warm-up and largest workload size of a family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeRange {
    /// First size of the sweep.
    pub min: u64,
    /// Warm-up size (PAW's MED_*_SIZE).
    pub med: u64,
    /// Last size of the sweep.
    pub max: u64,
}

impl SizeRange {
    /// The sweep: `min`, doubling, then `max` itself (PAW's sizes); from 0, a 0-byte size
    /// and then 1, 2, 4 ... (OSU's latency tests' first row).
    pub fn sweep(&self) -> Vec<u64> {
        match self.min {
            0 => std::iter::once(0).chain(doubling(1, self.max.max(1))).collect(),
            min => doubling(min, self.max),
        }
    }

    /// The largest buffer the sweep and its warm-up need.
    pub fn largest(&self) -> u64 {
        self.max.max(self.med)
    }
}

/// Sizes `min, 2min, 4min, …` below `max`, then `max`. Requires `1 <= min <= max`.
pub fn doubling(min: u64, max: u64) -> Vec<u64> {
    assert!(min >= 1 && min <= max, "bad sweep bounds {min}..{max}");
    let mut sizes = Vec::new();
    let mut s = min;
    while s < max {
        sizes.push(s);
        s *= 2;
    }
    sizes.push(max);
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Lookup {
        let map: HashMap<String, String> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |k: &str| map.get(k).cloned()
    }

    #[test]
    fn defaults_follow_table_3_1() {
        let e = env(&[]);
        let l = Loops::parse(&e).unwrap();
        assert_eq!((l.nloop, l.nloop_max, l.nloop_min, l.nreps), (None, 1000, None, 10));
        assert_eq!((l.precision, l.max_time, l.tolerance), (None, 10.0, 0.05));
        assert_eq!((l.until(), l.budget(0.5)), (Until::Narrow, 1.0));
        let fixed = Loops::parse(&env(&[("NREPS", "10")])).unwrap();
        assert_eq!((fixed.until(), fixed.nreps), (Until::Fixed, 10));
        let precise = Loops::parse(&env(&[("NREPS", "3"), ("PAW_PRECISION", "0.02")])).unwrap();
        assert_eq!((precise.until(), precise.budget(0.5)), (Until::Reach(0.02), 10.0));
        let budget = Loops::parse(&env(&[("PAW_MAX_TIME", "2")])).unwrap();
        assert_eq!((budget.until(), budget.budget(0.5)), (Until::Narrow, 2.0));
        assert_eq!(
            Family::P2p.parse(&e, true).unwrap(),
            SizeRange { min: 1, med: 20_000, max: 1_000_000 }
        );
        assert_eq!(Family::P2p.parse(&e, false).unwrap().med, 1);
        assert_eq!(Family::Blas.parse(&e, true).unwrap().max, 10_000);
        assert_eq!(Family::Gpu.parse(&e, true).unwrap().max, 200_000_000);
    }

    #[test]
    fn sizes_take_binary_suffixes() {
        let read =
            |v: &str| parse_size(&env(&[("MAX_P2P_SIZE", v)]), &vars::MAX_P2P_SIZE, 1..=1 << 40);
        assert_eq!(read("4M").unwrap(), 4_194_304);
        assert_eq!(read("64K").unwrap(), 65_536);
        assert_eq!(read("64k").unwrap(), 65_536);
        assert_eq!(read(" 2G ").unwrap(), 2 << 30);
        assert_eq!(read("4096").unwrap(), 4096);
        let e = read("4X").unwrap_err().to_string();
        assert!(e.contains("MAX_P2P_SIZE=\"4X\" is not a number; accepted: a whole number"), "{e}");
        assert!(e.contains("an optional K, M or G suffix"), "{e}");
        for bad in ["M", "4MB", "-1K", "1.5M", "", "0"] {
            assert!(read(bad).is_err(), "{bad}");
        }
        assert!(read("2048G").is_err(), "beyond the range");
        let e = env(&[("MAX_P2P_SIZE", "4M")]);
        assert_eq!(Family::P2p.parse(&e, true).unwrap().max, 4_194_304);
        let e = env(&[("MAX_BLAS_SIZE", "4K")]);
        assert!(Family::Blas.parse(&e, true).is_err(), "matrix orders are plain numbers");
    }

    #[test]
    fn values_are_read() {
        let e = env(&[
            ("MIN_P2P_SIZE", "4"),
            ("MAX_P2P_SIZE", " 64 "),
            ("NREPS", "3"),
            ("PAW_PRECISION", "0.02"),
        ]);
        assert_eq!(Family::P2p.parse(&e, true).unwrap().sweep(), vec![4, 8, 16, 32, 64]);
        let l = Loops::parse(&e).unwrap();
        assert_eq!((l.nreps, l.precision), (3, Some(0.02)));
    }

    #[test]
    fn default_minimum_yields_for_long_iterations() {
        let l = Loops::parse(&env(&[])).unwrap();
        assert_eq!(l.lowest(1e-6), 10);
        assert_eq!(l.lowest(0.02), 5, "10 x 20 ms would last 0.2 s");
        assert_eq!(l.lowest(3.0), 1);
        let l = Loops::parse(&env(&[("NLOOP_MIN", "20")])).unwrap();
        assert_eq!(l.lowest(3.0), 20, "a minimum the user set is kept");
        let l = Loops::parse(&env(&[("NLOOP_MAX", "4")])).unwrap();
        assert_eq!(l.lowest(1e-6), 4, "the default minimum yields to NLOOP_MAX");
    }

    #[test]
    fn not_a_number_names_the_variable_and_range() {
        let err = Loops::parse(&env(&[("NLOOP_MAX", "abc")])).unwrap_err();
        assert_eq!(err.code(), 2);
        assert!(err.message().contains("NLOOP_MAX=\"abc\" is not a number"), "{err}");
        assert!(err.message().contains("from 1 to 1000000000"), "{err}");
        let err = Loops::parse(&env(&[("NLOOP", "-1")])).unwrap_err();
        assert!(err.message().contains("NLOOP=\"-1\" is not a whole number from the range; accepted: a whole number from 1"), "{err}");
        let err = Loops::parse(&env(&[("PAW_PRECISION", "x")])).unwrap_err();
        assert!(err.message().contains("PAW_PRECISION=\"x\" is not a number"), "{err}");
        let err = Loops::parse(&env(&[("PAW_PRECISION", "0")])).unwrap_err();
        assert!(err.message().contains("out of range"), "{err}");
        let err = Loops::parse(&env(&[("PAW_MAX_TIME", "inf")])).unwrap_err();
        assert!(err.message().contains("out of range"), "{err}");
    }

    #[test]
    fn negative_and_zero_are_refused() {
        let err = Family::P2p.parse(&env(&[("MAX_P2P_SIZE", "-5")]), true).unwrap_err();
        assert!(err.message().starts_with("MAX_P2P_SIZE=\"-5\""), "{err}");
        let err = Loops::parse(&env(&[("NLOOP_MAX", "0")])).unwrap_err();
        assert!(err.message().contains("NLOOP_MAX=0 is out of range"), "{err}");
        let err = Loops::parse(&env(&[("NLOOP", "0")])).unwrap_err();
        assert!(err.message().contains("NLOOP=0 is out of range"), "{err}");
        let err = Family::Col.parse(&env(&[("MIN_COL_SIZE", "0")]), true).unwrap_err();
        assert!(err.message().contains("MIN_COL_SIZE=0"), "{err}");
    }

    #[test]
    fn min_above_max_is_refused() {
        let err = Family::P2p
            .parse(&env(&[("MIN_P2P_SIZE", "5000"), ("MAX_P2P_SIZE", "100")]), true)
            .unwrap_err();
        assert_eq!(
            err.message(),
            "MIN_P2P_SIZE=5000 is larger than MAX_P2P_SIZE=100; accepted: MIN_P2P_SIZE <= MAX_P2P_SIZE"
        );
        let err = Loops::parse(&env(&[("NLOOP_MIN", "50"), ("NLOOP_MAX", "10")])).unwrap_err();
        assert!(err.message().contains("NLOOP_MIN=50 is larger than NLOOP_MAX=10"));
        assert!(Loops::parse(&env(&[("NLOOP_MIN", "15")])).is_ok());
    }

    #[test]
    fn warm_up_size_lies_in_the_sweep() {
        let e = env(&[("MED_COL_SIZE", "999999"), ("MAX_COL_SIZE", "10")]);
        let err = Family::Col.parse(&e, true).unwrap_err();
        assert!(
            err.message()
                .contains("MED_COL_SIZE=999999 lies outside MIN_COL_SIZE=1 .. MAX_COL_SIZE=10"),
            "{err}"
        );
        // Unset, the default warm-up size follows a small MAX down.
        let r = Family::P2p.parse(&env(&[("MAX_P2P_SIZE", "4096")]), true).unwrap();
        assert_eq!(r.med, 4096);
    }

    #[test]
    fn huge_sizes_are_refused() {
        let err = Family::P2p.parse(&env(&[("MAX_P2P_SIZE", "99999999999999999999")]), true);
        assert!(err.is_err());
        let err = Family::Gpu.parse(&env(&[("MAX_GPU_SIZE", "1099511627777")]), true);
        assert!(err.unwrap_err().message().contains("out of range"));
        // MPI message sizes must fit an MPI count.
        let err = Family::P2p.parse(&env(&[("MAX_P2P_SIZE", "3000000000")]), true).unwrap_err();
        assert!(err.message().contains("from 1 to 2147483647"), "{err}");
        assert!(Family::P2p.parse(&env(&[("MAX_P2P_SIZE", "2147483647")]), true).is_ok());
    }

    #[test]
    fn doubling_includes_max() {
        assert_eq!(doubling(1, 1), vec![1]);
        assert_eq!(SizeRange { min: 0, med: 0, max: 8 }.sweep(), vec![0, 1, 2, 4, 8]);
        assert_eq!(doubling(1, 8), vec![1, 2, 4, 8]);
        assert_eq!(doubling(1, 10), vec![1, 2, 4, 8, 10]);
        assert_eq!(doubling(3, 20), vec![3, 6, 12, 20]);
        let big = doubling(1, 1_000_000);
        assert_eq!(big.len(), 21);
        assert_eq!(*big.last().unwrap(), 1_000_000);
        assert_eq!(big[19], 524_288);
    }
}
