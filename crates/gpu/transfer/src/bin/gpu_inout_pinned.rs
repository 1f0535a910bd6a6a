//! gpu_inout_pinned -- GPU transfer CPU to GPU and back, pinned host memory, device memory kept (PAW 1.6 §8.2).
//! The sweep is paw_gpu::transfer; without a GPU the binary says so and exits with status 2.
//!
//! What is timed and reported, the variables read, the data check and the files written are
//! stated once, in SPEC below: `-h`, the output headers and doc/binaries.md are made from it.
use paw_core::{vars, Check, Ranks, Spec};
use paw_gpu::transfer::{run, Device, Direction, Host, Transfer, COPY_CHECK};

const SPEC: Spec = Spec {
    name: "gpu_inout_pinned",
    title: "GPU transfer CPU to GPU and back, pinned host memory, device memory kept (PAW 1.6 section 8.2)",
    timed: "\
Per sample: NLOOP iterations on GPU 0, each host to device and back (cuMemcpyHtoD, \
cuMemcpyDtoH, synchronous); device memory allocated once, before timing; pinned host \
memory (cuMemHostAlloc, flags 0: cached, not write-combined). Sizes MIN_GPU_SIZE, \
doubling, to MAX_GPU_SIZE, after one untimed iteration at MED_GPU_SIZE.",
    reports: "\
time per iteration, usec; bandwidth = 2 x SIZE / time, GB/s (GB = 1e9 B).",
    ranks: Ranks::Node,
    vars: &[vars::GPU_SIZES, vars::MEASURE, vars::CHECK],
    check: Check::Data(COPY_CHECK),
    files: "gpu_inout_pinned_time.dat (usec) and gpu_inout_pinned_bw.dat (GB/s)",
};

const TRANSFER: Transfer = Transfer {
    direction: Direction::InOut,
    host: Host::Pinned,
    device: Device::Keep,
    both_devices: false,
};

fn main() -> std::process::ExitCode {
    run(&SPEC, TRANSFER)
}
