//! A session's settings: read on rank 0 and shared with every rank, checked against what
//! the benchmark accepts, and noted where they are read (for the header and the record).

use super::Session;
use crate::bench::{Bench, Singles, Tail, Timing};
use crate::calib::{Calibration, Policy};
use crate::config::{self, Family, Lookup, Loops, ProcessEnv, SizeRange, Until};
use crate::error::{Error, Result};
use crate::meta::{self};
use crate::osu::Settings;
use crate::spec::Check;
use crate::team::{Combine, Team};
use crate::vars::{Accepts, Unread, Var};
use crate::{process, vars};

/// Runs `parse` on rank 0 and gives its result to every rank.
///
/// Other ranks get a placeholder error: only rank 0 prints, so they need no message.
pub(crate) fn shared<T: Team, const N: usize>(
    team: &T,
    parse: impl FnOnce() -> Result<[u64; N]>,
) -> Result<[u64; N]> {
    let mut result = if team.is_root() { Some(parse()) } else { None };
    let ok = team.share_u64(matches!(result, Some(Ok(_))) as u64) == 1;
    if !ok {
        return match result.take() {
            Some(Err(e)) => Err(e),
            _ => Err(Error::input("invalid setting (reported by rank 0)")),
        };
    }
    let mine = match result {
        Some(Ok(values)) => values,
        _ => [0; N],
    };
    Ok(mine.map(|v| team.share_u64(v)))
}

/// Warns, on rank 0's standard error, about each variable of the environment that looks
/// like paw's but that `name` does not read (see [`vars::unread`]: paw's prefixes, one of
/// paw's names, in any case, or within two edits of one), naming the closest variable it
/// reads: a misspelled variable must not be silently ignored. With PAW_STRICT=1 the first
/// such variable is an input error instead. With `check`, PAW_CHECK is judged by the
/// benchmark's check: refused where nothing can be checked, pointed out where results are
/// always checked. Call it on rank 0.
pub fn warn_unknown_vars<'a>(
    name: &str,
    reads: impl Iterator<Item = &'a Var> + Clone,
    check: Option<Check>,
) -> Result<()> {
    let strict = config::parse_u64(&ProcessEnv, &vars::PAW_STRICT, 0..=1)?.is_some_and(|v| v == 1);
    let reads: Vec<&str> = reads.map(|v| v.name).collect();
    let mut env: Vec<(String, String)> = std::env::vars().collect();
    env.sort();
    for (var, value) in env {
        let Some(why) = vars::unread(&var, &reads) else { continue };
        let ignored = match strict {
            true => format!("{var} is not read by {name}"),
            false => format!("{var} is not read by {name} and is ignored"),
        };
        let message = match (var.as_str(), check, why) {
            ("PAW_CHECK", Some(Check::Never), _) if value.trim() != "0" => {
                return Err(Error::input(format!(
                    "PAW_CHECK={value}: {name} moves no data it could check; accepted: PAW_CHECK \
                     unset or 0"
                )));
            }
            ("PAW_CHECK", Some(Check::Never), _) => continue,
            ("PAW_CHECK", Some(Check::Always(what)), _) => {
                format!("PAW_CHECK is not read by {name}: its results are always checked ({what})")
            }
            (_, _, Unread::Elsewhere) => format!("{ignored} (see {name} -h for what it reads)"),
            (_, _, Unread::Case(k)) if reads.contains(&k) => {
                format!("{ignored}; variable names are upper case: {k}")
            }
            (_, _, Unread::Case(k)) => {
                format!("{ignored}; paw spells it {k}, which {name} does not read either")
            }
            (_, _, Unread::Near(Some(k))) => {
                format!("{ignored}; the closest variable it reads is {k} (see {name} -h)")
            }
            (_, _, Unread::Near(None)) => format!("{ignored} (see {name} -h for what it reads)"),
        };
        if strict {
            return Err(Error::input(format!(
                "{message}; PAW_STRICT=1 stops the run here (unset it to go on with a warning)"
            )));
        }
        process::warn(&message);
    }
    Ok(())
}

impl<T: Team> Session<T> {
    /// A family's MIN, MED (warm-up) and MAX sizes, read on rank 0 and shared (collective).
    pub fn sizes(&self, family: Family) -> Result<SizeRange> {
        self.read_sizes(family, true)
    }

    /// A family's MIN and MAX sizes, for a sweep without a warm-up size (MED is MIN).
    pub fn sweep(&self, family: Family) -> Result<SizeRange> {
        self.read_sizes(family, false)
    }

    fn read_sizes(&self, family: Family, warmup: bool) -> Result<SizeRange> {
        let [min, med, max] = shared(&self.team, || {
            let r = family.parse(&Settings, warmup)?;
            Ok([r.min, r.med, r.max])
        })?;
        let [vmin, vmed, vmax] = family.vars();
        self.note(&vmin, &min.to_string());
        if warmup {
            self.note(&vmed, &med.to_string());
        }
        self.note(&vmax, &max.to_string());
        Ok(SizeRange { min, med, max })
    }

