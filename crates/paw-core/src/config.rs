//! Environment variables of PAW Table 3.1 (plus NLOOP_MIN and NREPS), parsed and checked.
//!
//! Parsing here is pure: it reads through a lookup function so tests need no process
//! environment. The MPI session parses on rank 0 only and shares the result, because a
//! launcher may not forward the environment to every node.

use crate::error::{Error, Result};
use std::ops::RangeInclusive;

/// Largest size any size variable accepts (1 TiB): keeps doubling sweeps far from overflow.
pub const SIZE_LIMIT: u64 = 1 << 40;

/// Largest MPI message (bytes) and matrix order: an MPI count and a BLAS integer are C ints.
pub const MPI_COUNT_LIMIT: u64 = i32::MAX as u64;

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

/// Reads `name` as a whole number in `range`, or `default` when unset.
///
/// The error names the variable, the value given and the accepted range.
pub fn parse_u64(
    env: &impl Lookup,
    name: &str,
    default: u64,
    range: RangeInclusive<u64>,
) -> Result<u64> {
    let Some(raw) = env.get(name) else {
        return Ok(default);
    };
    let accepted = || format!("accepted: a whole number from {} to {}", range.start(), range.end());
    let value: u64 = raw
        .trim()
        .parse()
        .map_err(|_| Error::input(format!("{name}={raw:?} is not a number; {}", accepted())))?;
    if !range.contains(&value) {
        return Err(Error::input(format!("{name}={raw} is out of range; {}", accepted())));
    }
    Ok(value)
}

/// Loop controls shared by every benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loops {
    /// NLOOP_MAX: iterations of the first (smallest) workload; upper bound afterwards.
    pub nloop_max: u64,
    /// NLOOP_MIN: lower bound on iterations per sample.
    pub nloop_min: u64,
    /// NREPS: samples per workload size.
    pub nreps: u64,
}

impl Loops {
    /// Default NLOOP_MAX (PAW Table 3.1).
    pub const NLOOP_MAX: u64 = 1000;
    /// Default NLOOP_MIN.
    pub const NLOOP_MIN: u64 = 1;
    /// Default NREPS (PAW §3).
    pub const NREPS: u64 = 10;

    /// Parses NLOOP_MAX, NLOOP_MIN and NREPS.
    pub fn parse(env: &impl Lookup) -> Result<Loops> {
        let nloop_max = parse_u64(env, "NLOOP_MAX", Self::NLOOP_MAX, 1..=1_000_000_000)?;
        let nloop_min = parse_u64(env, "NLOOP_MIN", Self::NLOOP_MIN, 1..=1_000_000_000)?;
        let nreps = parse_u64(env, "NREPS", Self::NREPS, 1..=1_000_000)?;
        if nloop_min > nloop_max {
            return Err(Error::input(format!(
                "NLOOP_MIN={nloop_min} is larger than NLOOP_MAX={nloop_max}; accepted: NLOOP_MIN <= NLOOP_MAX"
            )));
        }
        Ok(Loops { nloop_max, nloop_min, nreps })
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
    /// The infix of the variable names (`P2P` for `MIN_P2P_SIZE`).
    pub fn infix(self) -> &'static str {
        match self {
            Family::P2p => "P2P",
            Family::Col => "COL",
            Family::Blas => "BLAS",
            Family::GpuBlas => "GPU_BLAS",
            Family::Gpu => "GPU",
        }
    }

    /// Largest value the family's variables accept: MPI message sizes must fit an MPI
    /// count, matrix orders a BLAS integer.
    pub fn limit(self) -> u64 {
        match self {
            Family::P2p | Family::Col | Family::Blas | Family::GpuBlas => MPI_COUNT_LIMIT,
            Family::Gpu => SIZE_LIMIT,
        }
    }

    /// PAW's defaults (min, warm-up, max) from Table 3.1.
    pub fn defaults(self) -> SizeRange {
        let (min, med, max) = match self {
            Family::P2p => (1, 20_000, 1_000_000),
            Family::Col => (1, 10_000, 100_000),
            Family::Blas => (8, 1024, 10_000),
            Family::GpuBlas => (8, 1024, 9192),
            Family::Gpu => (128, 20_000, 200_000_000),
        };
        SizeRange { min, med, max }
    }

