use paw_test::Launch;

/// Both precisions: (binary, call name).
const BINS: [(&str, &str); 2] =
    [(env!("CARGO_BIN_EXE_dgemm"), "dgemm"), (env!("CARGO_BIN_EXE_sgemm"), "sgemm")];

#[test]
fn sweeps_every_order_with_checked_results() {
    for (bin, call) in BINS {
        let out = Launch::direct(bin)
            .env("MIN_BLAS_SIZE", 8)
            .env("MED_BLAS_SIZE", 16)
            .env("MAX_BLAS_SIZE", 100)
            .env("OPENBLAS_NUM_THREADS", 2)
            .run();
        out.success();
        assert!(out.stdout.contains("result check: every checked entry"), "{}", out.report());
        let time = out.dat(&format!("{call}_time-np_0002.dat"));
        let rate = out.dat(&format!("{call}_flops-np_0002.dat"));
        let orders = [8.0, 16.0, 32.0, 64.0, 100.0];
        for dat in [&time, &rate] {
            assert_eq!(dat.numbers("SIZE"), orders, "{}", out.report());
            dat.check_stats(3).unwrap();
        }
        let label = format!("time per {} call [s]", call.to_uppercase());
        assert!(time.header_value("y").unwrap().starts_with(&label));
        assert!(rate.header_value("library").unwrap().contains("OpenBLAS"));
        // Rate = flops / time: the fastest sample gives the highest rate.
        let pairs =
            time.numbers("SIZE").into_iter().zip(time.numbers("MIN")).zip(rate.numbers("MAX"));
        for ((n, t), got) in pairs {
            let flops = 2.0 * n * n * (n + 1.0);
            assert!((got / (flops / t / 1e9) - 1.0).abs() < 1e-4, "{call} order {n}");
        }
        // The smallest order runs NLOOP_MAX calls (20 in tests) or more; larger orders fewer.
        let nloop = time.numbers("NLOOP");
        assert!(nloop[0] >= 20.0 && nloop[4] <= nloop[0], "{call}: {nloop:?}");
    }
}

#[test]
fn thread_count_names_the_files_and_bad_sizes_are_refused() {
    for (bin, call) in BINS {
        let out = Launch::direct(bin).env("MAX_BLAS_SIZE", 16).env("OPENBLAS_NUM_THREADS", 1).run();
        out.success();
        let expect = [format!("{call}_flops-np_0001.dat"), format!("{call}_time-np_0001.dat")];
        assert_eq!(out.dat_files(), expect);
        let out = Launch::direct(bin).env("MIN_BLAS_SIZE", 64).env("MAX_BLAS_SIZE", 8).run();
        out.failure("MIN_BLAS_SIZE=64 is larger than MAX_BLAS_SIZE=8");
    }
}
