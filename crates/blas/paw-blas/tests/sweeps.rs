//! The four swept BLAS calls from one table: every order, the files, the rate's formula.

use paw_test::Launch;

/// Flops of one call at order n.
type Flops = fn(f64) -> f64;

/// The swept calls: (binary, call name, flops).
const BINS: [(&str, &str, Flops); 4] = [
    (env!("CARGO_BIN_EXE_dgemm"), "dgemm", gemm_flops),
    (env!("CARGO_BIN_EXE_sgemm"), "sgemm", gemm_flops),
    (env!("CARGO_BIN_EXE_dgemv"), "dgemv", gemv_flops),
    (env!("CARGO_BIN_EXE_sgemv"), "sgemv", gemv_flops),
];

fn gemm_flops(n: f64) -> f64 {
    2.0 * n * n * (n + 1.0)
}

fn gemv_flops(n: f64) -> f64 {
    2.0 * n * (n + 1.0)
}

#[test]
fn sweeps_every_order_with_checked_results() {
    for (bin, call, flops_of) in BINS {
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
            let flops = flops_of(n);
            assert!((got / (flops / t / 1e9) - 1.0).abs() < 1e-4, "{call} order {n}");
        }
        // The smallest order runs NLOOP_MAX calls (20 in tests) or more; larger orders fewer.
        let nloop = time.numbers("NLOOP");
        assert!(nloop[0] >= 20.0 && nloop[4] <= nloop[0], "{call}: {nloop:?}");
    }
}

#[test]
fn thread_count_names_the_files_and_bad_sizes_are_refused() {
    for (bin, call, _) in BINS {
        let out = Launch::direct(bin).env("MAX_BLAS_SIZE", 16).env("OPENBLAS_NUM_THREADS", 1).run();
        out.success();
        let expect = [format!("{call}_flops-np_0001.dat"), format!("{call}_time-np_0001.dat")];
        assert_eq!(out.dat_files(), expect);
        let out = Launch::direct(bin).env("MIN_BLAS_SIZE", 64).env("MAX_BLAS_SIZE", 8).run();
        out.failure("MIN_BLAS_SIZE=64 is larger than MAX_BLAS_SIZE=8");
    }
}