    /// A whole-number variable in its [`Accepts::Whole`] range (its default when unset), read
    /// on rank 0 and shared (collective).
    pub fn knob(&self, var: &Var) -> Result<u64> {
        let Accepts::Whole(lo, hi) = var.accepts else {
            panic!("{} is not declared a whole number", var.name)
        };
        let [v] = shared(&self.team, || {
            let v = config::parse_u64(&Settings, var, lo..=hi)?;
            Ok([v.unwrap_or_else(|| panic!("{} has no numeric default", var.name))])
        })?;
        self.note(var, &v.to_string());
        Ok(v)
    }

    /// A byte count in its [`Accepts::Bytes`] range (its default when unset; K, M and G
    /// suffixes, see [`config::parse_size`]), read on rank 0 and shared (collective); noted
    /// in bytes.
    pub fn bytes(&self, var: &Var) -> Result<u64> {
        let Accepts::Bytes(lo, hi) = var.accepts else {
            panic!("{} is not declared a byte count", var.name)
        };
        let [v] = shared(&self.team, || Ok([config::parse_size(&Settings, var, lo..=hi)?]))?;
        self.note(var, &v.to_string());
        Ok(v)
    }

    /// A text variable (a path, a level name), rank 0's value on every rank; `None` unset.
    pub fn text(&self, var: &Var) -> Option<String> {
        let raw = Settings.get(var.name);
        let shared =
            self.team.share_text(&format!("{}{}", raw.is_some() as u8, raw.unwrap_or_default()));
        let value = shared.strip_prefix('1').map(String::from);
        self.note(var, value.as_deref().unwrap_or(var.default));
        value
    }

    /// A thread count from the first of `vars` that is set (e.g. OPENBLAS_NUM_THREADS,
    /// then OMP_NUM_THREADS), checked as a whole number from 1 to 4096; `None` when none
    /// is set. Every variable of the list counts as read.
    pub fn threads(&self, vars: &[Var]) -> Result<Option<u64>> {
        let [n] = shared(&self.team, || {
            for v in vars {
                if std::env::var_os(v.name).is_some() {
                    return Ok([config::parse_u64(&ProcessEnv, v, 1..=4096)?.unwrap_or(0)]);
                }
            }
            Ok([0])
        })?;
        let set = vars.iter().position(|v| std::env::var_os(v.name).is_some());
        for (i, v) in vars.iter().enumerate() {
            let value = if Some(i) == set { n.to_string() } else { "-".to_string() };
            self.note(v, &value);
        }
        Ok((n > 0).then_some(n))
    }

    /// An error naming `var` unless `bytes` of buffers per process fit in the available
    /// memory of every node, for all the processes on it (collective: a size that cannot be
    /// allocated must not end in an out-of-memory kill).
    pub fn fits_in_memory(&self, bytes: u128, var: &str, what: &str) -> Result<()> {
        let available = meta::available_memory();
        let fits = available.is_none_or(|a| bytes * self.team.local_size() as u128 <= a as u128);
        if self.all_ok(fits) {
            return Ok(());
        }
        let gib = |b: f64| b / (1u64 << 30) as f64;
        Err(Error::input(format!(
            "{var}: {what} need {:.1} GiB per process ({} on this node), more than the {:.1} \
             GiB of memory available; accepted: a smaller {var}",
            gib(bytes as f64),
            self.team.local_size(),
            gib(available.unwrap_or(0) as f64)
        )))
    }

    /// NLOOP, NLOOP_MAX, NLOOP_MIN, NREPS, PAW_PRECISION, PAW_MAX_TIME, PAW_TOLERANCE, read
    /// once on rank 0 and shared (collective the first time).
    pub(super) fn loops(&self) -> Result<Loops> {
        if let Some(l) = self.loops.get() {
            return Ok(*l);
        }
        let mut parsed = if self.team.is_root() { Some(Loops::parse(&Settings)) } else { None };
        let ok = self.team.share_u64(matches!(parsed, Some(Ok(_))) as u64) == 1;
        if !ok {
            return Err(match parsed.take() {
                Some(Err(e)) => e,
                _ => Error::input("invalid setting (reported by rank 0)"),
            });
        }
        let l = share_loops(&self.team, parsed.and_then(|p| p.ok()));
        let off = |v: Option<f64>| v.map_or("-".to_string(), |x| x.to_string());
        self.note(&vars::NLOOP, &l.nloop.map_or("-".to_string(), |n| n.to_string()));
        self.note(&vars::NLOOP_MAX, &l.nloop_max.to_string());
        self.note(
            &vars::NLOOP_MIN,
            &l.nloop_min.map_or(vars::NLOOP_MIN.default.to_string(), |n| n.to_string()),
        );
        self.note(&vars::PAW_WARMUP, &l.warmup.map_or("-".to_string(), |n| n.to_string()));
        let nreps = if l.nreps_set { l.nreps.to_string() } else { vars::NREPS.default.into() };
        self.note(&vars::NREPS, &nreps);
        self.note(&vars::PAW_PRECISION, &off(l.precision));
        let relative = l.until() == Until::Narrow && !l.max_time_set;
        self.note(&vars::PAW_MAX_TIME, &if relative { "-".into() } else { l.max_time.to_string() });
        self.note(&vars::PAW_TOLERANCE, &l.tolerance.to_string());
        let _ = self.loops.set(l);
        Ok(l)
    }

