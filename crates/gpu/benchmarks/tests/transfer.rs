use paw_test::gpu::{assert_no_gpu, assert_transfer, gpus};
use paw_test::Launch;

/// Every binary of PAW Table 8.1: (binary, name, bytes moved per iteration per SIZE).
const BINS: [(&str, &str, f64); 6] = [
    (env!("CARGO_BIN_EXE_gpu_in_pinned"), "gpu_in_pinned", 1.0),
    (env!("CARGO_BIN_EXE_gpu_out_pinned"), "gpu_out_pinned", 1.0),
    (env!("CARGO_BIN_EXE_gpu_inout_pinned"), "gpu_inout_pinned", 2.0),
    (env!("CARGO_BIN_EXE_gpu_in_nopin"), "gpu_in_nopin", 1.0),
    (env!("CARGO_BIN_EXE_gpu_out_nopin"), "gpu_out_nopin", 1.0),
    (env!("CARGO_BIN_EXE_gpu_inout_nopin"), "gpu_inout_nopin", 2.0),
];

#[test]
fn every_transfer_sweeps_with_checked_data_or_exits_cleanly_without_gpu() {
    for (bin, name, factor) in BINS {
        let out = assert_transfer(bin, name, factor, false);
        if gpus() > 0 {
            let host = out.dat(&format!("{name}_bw.dat"));
            let pinned = name.ends_with("_pinned");
            let says_pinned = host.header.iter().any(|h| h.starts_with("host memory: pinned"));
            assert_eq!(says_pinned, pinned, "{name}: {:?}", host.header);
            let says_pages = host.header.iter().any(|h| h.ends_with("pages (GPU_HUGEPAGES)"));
            assert_eq!(says_pages, !pinned, "{name}: {:?}", host.header);
        }
    }
}

#[test]
fn pageable_memory_takes_huge_pages_when_asked() {
    // One size of 8 MiB, room for huge pages; the kernel's setting decides what it gives.
    let (bin, name) = (BINS[4].0, BINS[4].1);
    let launch = |huge: u32| {
        Launch::direct(bin)
            .env("GPU_HUGEPAGES", huge)
            .env("MIN_GPU_SIZE", "8M")
            .env("MED_GPU_SIZE", "8M")
            .env("MAX_GPU_SIZE", "8M")
            .run()
    };
    if gpus() == 0 {
        assert_no_gpu(&launch(1));
        return;
    }
    let mode =
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
    for huge in [0, 1] {
        let out = launch(huge);
        out.success();
        let dat = out.dat(&format!("{name}_bw.dat"));
        let line = dat.header.iter().find(|h| h.starts_with("host memory: pageable"));
        let line = line.unwrap_or_else(|| panic!("no host memory line\n{}", out.report()));
        let given = line.contains("MiB in transparent huge pages");
        if mode.contains("[madvise]") {
            assert_eq!(given, huge == 1, "{mode}: {line}");
        } else if mode.contains("[never]") {
            assert!(!given, "{mode}: {line}");
        }
    }
}

#[test]
fn help_works_without_a_gpu_and_bad_input_is_refused() {
    for (bin, name, _) in BINS {
        let out = Launch::direct(bin).arg("-h").run();
        out.success();
        assert!(out.stdout.contains(&format!("{name}_bw.dat")), "{}", out.report());
        let out = Launch::direct(bin).env("MIN_GPU_SIZE", 4096).env("MAX_GPU_SIZE", 128).run();
        out.failure("MIN_GPU_SIZE=4096 is larger than MAX_GPU_SIZE=128");
        let out = Launch::direct(bin).arg("--fast").run();
        out.failure("unknown argument");
    }
    if gpus() == 0 {
        assert_no_gpu(&Launch::direct(BINS[0].0).run());
    }
}
