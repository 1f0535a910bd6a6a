//! A suite binary's description of itself, written once, as [`crate::Spec`] is for paw's own
//! benchmarks: its `-h`, the `timed:` and `reported:` lines of its output header and its
//! section of doc/binaries.md (and the option table of its doc page) all come from it.
//!
//! A suite keeps its original's command line, so its options are listed one by one here,
//! each default written from the constant that rules the run.

/// Width of the `-h` text.
const WIDTH: usize = 92;
/// Column where an option's meaning starts in `-h`.
const MEANING_AT: usize = 20;

/// One command-line option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opt {
    /// The option as typed, with its value's name: `-mem MiB`.
    pub synopsis: String,
    /// What it does and which values it takes.
    pub meaning: String,
    /// Its default, from the constant that rules the run; empty where it has none (a flag
    /// that is off unless given, a required value).
    pub default: String,
}

impl Opt {
    /// An option with a default.
    pub fn new(
        synopsis: impl Into<String>,
        meaning: impl Into<String>,
        default: impl ToString,
    ) -> Opt {
        Opt { synopsis: synopsis.into(), meaning: meaning.into(), default: default.to_string() }
    }

    /// An option without a default (a flag, or a value the user must give).
    pub fn flag(synopsis: impl Into<String>, meaning: impl Into<String>) -> Opt {
        Opt { synopsis: synopsis.into(), meaning: meaning.into(), default: String::new() }
    }
}

/// A suite binary's description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct About {
    /// Binary name, as users type it.
    pub name: &'static str,
    /// One-line description: the first line of `-h` and the title of output files.
    pub title: String,
    /// The usage line(s), as the original suite words them (`usage: mpirun -np P ...`).
    pub usage: String,
    /// What the suite is, in a paragraph or two (may be empty).
    pub summary: String,
    /// What is timed: the calls and what lies between the clock reads.
    pub timed: String,
    /// What is reported, by which formulas, in which units.
    pub reported: String,
    /// Accepted process counts.
    pub tasks: String,
    /// Its data or result check.
    pub check: String,
    /// The files it writes.
    pub files: String,
    /// Its options, `-h` last.
    pub options: Vec<Opt>,
}

impl About {
    /// The `-h` text: title, usage, summary, then the Timed/Reported/Tasks/Data check/Files
    /// paragraphs and the options with their defaults.
    pub fn help(&self) -> String {
        let mut out =
            format!("{} -- {}\n\n{}\n\n", self.name, self.title, usage_lines(&self.usage));
        if !self.summary.trim().is_empty() {
            out.push_str(&fill(&self.summary, ""));
            out.push_str("\n\n");
        }
        let paragraphs = [
            ("Timed", &self.timed),
            ("Reported", &self.reported),
            ("Tasks", &self.tasks),
            ("Data check", &self.check),
            ("Files", &self.files),
        ];
        for (key, text) in paragraphs {
            out.push_str(&fill(&format!("{key}: {text}"), ""));
            out.push_str("\n\n");
        }
        out.push_str("Options:\n");
        for o in &self.options {
            out.push_str(&option_lines(o));
        }
        out.trim_end().to_string()
    }

    /// The lines this description adds to the run's output header.
    pub fn header_lines(&self) -> Vec<String> {
        vec![
            format!("timed: {}", one_line(&self.timed)),
            format!("reported: {}", one_line(&self.reported)),
        ]
    }

    /// The options read back from [`About::help`] when they differ from the options
    /// (whitespace made single); `None` when `-h` gives every option back as written,
    /// which is what the doc tables made from `-h` need.
    pub fn help_misreads(&self) -> Option<(Vec<Opt>, Vec<Opt>)> {
        let single = |o: &Opt| Opt {
            synopsis: one_line(&o.synopsis),
            meaning: one_line(&o.meaning),
            default: one_line(&o.default),
        };
        let want: Vec<Opt> = self.options.iter().map(single).collect();
        let got = options_from_help(&self.help());
        (got != want).then_some((want, got))
    }
}

