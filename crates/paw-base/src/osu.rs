//! OSU's options on paw's own binaries. Each is one more spelling of paw's variables
//! ([`vars::SPELLINGS`]): `-m 1:4M` sets MIN_P2P_SIZE and MAX_P2P_SIZE, `-i` NLOOP, `-x`
//! PAW_WARMUP, `-z` PAW_TAIL, `-c` PAW_CHECK, `-d cuda [SRC DST]` PAW_BUFFER. A binary takes
//! the options whose variables it reads. The values given are read through [`Settings`] as the environment's are; a
//! variable set both ways to different values is refused.

use crate::config::{self, Lookup};
use crate::vars::{self, Accepts, Sets, Spelling, Var};
use std::sync::OnceLock;

/// A variable an option of the command line set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    /// The variable's name.
    pub var: &'static str,
    /// The value it takes, as the environment would hold it.
    pub value: String,
    /// The option as typed (`-m 1:4M`).
    pub option: String,
}

static GIVEN: OnceLock<Vec<Given>> = OnceLock::new();

/// The settings in effect: the process environment, and the variables the command line's
/// options set (a variable set both ways and differently is refused at start-up, so either
/// may answer).
#[derive(Debug, Clone, Copy, Default)]
pub struct Settings;

impl Lookup for Settings {
    fn get(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().or_else(|| given(name).map(|g| g.value.clone()))
    }
}

/// Makes `given` the command line's settings for the rest of the process (the first call
/// decides).
pub fn install(given: Vec<Given>) {
    let _ = GIVEN.set(given);
}

/// What the command line set `name` to, if it did.
pub fn given(name: &str) -> Option<&'static Given> {
    GIVEN.get()?.iter().find(|g| g.var == name)
}

/// Every variable the command line set.
pub fn all() -> &'static [Given] {
    GIVEN.get().map_or(&[], |g| g.as_slice())
}

/// The options a benchmark that reads the variables `reads` says it reads takes: those
/// whose variables it all reads, one per spelling.
pub fn offered(reads: &dyn Fn(&str) -> bool) -> Vec<&'static Spelling> {
    let mut out: Vec<&'static Spelling> = Vec::new();
    for s in vars::SPELLINGS {
        let read = s.sets.vars().iter().all(|v| reads(v.name));
        if read && !out.iter().any(|o| o.short == s.short) {
            out.push(s);
        }
    }
    out
}

/// The options of `-h`: one line each, with the variables they set.
pub fn help_lines(reads: &dyn Fn(&str) -> bool) -> String {
    let mut out = String::new();
    for s in offered(reads) {
        let synopsis = format!("{} {}", s.short, s.value);
        let sets = match s.sets {
            Sets::Value(v) => format!("{}={}", v.name, s.value),
            Sets::Range(a, b) => format!("{}=MIN and {}=MAX (K, M, G suffixes)", a.name, b.name),
            Sets::Fixed(v, value) => format!("{}={value}", v.name),
            Sets::Placement(v) => {
                format!("{}=device; SRC DST (H, D, M) place each half of the tasks", v.name)
            }
            Sets::Nothing(_, why) => format!("taken, sets nothing: {why}"),
        };
        out.push_str(&format!("  {:<22} {sets} ({})\n", synopsis.trim_end(), s.long));
    }
    out
}

/// Reads the arguments (without the program name) of the benchmark `name` that reads the
/// variables `reads` says: `None` for `-h`/`--help`, else the variables the options set; an
/// error is one line naming the argument and what is taken.
pub fn parse(
    name: &str,
    reads: &dyn Fn(&str) -> bool,
    args: &[String],
) -> Result<Option<Vec<Given>>, String> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Ok(None);
    }
    let offered = offered(reads);
    let mut given: Vec<Given> = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let Some((spelling, attached)) = match_option(&offered, arg) else {
            return Err(unknown(name, &offered, arg));
        };
        let value = match (spelling.value.is_empty(), attached) {
            (true, None) => String::new(),
            (true, Some(a)) => return Err(switch_with_value(spelling, arg, a)),
            (false, Some(a)) => a.to_string(),
            (false, None) => rest.next().cloned().ok_or_else(|| {
                format!("{arg}: takes a value, {} (see {name} -h)", spelling.value)
            })?,
        };
        // OSU's buffer placements follow the accelerator as two words of their own.
        let next: Vec<&String> = rest.clone().take(2).collect();
        let value = match (spelling.sets, &next[..]) {
            (Sets::Placement(_), [src, dst]) if placement(src).is_some() => {
                rest.nth(1);
                format!("{value} {src} {dst}")
            }
            _ => value,
        };
        let typed =
            if value.is_empty() { arg.clone() } else { format!("{} {value}", spelling.short) };
        for (var, v) in values(spelling, &value).map_err(|why| format!("{typed}: {why}"))? {
            given.retain(|g| g.var != var.name);
            given.push(Given { var: var.name, value: v, option: typed.clone() });
        }
    }
    Ok(Some(given))
}

