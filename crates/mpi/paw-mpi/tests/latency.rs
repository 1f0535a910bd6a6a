use paw_test::Launch;
use std::time::Duration;

/// Bad input must be refused within seconds, not by the harness timeout.
const QUICK: Duration = Duration::from_secs(20);

const BIN: &str = env!("CARGO_BIN_EXE_latency");

#[test]
fn two_tasks_write_latency_dat() {
    let out = Launch::mpi(BIN, 2).env("NLOOP_MAX", 200).env("NREPS", 5).run();
    out.success();
    let dat = out.dat("latency.dat");
    assert_eq!(dat.numbers("SIZE"), [1.0]);
    dat.check_stats(5).unwrap();
    assert!(dat.header_value("y").unwrap().starts_with("one-way latency [usec]"));
    assert_eq!(dat.header_value("tasks"), Some("2"));
    assert!(dat.header_value("ranks combined").unwrap().starts_with("minimum"));
    // On one machine a 1-byte one-way trip takes between 10 ns and 1 ms.
    let median = dat.numbers("MEDIAN")[0];
    eprintln!("measured: median {median} usec, NLOOP {}", dat.numbers("NLOOP")[0]);
    assert!((0.01..1000.0).contains(&median), "median {median} usec\n{}", out.report());
    // The first size runs NLOOP_MAX round trips unless the floor asks for more.
    assert!(dat.numbers("NLOOP")[0] >= 200.0);
    assert!(out.stdout.contains("one-way latency [usec]"), "{}", out.report());
}

#[test]
fn other_task_counts_are_refused() {
    for np in [1, 3] {
        let out = Launch::mpi(BIN, np).timeout(QUICK).run();
        out.failure(&format!("latency needs exactly 2 MPI tasks but was started with {np}"));
        assert_eq!(out.stderr_lines("error:").len(), 1, "one line\n{}", out.report());
        assert!(out.files().is_empty(), "{:?}", out.files());
        eprintln!("measured: refused at np {np} in {:?} (allowed 10 s)", out.elapsed);
        assert!(out.elapsed < Duration::from_secs(10), "{}", out.report());
    }
}

#[test]
fn bad_nloop_max_is_refused() {
    let out = Launch::mpi(BIN, 2).env("NLOOP_MAX", "abc").timeout(QUICK).run();
    out.failure("NLOOP_MAX=\"abc\" is not a number; accepted: a whole number from 1 to");
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
    let out = Launch::mpi(BIN, 2).env("NLOOP_MAX", 0).timeout(QUICK).run();
    out.failure("NLOOP_MAX=0 is out of range");
}

#[test]
fn unwritable_output_dir_is_refused() {
    let out = Launch::mpi(BIN, 2).env("PAW_OUTPUT_DIR", "/dev/null/results").timeout(QUICK).run();
    out.failure("cannot write latency.dat in PAW_OUTPUT_DIR=/dev/null/results");
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
}
