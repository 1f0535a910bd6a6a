//! Every benchmark binary, as the Makefile lists them (`make lists`: the MPI benchmarks are the
//! files of paw-mpi's src/bin), and what each says of itself in `-h`: for tests that walk them.

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

/// The Makefile's lists of binaries (`make -s lists`), as `(LIST, names)`: CORE, P2P, COL...
pub fn makefile_lists() -> Vec<(String, Vec<String>)> {
    let out = Command::new("make")
        .args(["-s", "--no-print-directory", "MPI=openmpi", "lists"])
        .current_dir(workspace())
        .env_remove("MAKEFLAGS")
        .env_remove("MAKELEVEL")
        .env_remove("MFLAGS")
        .output()
        .expect("make (the lists of binaries come from the Makefile)");
    assert!(out.status.success(), "make lists: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let lists: Vec<(String, Vec<String>)> = text
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(name, names)| {
            (name.to_string(), names.split_whitespace().map(String::from).collect())
        })
        .collect();
    assert!(lists.iter().any(|(l, _)| l == "COL"), "make lists printed {text:?}");
    lists
}

/// Every binary of the Makefile's lists.
pub fn all() -> Vec<String> {
    makefile_lists().into_iter().flat_map(|(_, names)| names).collect()
}

/// The binaries of one Makefile list (`COL`, `P2P`...).
pub fn list(name: &str) -> Vec<String> {
    let lists = makefile_lists();
    lists.into_iter().find(|(l, _)| l == name).unwrap_or_else(|| panic!("no list {name}")).1
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
    fn makefile_lists_hold_every_kind() {
        let all = all();
        for b in ["latency", "col_rsb", "p2p_matrix", "gpu_keep_noal_inout", "IMB-MPI1"] {
            assert!(all.contains(&b.to_string()), "{b}: {all:?}");
        }
        assert!(!all.iter().any(|b| b.contains('$') || b.ends_with(".rs")), "{all:?}");
        assert!(!list("P2P").contains(&"p2p_multitask".to_string()), "in CORE only");
    }
}