/// An error naming the first variable set both in `env` and by an option to different
/// values.
pub fn conflicts(given: &[Given], env: &impl Lookup) -> Result<(), String> {
    for g in given {
        let Some(set) = env.get(g.var) else { continue };
        let var = vars_named(g.var);
        let same = match var.map(|v| v.accepts) {
            Some(Accepts::Bytes(..)) => config::bytes(set.trim()) == config::bytes(&g.value),
            Some(Accepts::Whole(..)) => set.trim().parse::<u64>().ok() == g.value.parse().ok(),
            _ => set.trim() == g.value,
        };
        if !same {
            return Err(format!(
                "{}={set} in the environment and {} ({}={}) differ; accepted: one of them, or \
                 the same value both ways",
                g.var, g.option, g.var, g.value
            ));
        }
    }
    Ok(())
}

/// The spelling `arg` is, and a value attached to it (`-i100`, `--iterations=100`).
fn match_option<'a>(
    offered: &[&'static Spelling],
    arg: &'a str,
) -> Option<(&'static Spelling, Option<&'a str>)> {
    for s in offered {
        if arg == s.short || arg == s.long {
            return Some((s, None));
        }
        if let Some(v) = arg.strip_prefix(s.long).and_then(|r| r.strip_prefix('=')) {
            return Some((s, Some(v)));
        }
        if let Some(v) =
            arg.strip_prefix(s.short).filter(|v| !v.is_empty() && !arg.starts_with("--"))
        {
            return Some((s, Some(v)));
        }
    }
    None
}

fn switch_with_value(s: &Spelling, arg: &str, value: &str) -> String {
    match s.sets {
        Sets::Fixed(v, _) if v == vars::PAW_TAIL => format!(
            "{arg}: paw's tail columns are always P50, P90, P99 and PMAX (percentiles {value} \
             cannot be chosen); accepted: {} alone",
            s.short
        ),
        _ => format!("{arg}: {} takes no value; accepted: {} alone", s.short, s.short),
    }
}

/// PAW_BUFFER's word for one of OSU's buffer letters: H host, D device, M (MH, MD) managed.
fn placement(letter: &str) -> Option<&'static str> {
    match letter {
        "H" => Some("host"),
        "D" => Some("device"),
        "M" | "MH" | "MD" => Some("managed"),
        _ => None,
    }
}

/// PAW_BUFFER's value for OSU's `cuda [SRC DST]` (`managed`: older OSU's managed memory).
fn placements(value: &str) -> Result<String, String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let all = match words.first().map(|w| w.to_ascii_lowercase()).as_deref() {
        Some("cuda") => "device",
        Some("managed") => "managed",
        _ => {
            return Err(format!(
                "paw's device buffers are CUDA's; accepted: cuda or managed, then optionally                  SRC DST, each H, D or M ({})",
                vars::PAW_BUFFER.name
            ))
        }
    };
    match words[1..] {
        [] => Ok(all.to_string()),
        [src, dst] => match (placement(src), placement(dst)) {
            (Some(a), Some(b)) if a == b => Ok(a.to_string()),
            (Some(a), Some(b)) => Ok(format!("{a},{b}")),
            _ => Err(format!("SRC DST {src} {dst}: each is H, D or M (MH, MD)")),
        },
        _ => Err(format!("{value}: SRC DST are two letters, each H, D or M")),
    }
}

