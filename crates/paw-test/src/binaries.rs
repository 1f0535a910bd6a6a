//! Every benchmark binary, as the Makefile lists them, and what each says of itself in `-h`:
//! for tests that walk all binaries (a new binary is covered by adding it to the Makefile).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace's top directory.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace")
}

/// The release binaries' directory: beside this test's `deps/` directory.
pub fn bin_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    exe.parent().and_then(Path::parent).expect("target/release").to_path_buf()
}

/// The built binary `name`; panics with a hint when it was not built.
pub fn bin(name: &str) -> PathBuf {
    let path = bin_dir().join(name);
    assert!(
        path.exists(),
        "{} is not built: run `cargo build --release --workspace` (make test does)",
        path.display()
    );
    path
}

/// The binaries of each `<LIST>_BINS :=` line of the Makefile, as `(LIST, names)`.
pub fn makefile_lists() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(workspace().join("Makefile")).expect("Makefile");
    let joined = text.replace("\\\n", " ");
    let mut lists = Vec::new();
    for line in joined.lines() {
        let Some((name, value)) = line.split_once(":=") else { continue };
        let name = name.trim();
        if !name.ends_with("_BINS") {
            continue;
        }
        let names = expand(value);
        if !names.is_empty() && name != "BINS" {
            lists.push((name.trim_end_matches("_BINS").to_string(), names));
        }
    }
    lists
}

/// Every binary of the Makefile's lists.
pub fn all() -> Vec<String> {
    makefile_lists().into_iter().flat_map(|(_, names)| names).collect()
}

/// Expands a Makefile list value: plain words and `$(foreach ...)` over literal lists.
fn expand(value: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut rest = value.trim();
    while !rest.is_empty() {
        if let Some(body) = rest.strip_prefix("$(foreach ") {
            let end = matching(body);
            words.extend(foreach(&body[..end]));
            rest = body[end + 1..].trim_start();
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let w = &rest[..end];
            if !w.starts_with("$(") {
                words.push(w.to_string());
            }
            rest = rest[end..].trim_start();
        }
    }
    words
}

/// Index of the `)` closing a `$(` whose body starts `body`.
fn matching(body: &str) -> usize {
    let mut depth = 1;
    for (i, c) in body.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced $( in the Makefile: {body}")
}

/// `var,list,template` with the template possibly another foreach.
fn foreach(body: &str) -> Vec<String> {
    let (var, rest) = body.split_once(',').expect("foreach var");
    let (list, template) = rest.split_once(',').expect("foreach list");
    let var = format!("$({})", var.trim());
    let mut out = Vec::new();
    for item in list.split_whitespace() {
        let t = template.replace(&var, item);
        out.extend(expand(&t));
    }
    out
}

/// How a binary is started, from its `-h` "Tasks:" line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Under mpirun with this many tasks (the smallest it accepts, at least 2).
    Mpi(usize),
    /// Directly, one process.
    Direct,
}

/// What a binary's `-h` says of itself.
#[derive(Debug, Clone)]
pub struct Help {
    /// The whole text.
    pub text: String,
    /// The variables it reads.
    pub vars: Vec<String>,
    /// How to start it.
    pub start: Start,
    /// Whether it checks data with PAW_CHECK=1.
    pub checks_data: bool,
    /// A task count it refuses, if any: its "Tasks:" rule broken by one.
    pub refused_tasks: Option<usize>,
}

/// Runs `name -h` and reads it.
pub fn help(name: &str) -> Help {
    let out = Command::new(bin(name)).arg("-h").output().expect("run -h");
    assert!(out.status.success(), "{name} -h failed: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let tasks = text.lines().find_map(|l| l.strip_prefix("Tasks: ")).unwrap_or("").to_string();
    let count = |i: usize| tasks.split_whitespace().nth(i).and_then(|w| w.parse::<usize>().ok());
    let refused_tasks = if tasks.starts_with("an even number") {
        Some(3)
    } else if tasks.starts_with("exactly ") {
        count(1).map(|k| k + 1)
    } else if tasks.starts_with("at least ") {
        count(2).filter(|&k| k >= 2).map(|k| k - 1)
    } else {
        None
    };
    let start = if tasks.starts_with("one process") {
        Start::Direct
    } else if tasks.starts_with("exactly ") || tasks.starts_with("at least ") {
        let n: usize = tasks
            .split_whitespace()
            .nth(if tasks.starts_with("at") { 2 } else { 1 })
            .and_then(|w| w.parse().ok())
            .unwrap_or(2);
        Start::Mpi(n.max(2))
    } else {
        Start::Mpi(2)
    };
    let checks_data = text.lines().any(|l| l.starts_with("Data check: with PAW_CHECK=1"));
    Help { vars: crate::launch::help_variables(&text), text, start, checks_data, refused_tasks }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makefile_lists_expand_foreach() {
        let v = expand("a b $(foreach m,x y,$(foreach d,1 2,p_$(m)_$(d))) c");
        assert_eq!(v, ["a", "b", "p_x_1", "p_x_2", "p_y_1", "p_y_2", "c"]);
        let all = all();
        assert!(
            all.contains(&"latency".to_string())
                && all.contains(&"gpu_keep_noal_inout".to_string())
        );
        assert!(!all.iter().any(|b| b.contains('$')), "{all:?}");
    }
}
