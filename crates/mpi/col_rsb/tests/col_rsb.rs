use paw_test::collective::{assert_collective, BACK_TO_BACK};

const BIN: &str = env!("CARGO_BIN_EXE_col_rsb");

#[test]
fn every_size_at_2_3_and_4_tasks() {
    for np in [2, 3, 4] {
        assert_collective(BIN, np, "rsb", ("maximum", BACK_TO_BACK), 1.0);
    }
}
