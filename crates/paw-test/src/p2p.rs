//! Assertions shared by the tests of the point-to-point benchmarks.

use crate::launch::{Launch, Outcome};
use std::time::Duration;

/// Sizes the tiny defaults sweep: 1, 2, 4, ..., 4096 bytes.
pub fn tiny_p2p_sizes() -> Vec<f64> {
    (0..=12).map(|k| f64::from(1u32 << k)).collect()
}

/// Runs `bin` on `np` tasks with `PAW_CHECK=1` and checks `<stem>_time-np_NNNN.dat` and
/// `<stem>_<second>-np_NNNN.dat`: every size present, statistics sane, every size's data
/// check passed, and the second file's MAX equal to `second_of(size, time MIN in usec)`.
pub fn assert_sweep(
    bin: &str,
    np: usize,
    stem: &str,
    second: &str,
    second_of: impl Fn(f64, f64) -> f64,
) -> Outcome {
    let out = Launch::mpi(bin, np).env("PAW_CHECK", 1).run();
    out.success();
    let time = out.dat(&format!("{stem}_time-np_{np:04}.dat"));
    let other = out.dat(&format!("{stem}_{second}-np_{np:04}.dat"));
    for (name, dat) in [("time", &time), (second, &other)] {
        assert_eq!(dat.numbers("SIZE"), tiny_p2p_sizes(), "{name} sizes\n{}", out.report());
        dat.check_stats(3).unwrap_or_else(|e| panic!("{name}: {e}\n{}", out.report()));
        assert!(
            dat.cells("CHECK").iter().all(|c| c == "pass"),
            "{name}: data check {:?}\n{}",
            dat.cells("CHECK"),
            out.report()
        );
        assert_eq!(dat.header_value("tasks"), Some(np.to_string().as_str()));
    }
    assert!(time.header_value("y").unwrap().contains("[usec]"), "{}", out.report());
    let unit = other.header_value("y").unwrap();
    assert!(unit.contains("[MB/s (MB = 2^20 B)]") || unit.contains("[messages/s]"), "{unit}");
    for ((size, t), got) in
        time.numbers("SIZE").iter().zip(time.numbers("MIN")).zip(other.numbers("MAX"))
    {
        let expect = second_of(*size, t);
        assert!((got / expect - 1.0).abs() < 1e-4, "size {size}: {got} vs {expect}");
    }
    out
}

/// Checks that an odd task count is refused with one line, quickly, writing nothing.
pub fn assert_refuses_odd(bin: &str, name: &str) {
    let out = Launch::mpi(bin, 3).timeout(Duration::from_secs(20)).run();
    out.failure(&format!(
        "{name} needs an even number of MPI tasks (2, 4, 6 ...) but was started with 3"
    ));
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
    assert!(out.files().is_empty(), "{:?}", out.files());
}
