//! The shape of the tree: short mains that say what they are, no module importing its
//! importer, and a binary registered once (its file in a family crate's src/bin, from which the
//! Makefile's lists come), the README and qualify.sbatch held to those lists.

use paw_test::binaries;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The most lines a main.rs or src/bin file has.
const MAIN_LINES: usize = 100;

/// Files exempt from [`MAIN_LINES`]: mpi-ext's self-test, a test of every wrapper.
const LONG_MAINS: &[&str] = &["crates/mpi-ext/src/bin/selftest.rs"];

/// The workspace's member directories, from the root Cargo.toml (a `*` in a path's last
/// component matches the folders there that hold a Cargo.toml).
fn members() -> Vec<PathBuf> {
    let root = binaries::workspace();
    let toml = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let list = toml.split("members = [").nth(1).and_then(|r| r.split(']').next()).unwrap();
    let mut out = Vec::new();
    for m in list.split(',').map(|m| m.trim().trim_matches('"')).filter(|m| !m.is_empty()) {
        let Some((head, tail)) = m.split_once('*') else {
            out.push(root.join(m));
            continue;
        };
        let (dir, prefix) = head.rsplit_once('/').unwrap_or(("", head));
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                name.starts_with(prefix) && name.ends_with(tail) && p.join("Cargo.toml").exists()
            })
            .collect();
        found.sort();
        out.extend(found);
    }
    out
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// A crate's binary sources: src/main.rs, src/bin/*.rs and src/bin/*/main.rs.
fn mains(member: &Path) -> Vec<PathBuf> {
    let bin = member.join("src/bin");
    let mut v: Vec<PathBuf> = rust_files(&bin);
    v.retain(|p| p.parent() == Some(&bin) || p.strip_prefix(&bin).unwrap().ends_with("main.rs"));
    let main = member.join("src/main.rs");
    if main.exists() {
        v.push(main);
    }
    v
}

#[test]
fn every_main_is_at_most_100_lines_and_opens_with_what_it_is() {
    let root = binaries::workspace();
    let mut wrong = Vec::new();
    for file in members().iter().flat_map(|m| mains(m)) {
        let rel = file.strip_prefix(&root).unwrap().display().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        let lines = text.lines().count();
        if lines > MAIN_LINES && !LONG_MAINS.contains(&rel.as_str()) {
            wrong.push(format!("{rel}: {lines} lines"));
        }
        if !text.starts_with("//!") {
            wrong.push(format!("{rel}: does not open with a //! line"));
        }
    }
    assert!(wrong.is_empty(), "mains over {MAIN_LINES} lines or without their //!:\n{wrong:#?}");
}

/// The names right after `crate::` in `text` (one module's source, tests and comments left
/// out): modules (`crate::dat`) and what lib.rs exports (`crate::Suite`, `use crate::{Mode}`).
fn referred(text: &str) -> BTreeSet<String> {
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap_or("")
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        if code[..i].ends_with('$') {
            continue; // $crate:: in a macro is the crate, not a module
        }
        let rest = &code[i + "crate::".len()..];
        let names: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
            None => vec![rest],
        };
        for n in names {
            let n = n.trim();
            let end = n.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(n.len());
            if end > 0 {
                out.insert(n[..end].to_string());
            }
        }
    }
    out
}

/// What lib.rs's `pub use module::{A, B};` lines export, as name -> module.
fn exports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in lib.lines() {
        let Some(path) = line.strip_prefix("pub use ").and_then(|l| l.strip_suffix(';')) else {
            continue;
        };
        let Some((module, names)) = path.split_once("::") else { continue };
        let names = names.trim_start_matches('{').trim_end_matches('}');
        for n in names.split(',').map(str::trim).filter(|n| !n.is_empty() && !n.contains(' ')) {
            out.insert(n.to_string(), module.to_string());
        }
    }
    out
}