    /// PAW_COMBINE, when the benchmark reads it (collective the first time).
    pub(super) fn combine_override(&self) -> Result<Option<Combine>> {
        if let Some(c) = self.combine.get() {
            return Ok(*c);
        }
        if !self.spec.reads_var(vars::PAW_COMBINE.name) {
            return Ok(None);
        }
        let [code] = shared(&self.team, || match std::env::var("PAW_COMBINE") {
            Err(_) => Ok([0]),
            Ok(v) => match Combine::parse(&v) {
                Some(c) => Ok([c as u64 + 1]),
                None => Err(Error::input(format!(
                    "PAW_COMBINE={v:?} is not a rule; accepted: min, max or avg"
                ))),
            },
        })?;
        let c = [Combine::Min, Combine::Max, Combine::Avg]
            .get((code as usize).wrapping_sub(1))
            .copied();
        let _ = self.combine.set(c);
        Ok(c)
    }

    /// The rule PAW_COMBINE sets, if the benchmark reads it and it is set (collective the
    /// first time).
    pub fn combine_setting(&self) -> Result<Option<Combine>> {
        self.combine_override()
    }

    /// A bench for a sweep with the given timing model and loop policy, the tasks' times
    /// combined by the Spec's rule (PAW_COMBINE may replace it). Collective: reads the loop
    /// variables the first time.
    pub fn bench(&self, timing: Timing, policy: Policy) -> Result<Bench<'_, T>> {
        let combine = self.spec.combine;
        let loops = self.loops()?;
        let chosen = self.combine_override()?;
        if self.spec.reads_var(vars::PAW_COMBINE.name) {
            self.note(&vars::PAW_COMBINE, chosen.unwrap_or(combine).name());
        }
        let calibration = Calibration::new(loops, self.timer.floor(), policy);
        let bench = Bench::new(&self.team, timing, chosen.unwrap_or(combine), combine, calibration);
        Ok(bench.with_tail(self.tail(timing)?))
    }

    /// PAW_TAIL, when the benchmark reads it and it is not 0 (collective). Single
    /// iterations are timed separately under [`Timing::PerCall`], else back to back.
    pub(super) fn tail(&self, timing: Timing) -> Result<Option<Tail>> {
        if !self.spec.reads_var(vars::PAW_TAIL.name) {
            return Ok(None);
        }
        let count = self.knob(&vars::PAW_TAIL)?;
        if count == 0 {
            return Ok(None);
        }
        if count < 100 {
            return Err(Error::input(format!(
                "PAW_TAIL={count}: accepted 0 (off) or 100 to 1000000 single iterations (a \
                 99th percentile needs 100)"
            )));
        }
        let singles = if timing == Timing::PerCall { Singles::Separated } else { Singles::Leader };
        Ok(Some(Tail { count, singles, timer: self.timer }))
    }
}

/// Rank 0's loop settings on every rank (`mine` is rank 0's).
fn share_loops<T: Team>(team: &T, mine: Option<Loops>) -> Loops {
    let l = mine.unwrap_or(Loops {
        nloop: None,
        nloop_max: 0,
        nloop_max_set: false,
        nloop_min: None,
        warmup: None,
        nreps: 0,
        nreps_set: false,
        precision: None,
        max_time: 0.0,
        max_time_set: false,
        tolerance: 0.0,
    });
    let maybe = |v: Option<u64>| team.share_u64(v.unwrap_or(0));
    let nloop = maybe(l.nloop);
    let nloop_min = maybe(l.nloop_min);
    let warmup = team.share_u64(l.warmup.map_or(u64::MAX, |w| w));
    let precision = team.share_f64(l.precision.unwrap_or(f64::NAN));
    Loops {
        nloop: (nloop > 0).then_some(nloop),
        nloop_max: team.share_u64(l.nloop_max),
        nloop_max_set: team.share_u64(l.nloop_max_set as u64) == 1,
        nloop_min: (nloop_min > 0).then_some(nloop_min),
        warmup: (warmup != u64::MAX).then_some(warmup),
        nreps: team.share_u64(l.nreps),
        nreps_set: team.share_u64(l.nreps_set as u64) == 1,
        precision: (!precision.is_nan()).then_some(precision),
        max_time: team.share_f64(l.max_time),
        max_time_set: team.share_u64(l.max_time_set as u64) == 1,
        tolerance: team.share_f64(l.tolerance),
    }
}
