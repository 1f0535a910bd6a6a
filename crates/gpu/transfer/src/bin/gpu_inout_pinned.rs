//! gpu_inout_pinned -- CPU to GPU + GPU to CPU copy bandwidth, pinned host memory (PAW 1.6 §8.2, Table 8.1).
//! Timed per iteration: host to device and back (cuMemcpyHtoD, cuMemcpyDtoH; bandwidth counts both), from/to pinned host memory (cuMemHostAlloc, flags 0: cached, not write-combined); device memory allocated once.
//! The sweep, formulas and files: paw_gpu::transfer. Runs without mpirun; without a GPU
//! it says so and exits with status 2.
use paw_core::{Ranks, Spec};
use paw_gpu::transfer::{run, Device, Direction, Host, Transfer};

const SPEC: Spec = Spec {
    name: "gpu_inout_pinned",
    title: "GPU transfer CPU to GPU + GPU to CPU, pinned host memory (PAW 1.6 section 8.2)",
    help: "\
Timed per iteration: host to device and back (cuMemcpyHtoD, cuMemcpyDtoH; bandwidth counts both)
between pinned host memory (cuMemHostAlloc, flags 0: cached, not write-combined)
and device memory of GPU 0 allocated once. NREPS samples of NLOOP iterations per size.
Env: MIN_GPU_SIZE MED_GPU_SIZE MAX_GPU_SIZE (bytes; defaults 128, 20000, 200000000).
Writes gpu_inout_pinned_time.dat (usec per iteration) and gpu_inout_pinned_bw.dat (GB/s, GB = 1e9 B).
Exits with status 2 and one line when the CUDA driver or a GPU is missing.",
    ranks: Ranks::Any,
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
