use paw_test::p2p::{assert_refuses_odd, assert_sweep};

const BIN: &str = env!("CARGO_BIN_EXE_p2p_send");

#[test]
fn sweeps_every_size_at_2_and_4_tasks_with_checked_data() {
    for np in [2, 4] {
        assert_sweep(BIN, np, "send", "bw", |size, t_us| size / (t_us * 1e-6) / 1_048_576.0);
    }
}

#[test]
fn odd_task_count_is_refused() {
    assert_refuses_odd(BIN, "p2p_send");
}

/// The closing line counts a size once although its time and bandwidth rows share samples.
#[test]
fn noisy_sizes_are_counted_once() {
    // A tolerance nothing meets: every size is NOISY.
    let out =
        paw_test::Launch::mpi(BIN, 2).env("MAX_P2P_SIZE", 4).env("PAW_TOLERANCE", "0.000001").run();
    out.success();
    let rows = out.dat("send_time-np_0002.dat").rows.len();
    assert_eq!(rows, 3, "{}", out.report());
    let line = out.stderr_lines("rows are NOISY");
    assert_eq!(line.len(), 1, "{}", out.report());
    assert!(line[0].contains(&format!(": {rows} of {rows} rows are NOISY")), "{}", out.report());
}

/// OSU's `-m 0:MAX`: a 0-byte row first, in the time file only (a bandwidth of nothing is
/// no figure), then 1, 2, 4 ... bytes; the data check passes on every row.
#[test]
fn a_zero_byte_row_leads_the_time_file() {
    let out = paw_test::Launch::mpi(BIN, 2)
        .unset("MIN_P2P_SIZE")
        .unset("MAX_P2P_SIZE")
        .unset("PAW_CHECK")
        .args(["-m", "0:8", "-c"])
        .run();
    out.success();
    let time = out.dat("send_time-np_0002.dat");
    assert_eq!(time.cells("SIZE"), ["0", "1", "2", "4", "8"], "{}", out.report());
    assert!(time.numbers("MEDIAN")[0] > 0.0, "{}", out.report());
    assert!(time.cells("CHECK").iter().all(|c| c == "pass"), "{}", out.report());
    let bw = out.dat("send_bw-np_0002.dat");
    assert_eq!(bw.cells("SIZE"), ["1", "2", "4", "8"], "{}", out.report());
    let csv = std::fs::read_to_string(out.dir.path().join("send_time-np_0002.csv")).unwrap();
    assert_eq!(csv.lines().nth(1).unwrap().split(',').next(), Some("0"), "{csv}");
}
