use paw_test::gpu::{assert_no_gpu, gpus};
use paw_test::Launch;

/// Both precisions: (binary, name).
const BINS: [(&str, &str); 2] = [
    (env!("CARGO_BIN_EXE_gpu_dgemm"), "gpu_dgemm"),
    (env!("CARGO_BIN_EXE_gpu_sgemm"), "gpu_sgemm"),
];

#[test]
fn sweeps_every_order_with_checked_results_or_exits_cleanly_without_gpu() {
    for (bin, name) in BINS {
        let out = Launch::direct(bin).run();
        if gpus() == 0 || paw_gpu::require_cublas().is_err() {
            assert_no_gpu(&out);
            continue;
        }
        out.success();
        assert!(out.stdout.contains("result check: every checked entry"), "{}", out.report());
        let time = out.dat(&format!("{name}_time.dat"));
        let rate = out.dat(&format!("{name}_flops.dat"));
        for dat in [&time, &rate] {
            assert_eq!(dat.numbers("SIZE"), [8.0, 16.0, 32.0, 64.0], "{}", out.report());
            dat.check_stats(3).unwrap();
            assert!(dat.header_value("library").is_some_and(|l| l.contains("GPU 0")));
        }
        let pairs =
            time.numbers("SIZE").into_iter().zip(time.numbers("MIN")).zip(rate.numbers("MAX"));
        for ((n, t), got) in pairs {
            let flops = 2.0 * n * n * (n + 1.0);
            assert!((got / (flops / t / 1e9) - 1.0).abs() < 1e-4, "{name} order {n}");
        }
    }
}

#[test]
fn bad_sizes_are_refused_before_looking_for_a_gpu() {
    for (bin, _) in BINS {
        let out =
            Launch::direct(bin).env("MIN_GPU_BLAS_SIZE", 64).env("MAX_GPU_BLAS_SIZE", 8).run();
        out.failure("MIN_GPU_BLAS_SIZE=64 is larger than MAX_GPU_BLAS_SIZE=8");
        assert_eq!(out.code, Some(2));
        let out = Launch::direct(bin).env("MAX_GPU_BLAS_SIZE", "lots").run();
        out.failure("MAX_GPU_BLAS_SIZE");
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.report());
    }
}