/// A circle of modules in `graph`, if any.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == n) {
            let mut c = path[at..].to_vec();
            c.push(n.to_string());
            return Some(c);
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for next in graph.get(n).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_imports_a_module_that_imports_it() {
    let mut circles = Vec::new();
    // A crate's modules, and those of each binary that is a folder of src/bin.
    let folders = |member: &Path| -> Vec<PathBuf> {
        let bin = member.join("src/bin");
        let mut v: Vec<PathBuf> = std::fs::read_dir(&bin)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        v.insert(0, member.join("src"));
        v
    };
    for src in members().iter().flat_map(|m| folders(m)) {
        let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
        let exported = exports(&lib);
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for file in rust_files(&src) {
            let rel = file.strip_prefix(&src).unwrap();
            let top = rel.components().next().unwrap().as_os_str().to_string_lossy();
            let module = top.trim_end_matches(".rs").to_string();
            if ["lib", "main", "bin"].contains(&module.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            // A name lib.rs exports stands for the module it comes from.
            let refs: Vec<String> = referred(&text)
                .into_iter()
                .map(|r| exported.get(&r).cloned().unwrap_or(r))
                .filter(|r| *r != module)
                .collect();
            graph.entry(module).or_default().extend(refs);
        }
        let known: BTreeSet<String> = graph.keys().cloned().collect();
        for targets in graph.values_mut() {
            targets.retain(|t| known.contains(t));
        }
        if let Some(c) = circle(&graph) {
            circles.push(format!("{}: {}", src.display(), c.join(" -> ")));
        }
    }
    assert!(circles.is_empty(), "import circles:\n{circles:#?}");
}

/// Crates whose lib.rs only declares modules, exports their items and holds macros: no
/// module imports one above it.
const FLAT_LIBS: &[&str] = &["crates/suites/imb", "crates/mpi/paw-mpi"];

#[test]
fn libs_that_export_only_declare_modules() {
    let items = ["fn ", "struct ", "enum ", "const ", "static ", "trait ", "type ", "impl"];
    let mut wrong = Vec::new();
    for krate in FLAT_LIBS {
        let path = binaries::workspace().join(krate).join("src/lib.rs");
        for (i, line) in std::fs::read_to_string(&path).unwrap().lines().enumerate() {
            let bare = line.strip_prefix("pub ").unwrap_or(line);
            if items.iter().any(|k| bare.starts_with(k)) {
                wrong.push(format!("{krate}/src/lib.rs:{}: {line}", i + 1));
            }
        }
    }
    assert!(wrong.is_empty(), "items in a lib.rs that only declares modules:\n{wrong:#?}");
}

#[test]
fn the_circle_finder_sees_imports_and_circles() {
    let text = "use crate::dat::{Column, Row};\nuse crate::{stats, team::Team};\n\
                // crate::comment\nfn f() { $crate::x!(); crate::Stats::of(&[]); }\n\
                #[cfg(test)]\nmod tests { use crate::later; }";
    let got: Vec<String> = referred(text).into_iter().collect();
    assert_eq!(got, ["Stats", "dat", "stats", "team"]);
    let lib = "mod a;\npub use table::{Mode, Suite};\npub use driver::run;\npub use x as y;";
    let names: Vec<(String, String)> = exports(lib).into_iter().collect();
    let pair = |n: &str, m: &str| (n.to_string(), m.to_string());
    assert_eq!(names, [pair("Mode", "table"), pair("Suite", "table"), pair("run", "driver")]);
    let graph = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    assert_eq!(circle(&graph(&[("a", "b"), ("b", "c")])), None);
    let found = circle(&graph(&[("a", "b"), ("b", "c"), ("c", "a")])).unwrap();
    assert_eq!(found.first(), found.last());
    assert_eq!(found.len(), 4);
}

/// The workspace's binaries: each member's src/main.rs (named by its `[[bin]]` or package
/// name) and src/bin files (named by their stems, or their `[[bin]]` names).
fn workspace_binaries() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for member in members() {
        let toml = std::fs::read_to_string(member.join("Cargo.toml")).unwrap();
        let value = |line: &str| line.split('"').nth(1).map(str::to_string);
        let bins: Vec<(String, String)> = toml
            .split("[[bin]]")
            .skip(1)
            .filter_map(|section| {
                let name = section.lines().find(|l| l.starts_with("name")).and_then(value)?;
                let path = section.lines().find(|l| l.starts_with("path")).and_then(value);
                Some((name, path.unwrap_or_default()))
            })
            .collect();
        for main in mains(&member) {
            let rel = main.strip_prefix(&member).unwrap().display().to_string();
            let named = bins.iter().find(|(_, p)| *p == rel).map(|(n, _)| n.clone());
            let name = named.unwrap_or_else(|| {
                if rel.starts_with("src/bin/") && rel.ends_with("/main.rs") {
                    main.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned()
                } else if rel == "src/main.rs" {
                    let package = toml.split("[package]").nth(1).unwrap_or("");
                    package.lines().find(|l| l.starts_with("name")).and_then(value).unwrap()
                } else {
                    main.file_stem().unwrap().to_string_lossy().into_owned()
                }
            });
            out.insert(name);
        }
    }
    out
}

