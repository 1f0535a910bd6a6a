use paw_test::Launch;
use std::time::Duration;

/// Bad input must be refused within seconds, not by the harness timeout.
const QUICK: Duration = Duration::from_secs(20);

const BIN: &str = env!("CARGO_BIN_EXE_stream");

#[test]
fn four_kernels_with_rates_and_check() {
    let out = Launch::direct(BIN)
        .env("STREAM_ARRAY_SIZE", 2_000_000)
        .env("OMP_NUM_THREADS", 2)
        .env("NREPS", 5)
        .run();
    out.success();
    let dat = out.dat("stream_bw-np_0002.dat");
    assert_eq!(dat.cells("SIZE"), ["Copy", "Scale", "Add", "Triad"]);
    dat.check_stats(5).unwrap();
    assert!(dat.header_value("y").unwrap().starts_with("memory bandwidth [MB/s (MB = 10^6 B"));
    // Any machine moves between 100 MB/s and 10 TB/s.
    for rate in dat.numbers("MEDIAN") {
        assert!((100.0..1e7).contains(&rate), "{rate} MB/s\n{}", out.report());
    }
    assert!(out.stdout.contains("Triad:"), "{}", out.report());
    assert!(out.stdout.contains("result check: every element"), "{}", out.report());
}

#[test]
fn small_arrays_are_flagged_and_threads_name_the_file() {
    let out = Launch::direct(BIN).env("STREAM_ARRAY_SIZE", 1000).env("OMP_NUM_THREADS", 1).run();
    out.success();
    assert_eq!(out.dat_files(), ["stream_bw-np_0001.dat"]);
    let dat = out.dat("stream_bw-np_0001.dat");
    if dat.header.iter().any(|h| h.starts_with("arrays:") && !h.contains("unknown")) {
        assert!(out.stderr.contains("smaller than 4x the last-level cache"), "{}", out.report());
    }
}

#[test]
fn bad_array_size_is_refused() {
    let out = Launch::direct(BIN).env("STREAM_ARRAY_SIZE", 0).timeout(QUICK).run();
    out.failure("STREAM_ARRAY_SIZE=0 is out of range");
}

/// The kernels run are named in the header: by default the widest set this CPU has;
/// STREAM_KERNEL=baseline forces the portable loops (what a CPU without AVX runs), with the
/// same check passing; an unknown set is refused.
#[test]
fn kernels_are_chosen_from_the_cpu_and_the_baseline_can_be_forced() {
    let kernels = |out: &paw_test::Outcome| {
        let dat = out.dat("stream_bw-np_0001.dat");
        let line = dat.header.iter().find(|h| h.contains("kernels: ")).cloned();
        line.unwrap_or_else(|| panic!("no kernels line\n{}", out.report()))
    };
    let run = |kernel: &str| {
        Launch::direct(BIN)
            .env("STREAM_ARRAY_SIZE", 100_000)
            .env("OMP_NUM_THREADS", 1)
            .env("NREPS", 3)
            .env("STREAM_KERNEL", kernel)
            .run()
    };
    #[cfg(target_arch = "x86_64")]
    let widest = if std::arch::is_x86_feature_detected!("avx512f") {
        "avx512"
    } else if std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("fma")
    {
        "avx2"
    } else {
        "baseline"
    };
    #[cfg(not(target_arch = "x86_64"))]
    let widest = "baseline";
    let out = run("auto");
    out.success();
    assert!(kernels(&out).contains(&format!("kernels: {widest} ")), "{}", out.report());
    let out = run("baseline");
    out.success();
    assert!(kernels(&out).contains("kernels: baseline "), "{}", out.report());
    assert!(out.stdout.contains("result check: every element"), "{}", out.report());
    let out = Launch::direct(BIN).env("STREAM_KERNEL", "sse9").timeout(QUICK).run();
    out.failure("STREAM_KERNEL=sse9: unknown; accepted here: auto,");
}
