//! IMB-MT under mpirun: every benchmark's table with Intel's columns and lengths, the
//! bandwidth and message rate following from the times as Intel's do, threads under
//! -thread_level multiple, and -check that passes clean data and fails a corrupted byte.

use paw_test::imb::{parse, Block};
use paw_test::Launch;

const BIN: &str = env!("CARGO_BIN_EXE_IMB-MT");

fn block<'a>(blocks: &'a [Block], name: &str) -> &'a Block {
    blocks.iter().find(|b| b.name == name).unwrap_or_else(|| panic!("no {name} block"))
}

#[test]
fn every_benchmark_with_intels_columns_and_formulas() {
    let out = Launch::mpi(BIN, 2).args(["-count", "1,256", "-repeat", "200", "-check", "on"]).run();
    out.success();
    let blocks = parse(&out.stdout);
    let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "PingPongMT",
            "PingPingMT",
            "SendRecvMT",
            "ExchangeMT",
            "UniBandMT",
            "BiBandMT",
            "BarrierMT",
            "BcastMT",
            "ReduceMT",
            "AllReduceMT"
        ]
    );
    for b in &blocks {
        assert_eq!((b.processes, b.threads), (2, 1), "{}", b.name);
        assert!(b.col("#repetitions").iter().all(|&r| r == 200.0), "{}", b.name);
        if b.name != "BarrierMT" {
            assert_eq!(b.col("#bytes"), [4.0, 1024.0], "{}: count x sizeof(int)", b.name);
        }
        if b.columns.contains(&"t_min[usec]".to_string()) {
            let (lo, hi, avg) = (b.col("t_min[usec]"), b.col("t_max[usec]"), b.col("t_avg[usec]"));
            for i in 0..lo.len() {
                assert!(
                    lo[i] <= avg[i] + 0.01 && avg[i] <= hi[i] + 0.01,
                    "{}: {:?}",
                    b.name,
                    b.rows
                );
                assert!(lo[i] > 0.0, "{}: {:?}", b.name, b.rows);
            }
        }
    }
    // Mbytes/sec = #bytes x factor / t_max (10^6 bytes), to the table's rounding.
    for (name, factor) in [("PingPongMT", 1.0), ("SendRecvMT", 2.0), ("ExchangeMT", 4.0)] {
        let b = block(&blocks, name);
        for (i, x) in b.col("#bytes").iter().enumerate() {
            // t_max is printed to 0.01 usec: at 0.45 usec that alone is over 1 %.
            let (t, mb) = (b.col("t_max[usec]")[i], b.col("Mbytes/sec")[i]);
            let (lo, hi) = (x * factor / (t + 0.005), x * factor / (t - 0.005).max(1e-9));
            assert!(
                mb >= lo - 0.01 && mb <= hi + 0.01,
                "{name} row {i}: {mb} outside {lo:.3}..{hi:.3} (t_max {t})"
            );
        }
    }
    // Windows: one pair of threads, Msg/sec = 1 / t_avg.
    let uni = block(&blocks, "UniBandMT");
    assert_eq!(uni.columns, ["#bytes", "#repetitions", "t_avg[usec]", "Mbytes/sec", "Msg/sec"]);
    for (i, t) in uni.col("t_avg[usec]").iter().enumerate() {
        // t_avg is printed to 0.01 usec: at 0.04 usec (a Zen 5 VM) that alone is 12 %.
        let rate = uni.col("Msg/sec")[i];
        let (lo, hi) = (1e6 / (t + 0.005), 1e6 / (t - 0.005).max(1e-9));
        assert!(rate >= lo * 0.95 - 1.0 && rate <= hi * 1.05 + 1.0, "row {i}: {rate} vs 1/{t}");
    }
    assert!(!out.stdout.contains("CHECK FAILURES"), "{}", out.report());
}

#[test]
fn threads_each_run_the_benchmark_and_multiply_the_bytes() {
    let out = Launch::mpi(BIN, 2)
        .env("OMP_NUM_THREADS", 2)
        .env("OMPI_MCA_mpi_yield_when_idle", 1)
        .args(["-thread_level", "multiple", "-count", "4", "-repeat", "20", "-warmup", "2"])
        .args(["-check", "on", "PingPongMT", "AllReduceMT", "BarrierMT"])
        .run();
    out.success();
    let blocks = parse(&out.stdout);
    assert_eq!(blocks.len(), 3, "{}", out.report());
    for b in &blocks {
        assert_eq!((b.processes, b.threads), (2, 2), "{}", b.name);
    }
    assert_eq!(block(&blocks, "PingPongMT").col("#bytes"), [32.0], "4 ints x 2 threads");
    assert!(!out.stdout.contains("CHECK FAILURES"), "{}", out.report());
}

#[test]
fn a_corrupted_element_fails_the_check_and_the_run() {
    let out = Launch::mpi(BIN, 2)
        .env("PAW_TEST_CORRUPT", 1)
        .args(["PingPongMT", "AllReduceMT", "-count", "8", "-repeat", "10", "-check", "on"])
        .run();
    out.failure("-check found");
    assert_eq!(out.code, Some(1), "a failed check is status 1\n{}", out.report());
    assert!(
        out.stdout.contains("CHECK FAILURES: PingPongMT: 1 wrong elements"),
        "{}",
        out.report()
    );
    assert!(
        out.stdout.contains("CHECK FAILURES: AllReduceMT: 1 wrong elements"),
        "{}",
        out.report()
    );
    let bad = Launch::mpi(BIN, 2).args(["-datatype", "float"]).run();
    bad.failure("-datatype float: takes int or char");
    assert_eq!(bad.code, Some(2), "{}", bad.report());
}
