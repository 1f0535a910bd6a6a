//! gpu_alloc_noal_inout -- GPU transfer CPU to GPU and back, misaligned pageable host memory, device memory re-allocated per copy (PAW 1.6 §9.1).
//! The sweep is paw_gpu::transfer; without a GPU the binary says so and exits with status 2.
//!
//! What is timed and reported, the variables read, the data check and the files written are
//! stated once, in SPEC below: `-h`, the output headers and doc/binaries.md are made from it.
use paw_core::{vars, Check, Ranks, Spec};
use paw_gpu::transfer::{run, Device, Direction, Host, Transfer, COPY_CHECK, GPU_MISALIGN};

const SPEC: Spec = Spec {
    name: "gpu_alloc_noal_inout",
    title: "GPU transfer CPU to GPU and back, misaligned pageable host memory, device memory re-allocated per copy (PAW 1.6 section 9.1)",
    timed: "\
Per sample: NLOOP iterations on GPU 0, each host to device and back (cuMemcpyHtoD, \
cuMemcpyDtoH, synchronous); device memory allocated (cuMemAlloc) before and freed \
(cuMemFree) after every copy, inside the timing; pageable host memory starting \
GPU_MISALIGN bytes past a page boundary. Sizes MIN_GPU_SIZE, doubling, to \
MAX_GPU_SIZE, after one untimed iteration at MED_GPU_SIZE. With two or more GPUs the \
sweep runs again on GPU 0 and GPU 1 at once, one thread each.",
    reports: "\
time per iteration, usec; bandwidth = 2 x SIZE / time, GB/s (GB = 1e9 B), summed over \
both GPUs in the two-device files.",
    ranks: Ranks::Node,
    vars: &[vars::GPU_SIZES, vars::MEASURE, vars::CHECK, &[GPU_MISALIGN]],
    check: Check::Data(COPY_CHECK),
    files: "\
gpu_alloc_noal_inout_time.dat (usec) and gpu_alloc_noal_inout_bw.dat (GB/s); with two \
GPUs also gpu_alloc_noal_inout_time_dev0+1.dat and gpu_alloc_noal_inout_bw_dev0+1.dat",
};

const TRANSFER: Transfer = Transfer {
    direction: Direction::InOut,
    host: Host::Misaligned,
    device: Device::Alloc,
    both_devices: true,
};

fn main() -> std::process::ExitCode {
    run(&SPEC, TRANSFER)
}
