use paw_test::p2p::{assert_refuses_odd, assert_sweep};

const BIN: &str = env!("CARGO_BIN_EXE_p2p_mrate_bidir");

#[test]
fn sweeps_every_size_at_2_and_4_tasks_with_checked_data() {
    for np in [2, 4] {
        let pairs = (np / 2) as f64;
        assert_sweep(BIN, np, "mrate_bidir", "rate", |_, t_us| pairs / (t_us * 1e-6));
    }
}

#[test]
fn odd_task_count_is_refused() {
    assert_refuses_odd(BIN, "p2p_mrate_bidir");
}
