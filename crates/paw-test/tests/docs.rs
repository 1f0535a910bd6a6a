//! doc/binaries.md is made from every binary's `-h` (its Spec), so the documentation of
//! what each binary times, reports, reads and writes cannot drift from the binary. After
//! changing a Spec, regenerate it: `PAW_BLESS=1 cargo test --release -p paw-test --test docs`.

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
         Every binary also reads `PAW_OUTPUT_DIR` and `PAW_TIMEOUT`; every `.dat` file has a \
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
