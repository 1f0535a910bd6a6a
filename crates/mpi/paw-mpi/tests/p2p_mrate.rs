use paw_test::p2p::{assert_refuses_odd, assert_sweep};
use paw_test::Launch;

const BIN: &str = env!("CARGO_BIN_EXE_p2p_mrate");

#[test]
fn sweeps_every_size_at_2_and_4_tasks_with_checked_data() {
    for np in [2, 4] {
        let pairs = (np / 2) as f64;
        let out = assert_sweep(BIN, np, "mrate", "rate", |_, t_us| pairs / (t_us * 1e-6));
        let rate = out.dat(&format!("mrate_rate-np_{np:04}.dat"));
        let note = "WINDOW_SIZE = 128 messages in flight per pair, received into a buffer each";
        assert!(rate.header.iter().any(|h| h == note), "{:?}", rate.header);
    }
}

#[test]
fn window_size_is_read_and_checked() {
    let out = Launch::mpi(BIN, 2).env("WINDOW_SIZE", 4).env("MAX_P2P_SIZE", 16).run();
    out.success();
    let time = out.dat("mrate_time-np_0002.dat");
    assert!(time
        .header
        .iter()
        .any(|h| h.starts_with("WINDOW_SIZE = 4 messages in flight per pair")));
    let out = Launch::mpi(BIN, 2).env("WINDOW_SIZE", 0).run();
    out.failure("WINDOW_SIZE=0 is out of range; accepted: a whole number from 1 to 65536");
    let out = Launch::mpi(BIN, 2).env("WINDOW_SIZE", 65536).env("MAX_P2P_SIZE", 1 << 20).run();
    out.failure("WINDOW_SIZE x MAX_P2P_SIZE = 65536 x 1048576 = 68719476736 bytes");
}

#[test]
fn osu_window_one_receive_buffer_and_a_bandwidth_file() {
    // osu_bw's way: -W, -f taken, every receive of a window into one buffer, data checked.
    let out = Launch::mpi(BIN, 2)
        .unset("MIN_P2P_SIZE")
        .unset("MAX_P2P_SIZE")
        .unset("PAW_CHECK")
        .args(["-m", "1:64K", "-W", "8", "-f", "-c"])
        .env("RECV_BUFFERS", "one")
        .run();
    out.success();
    let rate = out.dat("mrate_rate-np_0002.dat");
    let note =
        "WINDOW_SIZE = 8 messages in flight per pair, received into one buffer (RECV_BUFFERS=one)";
    assert!(rate.header.iter().any(|h| h == note), "{:?}", rate.header);
    let bw = out.dat("mrate_bw-np_0002.dat");
    assert_eq!(bw.y_unit(), Some("MB/s (MB = 2^20 B)"));
    assert_eq!(bw.cells("SIZE"), rate.cells("SIZE"));
    for (row, size) in bw.cells("SIZE").iter().enumerate() {
        let (b, r) = (bw.numbers("MEDIAN")[row], rate.numbers("MEDIAN")[row]);
        let want = size.parse::<f64>().unwrap() * r / (1 << 20) as f64;
        assert!((b / want - 1.0).abs() < 1e-3, "{size}: {b} MB/s against {r} messages/s");
    }
    assert!(bw.cells("CHECK").iter().all(|c| c == "pass"), "{:?}", bw.cells("CHECK"));
    let out = Launch::mpi(BIN, 2).env("RECV_BUFFERS", "two").run();
    out.failure("RECV_BUFFERS=\"two\" is not a choice; accepted: each");
}

#[test]
fn odd_task_count_is_refused() {
    assert_refuses_odd(BIN, "p2p_mrate");
}
