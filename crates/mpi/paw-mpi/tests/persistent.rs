//! The persistent collectives: on an MPI-4 library, both calls timed at every size with the
//! data check passing, at 2 and 4 tasks; elsewhere one line naming the library.

use paw_test::{Launch, Outcome};
use std::time::Duration;

const CASES: [(&str, &str); 2] =
    [(env!("CARGO_BIN_EXE_col_pardc"), "pardc"), (env!("CARGO_BIN_EXE_col_pbct"), "pbct")];

/// Launches `bin` on `np` tasks with the data check. More tasks than cores under an MPI
/// that never yields the processor run a short sweep ([`paw_test::crowded`]).
fn run(bin: &str, np: usize) -> Outcome {
    let mut l = Launch::mpi(bin, np).env("PAW_CHECK", 1);
    if paw_test::crowded(np) {
        l = l.env("MAX_COL_SIZE", 64).timeout(Duration::from_secs(180));
    }
    l.run()
}

#[test]
fn persistent_and_plain_side_by_side_or_one_line_naming_the_library() {
    if !paw_test::has_mpi4() {
        for (bin, _) in CASES {
            let out = Launch::mpi(bin, 2).run();
            out.failure("this MPI library (Open MPI v4");
            assert_eq!(out.stderr_lines("MPI_Allreduce_init").len(), 1, "{}", out.report());
            assert!(out.files().is_empty(), "{}", out.report());
        }
        return;
    }
    for np in [2, 4] {
        for (bin, stem) in CASES {
            let out = run(bin, np);
            out.success();
            let dat = out.dat(&format!("{stem}_time-np_{np:04}.dat"));
            assert!(!dat.rows.is_empty(), "{}", out.report());
            dat.check_stats(3).unwrap_or_else(|e| panic!("{stem}: {e}\n{}", out.report()));
            assert!(dat.cells("CHECK").iter().all(|c| c == "pass"), "{}", out.report());
            let [plain, lo, hi] = ["PLAIN", "PLAIN_CI_LO", "PLAIN_CI_HI"].map(|c| dat.numbers(c));
            for i in 0..plain.len() {
                assert!(0.0 < lo[i] && lo[i] <= plain[i] && plain[i] <= hi[i], "{stem} row {i}");
            }
            assert!(dat.header_value("timed").unwrap().contains("MPI_Start then MPI_Wait"));
        }
    }
}