/// The option table of a doc page: option, meaning, default.
pub fn option_table(options: &[Opt]) -> String {
    let mut out = String::from("| option | meaning | default |\n|---|---|---|\n");
    for o in options {
        // In a table a `|` ends the cell, also inside a code span, unless escaped.
        let cell = |t: &str| one_line(t).replace('|', "\\|").replace('<', "\\<");
        let synopsis = one_line(&o.synopsis).replace('|', "\\|");
        out.push_str(&format!("| `{synopsis}` | {} | {} |\n", cell(&o.meaning), cell(&o.default)));
    }
    out
}

/// The options of a `-h` text that [`About::help`] wrote, read back (whitespace made
/// single): what the doc tables are made of.
pub fn options_from_help(help: &str) -> Vec<Opt> {
    let mut options: Vec<Opt> = Vec::new();
    let block = help.lines().skip_while(|l| *l != "Options:").skip(1);
    for line in block.take_while(|l| !l.trim().is_empty()) {
        let starts_option =
            line.get(2..).is_some_and(|rest| !rest.is_empty() && !rest.starts_with(' '));
        let split = line.get(MEANING_AT - 2..MEANING_AT) == Some("  ") && line.len() > MEANING_AT;
        let (synopsis, text) = match (starts_option, split) {
            (false, _) => (None, line.trim()),
            (true, true) => (Some(line[..MEANING_AT].trim()), line[MEANING_AT..].trim()),
            (true, false) => (Some(line.trim()), ""),
        };
        if let Some(synopsis) = synopsis {
            options.push(Opt::flag(synopsis, ""));
        }
        if let Some(o) = options.last_mut() {
            o.meaning = one_line(&format!("{} {text}", o.meaning));
        }
    }
    for o in &mut options {
        if let Some((meaning, default)) = o.meaning.rsplit_once(" (default: ") {
            o.default = default.strip_suffix(')').unwrap_or(default).to_string();
            o.meaning = meaning.to_string();
        } else if let Some(default) = o.meaning.strip_prefix("(default: ") {
            o.default = default.strip_suffix(')').unwrap_or(default).to_string();
            o.meaning = String::new();
        }
    }
    options
}

/// An option's `-h` lines: the synopsis, then the meaning from [`MEANING_AT`] (on the next
/// line when the synopsis is longer), the default at the end.
fn option_lines(o: &Opt) -> String {
    let mut text = one_line(&o.meaning);
    if !o.default.is_empty() {
        text = format!("{text} (default: {})", one_line(&o.default)).trim_start().to_string();
    }
    let head = format!("  {}", one_line(&o.synopsis));
    let indent = " ".repeat(MEANING_AT);
    if text.is_empty() {
        return format!("{head}\n");
    }
    if head.len() + 2 <= MEANING_AT {
        let first = format!("{head:<MEANING_AT$}");
        format!("{}\n", textwrap::fill(&text, wrap(&first, &indent)))
    } else {
        format!("{head}\n{}\n", fill(&text, &indent))
    }
}

/// The usage as written when it has several lines; one long line broken before an option
/// (`[-x ...]`) to fit [`WIDTH`], continued under the program's name.
fn usage_lines(usage: &str) -> String {
    let usage = usage.trim_end();
    if usage.contains('\n') || usage.len() <= WIDTH {
        return usage.to_string();
    }
    // The continuation starts under the word after `usage: mpirun -np P`.
    let indent = usage.find(" [").map_or(8, |i| usage[..i].rfind(' ').map_or(8, |j| j + 1));
    // Words: the text before the first option, then each bracketed option whole.
    let mut words = vec![String::new()];
    let mut depth = 0;
    for c in usage.chars() {
        if c == '[' && depth == 0 && words.last().is_some_and(|w| w.ends_with(' ')) {
            words.push(String::new());
        }
        depth += (c == '[') as i32 - (c == ']') as i32;
        words.last_mut().expect("one word").push(c);
    }
    let mut lines = vec![String::new()];
    for word in words.iter().map(|w| w.trim()) {
        let line = lines.last_mut().expect("one line");
        if line.is_empty() || line.len() + 1 + word.len() <= WIDTH {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        } else {
            lines.push(format!("{}{word}", " ".repeat(indent)));
        }
    }
    lines.join("\n")
}

