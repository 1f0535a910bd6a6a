//! doc/binaries.md is made from every PAW binary's `-h` (its Spec), so the documentation of
//! what each binary times, reports, reads and writes cannot drift from the binary. After
//! changing a Spec, regenerate it: `PAW_BLESS=1 cargo test --release -p paw-test --test docs`.
//! Each suite binary's doc page is held to its `-h`: every option it lists is named there,
//! and the page's option tables list no option its binaries do not take.

use paw_test::binaries;

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
        out.push_str(&format!("- **{key}**: {}\n", field(key).replace('|', "\\|")));
    }
    out.push_str("\n| variable | meaning | default |\n|---|---|---|\n");
    let vars = help.lines().skip_while(|l| !l.starts_with("Variables")).skip(1);
    for line in vars.take_while(|l| !l.trim().is_empty()) {
        let line = line.trim();
        let (name, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let (meaning, default) = rest.rsplit_once(" (default ").unwrap_or((rest, ")"));
        out.push_str(&format!("| `{name}` | {meaning} | {} |\n", default.trim_end_matches(')')));
    }
    out.push('\n');
    out
}

#[test]
fn binaries_md_is_made_from_every_binarys_help() {
    let mut doc = String::from(
        "# Every binary\n\n\
         Made from each binary's `-h`, which comes from the `SPEC` in its source: what it \
         times, what it reports and by which formulas, the tasks it needs, its data or result \
         check, the files it writes and every variable it reads. A test keeps this page equal \
         to the binaries; after changing a `SPEC`, regenerate it with\n\
         `PAW_BLESS=1 cargo test --release -p paw-test --test docs`.\n\n\
         Every binary also reads `PAW_OUTPUT_DIR`, `PAW_TIMEOUT` and `PAW_STRICT`; every `.dat` file has a \
         `.csv` twin and every run a JSON record (doc/results.md).\n\n",
    );
    for (list, names) in binaries::makefile_lists() {
        if list == "SUITE" || list == "TOOL" {
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

/// The doc page of each suite binary (the Makefile's SUITE list).
const SUITE_PAGES: &[(&str, &str)] = &[
    ("IMB-MPI1", "doc/imb-mpi1.md"),
    ("IMB-EXT", "doc/imb-ext.md"),
    ("IMB-IO", "doc/imb-io.md"),
    ("b_eff", "doc/b_eff.md"),
    ("b_eff_io", "doc/b_eff_io.md"),
    ("com", "doc/presta.md"),
    ("laten", "doc/presta.md"),
    ("rma", "doc/presta.md"),
    ("allred", "doc/presta.md"),
    ("globalop", "doc/presta.md"),
];

/// The options a suite's `-h` lists: the first word of each line that starts with `-`.
fn options_of_help(help: &str) -> std::collections::BTreeSet<String> {
    help.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-') && l.as_bytes().get(1).is_some_and(u8::is_ascii_alphabetic))
        .filter_map(|l| l.split_whitespace().next())
        .map(|w| w.trim_end_matches([',', ':']).to_string())
        .collect()
}

/// The options a doc page's option tables list: the first cell of each table row that
/// starts with a back-quoted option.
fn options_of_page(page: &str) -> std::collections::BTreeSet<String> {
    page.lines()
        .filter_map(|l| l.strip_prefix("| `-"))
        .filter_map(|l| l.split(['`', ' ']).next())
        .map(|o| format!("-{o}"))
        .collect()
}

/// Every suite binary's doc page names each option its `-h` lists, and its option tables
/// list no option that none of its binaries takes: a page that disagrees with the binaries
/// fails.
#[test]
fn every_suite_doc_page_agrees_with_its_binaries_help() {
    let suites = binaries::makefile_lists()
        .into_iter()
        .find(|(list, _)| list == "SUITE")
        .map(|(_, names)| names)
        .expect("a SUITE list in the Makefile");
    for name in &suites {
        assert!(SUITE_PAGES.iter().any(|(n, _)| n == name), "{name} has no doc page here");
    }
    let mut by_page: std::collections::BTreeMap<&str, std::collections::BTreeSet<String>> =
        Default::default();
    for (name, page) in SUITE_PAGES {
        let out = paw_test::Launch::mpi(binaries::bin(name), 1).arg("-h").run();
        out.success();
        let text = std::fs::read_to_string(binaries::workspace().join(page)).expect("page");
        let options = options_of_help(&out.stdout);
        // (allred takes three numbers and -h only.)
        assert!(options.contains("-h"), "{name} -h lists no options\n{}", out.report());
        for o in &options {
            assert!(text.contains(&format!("`{o}")), "{page} does not name {name}'s {o}");
        }
        by_page.entry(page).or_default().extend(options);
    }
    for (page, options) in by_page {
        let text = std::fs::read_to_string(binaries::workspace().join(page)).expect("page");
        for o in options_of_page(&text) {
            assert!(options.contains(&o), "{page} lists {o}, which no binary of it takes");
        }
    }
}
