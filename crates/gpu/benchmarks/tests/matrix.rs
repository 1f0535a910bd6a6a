use paw_test::gpu::{assert_no_gpu, assert_transfer, gpus};
use paw_test::Launch;

/// The twelve binaries of the transfer matrix: (binary, name, bytes per iteration per SIZE).
const BINS: [(&str, &str, f64); 12] = [
    (env!("CARGO_BIN_EXE_gpu_alloc_al_in"), "gpu_alloc_al_in", 1.0),
    (env!("CARGO_BIN_EXE_gpu_alloc_al_out"), "gpu_alloc_al_out", 1.0),
    (env!("CARGO_BIN_EXE_gpu_alloc_al_inout"), "gpu_alloc_al_inout", 2.0),
    (env!("CARGO_BIN_EXE_gpu_alloc_noal_in"), "gpu_alloc_noal_in", 1.0),
    (env!("CARGO_BIN_EXE_gpu_alloc_noal_out"), "gpu_alloc_noal_out", 1.0),
    (env!("CARGO_BIN_EXE_gpu_alloc_noal_inout"), "gpu_alloc_noal_inout", 2.0),
    (env!("CARGO_BIN_EXE_gpu_keep_al_in"), "gpu_keep_al_in", 1.0),
    (env!("CARGO_BIN_EXE_gpu_keep_al_out"), "gpu_keep_al_out", 1.0),
    (env!("CARGO_BIN_EXE_gpu_keep_al_inout"), "gpu_keep_al_inout", 2.0),
    (env!("CARGO_BIN_EXE_gpu_keep_noal_in"), "gpu_keep_noal_in", 1.0),
    (env!("CARGO_BIN_EXE_gpu_keep_noal_out"), "gpu_keep_noal_out", 1.0),
    (env!("CARGO_BIN_EXE_gpu_keep_noal_inout"), "gpu_keep_noal_inout", 2.0),
];

#[test]
fn every_cell_of_the_matrix_sweeps_with_checked_data_or_exits_cleanly_without_gpu() {
    for (bin, name, factor) in BINS {
        let out = assert_transfer(bin, name, factor, true);
        if gpus() == 0 {
            continue;
        }
        let bw = out.dat(&format!("{name}_bw.dat"));
        let has = |text: &str| bw.header.iter().any(|h| h.contains(text));
        assert_eq!(has("cuMemAlloc, cuMemcpy"), name.contains("_alloc_"), "{:?}", bw.header);
        assert_eq!(has("starting 8 bytes past a page"), name.contains("_noal_"), "{:?}", bw.header);
        if gpus() == 1 {
            assert!(out.stdout.contains("two-device run"), "{}", out.report());
        }
    }
}

#[test]
fn misalignment_is_a_knob_with_a_range() {
    let (bin, name, _) = BINS[3];
    let out = Launch::direct(bin).env("GPU_MISALIGN", 0).run();
    out.failure("GPU_MISALIGN");
    assert_eq!(out.code, Some(2));
    let out = Launch::direct(bin).env("GPU_MISALIGN", 4096).run();
    out.failure("GPU_MISALIGN");
    if gpus() == 0 {
        assert_no_gpu(&Launch::direct(bin).env("GPU_MISALIGN", 64).run());
    } else {
        let out = Launch::direct(bin).env("GPU_MISALIGN", 64).run();
        out.success();
        let bw = out.dat(&format!("{name}_bw.dat"));
        assert!(bw.header.iter().any(|h| h.contains("starting 64 bytes past a page")));
    }
}

#[test]
fn help_needs_no_gpu() {
    for (bin, name, _) in BINS {
        let out = Launch::direct(bin).arg("--help").run();
        out.success();
        assert!(out.stdout.contains(&format!("{name}_bw_dev0+1.dat")), "{}", out.report());
    }
}