/// `text` as one line, its whitespace runs made single spaces.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` wrapped to [`WIDTH`], each paragraph (blank-line separated) on its own, every
/// line behind `indent`.
fn fill(text: &str, indent: &str) -> String {
    let opts = wrap(indent, indent);
    text.split("\n\n").map(|p| textwrap::fill(&one_line(p), &opts)).collect::<Vec<_>>().join("\n\n")
}

/// Wrapping to [`WIDTH`] at spaces only: a file name or `2^64-1` is never split at its
/// hyphen, so a paragraph read back as one line is the text written.
fn wrap<'a>(first: &'a str, rest: &'a str) -> textwrap::Options<'a> {
    textwrap::Options::new(WIDTH)
        .initial_indent(first)
        .subsequent_indent(rest)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .break_words(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about() -> About {
        About {
            name: "demo",
            title: "a demonstration".into(),
            usage: "usage: mpirun -np P demo [-n N] [-h]".into(),
            summary: String::new(),
            timed: "N calls between two clock reads".into(),
            reported: "time per call, usec".into(),
            tasks: "2 or more".into(),
            check: "none".into(),
            files: "demo.dat".into(),
            options: vec![
                Opt::new("-n N", "calls per sample, 1 to 100", 10),
                Opt::flag("-a-rather-long-option VALUE", "an option whose synopsis is long"),
                Opt::flag("-h, --help", "this text"),
            ],
        }
    }

    #[test]
    fn help_has_every_paragraph_and_option_with_its_default() {
        let help = about().help();
        assert!(help.starts_with("demo -- a demonstration\n\nusage: mpirun -np P demo"));
        let long = format!("usage: mpirun -np P demo{}", " [-option [a:]b]".repeat(10));
        let lines = usage_lines(&long);
        assert!(lines.lines().all(|l| l.len() <= WIDTH), "{lines}");
        assert!(
            lines.lines().skip(1).all(|l| l.starts_with("                    [-option [a:]b]")),
            "{lines}"
        );
        assert_eq!(
            lines.split_whitespace().collect::<Vec<_>>(),
            long.split_whitespace().collect::<Vec<_>>()
        );
        for p in ["Timed: N calls", "Reported: time", "Tasks: 2", "Data check: none", "Files: demo"]
        {
            assert!(help.contains(&format!("\n\n{p}")), "{p}\n{help}");
        }
        assert!(
            help.contains("\n  -n N              calls per sample, 1 to 100 (default: 10)\n"),
            "{help}"
        );
        assert!(
            help.contains("\n  -a-rather-long-option VALUE\n                    an option"),
            "{help}"
        );
        assert!(help.ends_with("  -h, --help        this text"), "{help}");
        assert!(help.lines().all(|l| l.len() <= WIDTH), "{help}");
    }

    #[test]
    fn options_read_back_from_help_are_the_options() {
        let a = about();
        assert_eq!(options_from_help(&a.help()), a.options);
        let mut odd = a.clone();
        odd.options[0] = Opt::new("-e [message stop  size]", "bytes", 8);
        odd.options[1].meaning = "files a-np_0002.json and b-np_0002.json, ".repeat(4);
        let back = options_from_help(&odd.help());
        assert_eq!(back[0].synopsis, "-e [message stop size]");
        assert_eq!(back[1].meaning, one_line(&odd.options[1].meaning));
        let mut wide = a.clone();
        wide.options[0].meaning = "a meaning long enough to be wrapped ".repeat(5).trim().into();
        wide.options[0].default = "a default (with its own parentheses)".into();
        assert_eq!(options_from_help(&wide.help()), wide.options);
    }

    #[test]
    fn header_and_table_say_the_same_as_help() {
        let a = about();
        assert_eq!(
            a.header_lines(),
            ["timed: N calls between two clock reads", "reported: time per call, usec"]
        );
        let table = option_table(&a.options);
        assert!(table.contains("| `-n N` | calls per sample, 1 to 100 | 10 |\n"), "{table}");
        assert!(table.contains("| `-h, --help` | this text |  |\n"), "{table}");
    }
}
