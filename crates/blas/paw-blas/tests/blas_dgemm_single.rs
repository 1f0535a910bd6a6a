use paw_test::Launch;
use std::time::Duration;

/// Bad input must be refused within seconds, not by the harness timeout.
const QUICK: Duration = Duration::from_secs(20);

const BIN: &str = env!("CARGO_BIN_EXE_blas_dgemm_single");

#[test]
fn writes_time_and_flops_for_max_blas_size() {
    let out = Launch::direct(BIN)
        .env("MAX_BLAS_SIZE", 96)
        .env("OPENBLAS_NUM_THREADS", 2)
        .env("NREPS", 4)
        .run();
    out.success();
    assert!(out.stdout.contains("result check: relative error"), "{}", out.report());
    let time = out.dat("dgemm_single_time-np_0002.dat");
    let flops = out.dat("dgemm_single_flops-np_0002.dat");
    assert_eq!(time.numbers("SIZE"), [96.0]);
    time.check_stats(4).unwrap();
    flops.check_stats(4).unwrap();
    assert!(time.header_value("y").unwrap().starts_with("time per DGEMM [s]"));
    assert!(flops.header_value("y").unwrap().starts_with("DGEMM rate [GFLOP/s"));
    assert!(time.header_value("library").unwrap().contains("OpenBLAS"));
    // GFLOP/s = 2 N^2 (N+1) / t / 1e9: the fastest call gives the highest rate.
    let t = time.numbers("MIN")[0];
    let expect = 2.0 * 96.0 * 96.0 * 97.0 / t / 1e9;
    let got = flops.numbers("MAX")[0];
    assert!((got / expect - 1.0).abs() < 1e-4, "{got} vs {expect}");
    // A 96x96 DGEMM takes microseconds: NLOOP must be well above 1 to clear the floor.
    assert!(time.numbers("NLOOP")[0] >= 1.0);
    assert!(time.numbers("MIN")[0] * time.numbers("NLOOP")[0] > 0.0);
}

#[test]
fn thread_count_names_the_files() {
    let out = Launch::direct(BIN).env("MAX_BLAS_SIZE", 32).env("OPENBLAS_NUM_THREADS", 1).run();
    out.success();
    assert_eq!(
        out.dat_files(),
        ["dgemm_single_flops-np_0001.dat", "dgemm_single_time-np_0001.dat"]
    );
}

#[test]
fn bad_size_is_refused() {
    let out = Launch::direct(BIN).env("MAX_BLAS_SIZE", "ten").timeout(QUICK).run();
    out.failure("MAX_BLAS_SIZE=\"ten\" is not a number");
    assert!(out.files().is_empty());
}
