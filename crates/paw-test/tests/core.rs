//! paw-core's failure paths, exercised through the paw-fixture binary under mpirun.

use paw_test::Launch;
use std::time::Duration;

const FIXTURE: &str = env!("CARGO_BIN_EXE_paw-fixture");

#[test]
fn panic_on_one_rank_ends_the_whole_job() {
    for (np, victim) in [(2, 1), (3, 2), (2, 0)] {
        let out = Launch::mpi(FIXTURE, np)
            .env("PAW_FIXTURE", "panic")
            .env("PAW_FIXTURE_RANK", victim)
            .timeout(Duration::from_secs(30))
            .run();
        out.failure(&format!("deliberate panic on rank {victim}"));
        out.failure("calling MPI_Abort");
        eprintln!("measured: panic at np {np} ended the job in {:?} (allowed 10 s)", out.elapsed);
        assert!(out.elapsed < Duration::from_secs(10), "took {:?}\n{}", out.elapsed, out.report());
    }
}

#[test]
fn killed_sweep_keeps_every_finished_row() {
    // 1 ms per operation, sizes 1..2^20: 21 sizes, far more than the test waits for.
    let name = "fixture_time-np_0002.dat";
    let rows_in = |dir: &std::path::Path| {
        std::fs::read_to_string(dir.join(name))
            .map(|t| t.lines().filter(|l| !l.starts_with('#')).count())
            .unwrap_or(0)
    };
    let out = Launch::mpi(FIXTURE, 2)
        .env("PAW_FIXTURE", "sweep")
        .env("PAW_FIXTURE_SLEEP_US", 20_000)
        .env("MAX_P2P_SIZE", 1 << 20)
        .run_until(|dir| rows_in(dir) >= 3);
    assert!(out.killed && !out.timed_out, "{}", out.report());
    // The killed tasks' shared-memory segments (Open MPI's) do not outlive the job.
    let left: Vec<_> = out.shm_left.iter().filter(|p| p.exists()).collect();
    assert!(left.is_empty(), "{left:?} left in /dev/shm\n{}", out.report());
    eprintln!("measured: the killed job left {:?} in /dev/shm, removed", out.shm_left);
    let dat = out.dat(name);
    assert!(
        dat.rows.len() >= 3 && dat.rows.len() < 21,
        "{} rows\n{}",
        dat.rows.len(),
        out.report()
    );
    dat.check_stats(3).unwrap();
    let sizes = dat.numbers("SIZE");
    assert_eq!(sizes[..3], [1.0, 2.0, 4.0]);
    // Each sample sleeps 20 ms: the file must say so.
    assert!(dat.numbers("MIN").iter().all(|&t| t >= 20_000.0), "{:?}", dat.rows);
    // The CSV twin holds the same finished rows, and the run record is valid JSON.
    let csv = std::fs::read_to_string(out.dir.path().join("fixture_time-np_0002.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + dat.rows.len(), "{csv}");
    let record = std::fs::read_to_string(out.dir.path().join("paw-fixture-np_0002.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&record).unwrap();
    assert_eq!(value["status"], "running", "a killed run's record says it never finished");
    // Rows alone rewrite the record at most once a second: it may lag, never lead.
    let rows = value["files"][0]["rows"].as_u64().unwrap() as usize;
    assert!(rows <= dat.rows.len(), "{rows} vs {}", dat.rows.len());
}

#[test]
fn finished_sweep_writes_every_size() {
    let out = Launch::mpi(FIXTURE, 2)
        .env("PAW_FIXTURE", "sweep")
        .env("PAW_FIXTURE_SLEEP_US", 100)
        .env("MAX_P2P_SIZE", 100)
        .run();
    out.success();
    let dat = out.dat("fixture_time-np_0002.dat");
    assert_eq!(dat.numbers("SIZE"), [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 100.0]);
    dat.check_stats(3).unwrap();
    assert_eq!(dat.header_value("tasks"), Some("2"));
    assert!(dat.header_value("library").unwrap().starts_with("MPI: "));
    assert!(dat.header_value("timer").unwrap().contains("MPI_Wtime"));
    assert!(dat.header_value("settings").unwrap().contains("MAX_P2P_SIZE=100"));
    assert!(dat.header_value("y").unwrap().starts_with("sleep time [usec]"));
    // The summary table on stdout carries the same rows.
    assert_eq!(out.stdout.lines().filter(|l| l.trim_start().starts_with("64 ")).count(), 1);
}

#[test]
fn unwritable_output_dir_fails_on_every_rank_without_hanging() {
    let out = Launch::mpi(FIXTURE, 2)
        .env("PAW_FIXTURE", "sweep")
        .env("PAW_OUTPUT_DIR", "/dev/null/paw")
        .timeout(Duration::from_secs(30))
        .run();
    out.failure("PAW_OUTPUT_DIR=/dev/null/paw");
    assert_eq!(out.stderr_lines("error:").len(), 1, "one line, from rank 0\n{}", out.report());
    assert!(out.elapsed < Duration::from_secs(10), "{}", out.report());
}

#[test]
fn unknown_argument_and_help() {
    let out = Launch::mpi(FIXTURE, 2).env("PAW_FIXTURE", "sweep").arg("--bogus").run();
    out.failure("unknown argument \"--bogus\"");
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
    let out = Launch::direct(FIXTURE).arg("-h").run();
    out.success();
    assert!(out.stdout.contains("NLOOP_MAX") && out.stdout.contains("PAW_OUTPUT_DIR"));
}

#[test]
fn plot_script_renders_a_png() {
    if std::process::Command::new("gnuplot").arg("--version").output().is_err() {
        eprintln!("gnuplot not installed: scripts/install-deps installs it; skipping");
        return;
    }
    let out = Launch::mpi(FIXTURE, 2)
        .env("PAW_FIXTURE", "sweep")
        .env("PAW_FIXTURE_SLEEP_US", 10)
        .env("MAX_P2P_SIZE", 256)
        .run();
    out.success();
    let dat = out.dir.path().join("fixture_time-np_0002.dat");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/plot-dat");
    let plot = std::process::Command::new(script).arg(&dat).output().unwrap();
    let stderr = String::from_utf8_lossy(&plot.stderr);
    assert!(plot.status.success(), "{stderr}");
    assert!(stderr.trim().is_empty(), "gnuplot complained: {stderr}");
    let png = std::fs::read(out.dir.path().join("fixture_time-np_0002.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 5000, "{} bytes", png.len());
    let help = std::process::Command::new(script).arg("-h").output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(help.status.success() && text.starts_with("usage: scripts/plot-dat"), "{text}");
    assert!(!text.contains("set -eu"), "{text}");
    let none = std::process::Command::new(script).arg("/nonexistent.dat").output().unwrap();
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("cannot read /nonexistent.dat"));
}

#[test]
fn failed_data_check_is_recorded_and_fails_the_run() {
    let run = |bad: usize| {
        Launch::mpi(FIXTURE, 2)
            .env("PAW_FIXTURE", "sweep")
            .env("PAW_FIXTURE_SLEEP_US", 10)
            .env("MAX_P2P_SIZE", 4)
            .env("PAW_CHECK", 1)
            .env("PAW_FIXTURE_BAD", bad)
            .run()
    };
    let clean = run(0);
    clean.success();
    assert_eq!(clean.dat("fixture_time-np_0002.dat").cells("CHECK"), ["pass", "pass", "pass"]);

    // One wrong byte on rank 1 only: every row says fail, every row is still written, and
    // the run exits non-zero with one line from rank 0.
    let corrupt = run(1);
    corrupt.failure("data check failed for 3 size(s)");
    assert_eq!(corrupt.stderr_lines("error:").len(), 1, "{}", corrupt.report());
    let dat = corrupt.dat("fixture_time-np_0002.dat");
    assert_eq!(dat.cells("CHECK"), ["fail", "fail", "fail"]);
    dat.check_stats(3).unwrap();
}

#[test]
fn without_paw_check_there_is_no_check_column() {
    let out = Launch::mpi(FIXTURE, 2)
        .env("PAW_FIXTURE", "sweep")
        .env("PAW_FIXTURE_SLEEP_US", 10)
        .env("MAX_P2P_SIZE", 2)
        .env("PAW_FIXTURE_BAD", 5)
        .run();
    out.success();
    let dat = out.dat("fixture_time-np_0002.dat");
    assert!(!dat.columns.iter().any(|c| c == "CHECK"), "{:?}", dat.columns);
    let out = Launch::mpi(FIXTURE, 2).env("PAW_FIXTURE", "sweep").env("PAW_CHECK", 2).run();
    out.failure("PAW_CHECK=2 is out of range; accepted: a whole number from 0 to 1");
}

#[test]
fn hung_job_is_killed_at_the_timeout_without_survivors() {
    let out =
        Launch::mpi(FIXTURE, 3).env("PAW_FIXTURE", "hang").timeout(Duration::from_secs(3)).run();
    assert!(out.timed_out, "{}", out.report());
    assert!(out.elapsed < Duration::from_secs(15), "{}", out.report());
    // No process of the job may survive the harness.
    assert!(out.survivors.is_empty(), "{}", out.report());
    assert!(out.stderr.is_empty() || !out.stderr.contains("not closed in time"));
}