    /// Parses the family's three variables; MIN must not exceed MAX.
    pub fn parse(self, env: &impl Lookup) -> Result<SizeRange> {
        let d = self.defaults();
        let var = |kind: &str| format!("{kind}_{}_SIZE", self.infix());
        let limit = self.limit();
        let min = parse_u64(env, &var("MIN"), d.min, 1..=limit)?;
        let med = parse_u64(env, &var("MED"), d.med, 1..=limit)?;
        let max = parse_u64(env, &var("MAX"), d.max, 1..=limit)?;
        if min > max {
            return Err(Error::input(format!(
                "{}={min} is larger than {}={max}; accepted: {} <= {}",
                var("MIN"),
                var("MAX"),
                var("MIN"),
                var("MAX")
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
    /// The sweep: `min`, doubling, then `max` itself (PAW's sizes).
    pub fn sweep(&self) -> Vec<u64> {
        doubling(self.min, self.max)
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
        assert_eq!(Loops::parse(&e).unwrap(), Loops { nloop_max: 1000, nloop_min: 1, nreps: 10 });
        assert_eq!(
            Family::P2p.parse(&e).unwrap(),
            SizeRange { min: 1, med: 20_000, max: 1_000_000 }
        );
        assert_eq!(Family::Blas.parse(&e).unwrap().max, 10_000);
        assert_eq!(Family::Gpu.parse(&e).unwrap().max, 200_000_000);
    }

    #[test]
    fn values_are_read() {
        let e = env(&[("MIN_P2P_SIZE", "4"), ("MAX_P2P_SIZE", " 64 "), ("NREPS", "3")]);
        assert_eq!(Family::P2p.parse(&e).unwrap().sweep(), vec![4, 8, 16, 32, 64]);
        assert_eq!(Loops::parse(&e).unwrap().nreps, 3);
    }

    #[test]
    fn not_a_number_names_the_variable_and_range() {
        let err = Loops::parse(&env(&[("NLOOP_MAX", "abc")])).unwrap_err();
        assert_eq!(err.code(), 2);
        assert!(err.message().contains("NLOOP_MAX=\"abc\" is not a number"), "{err}");
        assert!(err.message().contains("from 1 to 1000000000"), "{err}");
    }

    #[test]
    fn negative_and_zero_are_refused() {
        let err = Family::P2p.parse(&env(&[("MAX_P2P_SIZE", "-5")])).unwrap_err();
        assert!(err.message().starts_with("MAX_P2P_SIZE=\"-5\""), "{err}");
        let err = Loops::parse(&env(&[("NLOOP_MAX", "0")])).unwrap_err();
        assert!(err.message().contains("NLOOP_MAX=0 is out of range"), "{err}");
        let err = Family::Col.parse(&env(&[("MIN_COL_SIZE", "0")])).unwrap_err();
        assert!(err.message().contains("MIN_COL_SIZE=0"), "{err}");
    }

    #[test]
    fn min_above_max_is_refused() {
        let err = Family::P2p
            .parse(&env(&[("MIN_P2P_SIZE", "5000"), ("MAX_P2P_SIZE", "100")]))
            .unwrap_err();
        assert_eq!(
            err.message(),
            "MIN_P2P_SIZE=5000 is larger than MAX_P2P_SIZE=100; accepted: MIN_P2P_SIZE <= MAX_P2P_SIZE"
        );
        let err = Loops::parse(&env(&[("NLOOP_MIN", "50"), ("NLOOP_MAX", "10")])).unwrap_err();
        assert!(err.message().contains("NLOOP_MIN=50 is larger than NLOOP_MAX=10"));
    }

    #[test]
    fn huge_sizes_are_refused() {
        let err = Family::P2p.parse(&env(&[("MAX_P2P_SIZE", "99999999999999999999")]));
        assert!(err.is_err());
        let err = Family::Gpu.parse(&env(&[("MAX_GPU_SIZE", "1099511627777")]));
        assert!(err.unwrap_err().message().contains("out of range"));
        // MPI message sizes must fit an MPI count.
        let err = Family::P2p.parse(&env(&[("MAX_P2P_SIZE", "3000000000")])).unwrap_err();
        assert!(err.message().contains("from 1 to 2147483647"), "{err}");
        assert!(Family::P2p.parse(&env(&[("MAX_P2P_SIZE", "2147483647")])).is_ok());
    }

    #[test]
    fn doubling_includes_max() {
        assert_eq!(doubling(1, 1), vec![1]);
        assert_eq!(doubling(1, 8), vec![1, 2, 4, 8]);
        assert_eq!(doubling(1, 10), vec![1, 2, 4, 8, 10]);
        assert_eq!(doubling(3, 20), vec![3, 6, 12, 20]);
        let big = doubling(1, 1_000_000);
        assert_eq!(big.len(), 21);
        assert_eq!(*big.last().unwrap(), 1_000_000);
        assert_eq!(big[19], 524_288);
    }
}
