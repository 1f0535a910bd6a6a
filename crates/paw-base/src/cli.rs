//! A suite's command line, declared once as a table of [`Flag`]s: each option's names, value,
//! meaning, default and typed setter with its range. The parser, the usage line, the options
//! of `-h` (and so the doc tables) and the "accepted:" list of an unknown option all come
//! from the table. Every rank parses the same [`Line`]: rank 0's arguments and the files they
//! name, read on rank 0, so nothing is encoded by hand.

use crate::about::Opt;
use crate::config::Lookup;
use crate::vars::Var;
use serde::{Deserialize, Serialize};

/// A setter: stores a value the parser has checked.
type Set<O, T> = Box<dyn Fn(&mut O, T)>;
/// A setter of text: stores it, or says what is wrong with it.
type Check<O> = Box<dyn Fn(&mut O, &str) -> Result<(), String>>;
/// A setter of a file: gets its name and text, stores what it holds or says what is wrong.
type Read<O> = Box<dyn Fn(&mut O, &str, &str) -> Result<(), String>>;

/// What an option takes and where it goes.
pub enum Value<O> {
    /// Nothing: a switch.
    Switch(Box<dyn Fn(&mut O)>),
    /// A whole number from `.0` to `.1`.
    Whole(u64, u64, Set<O, u64>),
    /// A finite number above `.0`.
    Above(f64, Set<O, f64>),
    /// `on` or `off` (also yes/no, true/false, enable/disable, 1/0).
    OnOff(Set<O, bool>),
    /// Text the setter checks; its error follows `NAME VALUE: `.
    Text(Check<O>),
    /// A file, read on rank 0: the setter gets its name and its text.
    File(Read<O>),
    /// The help flag: parsing stops and says so ([`parse`] returns `Ok(true)`).
    Help,
}

impl<O> std::fmt::Debug for Value<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self {
            Value::Switch(_) => "Switch",
            Value::Whole(..) => "Whole",
            Value::Above(..) => "Above",
            Value::OnOff(_) => "OnOff",
            Value::Text(_) => "Text",
            Value::File(_) => "File",
            Value::Help => "Help",
        };
        f.write_str(kind)
    }
}

/// One option of a table.
#[derive(Debug)]
pub struct Flag<O> {
    /// Its names as typed (the first is shown): `-h`, `--help`.
    pub names: &'static [&'static str],
    /// The value's name (`MiB`, `[a:]b`); empty for a switch.
    pub value: String,
    /// What it does; the range of a number is added by [`options`].
    pub meaning: String,
    /// Its default; empty where it has none.
    pub default: String,
    /// What it takes and where it goes.
    pub set: Value<O>,
}