/// The variables `value` of `spelling` sets, each checked against what the variable accepts.
fn values(spelling: &Spelling, value: &str) -> Result<Vec<(Var, String)>, String> {
    match spelling.sets {
        Sets::Fixed(v, fixed) => Ok(vec![(v, fixed.to_string())]),
        Sets::Nothing(..) => Ok(Vec::new()),
        Sets::Placement(v) => Ok(vec![(v, placements(value)?)]),
        Sets::Value(v) => Ok(vec![(v, checked(&v, value)?)]),
        Sets::Range(lo, hi) => {
            let (min, max) = match value.split_once(':') {
                Some((min, max)) => (Some(min), Some(max).filter(|m| !m.is_empty())),
                None => (None, Some(value)),
            };
            let mut out = Vec::new();
            if let Some(min) = min {
                out.push((lo, checked(&lo, min)?));
            }
            if let Some(max) = max {
                out.push((hi, checked(&hi, max)?));
            }
            if let [(_, a), (_, b)] = &out[..] {
                if a.parse::<u64>().ok() > b.parse::<u64>().ok() {
                    return Err(format!("MIN {a} is larger than MAX {b}; accepted: MIN <= MAX"));
                }
            }
            Ok(out)
        }
    }
}

/// `text` as `var` holds it (a byte count in bytes), or what `var` accepts.
fn checked(var: &Var, text: &str) -> Result<String, String> {
    let (number, lo, hi, what) = match var.accepts {
        Accepts::Bytes(lo, hi) => (config::bytes(text), lo, hi, " bytes (K, M, G suffixes)"),
        Accepts::Whole(lo, hi) => (text.parse().ok(), lo, hi, ""),
        Accepts::Said => return Ok(text.to_string()),
    };
    match number {
        Some(n) if (lo..=hi).contains(&n) => Ok(n.to_string()),
        _ => Err(format!("takes a whole number from {lo} to {hi}{what} ({})", var.name)),
    }
}

fn unknown(name: &str, offered: &[&Spelling], arg: &str) -> String {
    if offered.is_empty() {
        return format!(
            "unknown argument {arg:?}; {name} takes no arguments except -h/--help (settings \
             are environment variables)"
        );
    }
    let list: Vec<String> =
        offered.iter().map(|s| format!("{} {}", s.short, s.value).trim_end().to_string()).collect();
    format!(
        "unknown argument {arg:?}; {name} takes {} and -h (OSU's spellings of its variables; \
         see {name} -h)",
        list.join(", ")
    )
}

