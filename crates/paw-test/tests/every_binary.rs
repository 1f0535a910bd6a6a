//! Tests that walk every benchmark binary of the Makefile: what `-h` says each binary reads
//! is what its output headers record; no header claims a check that did not run; every
//! `.dat` file has a CSV twin with the same rows and the run a valid JSON record.

use paw_test::binaries::{self, Start};
use paw_test::{Dat, Launch, Outcome, SMALL};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::Path;

/// The run record's fields a reader relies on (serde fails on a missing one).
#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Record {
    paw_version: String,
    git_revision: Option<String>,
    binary: String,
    arguments: Vec<String>,
    date: String,
    status: String,
    exit_code: Option<u8>,
    tasks: usize,
    hosts: Vec<HostTasks>,
    placement: Vec<String>,
    mpi_library: Option<String>,
    libraries: Vec<String>,
    settings: Vec<Setting>,
    environment: Vec<String>,
    mca_files: Vec<String>,
    timer: Timer,
    files: Vec<FileRecord>,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct HostTasks {
    host: String,
    tasks: usize,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Setting {
    name: String,
    value: String,
    set: bool,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Timer {
    clock: String,
    overhead_usec: f64,
    step_usec: f64,
    tick_s: f64,
}

#[derive(Debug, Deserialize)]
struct FileRecord {
    name: String,
    csv: String,
    rows: usize,
    #[serde(default)]
    headlines: Vec<Headline>,
}

/// A figure the binary declares its users quote from a file (paw-report reads them).
#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Headline {
    figure: String,
    row: serde_json::Value,
    column: String,
}

/// Runs `name` as its `-h` says it must be started, with tiny sizes and `extra` settings.
fn launch(name: &str, extra: &[(&str, String)]) -> (binaries::Help, Outcome) {
    let help = binaries::help(name);
    let mut l = match help.start {
        Start::Mpi(np) => Launch::mpi(binaries::bin(name), np),
        Start::Direct => Launch::direct(binaries::bin(name)),
    };
    for (k, v) in SMALL {
        if help.vars.iter().any(|h| h == k) {
            l = l.env(k, v);
        }
    }
    for (k, v) in extra {
        l = l.env(k, v);
    }
    (help, l.run())
}

/// The names a header's `settings:` and `defaults:` lines list.
fn recorded(dat: &Dat) -> BTreeSet<String> {
    ["settings", "defaults"]
        .iter()
        .filter_map(|k| dat.header_value(k))
        .flat_map(|v| {
            v.split_whitespace()
                .filter_map(|w| w.split_once('=').map(|(n, _)| n.to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The binaries that run on this machine (the GPU ones need a GPU, the MPI4 ones an MPI-4
/// library).
fn runnable() -> Vec<String> {
    let gpus = paw_test::gpu::gpus();
    binaries::makefile_lists()
        .into_iter()
        .filter(|(list, _)| list != "SUITE" && list != "TOOL" && (list != "GPU" || gpus > 0))
        .filter(|(list, _)| list != "MPI4" || paw_test::has_mpi4())
        .flat_map(|(_, names)| names)
        .collect()
}

/// Checks the CSV twin of `dat_file` holds the same rows and values.
fn assert_csv_twin(dir: &Path, dat_file: &str, dat: &Dat) {
    let csv_file = dat_file.replace(".dat", ".csv");
    let mut reader =
        csv::Reader::from_path(dir.join(&csv_file)).unwrap_or_else(|e| panic!("{csv_file}: {e}"));
    let header = reader.headers().unwrap().clone();
    let extra = usize::from(header.iter().next_back() == Some("run"));
    assert_eq!(
        header.len(),
        dat.columns.len() + extra,
        "{csv_file}: {header:?} vs {:?}",
        dat.columns
    );
    assert!(
        header.iter().zip(&dat.columns).all(|(c, d)| c.starts_with(&d.to_lowercase())),
        "{header:?}"
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), dat.rows.len(), "{csv_file}: rows");
    for (csv_row, dat_row) in rows.iter().zip(&dat.rows) {
        let cells: Vec<&str> = csv_row.iter().take(dat.columns.len()).collect();
        assert_eq!(cells, dat_row.iter().map(String::as_str).collect::<Vec<_>>(), "{csv_file}");
    }
}

#[test]
fn headers_record_what_help_lists_and_csv_and_json_agree_with_the_dat_files() {
    let mut checked = 0;
    for name in runnable() {
        let checks_data = binaries::help(&name).checks_data;
        let check = if checks_data { vec![("PAW_CHECK", "1".to_string())] } else { vec![] };
        let (help, out) = launch(&name, &check);
        out.success();
        let dats = out.dat_files();
        assert!(!dats.is_empty(), "{name} wrote no .dat\n{}", out.report());
        let listed: BTreeSet<String> = help.vars.iter().cloned().collect();
        for file in &dats {
            let dat = out.dat(file);
            assert_csv_twin(out.dir.path(), file, &dat);
            if dat.header_value("settings").is_none() {
                continue; // a gathered table: its header holds only what every run shares
            }
            assert_eq!(recorded(&dat), listed, "{name}: {file}: header vs -h\n{}", help.text);
            // The reported rank rule is the one the measurement used (one Spec field).
            if let Some(rule) = dat.header_value("ranks combined").filter(|r| r.contains("over")) {
                let reported = dat.header_value("reported").unwrap_or("");
                assert!(reported.contains(rule), "{name}: {file}: {rule:?} not in {reported:?}");
            }
            let claim = dat.header_value("check").unwrap_or("");
            if help.checks_data {
                assert!(claim.starts_with("on (PAW_CHECK=1)"), "{name}: {claim}");
                if dat.columns.iter().any(|c| c == "CHECK") {
                    assert!(dat.cells("CHECK").iter().all(|c| c == "pass"), "{name}: {file}");
                }
            } else {
                assert!(!claim.starts_with("on"), "{name} claims a check it has not: {claim}");
                assert!(!dat.columns.iter().any(|c| c == "CHECK"), "{name}: {file}");
            }
        }
        // The run record; other JSON is a binary's own result (p2p_matrix's verdict).
        let record_of = |f: &String| f.starts_with(&format!("{name}-np_")) && f.ends_with(".json");
        let records: Vec<String> = out.files().into_iter().filter(record_of).collect();
        assert_eq!(records.len(), 1, "{name}: one run record: {:?}", out.files());
        let text = std::fs::read_to_string(out.dir.path().join(&records[0])).unwrap();
        let record: Record =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(
            (record.binary.as_str(), record.status.as_str(), record.exit_code),
            (name.as_str(), "ok", Some(0))
        );
        assert!(
            !record.placement.is_empty() && !record.hosts.is_empty() && !record.date.is_empty()
        );
        let names: BTreeSet<&str> = record.settings.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, listed.iter().map(String::as_str).collect(), "{name}: record settings");
        for file in &dats {
            let entry = record
                .files
                .iter()
                .find(|f| &f.name == file)
                .unwrap_or_else(|| panic!("{name}: {file} not in the record"));
            assert_eq!(entry.csv, file.replace(".dat", ".csv"));
            let rows = out.dat(file).rows.len();
            assert_eq!(entry.rows, rows, "{name}: {file} rows in the record");
            // A bandwidth's or a rate's file has its headline, each in a column of the file.
            let quoted = file.contains("_bw") || file.contains("_rate") || file.contains("_flops");
            assert!(!quoted || !entry.headlines.is_empty(), "{name}: {file} has no headline");
            let dat = out.dat(file);
            for h in &entry.headlines {
                let cells = h.row == "cells";
                assert!(cells || dat.find(&h.column).is_some(), "{name}: {file}: {h:?}");
            }
        }
        let headlines = record.files.iter().flat_map(|f| &f.headlines).count();
        assert!(headlines > 0, "{name}: no file with a headline: {:?}", record.files);
        checked += 1;
    }
    eprintln!("{checked} binaries: -h, headers, CSV twins and run records agree");
    assert!(checked >= 30, "only {checked} binaries were run");
}

#[test]
fn a_corrupted_result_fails_the_check_of_every_checking_mpi_binary() {
    let mut checked = 0;
    for name in runnable() {
        let help = binaries::help(&name);
        if !help.checks_data || help.start == Start::Direct {
            continue;
        }
        // A rank that checks what it holds: the target of puts and one-way messages, else
        // task 0 (roots, targets of accumulates, origins of gets, ping-pong ends).
        let checker = ["put", "ping", "mrate"].iter().any(|k| name.contains(k)) as u8;
        let (_, out) =
            launch(&name, &[("PAW_CHECK", "1".into()), ("PAW_TEST_CORRUPT", checker.to_string())]);
        out.failure("data check failed");
        assert_eq!(out.stderr_lines("error:").len(), 1, "{name}\n{}", out.report());
        for file in out.dat_files() {
            let dat = out.dat(&file);
            assert!(
                dat.cells("CHECK").iter().all(|c| c == "fail"),
                "{name}: {file}\n{}",
                out.report()
            );
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} binaries checked");
}