impl<O> Flag<O> {
    /// A switch.
    pub fn switch(
        names: &'static [&'static str],
        meaning: impl Into<String>,
        set: impl Fn(&mut O) + 'static,
    ) -> Flag<O> {
        Flag::with(names, "", meaning, Value::Switch(Box::new(set)))
    }

    /// The help flag (`-h`): `parse` stops at it and returns `Ok(true)`.
    pub fn help(names: &'static [&'static str], meaning: impl Into<String>) -> Flag<O> {
        Flag::with(names, "", meaning, Value::Help)
    }

    /// An option taking `value` (its name in the usage) into `set`.
    pub fn with(
        names: &'static [&'static str],
        value: impl Into<String>,
        meaning: impl Into<String>,
        set: Value<O>,
    ) -> Flag<O> {
        Flag { names, value: value.into(), meaning: meaning.into(), default: String::new(), set }
    }

    /// A whole number from `lo` to `hi`.
    pub fn whole(
        names: &'static [&'static str],
        value: impl Into<String>,
        meaning: impl Into<String>,
        (lo, hi): (u64, u64),
        set: impl Fn(&mut O, u64) + 'static,
    ) -> Flag<O> {
        Flag::with(names, value, meaning, Value::Whole(lo, hi, Box::new(set)))
    }

    /// A finite number above `lo`.
    pub fn above(
        names: &'static [&'static str],
        value: impl Into<String>,
        meaning: impl Into<String>,
        lo: f64,
        set: impl Fn(&mut O, f64) + 'static,
    ) -> Flag<O> {
        Flag::with(names, value, meaning, Value::Above(lo, Box::new(set)))
    }

    /// `on` or `off`.
    pub fn on_off(
        names: &'static [&'static str],
        meaning: impl Into<String>,
        set: impl Fn(&mut O, bool) + 'static,
    ) -> Flag<O> {
        Flag::with(names, "on|off", meaning, Value::OnOff(Box::new(set)))
    }

    /// A file, read on rank 0, whose name and text go to `set`.
    pub fn file(
        names: &'static [&'static str],
        value: impl Into<String>,
        meaning: impl Into<String>,
        set: impl Fn(&mut O, &str, &str) -> Result<(), String> + 'static,
    ) -> Flag<O> {
        Flag::with(names, value, meaning, Value::File(Box::new(set)))
    }

    /// Text checked by `set`.
    pub fn text(
        names: &'static [&'static str],
        value: impl Into<String>,
        meaning: impl Into<String>,
        set: impl Fn(&mut O, &str) -> Result<(), String> + 'static,
    ) -> Flag<O> {
        Flag::with(names, value, meaning, Value::Text(Box::new(set)))
    }

    /// This option with `default` shown.
    pub fn default(mut self, default: impl ToString) -> Flag<O> {
        self.default = default.to_string();
        self
    }

    /// The name shown: the first.
    pub fn name(&self) -> &'static str {
        self.names[0]
    }

    /// What its value must be, for `-h` and errors; empty for a switch and free text.
    pub fn accepts(&self) -> String {
        match &self.set {
            Value::Whole(lo, u64::MAX, _) => format!("a whole number >= {lo}"),
            Value::Whole(lo, hi, _) if hi - lo == 1 => format!("{lo} or {hi}"),
            Value::Whole(lo, hi, _) => format!("a whole number from {lo} to {hi}"),
            Value::Above(lo, _) => format!("a number above {lo}"),
            Value::OnOff(_) => "on or off".into(),
            Value::Switch(_) | Value::Text(_) | Value::File(_) | Value::Help => String::new(),
        }
    }

    /// Whether `arg` names it: exactly, or but for case where no other name of the table does.
    fn named(&self, arg: &str, exact: bool) -> bool {
        self.names.iter().any(|n| if exact { *n == arg } else { n.eq_ignore_ascii_case(arg) })
    }
}

/// The command line every rank parses: rank 0's arguments, the files they name as read
/// there, the variables it read, and a number rank 0 drew from its clock (a random default
/// the same everywhere). `mpirun` need not forward a shell's variables to remote nodes, and
/// ranks that disagreed on an option would deadlock, so nothing here is read on other ranks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// The arguments without the program name.
    pub args: Vec<String>,
    /// Each named file and its text, or why it could not be read.
    pub files: Vec<(String, Result<String, String>)>,
    /// The variables asked for that rank 0's environment sets, with their values.
    pub vars: Vec<(String, String)>,
    /// Nanoseconds of rank 0's clock at the start.
    pub drawn: u64,
}

impl Lookup for Line {
    fn get(&self, name: &str) -> Option<String> {
        self.vars.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    }
}

impl Line {
    /// `args` with the files that `flags` name in them, read through `read`.
    pub fn read<O>(
        args: Vec<String>,
        flags: &[Flag<O>],
        read: impl Fn(&str) -> std::io::Result<String>,
    ) -> Line {
        let mut files = Vec::new();
        for pair in args.windows(2) {
            let file = find(flags, &pair[0]).is_some_and(|f| matches!(f.set, Value::File(_)));
            if file && !files.iter().any(|(n, _)| *n == pair[1]) {
                files.push((pair[1].clone(), read(&pair[1]).map_err(|e| e.to_string())));
            }
        }
        let drawn = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        Line { args, files, vars: Vec::new(), drawn }
    }

    /// This line with the values of `vars` that `env` sets.
    pub fn with_vars(mut self, vars: &[&Var], env: &impl Lookup) -> Line {
        self.vars =
            vars.iter().filter_map(|v| Some((v.name.to_string(), env.get(v.name)?))).collect();
        self
    }

