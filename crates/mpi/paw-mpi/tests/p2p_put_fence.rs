use paw_test::p2p::{assert_refuses_odd, assert_sweep};

const BIN: &str = env!("CARGO_BIN_EXE_p2p_put_fence");

#[test]
fn sweeps_every_size_at_2_and_4_tasks_with_checked_data() {
    for np in [2, 4] {
        let out = assert_sweep(BIN, np, "putfence", "bw", |size, t_us| {
            size / (t_us * 1e-6) / 1_048_576.0
        });
        let time = out.dat(&format!("putfence_time-np_{np:04}.dat"));
        assert!(time.header_value("ranks combined").unwrap().starts_with("maximum"));
    }
}

#[test]
fn odd_task_count_is_refused() {
    assert_refuses_odd(BIN, "p2p_put_fence");
}
