//! The neighbourhood collectives on grids of 2, 3 and 4 tasks, wrapping and not: every
//! size's data check passes (each block from the right neighbour), statistics are sane,
//! and bandwidth counts the blocks a task receives.

use paw_test::collective::{assert_collective, BACK_TO_BACK};
use paw_test::Launch;

const CASES: [(&str, &str); 2] = [
    (env!("CARGO_BIN_EXE_col_nbr_agtr"), "nbr_agtr"),
    (env!("CARGO_BIN_EXE_col_nbr_a2a"), "nbr_a2a"),
];

#[test]
fn every_size_on_the_default_torus() {
    for np in paw_test::task_counts(&[2, 3, 4]) {
        for (bin, stem) in CASES {
            // Two dimensions: four blocks per task.
            let out = assert_collective(bin, np, stem, ("maximum", BACK_TO_BACK), 4.0);
            let time = out.dat(&format!("{stem}_time-np_{np:04}.dat"));
            let grid = time.header_value("grid").unwrap();
            let dims = if np == 4 { "2 x 2" } else { &format!("{np} x 1") };
            assert!(grid.starts_with(&format!("{dims} tasks per dimension")), "{grid}");
        }
    }
}

#[test]
fn the_data_check_passes_on_every_grid_shape() {
    for np in paw_test::task_counts(&[2, 4]) {
        for (bin, stem) in CASES {
            for (dims, periodic) in [("2", "1"), ("1", "0"), ("3", "1"), ("2", "0")] {
                let out = Launch::mpi(bin, np)
                    .env("PAW_CHECK", 1)
                    .env("NBR_DIMS", dims)
                    .env("NBR_PERIODIC", periodic)
                    .run();
                out.success();
                let time = out.dat(&format!("{stem}_time-np_{np:04}.dat"));
                let checks = time.cells("CHECK");
                assert!(
                    !checks.is_empty() && checks.iter().all(|c| c == "pass"),
                    "{stem} np {np} NBR_DIMS={dims} NBR_PERIODIC={periodic}\n{}",
                    out.report()
                );
                let grid = time.header_value("grid").unwrap();
                let wraps = if periodic == "1" { "every dimension wraps" } else { "no dimension" };
                assert!(grid.contains(wraps), "{grid}");
            }
        }
    }
}

#[test]
fn a_corrupted_block_fails_the_check() {
    let out = Launch::mpi(CASES[1].0, 2).env("PAW_CHECK", 1).env("PAW_TEST_CORRUPT", 1).run();
    out.failure("data check failed");
}