/// Binaries that are no benchmarks and in no Makefile list.
const UNLISTED: &[&str] = &["paw-fixture", "mpi-ext-selftest"];

#[test]
fn every_binary_is_in_one_makefile_list_and_every_listed_one_is_built() {
    let mut listed = BTreeMap::new();
    for (list, names) in binaries::makefile_lists() {
        for n in names {
            if let Some(other) = listed.insert(n.clone(), list.clone()) {
                panic!("{n} is in two Makefile lists: {other} and {list}");
            }
        }
    }
    let built: BTreeSet<String> =
        workspace_binaries().into_iter().filter(|b| !UNLISTED.contains(&b.as_str())).collect();
    let listed: BTreeSet<String> = listed.into_keys().collect();
    let unlisted: Vec<_> = built.difference(&listed).collect();
    let unbuilt: Vec<_> = listed.difference(&built).collect();
    assert!(unlisted.is_empty(), "binaries in no Makefile list: {unlisted:?}");
    assert!(unbuilt.is_empty(), "Makefile binaries no crate builds: {unbuilt:?}");
}

/// `word` with its `{a,b}` groups expanded (`gpu_{in,out}_x` -> `gpu_in_x`, `gpu_out_x`).
fn expand_braces(word: &str) -> Vec<String> {
    let (Some(open), Some(close)) = (word.find('{'), word.find('}')) else {
        return vec![word.to_string()];
    };
    if close < open {
        return vec![word.to_string()];
    }
    let (head, tail) = (&word[..open], &word[close + 1..]);
    word[open + 1..close]
        .split(',')
        .flat_map(|alt| expand_braces(&format!("{head}{alt}{tail}")))
        .collect()
}

#[test]
fn the_readme_names_every_binary_of_the_makefile() {
    let readme = std::fs::read_to_string(binaries::workspace().join("README.md")).unwrap();
    let named: BTreeSet<String> =
        readme.split('`').skip(1).step_by(2).flat_map(expand_braces).collect();
    // `col_*` names every binary whose name starts col_.
    let prefixes: Vec<&str> = named.iter().filter_map(|w| w.strip_suffix('*')).collect();
    let covered = |b: &String| named.contains(b) || prefixes.iter().any(|p| b.starts_with(p));
    let missing: Vec<String> = binaries::all().into_iter().filter(|b| !covered(b)).collect();
    assert!(missing.is_empty(), "README.md does not name (in backquotes): {missing:?}");
}

#[test]
fn qualify_runs_every_point_to_point_and_collective_binary_but_those_it_names() {
    let script =
        std::fs::read_to_string(binaries::workspace().join("scripts/qualify.sbatch")).unwrap();
    let line = script.lines().find_map(|l| l.strip_prefix("ELSEWHERE=\"")).unwrap_or_default();
    let elsewhere: BTreeSet<&str> = line.trim_matches('"').split_whitespace().collect();
    assert!(script.contains("P2P=$(family p2p_)") && script.contains("COL=$(family col_)"));
    // Every name the steps leave out is a binary of the Makefile's, named as the step
    // globs find it; the steps run the rest.
    let all: BTreeSet<String> = binaries::all().into_iter().collect();
    let stale: Vec<&&str> = elsewhere.iter().filter(|b| !all.contains(**b)).collect();
    assert!(stale.is_empty(), "scripts/qualify.sbatch leaves out binaries no list has: {stale:?}");
    let run: Vec<String> = ["P2P", "COL"]
        .into_iter()
        .flat_map(binaries::list)
        .filter(|b| !elsewhere.contains(b.as_str()))
        .collect();
    assert!(run.iter().all(|b| b.starts_with("p2p_") || b.starts_with("col_")), "{run:?}");
    assert!(run.contains(&"col_rsb".to_string()) && run.contains(&"p2p_send".to_string()));
}