fn vars_named(name: &str) -> Option<&'static Var> {
    vars::SPELLINGS
        .iter()
        .flat_map(|s| match &s.sets {
            Sets::Value(v) | Sets::Fixed(v, _) | Sets::Placement(v) | Sets::Nothing(v, _) => {
                vec![v]
            }
            Sets::Range(a, b) => vec![a, b],
        })
        .find(|v| v.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Check, Spec};

    const SPEC: Spec = Spec {
        vars: &[vars::P2P_SIZES, vars::MEASURE, vars::TAIL, vars::CHECK],
        check: Check::Data("bytes"),
        ..crate::spec::tests::SPEC
    };

    fn args(a: &str) -> Vec<String> {
        a.split_whitespace().map(String::from).collect()
    }

    fn parse(spec: &Spec, args: &[String]) -> Result<Option<Vec<Given>>, String> {
        super::parse(spec.name, &|v| spec.reads_var(v), args)
    }

    fn offered(spec: &Spec) -> Vec<&'static Spelling> {
        super::offered(&|v| spec.reads_var(v))
    }

    fn set(a: &str) -> Vec<(&'static str, String)> {
        parse(&SPEC, &args(a)).unwrap().unwrap().into_iter().map(|g| (g.var, g.value)).collect()
    }

    #[test]
    fn each_option_sets_its_variables() {
        let s = |v: &'static str, x: &str| (v, x.to_string());
        assert_eq!(
            set("-m 2:4M -i 100 -x 5 -z -c"),
            [
                s("MIN_P2P_SIZE", "2"),
                s("MAX_P2P_SIZE", "4194304"),
                s("NLOOP", "100"),
                s("PAW_WARMUP", "5"),
                s("PAW_TAIL", "1000"),
                s("PAW_CHECK", "1")
            ]
        );
        assert_eq!(set("-m 128"), [s("MAX_P2P_SIZE", "128")]);
        assert_eq!(set("-m 2:"), [s("MIN_P2P_SIZE", "2")]);
        assert_eq!(set("-i100 --warmup=3"), [s("NLOOP", "100"), s("PAW_WARMUP", "3")]);
        assert_eq!(set("-i 1 -i 7"), [s("NLOOP", "7")], "the last one counts, as in getopt");
        assert_eq!(parse(&SPEC, &args("-i 1 --help")), Ok(None));
    }

    #[test]
    fn accelerator_and_placements_set_paw_buffer() {
        let gpu = Spec { vars: &[vars::P2P_SIZES, vars::BUFFER], ..SPEC };
        let buffer = |a: &str| match parse(&gpu, &args(a)) {
            Ok(Some(g)) => Ok(g.iter().map(|g| (g.value.clone(), g.option.clone())).collect()),
            other => Err(format!("{other:?}")),
        };
        let one = |v: &str, o: &str| Ok(vec![(v.to_string(), o.to_string())]);
        assert_eq!(buffer("-d cuda"), one("device", "-d cuda"));
        assert_eq!(buffer("-d cuda D D"), one("device", "-d cuda D D"));
        assert_eq!(buffer("-d cuda D H"), one("device,host", "-d cuda D H"));
        assert_eq!(buffer("--accelerator=cuda MD H"), one("managed,host", "-d cuda MD H"));
        assert_eq!(buffer("-d managed"), one("managed", "-d managed"));
        let both = parse(&gpu, &args("-d cuda H D -m 8")).unwrap().unwrap();
        assert_eq!(both.len(), 2, "placements end where the next option starts: {both:?}");
        let e = |a: &str| parse(&gpu, &args(a)).unwrap_err();
        assert!(e("-d rocm").contains("accepted: cuda or managed"), "{}", e("-d rocm"));
        assert!(e("-d cuda D").starts_with("unknown argument \"D\""), "{}", e("-d cuda D"));
        assert!(e("-d cuda D X").contains("each is H, D or M"), "{}", e("-d cuda D X"));
        assert!(parse(&SPEC, &args("-d cuda")).unwrap_err().starts_with("unknown argument \"-d\""));
    }

    #[test]
    fn bad_options_name_themselves_and_what_is_taken() {
        let e = |a: &str| parse(&SPEC, &args(a)).unwrap_err();
        assert_eq!(e("-i 0"), "-i 0: takes a whole number from 1 to 1000000000 (NLOOP)");
        assert!(e("-m 8:2").contains("MIN 8 is larger than MAX 2"), "{}", e("-m 8:2"));
        assert!(e("-m 0").contains("bytes (K, M, G suffixes) (MAX_P2P_SIZE)"), "{}", e("-m 0"));
        assert!(e("-z50,90").contains("always P50, P90, P99 and PMAX"), "{}", e("-z50,90"));
        assert!(e("-i").starts_with("-i: takes a value, N"), "{}", e("-i"));
        let unknown = e("-W 64");
        assert!(
            unknown.starts_with(
                "unknown argument \"-W\"; t takes -m [MIN:]MAX, -i N, -x N, -z, -c, -f and -h"
            ),
            "{unknown}"
        );
        let none = Spec { vars: &[], check: Check::Never, ..SPEC };
        assert!(parse(&none, &args("-i 5")).unwrap_err().contains("takes no arguments except -h"));
    }

    #[test]
    fn a_variable_set_both_ways_must_agree() {
        let given = parse(&SPEC, &args("-m 1:4M -i 100")).unwrap().unwrap();
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |n: &str| pairs.iter().find(|(k, _)| *k == n).map(|(_, v)| v.to_string())
        };
        assert_eq!(conflicts(&given, &env(&[("MAX_P2P_SIZE", "4M"), ("NLOOP", "100")])), Ok(()));
        let e = conflicts(&given, &env(&[("NLOOP", "50")])).unwrap_err();
        assert_eq!(
            e,
            "NLOOP=50 in the environment and -i 100 (NLOOP=100) differ; accepted: one of them, \
             or the same value both ways"
        );
    }

    #[test]
    fn a_binary_takes_the_options_of_the_variables_it_reads() {
        let short = |s: &Spec| offered(s).iter().map(|o| o.short).collect::<Vec<_>>();
        assert_eq!(short(&SPEC), ["-m", "-i", "-x", "-z", "-c", "-f"]);
        let col = Spec { vars: &[vars::COL_SIZES, vars::MEASURE], ..SPEC };
        assert_eq!(short(&col), ["-m", "-i", "-x", "-f"]);
        let window = Spec { vars: &[vars::WINDOW, vars::MEASURE], ..SPEC };
        assert_eq!(short(&window), ["-i", "-x", "-W", "-f"]);
        assert_eq!(set("-f"), [], "-f sets nothing");
        assert!(help_lines(&|v| col.reads_var(v)).contains("MIN_COL_SIZE=MIN and MAX_COL_SIZE=MAX"));
    }
}
