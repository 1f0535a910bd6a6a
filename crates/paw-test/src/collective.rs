//! Assertions shared by the tests of the collective benchmarks.

use crate::launch::{Launch, Outcome};
use crate::p2p::tiny_p2p_sizes;

/// The timing line of the MPI-1 collectives' default loop (IMB's: calls back to back).
pub const BACK_TO_BACK: &str = "barrier, clock, NLOOP iterations, clock";
/// The timing line of PAW 1.6's per-call loop (the one-sided collectives).
pub const PER_CALL: &str = "barrier, clock, one call, clock";

/// Runs `bin` on `np` tasks and checks `<stem>_time-np_NNNN.dat` and `<stem>_bw-np_NNNN.dat`:
/// every size of the tiny sweep, sane statistics, TASK_MIN <= TASK_MAX, the header naming
/// the rank rule (`minimum` or `maximum`) and the loop (`timing`, e.g. [`PER_CALL`]), and
/// bandwidth = `factor` x SIZE / time.
pub fn assert_collective(
    bin: &str,
    np: usize,
    stem: &str,
    (rule, timing): (&str, &str),
    factor: f64,
) -> Outcome {
    let out = Launch::mpi(bin, np).run();
    out.success();
    let time = out.dat(&format!("{stem}_time-np_{np:04}.dat"));
    let bw = out.dat(&format!("{stem}_bw-np_{np:04}.dat"));
    for (name, dat) in [("time", &time), ("bw", &bw)] {
        assert_eq!(dat.numbers("SIZE"), tiny_p2p_sizes(), "{name}\n{}", out.report());
        dat.check_stats(3).unwrap_or_else(|e| panic!("{name}: {e}\n{}", out.report()));
        assert_eq!(dat.header_value("tasks"), Some(np.to_string().as_str()));
        let combined = dat.header_value("ranks combined").unwrap();
        assert!(combined.starts_with(rule), "{name}: {combined}");
    }
    let model = time.header_value("timing").unwrap();
    assert!(model.contains(timing), "timing: {model}, expected {timing}");
    for (lo, hi) in time.numbers("TASK_MIN").iter().zip(time.numbers("TASK_MAX")) {
        assert!(*lo > 0.0 && *lo <= hi * (1.0 + 1e-5), "TASK_MIN {lo} > TASK_MAX {hi}");
    }
    for ((size, t), got) in
        time.numbers("SIZE").iter().zip(time.numbers("MIN")).zip(bw.numbers("MAX"))
    {
        let expect = factor * size / (t * 1e-6) / 1_048_576.0;
        assert!((got / expect - 1.0).abs() < 1e-4, "size {size}: {got} vs {expect}");
    }
    out
}

/// The blocking collectives timed in IMB's loop, as `(binary, file stem)`: the Makefile's COL
/// binaries whose `-h` reports bandwidth as SIZE / time per call (not the neighbourhood
/// collectives' blocks). A new one is found here by what it says of itself.
pub fn blocking() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in crate::binaries::list("COL") {
        let help = crate::binaries::help(&name).text;
        let line = |key: &str| help.lines().find_map(|l| l.strip_prefix(key)).unwrap_or("");
        if !line("Reported: ").contains("; bandwidth, SIZE / time per call, MB/s") {
            continue;
        }
        let stem = line("Files: ").split("_time-np_").next().unwrap_or("");
        assert!(!stem.is_empty() && !stem.contains(' '), "{name}: no time file in {help}");
        out.push((name, stem.to_string()));
    }
    out
}
