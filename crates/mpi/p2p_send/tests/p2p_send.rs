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
