use paw_test::collective::{assert_collective, PER_CALL};
use paw_test::Launch;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_col_acc_fence");

#[test]
fn every_size_at_2_3_and_4_tasks() {
    for np in [2, 3, 4] {
        // Bandwidth counts the bytes of all n-1 origins.
        assert_collective(BIN, np, "accfence", ("maximum", PER_CALL), (np - 1) as f64);
    }
}

#[test]
fn one_task_is_refused() {
    let out = Launch::mpi(BIN, 1).timeout(Duration::from_secs(20)).run();
    out.failure("col_acc_fence needs at least 2 MPI tasks but was started with 1");
    assert!(out.files().is_empty());
}
