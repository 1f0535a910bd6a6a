use paw_test::Launch;

const BIN: &str = env!("CARGO_BIN_EXE_dgemv");

#[test]
fn sweeps_every_order_with_checked_results() {
    let out = Launch::direct(BIN)
        .env("MIN_BLAS_SIZE", 8)
        .env("MED_BLAS_SIZE", 16)
        .env("MAX_BLAS_SIZE", 100)
        .env("OPENBLAS_NUM_THREADS", 2)
        .run();
    out.success();
    assert!(out.stdout.contains("result check: every checked entry"), "{}", out.report());
    let time = out.dat("dgemv_time-np_0002.dat");
    let rate = out.dat("dgemv_flops-np_0002.dat");
    let orders = [8.0, 16.0, 32.0, 64.0, 100.0];
    for dat in [&time, &rate] {
        assert_eq!(dat.numbers("SIZE"), orders, "{}", out.report());
        dat.check_stats(3).unwrap();
    }
    assert!(time.header_value("y").unwrap().starts_with("time per DGEMV call [s]"));
    assert!(rate.header_value("library").unwrap().contains("OpenBLAS"));
    // Rate = flops / time: the fastest sample gives the highest rate.
    for ((n, t), got) in
        time.numbers("SIZE").iter().zip(time.numbers("MIN")).zip(rate.numbers("MAX"))
    {
        let flops = 2.0 * n * (n + 1.0);
        assert!((got / (flops / t / 1e9) - 1.0).abs() < 1e-4, "order {n}");
    }
    // The smallest order runs NLOOP_MAX calls (20 in tests) or more; larger orders fewer.
    let nloop = time.numbers("NLOOP");
    assert!(nloop[0] >= 20.0 && nloop[4] <= nloop[0], "{nloop:?}");
}

#[test]
fn thread_count_names_the_files_and_bad_sizes_are_refused() {
    let out = Launch::direct(BIN).env("MAX_BLAS_SIZE", 16).env("OPENBLAS_NUM_THREADS", 1).run();
    out.success();
    assert_eq!(out.files(), ["dgemv_flops-np_0001.dat", "dgemv_time-np_0001.dat"]);
    let out = Launch::direct(BIN).env("MIN_BLAS_SIZE", 64).env("MAX_BLAS_SIZE", 8).run();
    out.failure("MIN_BLAS_SIZE=64 is larger than MAX_BLAS_SIZE=8");
}
