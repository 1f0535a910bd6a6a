use paw_test::p2p::{assert_refuses_odd, assert_sweep};
use paw_test::Launch;

const BIN: &str = env!("CARGO_BIN_EXE_p2p_mrate");

#[test]
fn sweeps_every_size_at_2_and_4_tasks_with_checked_data() {
    for np in [2, 4] {
        let pairs = (np / 2) as f64;
        let out = assert_sweep(BIN, np, "mrate", "rate", |_, t_us| pairs / (t_us * 1e-6));
        let rate = out.dat(&format!("mrate_rate-np_{np:04}.dat"));
        assert!(rate.header.iter().any(|h| h == "WINDOW_SIZE = 128 messages in flight per pair"));
    }
}

#[test]
fn window_size_is_read_and_checked() {
    let out = Launch::mpi(BIN, 2).env("WINDOW_SIZE", 4).env("MAX_P2P_SIZE", 16).run();
    out.success();
    let time = out.dat("mrate_time-np_0002.dat");
    assert!(time.header.iter().any(|h| h == "WINDOW_SIZE = 4 messages in flight per pair"));
    let out = Launch::mpi(BIN, 2).env("WINDOW_SIZE", 0).run();
    out.failure("WINDOW_SIZE=0 is out of range; accepted: a whole number from 1 to 65536");
    let out = Launch::mpi(BIN, 2).env("WINDOW_SIZE", 65536).env("MAX_P2P_SIZE", 1 << 20).run();
    out.failure("WINDOW_SIZE x MAX_P2P_SIZE = 65536 x 1048576 = 68719476736 bytes");
}

#[test]
fn odd_task_count_is_refused() {
    assert_refuses_odd(BIN, "p2p_mrate");
}
