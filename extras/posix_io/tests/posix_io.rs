use paw_test::Launch;

const BIN: &str = env!("CARGO_BIN_EXE_posix_io");

#[test]
fn every_task_writes_reads_checks_and_cleans_up() {
    for np in [1, 2, 4] {
        let size = 4 << 20;
        let out =
            Launch::mpi(BIN, np).env("IO_FILE_SIZE", size).env("IO_TRANSFER_SIZE", 1 << 16).run();
        out.success();
        for kind in ["write", "read"] {
            let dat = out.dat(&format!("posix_io_{kind}-np_{np:04}.dat"));
            assert_eq!(dat.numbers("SIZE"), [size as f64], "{}", out.report());
            dat.check_stats(3).unwrap();
            assert!(dat.header_value("y").unwrap().contains("[MB/s (MB = 2^20 B)]"));
            let (lo, hi) = (dat.numbers("TASK_MIN_BW")[0], dat.numbers("TASK_MAX_BW")[0]);
            assert!(0.0 < lo && lo <= hi * (1.0 + 1e-5), "{kind}: {lo} {hi}");
            // Aggregate of np tasks, each at most the fastest task's rate.
            assert!(dat.numbers("MEDIAN")[0] <= np as f64 * hi * (1.0 + 1e-5));
        }
        let left: Vec<String> =
            out.files().into_iter().filter(|f| f.starts_with("paw_io.")).collect();
        assert!(left.is_empty(), "files not removed: {left:?}");
    }
}

#[test]
fn an_unusable_io_directory_is_refused() {
    let out = Launch::mpi(BIN, 2)
        .env("IO_FILE_SIZE", 4096)
        .env("IO_TRANSFER_SIZE", 1024)
        .env("PAW_IO_DIR", "/dev/null/nowhere")
        .run();
    out.failure("PAW_IO_DIR=\"/dev/null/nowhere\": no such directory");
    assert_eq!(out.code, Some(2), "bad input\n{}", out.report());
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
}

#[test]
fn bad_sizes_are_refused() {
    let out = Launch::direct(BIN).env("IO_FILE_SIZE", 100).env("IO_TRANSFER_SIZE", 200).run();
    out.failure("IO_TRANSFER_SIZE=200 is larger than IO_FILE_SIZE=100");
}
