//! No collective reports a time below what the operation must physically take: with
//! default settings, every MPI-1 collective's median at 1 byte on two tasks is at least
//! the one-way latency of a 1-byte message between the same two tasks (less 10 % for the
//! noise of separate runs), because each of them needs at least one message to cross.

use paw_test::binaries::bin;
use paw_test::Launch;
use std::time::Duration;

const COLLECTIVES: [(&str, &str); 7] = [
    ("col_agtr", "agtr"),
    ("col_ardc", "ardc"),
    ("col_a2a", "a2a"),
    ("col_bct", "bct"),
    ("col_gtr", "gtr"),
    ("col_rdc", "rdc"),
    ("col_sct", "sct"),
];

/// The one-way 1-byte latency of a fresh run of `latency`, usec.
fn one_way() -> f64 {
    let out = Launch::mpi(bin("latency"), 2).timeout(Duration::from_secs(30)).run();
    out.success();
    out.dat("latency.dat").numbers("MEDIAN")[0]
}

#[test]
fn every_collective_at_one_byte_takes_at_least_a_one_way_message() {
    // The floor: the faster of two latency runs, one before and one after the collectives.
    let before = one_way();
    let mut medians = Vec::new();
    for (name, stem) in COLLECTIVES {
        let out = Launch::mpi(bin(name), 2)
            .env("MIN_COL_SIZE", 1)
            .env("MAX_COL_SIZE", 1)
            .timeout(Duration::from_secs(30))
            .run();
        out.success();
        let dat = out.dat(&format!("{stem}_time-np_0002.dat"));
        let rule = dat.header_value("ranks combined").unwrap_or_default().to_string();
        assert!(rule.starts_with("maximum over tasks"), "{name}: {rule}\n{}", out.report());
        medians.push((name, dat.numbers("MEDIAN")[0], dat.numbers("TASK_MIN")[0]));
    }
    let floor = before.min(one_way());
    for (name, median, fastest) in medians {
        eprintln!(
            "{name}: median {median:.3} usec (fastest task {fastest:.3}), one-way {floor:.3}"
        );
        assert!(
            median >= 0.9 * floor,
            "{name}: {median:.3} usec at 1 byte, below the one-way latency {floor:.3} usec"
        );
    }
}
