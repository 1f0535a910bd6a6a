//! doc/binaries.md is made from every binary's `-h` (a PAW binary's Spec, a suite binary's
//! About), so the documentation of what each binary times, reports, reads and writes cannot
//! drift from the binary; so is the option table of each suite's doc page, and each suite's
//! output header and run record are held to its `-h`. After changing a Spec or an About,
//! regenerate them: `PAW_BLESS=1 cargo test --release -p paw-test --test docs`.

use paw_core::about::{one_line, option_table, options_from_help};
use paw_test::{binaries, Launch};
use std::time::Duration;

/// One binary's section, from its `-h` text.
fn section(name: &str, help: &str) -> String {
    let mut lines = help.lines();
    let title = lines.next().unwrap_or(name).to_string();
    let field = |key: &str| {
        help.split("\n\n")
            .find_map(|p| p.strip_prefix(&format!("{key}: ")))
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    };
    let mut out = format!("## {title}\n\n");
    for key in ["Timed", "Reported", "Tasks", "Data check", "Files"] {
        let text = field(key).replace('|', "\\|").replace('<', "\\<");
        out.push_str(&format!("- **{key}**: {text}\n"));
    }
    out.push('\n');
    if help.contains("\nVariables") {
        out.push_str("| variable | meaning | default |\n|---|---|---|\n");
        let vars = help.lines().skip_while(|l| !l.starts_with("Variables")).skip(1);
        for line in vars.take_while(|l| !l.trim().is_empty()) {
            let line = line.trim();
            let (name, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            let (meaning, default) = rest.rsplit_once(" (default ").unwrap_or((rest, ")"));
            out.push_str(&format!(
                "| `{name}` | {meaning} | {} |\n",
                default.trim_end_matches(')')
            ));
        }
    } else {
        out.push_str(&option_table(&options_from_help(help)));
    }
    out.push('\n');
    out
}

#[test]
fn binaries_md_is_made_from_every_binarys_help() {
    let mut doc = String::from(
        "# Every binary\n\n\
         Made from each binary's `-h`, which comes from the `SPEC` in its source (a suite \
         binary's: its `About`): what it times, what it reports and by which formulas, the \
         tasks it needs, its data or result check, the files it writes and every variable \
         (a suite binary: every option) it reads. A test keeps this page equal to the \
         binaries; after changing a `SPEC` or an `About`, regenerate it with\n\
         `PAW_BLESS=1 cargo test --release -p paw-test --test docs`.\n\n\
         Every binary also reads `PAW_OUTPUT_DIR`, `PAW_TIMEOUT`, `PAW_STRICT` and `PAW_PLACEMENT_FILE`; every `.dat` file has a \
         `.csv` twin and every run that writes files a JSON record (doc/results.md; the IMB \
         suites write files with `-csv` or `PAW_OUTPUT_DIR`).\n\n",
    );
    for (list, names) in binaries::makefile_lists() {
        if list == "TOOL" {
            continue;
        }
        for name in names {
            doc.push_str(&section(&name, &binaries::help(&name).text));
        }
    }
    let path = binaries::workspace().join("doc/binaries.md");
    if std::env::var_os("PAW_BLESS").is_some() {
        std::fs::write(&path, &doc).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == doc,
        "doc/binaries.md differs from the binaries' -h; regenerate it with \
         PAW_BLESS=1 cargo test --release -p paw-test --test docs"
    );
}

/// Each suite binary (the Makefile's SUITE list): its doc page, and a short run (processes,
/// arguments; `{dir}` stands for a scratch directory) whose header and record are read.
const SUITES: &[(&str, &str, usize, &str)] = &[
    ("IMB-MPI1", "doc/imb-mpi1.md", 2, "PingPong -msglog 0:1 -csv"),
    ("IMB-NBC", "doc/imb-nbc.md", 2, "Iallreduce -msglog 0:1 -csv"),
    ("IMB-MPI4", "doc/imb-mpi4.md", 2, "Allreduce_persist -msglog 0:1 -csv"),
    ("IMB-RMA", "doc/imb-rma.md", 2, "Unidir_put -msglog 0:1 -csv"),
    ("IMB-P2P", "doc/imb-p2p.md", 2, "PingPong -msglog 1 -pause 0 -csv"),
    ("IMB-MT", "doc/imb-mt.md", 2, "PingPongMT -count 1 -repeat 10 -csv"),
    ("IMB-EXT", "doc/imb-ext.md", 2, "Unidir_Put -msglog 0:1 -csv"),
    ("IMB-IO", "doc/imb-io.md", 1, "S_Write_Indv -msglog 0:1 -csv -dir {dir}"),
    ("b_eff", "doc/b_eff.md", 2, "-short -mem 1 -pattern pingpong"),
    ("b_eff_io", "doc/b_eff_io.md", 1, "-T 0.3 -MB 1 -N 1 -p {dir}"),
    ("com", "doc/presta.md", 2, "-o 2 -b 32 -e 64"),
    ("laten", "doc/presta.md", 2, "-o 2"),
    ("rma", "doc/presta.md", 2, "-o 2 -c 1 -b 32 -e 64"),
    ("allred", "doc/presta.md", 2, "10 2 2"),
    ("globalop", "doc/presta.md", 2, "-l 2 -w 1"),
];

/// A suite binary's `-h`.
fn suite_help(name: &str) -> String {
    let out = Launch::mpi(binaries::bin(name), 1).arg("-h").run();
    out.success();
    out.stdout
}

/// A paragraph of a `-h` text (`Timed: ...`) as one line, without its key.
fn paragraph(help: &str, key: &str) -> String {
    help.split("\n\n")
        .find_map(|p| p.strip_prefix(&format!("{key}: ")))
        .map(one_line)
        .unwrap_or_default()
}

/// Every suite binary is in the table above, and its doc page holds the option table of its
/// `-h` between the markers `<!-- options of NAME: made from its -h by the docs test -->`
/// and `<!-- end of options -->`: a page that disagrees with the binary fails.
#[test]
fn every_suite_doc_page_holds_the_options_of_its_help() {
    let suites = binaries::makefile_lists()
        .into_iter()
        .find(|(list, _)| list == "SUITE")
        .map(|(_, names)| names)
        .expect("a SUITE list in the Makefile");
    for name in &suites {
        assert!(SUITES.iter().any(|(n, ..)| n == name), "{name} has no doc page here");
    }
    let bless = std::env::var_os("PAW_BLESS").is_some();
    for (name, page, ..) in SUITES {
        let help = suite_help(name);
        let options = options_from_help(&help);
        assert!(
            options.iter().any(|o| o.synopsis.starts_with("-h")),
            "{name} -h lists no -h\n{help}"
        );
        let path = binaries::workspace().join(page);
        let text = std::fs::read_to_string(&path).expect("page");
        let begin = format!("<!-- options of {name}: made from its -h by the docs test -->\n");
        let end = "<!-- end of options -->";
        let start = text.find(&begin).unwrap_or_else(|| panic!("{page} has no `{}`", begin.trim()))
            + begin.len();
        let stop = start + text[start..].find(end).unwrap_or_else(|| panic!("{page}: no `{end}`"));
        let table = option_table(&options);
        if bless {
            std::fs::write(&path, format!("{}{table}{}", &text[..start], &text[stop..])).unwrap();
        } else {
            assert!(
                text[start..stop] == table,
                "{page}: {name}'s option table differs from its -h; regenerate it with \
                 PAW_BLESS=1 cargo test --release -p paw-test --test docs\n{table}"
            );
        }
    }
}

/// Every suite binary's output says what its `-h` says: the run record's title is the `-h`
/// title, and (IMB's output being Intel's layout) the others' headers carry the `-h`'s
/// Timed and Reported paragraphs.
#[test]
fn every_suite_binarys_output_says_what_its_help_says() {
    for (name, _, np, args) in SUITES {
        if *name == "IMB-MPI4" && !paw_test::has_mpi4() {
            eprintln!("IMB-MPI4: the library under test has no MPI-4 collectives; skipped");
            continue;
        }
        let help = suite_help(name);
        let title = help.lines().next().and_then(|l| l.split_once(" -- ")).map(|(_, t)| t);
        let title = title.unwrap_or_else(|| panic!("{name} -h has no title line\n{help}"));
        let scratch = tempfile::tempdir().unwrap();
        let args = args.replace("{dir}", &scratch.path().display().to_string());
        let out = Launch::mpi(binaries::bin(name), *np)
            .args(args.split_whitespace())
            .timeout(Duration::from_secs(60))
            .run();
        out.success();
        let record = out
            .files()
            .into_iter()
            .find(|f| f.starts_with(&format!("{name}-np_")) && f.ends_with(".json"))
            .unwrap_or_else(|| panic!("{name} wrote no run record\n{}", out.report()));
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.dir.path().join(&record)).unwrap())
                .unwrap();
        assert_eq!(record["title"], *title, "{name}'s record\n{}", out.report());
        if name.starts_with("IMB-") {
            continue;
        }
        for (key, line) in [("Timed", "# timed: "), ("Reported", "# reported: ")] {
            let said = out.stdout.lines().find_map(|l| l.strip_prefix(line));
            assert_eq!(said, Some(paragraph(&help, key).as_str()), "{name}\n{}", out.report());
        }
    }
}
