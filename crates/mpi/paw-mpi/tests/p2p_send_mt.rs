//! p2p_send_mt at 2 and 4 tasks, threads kept apart by tags and by communicators: every
//! thread's data check passes, the thread level granted is recorded, and the rate is the
//! threads over the one-way time.

use paw_test::{Launch, Outcome};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_p2p_send_mt");

/// Runs with `threads` threads per task, two iterations per sample (an iteration already
/// holds many rounds). Two tasks of two polling threads each outnumber this machine's
/// cores: Open MPI is told to yield while it waits (above two tasks the harness
/// oversubscribes, which does the same).
fn run(np: usize, threads: usize, isolation: &str) -> Outcome {
    let mut l = Launch::mpi(BIN, np)
        .env("PAW_CHECK", 1)
        .env("MT_THREADS", threads)
        .env("MT_ISOLATION", isolation)
        .env("MAX_P2P_SIZE", 4)
        .env("NLOOP", 2)
        .timeout(Duration::from_secs(120));
    if paw_test::is_open_mpi() && np == 2 {
        l = l.launcher_args(["--mca", "mpi_yield_when_idle", "1"]);
    }
    l.run()
}

#[test]
fn every_thread_pings_its_partner_thread() {
    for np in paw_test::task_counts(&[2, 4]) {
        for isolation in ["tags", "comms"] {
            let out = run(np, 2, isolation);
            out.success();
            let time = out.dat(&format!("send_mt_time-np_{np:04}.dat"));
            let rate = out.dat(&format!("send_mt_rate-np_{np:04}.dat"));
            time.check_stats(3).unwrap_or_else(|e| panic!("{e}\n{}", out.report()));
            assert_eq!(time.numbers("SIZE").len(), 3, "1 to 4 bytes\n{}", out.report());
            assert!(time.cells("CHECK").iter().all(|c| c == "pass"), "{}", out.report());
            assert!(time.numbers("ROUNDS").iter().all(|&r| r >= 1.0));
            assert!(time.header_value("cores").is_some(), "{}", out.report());
            let level = time.header_value("library").unwrap_or_default();
            assert!(
                time.header
                    .iter()
                    .any(|h| h.contains("thread level: requested Multiple, granted Multiple")),
                "{level}"
            );
            let threads = time.header_value("threads").unwrap();
            assert!(
                threads.starts_with(&format!(
                    "MT_THREADS=2 per task, messages kept apart by MT_ISOLATION={isolation}"
                )),
                "{threads}"
            );
            for (t, r) in time.numbers("MIN").iter().zip(rate.numbers("MAX")) {
                let expect = 2.0 / (t * 1e-6);
                assert!((r / expect - 1.0).abs() < 1e-4, "rate {r} vs {expect}");
            }
        }
    }
}

#[test]
fn one_thread_is_a_plain_ping_pong_and_bad_settings_are_refused() {
    let out = run(2, 1, "tags");
    out.success();
    let time = out.dat("send_mt_time-np_0002.dat");
    assert!(time.header_value("threads").unwrap().starts_with("MT_THREADS=1 per task"));
    for (k, v) in [("MT_ISOLATION", "threads"), ("MT_THREADS", "0"), ("MT_THREADS", "65")] {
        let out = Launch::mpi(BIN, 2).env(k, v).run();
        out.failure(k);
    }
}
