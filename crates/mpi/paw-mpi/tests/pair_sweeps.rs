//! The pair tests that differ only in their calls, from one table: every size at 2 and 4
//! tasks with checked data, bandwidth = SIZE / time per message, the maximum over tasks, and
//! an odd task count refused.

use paw_test::binaries::bin;
use paw_test::p2p::{assert_refuses_odd, assert_sweep};

/// (binary, file stem): the one-sided pair tests and p2p_isend_ping.
const PAIRS: [(&str, &str); 7] = [
    ("p2p_put", "put"),
    ("p2p_get", "get"),
    ("p2p_put_fence", "putfence"),
    ("p2p_get_fence", "getfence"),
    ("p2p_rput", "rput"),
    ("p2p_rget", "rget"),
    ("p2p_isend_ping", "isend_ping"),
];

#[test]
fn every_pair_test_sweeps_every_size_at_2_and_4_tasks_with_checked_data() {
    for (name, stem) in PAIRS {
        let path = bin(name);
        for np in [2, 4] {
            let bandwidth = |size: f64, t_us: f64| size / (t_us * 1e-6) / 1_048_576.0;
            let out = assert_sweep(path.to_str().unwrap(), np, stem, "bw", bandwidth);
            let time = out.dat(&format!("{stem}_time-np_{np:04}.dat"));
            let rule = time.header_value("ranks combined").unwrap();
            assert!(rule.starts_with("maximum"), "{name}: {rule}");
        }
    }
}

#[test]
fn every_pair_test_refuses_an_odd_task_count() {
    for (name, _) in PAIRS {
        assert_refuses_odd(bin(name).to_str().unwrap(), name);
    }
}
