//! The non-blocking collectives at 2 and 4 tasks: columns, statistics, the data check, and
//! an overlap within 0..100 equal to OSU's formula over the row's own columns.

use paw_test::{Dat, Launch};

const CASES: [(&str, &str); 5] = [
    (env!("CARGO_BIN_EXE_col_iardc"), "iardc"),
    (env!("CARGO_BIN_EXE_col_ia2a"), "ia2a"),
    (env!("CARGO_BIN_EXE_col_ibct"), "ibct"),
    (env!("CARGO_BIN_EXE_col_iagtr"), "iagtr"),
    (env!("CARGO_BIN_EXE_col_ibarrier"), "ibarrier"),
];

fn assert_overlap(stem: &str, dat: &Dat) {
    let [pure, overall, compute, overlap] =
        ["MEDIAN", "OVERALL", "COMPUTE", "OVERLAP"].map(|c| dat.numbers(c));
    for i in 0..pure.len() {
        assert!(overall[i] > 0.0 && compute[i] > 0.0, "{stem} row {i}");
        assert!((0.0..=100.0).contains(&overlap[i]), "{stem} row {i}: {}", overlap[i]);
        let expect = (100.0 - 100.0 * (overall[i] - compute[i]) / pure[i]).clamp(0.0, 100.0);
        // Six printed digits of three times: the recomputed figure moves by well under 0.1.
        assert!((overlap[i] - expect).abs() < 0.1, "{stem} row {i}: {} vs {expect}", overlap[i]);
    }
}

#[test]
fn every_size_has_pure_overall_compute_and_overlap() {
    for np in paw_test::task_counts(&[2, 4]) {
        for (bin, stem) in CASES {
            let check = if stem == "ibarrier" { 0 } else { 1 };
            let out = Launch::mpi(bin, np).env("PAW_CHECK", check).run();
            out.success();
            let dat = out.dat(&format!("{stem}_time-np_{np:04}.dat"));
            let sizes = dat.numbers("SIZE");
            if stem == "ibarrier" {
                assert_eq!(sizes, [0.0], "{}", out.report());
            } else {
                assert_eq!(sizes, paw_test::p2p::tiny_p2p_sizes(), "{}", out.report());
                assert!(dat.cells("CHECK").iter().all(|c| c == "pass"), "{}", out.report());
            }
            dat.check_stats(3).unwrap_or_else(|e| panic!("{stem}: {e}\n{}", out.report()));
            assert_eq!(dat.header_value("tasks"), Some(np.to_string().as_str()));
            let combined = dat.header_value("ranks combined").unwrap();
            assert!(combined.starts_with("mean over tasks"), "{combined}");
            assert!(dat.header_value("timing").unwrap().contains("one call, clock"));
            assert!(dat.header_value("computation").unwrap().contains("Mflop/s"));
            assert_overlap(stem, &dat);
        }
    }
}

#[test]
fn no_computation_is_said_not_counted() {
    for (bin, stem) in [CASES[0], CASES[4]] {
        let out = Launch::mpi(bin, 2).env("NBC_COMPUTE", 0).run();
        out.success();
        let dat = out.dat(&format!("{stem}_time-np_0002.dat"));
        for c in ["OVERALL", "COMPUTE", "OVERLAP"] {
            assert!(dat.find(c).is_none(), "{stem}: {c} without a computation");
        }
        let said = "not measured, no computation configured (NBC_COMPUTE=0)";
        assert_eq!(dat.header_value("overlap"), Some(said));
        assert!(out.stdout.contains(said), "{}", out.report());
        dat.check_stats(3).unwrap();
    }
    let out = Launch::mpi(CASES[0].0, 2).env("NBC_COMPUTE", 1001).run();
    out.failure("NBC_COMPUTE");
}
