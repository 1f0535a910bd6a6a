//! Assertions shared by the tests of the GPU benchmarks. Whether a GPU is there is found
//! by the test itself ([`gpus`]), not read from the benchmark's output, so a binary that
//! wrongly reports no GPU on a GPU machine fails its tests.

use crate::launch::{Launch, Outcome};

/// GPUs the CUDA driver reports on this machine; 0 without a driver or a device.
pub fn gpus() -> usize {
    paw_gpu::devices().unwrap_or(0)
}

/// Transfer sizes the tiny defaults sweep: 128, 256, ..., 65536 bytes.
pub fn tiny_gpu_sizes() -> Vec<f64> {
    (7..=16).map(|k| f64::from(1u32 << k)).collect()
}

/// Checks the clean exit of a GPU binary on a machine without a GPU: status 2, one line
/// on standard error naming what is missing, no panic, no file written.
pub fn assert_no_gpu(out: &Outcome) {
    assert_eq!(out.code, Some(2), "expected exit status 2\n{}", out.report());
    let lines: Vec<&str> = out.stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "expected one line on standard error\n{}", out.report());
    assert!(
        lines[0].contains("no GPU") || lines[0].contains("no cuBLAS"),
        "the line does not say what is missing\n{}",
        out.report()
    );
    assert!(!out.stderr.contains("panicked"), "{}", out.report());
    assert!(out.files().is_empty(), "files written without a GPU\n{}", out.report());
}

/// Runs transfer binary `bin` (file stem `name`) with `PAW_CHECK=1` and checks its files:
/// without a GPU, the clean exit; with one, every size present, sane statistics, every
/// data check passed, bandwidth = `bytes_per_size` x SIZE / time, and for a two-device
/// binary on a machine with two GPUs the `_dev0+1` files likewise (twice the bytes).
pub fn assert_transfer(bin: &str, name: &str, bytes_per_size: f64, two_devices: bool) -> Outcome {
    let out = Launch::direct(bin).env("PAW_CHECK", 1).run();
    if gpus() == 0 {
        assert_no_gpu(&out);
        return out;
    }
    out.success();
    assert_transfer_files(&out, name, "", bytes_per_size);
    if two_devices && gpus() >= 2 {
        assert_transfer_files(&out, name, "_dev0+1", 2.0 * bytes_per_size);
    } else {
        assert!(
            !out.files().iter().any(|f| f.contains("dev0+1")),
            "two-device files with one device\n{}",
            out.report()
        );
    }
    out
}

fn assert_transfer_files(out: &Outcome, name: &str, suffix: &str, bytes_per_size: f64) {
    let time = out.dat(&format!("{name}_time{suffix}.dat"));
    let bw = out.dat(&format!("{name}_bw{suffix}.dat"));
    for (what, dat) in [("time", &time), ("bw", &bw)] {
        assert_eq!(dat.numbers("SIZE"), tiny_gpu_sizes(), "{what}{suffix}\n{}", out.report());
        dat.check_stats(3).unwrap_or_else(|e| panic!("{what}{suffix}: {e}\n{}", out.report()));
        assert!(dat.cells("CHECK").iter().all(|c| c == "pass"), "{what}{suffix}: data check");
        assert!(dat.header_value("library").is_some_and(|l| l.contains("GPU 0")));
    }
    assert!(time.header_value("y").unwrap().contains("[usec]"));
    assert!(bw.header_value("y").unwrap().contains("GB/s"));
    for ((size, t), got) in
        time.numbers("SIZE").iter().zip(time.numbers("MIN")).zip(bw.numbers("MAX"))
    {
        let expect = bytes_per_size * size / (t * 1e-6) / 1e9;
        assert!((got / expect - 1.0).abs() < 1e-4, "{name}{suffix} size {size}: {got} vs {expect}");
    }
}
