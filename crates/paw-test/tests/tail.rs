//! PAW_TAIL: the latency tests and the blocking collectives add P50, P90, P99 and PMAX of
//! single-iteration times, and say how far the clock can be trusted for them.

use paw_test::binaries::bin;
use paw_test::{Dat, Launch};

const COUNT: usize = 200;

/// How far a size's P50 may lie from its MEDIAN, either way.
const RATIO: f64 = 100.0;

/// The tail columns of every row: ordered, in the same unit as the row's statistics, and
/// the header line naming the count and the clock's figures.
fn assert_tail(name: &str, dat: &Dat) {
    let line = dat.header_value("tail").unwrap_or_else(|| panic!("{name}: no tail line"));
    assert!(line.starts_with(&format!("PAW_TAIL={COUNT} single iterations")), "{name}: {line}");
    assert!(line.contains("clock read") && line.contains("smallest step"), "{name}: {line}");
    let [p50, p90, p99, max] = ["P50", "P90", "P99", "PMAX"].map(|c| dat.numbers(c));
    let median = dat.numbers("MEDIAN");
    for i in 0..median.len() {
        let row = [p50[i], p90[i], p99[i], max[i]];
        assert!(row[0] > 0.0, "{name}: {row:?}");
        assert!(row.windows(2).all(|w| w[0] <= w[1]), "{name}: P50 <= P90 <= P99 <= PMAX: {row:?}");
        // A unit slip (seconds for usec) would be a million times off; the halving of a
        // round trip is checked in paw-base's unit tests (a loaded machine's samples and
        // single iterations can differ tenfold at a size).
        let ratio = p50[i] / median[i];
        assert!(
            (1.0 / RATIO..RATIO).contains(&ratio),
            "{name} row {i}: P50 {} against MEDIAN {}",
            p50[i],
            median[i]
        );
    }
}

#[test]
fn latency_tests_and_blocking_collectives_add_percentiles() {
    let out = Launch::mpi(bin("latency"), 2).env("PAW_TAIL", COUNT).run();
    out.success();
    assert_tail("latency", &out.dat("latency.dat"));
    let csv = std::fs::read_to_string(out.dir.path().join("latency.csv")).unwrap();
    assert!(csv.lines().next().unwrap().ends_with(",p50_us,p90_us,p99_us,pmax_us"), "{csv}");

    let pairs = [("p2p_send", "send"), ("p2p_isend", "isend")].map(|(n, s)| (n.into(), s.into()));
    let cases: Vec<(String, String)> =
        pairs.into_iter().chain(paw_test::collective::blocking()).collect();
    for np in paw_test::task_counts(&[2, 4]) {
        for (name, stem) in &cases {
            let name = name.as_str();
            let out = Launch::mpi(bin(name), np).env("PAW_TAIL", COUNT).run();
            out.success();
            assert_tail(name, &out.dat(&format!("{stem}_time-np_{np:04}.dat")));
            let bw = out.dat(&format!("{stem}_bw-np_{np:04}.dat"));
            assert!(bw.find("P50").is_none() && bw.header_value("tail").is_none(), "{name}");
        }
    }
}

#[test]
fn tail_is_off_by_default_and_a_short_count_is_refused() {
    let out = Launch::mpi(bin("latency"), 2).run();
    out.success();
    let dat = out.dat("latency.dat");
    assert!(dat.find("P50").is_none() && dat.header_value("tail").is_none());
    for bad in ["50", "x", "2000000"] {
        let out = Launch::mpi(bin("col_ardc"), 2).env("PAW_TAIL", bad).run();
        out.failure("PAW_TAIL");
    }
}
