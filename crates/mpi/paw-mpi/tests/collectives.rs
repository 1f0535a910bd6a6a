//! The collectives from tables: every blocking collective (found by its `-h`:
//! paw_test::collective::blocking) and every one-sided one at every size on 2, 3 and 4 tasks.

use paw_test::binaries::bin;
use paw_test::collective::{assert_collective, blocking, BACK_TO_BACK, PER_CALL};
use paw_test::Launch;
use std::time::Duration;

/// The one-sided collectives (PAW 1.6 section 7.2) and their file stems.
const ONE_SIDED: [(&str, &str); 3] =
    [("col_acc", "acc"), ("col_acc_fence", "accfence"), ("col_racc", "racc")];

#[test]
fn every_blocking_collective_at_every_size_on_2_3_and_4_tasks() {
    let all = blocking();
    let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
    for known in
        ["col_agtr", "col_ardc", "col_a2a", "col_bct", "col_gtr", "col_rdc", "col_rsb", "col_sct"]
    {
        assert!(names.contains(&known), "{known} not among {names:?}");
    }
    for (name, stem) in &all {
        for np in [2, 3, 4] {
            assert_collective(
                bin(name).to_str().unwrap(),
                np,
                stem,
                ("maximum", BACK_TO_BACK),
                1.0,
            );
        }
    }
}

#[test]
fn every_one_sided_collective_at_every_size_on_2_3_and_4_tasks() {
    for (name, stem) in ONE_SIDED {
        for np in [2, 3, 4] {
            // Bandwidth counts the bytes of all n-1 origins.
            let factor = (np - 1) as f64;
            assert_collective(bin(name).to_str().unwrap(), np, stem, ("maximum", PER_CALL), factor);
        }
    }
}

#[test]
fn one_sided_collectives_refuse_one_task() {
    for (name, _) in ONE_SIDED {
        let out = Launch::mpi(bin(name), 1).timeout(Duration::from_secs(20)).run();
        out.failure(&format!("{name} needs at least 2 MPI tasks but was started with 1"));
        assert!(out.files().is_empty());
    }
}
