use paw_test::Launch;
use std::time::Duration;

/// Bad input must be refused within seconds, not by the harness timeout.
const QUICK: Duration = Duration::from_secs(20);

const BIN: &str = env!("CARGO_BIN_EXE_p2p_multitask");

#[test]
fn even_task_counts_write_time_and_bandwidth() {
    for np in [2, 4] {
        let size = 65536;
        let out = Launch::mpi(BIN, np).env("MAX_P2P_SIZE", size).run();
        out.success();
        let time = out.dat(&format!("multitask_time-np_{np:04}.dat"));
        let bw = out.dat(&format!("multitask_bw-np_{np:04}.dat"));
        assert_eq!(time.numbers("SIZE"), [size as f64]);
        assert_eq!(bw.numbers("SIZE"), [size as f64]);
        time.check_stats(3).unwrap();
        bw.check_stats(3).unwrap();
        assert!(time.header_value("y").unwrap().starts_with("one-way time per message [usec]"));
        assert!(bw.header_value("y").unwrap().contains("[MB/s (MB = 2^20 B)]"));
        assert_eq!(time.header_value("tasks"), Some(np.to_string().as_str()));
        // Bandwidth is n/2 x size / time: the medians must agree (6 significant digits).
        let t = time.numbers("MEDIAN")[0] * 1e-6;
        let expect = (np / 2) as f64 * size as f64 / t / 1_048_576.0;
        let got = bw.numbers("MEDIAN")[0];
        assert!((got / expect - 1.0).abs() < 1e-4, "bw {got} vs {expect}\n{}", out.report());
    }
}

#[test]
fn data_check_passes_and_is_recorded() {
    let out = Launch::mpi(BIN, 4).env("MAX_P2P_SIZE", 10_000).env("PAW_CHECK", 1).run();
    out.success();
    for file in ["multitask_time-np_0004.dat", "multitask_bw-np_0004.dat"] {
        let dat = out.dat(file);
        assert_eq!(dat.cells("CHECK"), ["pass"], "{file}\n{}", out.report());
        assert!(dat.header_value("check").unwrap().starts_with("on (PAW_CHECK=1)"));
    }
}

#[test]
fn odd_task_count_is_refused() {
    let out = Launch::mpi(BIN, 3).timeout(QUICK).run();
    out.failure(
        "p2p_multitask needs an even number of MPI tasks (2, 4, 6 ...) but was started with 3",
    );
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
    assert!(out.files().is_empty());
    let out = Launch::mpi(BIN, 1).timeout(QUICK).run();
    out.failure("started with 1");
}

#[test]
fn bad_sizes_are_refused() {
    let out = Launch::mpi(BIN, 2).env("MAX_P2P_SIZE", -5).timeout(QUICK).run();
    out.failure("MAX_P2P_SIZE=\"-5\" is not a number; accepted: a whole number from 1 to");
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
    // One size, MAX_P2P_SIZE: MIN_P2P_SIZE is not read, and the user is told so.
    let out =
        Launch::mpi(BIN, 2).env("MIN_P2P_SIZE", 5000).env("MAX_P2P_SIZE", 100).timeout(QUICK).run();
    out.success();
    assert_eq!(out.stderr_lines("warning: MIN_P2P_SIZE is not read by p2p_multitask").len(), 1);
    assert_eq!(out.dat("multitask_time-np_0002.dat").numbers("SIZE"), [100.0]);
}