    /// Arguments alone, as a test gives them (files through `read`).
    pub fn of<O>(
        args: &str,
        flags: &[Flag<O>],
        read: impl Fn(&str) -> std::io::Result<String>,
    ) -> Line {
        Line::read(args.split_whitespace().map(String::from).collect(), flags, read)
    }

    fn file(&self, name: &str) -> Result<&str, String> {
        match self.files.iter().find(|(n, _)| n == name) {
            Some((_, Ok(text))) => Ok(text),
            Some((_, Err(e))) => Err(format!("cannot read it ({e})")),
            None => Err("cannot read it (not read on rank 0)".into()),
        }
    }
}

fn find<'a, O>(flags: &'a [Flag<O>], arg: &str) -> Option<&'a Flag<O>> {
    let loose: Vec<_> = flags.iter().filter(|f| f.named(arg, false)).collect();
    flags.iter().find(|f| f.named(arg, true)).or((loose.len() == 1).then(|| loose[0]))
}

/// Applies `line` to `o` through `flags`; an argument not starting with '-' goes to
/// `positional`. `Ok(true)` where the help flag came first: the rest is not read. An error
/// is one line naming the argument and what is accepted.
pub fn parse<O>(
    flags: &[Flag<O>],
    line: &Line,
    o: &mut O,
    mut positional: impl FnMut(&mut O, &str) -> Result<(), String>,
) -> Result<bool, String> {
    let mut it = line.args.iter();
    while let Some(arg) = it.next() {
        let Some(flag) = find(flags, arg) else {
            if arg.starts_with('-') && arg.len() > 1 {
                return Err(format!("unknown option {arg:?}; accepted: {}", accepted(flags)));
            }
            positional(o, arg)?;
            continue;
        };
        match &flag.set {
            Value::Help => return Ok(true),
            Value::Switch(set) => {
                set(o);
                continue;
            }
            _ => {}
        }
        let accepts = flag.accepts();
        let Some(v) = it.next() else {
            let what = if accepts.is_empty() { flag.value.clone() } else { accepts };
            return Err(format!("{} needs a value: {what}", flag.name()));
        };
        let takes = || format!("takes {accepts}");
        let done = match &flag.set {
            Value::Switch(_) | Value::Help => unreachable!("handled above"),
            Value::Whole(lo, hi, set) => match v.parse::<u64>() {
                Ok(n) if (*lo..=*hi).contains(&n) => {
                    set(o, n);
                    Ok(())
                }
                _ => Err(takes()),
            },
            Value::Above(lo, set) => match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x > *lo => {
                    set(o, x);
                    Ok(())
                }
                _ => Err(takes()),
            },
            Value::OnOff(set) => match v.to_ascii_lowercase().as_str() {
                "on" | "yes" | "true" | "enable" | "1" => {
                    set(o, true);
                    Ok(())
                }
                "off" | "no" | "false" | "disable" | "0" => {
                    set(o, false);
                    Ok(())
                }
                _ => Err(takes()),
            },
            Value::Text(set) => set(o, v),
            Value::File(set) => line.file(v).and_then(|text| set(o, v, text)),
        };
        done.map_err(|e| format!("{} {v}: {e}", flag.name()))?;
    }
    Ok(false)
}

/// The operand handler of a program that takes options only.
pub fn no_operand<O>(_: &mut O, arg: &str) -> Result<(), String> {
    Err(format!("unexpected argument {arg:?}: this program takes options only (-h lists them)"))
}

/// The first name of every option, for "accepted:".
pub fn accepted<O>(flags: &[Flag<O>]) -> String {
    flags.iter().map(|f| f.name()).collect::<Vec<_>>().join(" ")
}

/// The options as `-h` and the doc tables show them; a number's range ends its meaning.
pub fn options<O>(flags: &[Flag<O>]) -> Vec<Opt> {
    flags
        .iter()
        .map(|f| {
            let names = f.names.join(", ");
            let synopsis = if f.value.is_empty() { names } else { format!("{names} {}", f.value) };
            let meaning = match (&f.set, f.meaning.is_empty()) {
                (Value::Whole(..) | Value::Above(..), true) => f.accepts(),
                (Value::Whole(..) | Value::Above(..), false) => {
                    format!("{}; {}", f.meaning, f.accepts())
                }
                _ => f.meaning.clone(),
            };
            Opt { synopsis, meaning, default: f.default.clone() }
        })
        .collect()
}

