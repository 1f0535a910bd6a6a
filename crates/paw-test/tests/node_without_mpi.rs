//! The node tests (Tasks: one process) link no MPI library: `ldd` of each lists none, and
//! stream and dgemm run and write their files where no MPI library can be loaded, while an
//! MPI test fails there (which shows the hiding works).

use paw_test::binaries::{self, bin};
use paw_test::{Launch, Outcome};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// Whether a binary's `-h` declares it a node test (paw-base's `Ranks::Node`).
fn is_node_test(name: &str) -> bool {
    binaries::help(name).text.contains("Tasks: one process")
}

fn mpi_libraries_linked(name: &str) -> Vec<String> {
    let out = Command::new("ldd").arg(bin(name)).output().expect("ldd runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains("libmpi") || l.contains("libopen-") || l.contains("libpmix"))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn node_tests_link_no_mpi_library_and_mpi_tests_do() {
    let mut node = Vec::new();
    for (list, names) in binaries::makefile_lists() {
        if list == "SUITE" || list == "TOOL" {
            continue;
        }
        for name in names {
            let linked = mpi_libraries_linked(&name);
            if is_node_test(&name) {
                assert!(linked.is_empty(), "{name} is a node test but links {linked:?}");
                node.push(name);
            } else {
                assert!(!linked.is_empty(), "{name} is an MPI test and ldd lists no libmpi");
            }
        }
    }
    for (list, names) in binaries::makefile_lists() {
        if list == "BLAS" || list == "GPU" {
            assert!(names.iter().all(|n| node.contains(n)), "{list}: every one a node test");
        }
    }
    for name in ["stream", "blas_dgemm_single", "rayon_overhead"] {
        assert!(node.iter().any(|n| n == name), "{name} is a node test");
    }
}

/// Every file the loader knows as an MPI library (`ldconfig -p`), resolved to the file
/// itself.
fn mpi_library_files() -> Vec<PathBuf> {
    let out = Command::new("ldconfig").arg("-p").output().expect("ldconfig -p runs");
    let mut files: Vec<PathBuf> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.trim_start().starts_with("libmpi"))
        .filter_map(|l| l.split("=> ").nth(1))
        .filter_map(|p| std::fs::canonicalize(p.trim()).ok())
        .collect();
    files.sort();
    files.dedup();
    files
}

/// `program` in a private mount namespace where every MPI library file reads as empty.
fn without_mpi(program: PathBuf, libraries: &[PathBuf]) -> Launch {
    let hide: Vec<String> =
        libraries.iter().map(|f| format!("mount --bind /dev/null {}", f.display())).collect();
    let script = format!("{} && exec \"$@\"", hide.join(" && "));
    Launch::direct(program)
        .via(["unshare", "--mount", "--propagation", "private", "sh", "-c", &script, "hide-mpi"])
        .timeout(Duration::from_secs(120))
}

#[test]
fn stream_and_dgemm_run_where_no_mpi_library_loads() {
    let libraries = mpi_library_files();
    assert!(!libraries.is_empty(), "ldconfig lists no libmpi on a machine that builds paw");
    let probe = Command::new("unshare").args(["--mount", "true"]).status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("skipped: unshare --mount needs root (or user namespaces) here");
        return;
    }
    let refused: Outcome = without_mpi(bin("latency"), &libraries).run();
    assert!(
        refused.code != Some(0) && refused.stderr.contains("libmpi"),
        "latency started without its MPI library: the hiding does not work\n{}",
        refused.report()
    );
    let out = without_mpi(bin("stream"), &libraries).env("STREAM_ARRAY_SIZE", 1_000_000).run();
    out.success();
    assert_eq!(
        out.dat(&format!("stream_bw-np_{:04}.dat", stream_threads(&out))).numbers("MAX").len(),
        4
    );
    let out = without_mpi(bin("dgemm"), &libraries).env("MAX_BLAS_SIZE", 64).run();
    out.success();
    assert!(out.dat_files().iter().any(|f| f.starts_with("dgemm_flops")), "{}", out.report());
}

/// The thread count in stream's file name.
fn stream_threads(out: &Outcome) -> usize {
    let file = out.dat_files().into_iter().find(|f| f.starts_with("stream_bw-np_"));
    let file = file.unwrap_or_else(|| panic!("no stream_bw file\n{}", out.report()));
    file["stream_bw-np_".len()..file.len() - 4].parse().expect("thread count")
}