/// `usage: mpirun -np P NAME [-a x] ...`, with `positional` after the name where given.
pub fn usage<O>(name: &str, positional: &str, flags: &[Flag<O>]) -> String {
    let mut line = format!("usage: mpirun -np P {name}");
    if !positional.is_empty() {
        line = format!("{line} {positional}");
    }
    for f in flags {
        let one =
            if f.value.is_empty() { f.name().into() } else { format!("{} {}", f.name(), f.value) };
        line = format!("{line} [{one}]");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default, Debug, PartialEq)]
    struct O {
        n: u64,
        x: f64,
        on: bool,
        sw: bool,
        words: Vec<String>,
        file: String,
        help: bool,
    }

    fn flags() -> Vec<Flag<O>> {
        vec![
            Flag::whole(&["-n"], "N", "a count", (1, 9), |o: &mut O, v| o.n = v).default(1),
            Flag::above(&["-x"], "X", "a time", 0.0, |o: &mut O, v| o.x = v),
            Flag::on_off(&["-on"], "on", |o: &mut O, v| o.on = v),
            Flag::file(&["-f"], "file", "a file", |o: &mut O, _, t| {
                o.file = t.trim().into();
                Ok(())
            }),
            Flag::switch(&["-s", "--switch"], "a switch", |o: &mut O| o.sw = true),
            Flag::help(&["-h"], "this text"),
        ]
    }

    fn run(args: &str) -> Result<O, String> {
        let flags = flags();
        let read = |f: &str| match f {
            "good" => Ok("text\n".to_string()),
            _ => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")),
        };
        let line = Line::of(args, &flags, read);
        let mut o = O::default();
        let help = parse(&flags, &line, &mut o, |o, a| {
            o.words.push(a.into());
            Ok(())
        })?;
        o.help = help;
        Ok(o)
    }

    #[test]
    fn every_kind_of_value_is_read_and_checked() {
        assert!(run("-n 2 -h -n 0").unwrap().help, "the help flag ends the reading");
        let o = run("a -n 3 -X 0.5 -on OFF -f good --switch b").unwrap();
        assert_eq!((o.n, o.x, o.on, o.sw), (3, 0.5, false, true));
        assert_eq!((o.words, o.file), (vec!["a".to_string(), "b".into()], "text".to_string()));
        for (args, want) in [
            ("-n 0", "-n 0: takes a whole number from 1 to 9"),
            ("-n", "-n needs a value: a whole number from 1 to 9"),
            ("-x 0", "-x 0: takes a number above 0"),
            ("-on maybe", "-on maybe: takes on or off"),
            ("-f missing", "-f missing: cannot read it (no such file)"),
            ("-q", "unknown option \"-q\"; accepted: -n -x -on -f -s -h"),
        ] {
            assert_eq!(run(args).unwrap_err(), want, "{args}");
        }
    }

    #[test]
    fn help_shows_ranges_and_every_name() {
        let opts = options(&flags());
        assert_eq!(opts[0].synopsis, "-n N");
        assert_eq!(opts[0].meaning, "a count; a whole number from 1 to 9");
        assert_eq!(opts[4].synopsis, "-s, --switch");
        assert_eq!(
            usage("t", "[name ...]", &flags()[..2]),
            "usage: mpirun -np P t [name ...] [-n N] [-x X]"
        );
    }

    #[test]
    fn a_line_travels_as_json() {
        let line = Line::of("-f good -f gone", &flags(), |f| match f {
            "good" => Ok("x".into()),
            _ => Err(std::io::Error::other("gone")),
        });
        let back: Line = serde_json::from_str(&serde_json::to_string(&line).unwrap()).unwrap();
        assert_eq!(back, line);
        assert_eq!(line.files.len(), 2);
    }
}
