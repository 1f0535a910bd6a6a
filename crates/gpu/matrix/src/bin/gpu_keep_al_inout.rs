//! gpu_keep_al_inout -- CPU to GPU + GPU to CPU copies, keeping device memory, aligned host buffer
//! (the GPU form of PAW 1.6 §9.1, Table 9.1).
//! Timed per iteration: host to device and back (cuMemcpyHtoD, cuMemcpyDtoH; bandwidth counts both);
//! device memory allocated once, before timing; pageable host memory starting on a page boundary.
//! With two or more GPUs the sweep runs again on GPU 0 and GPU 1 at once (files *_dev0+1.dat).
//! The sweep, formulas and files: paw_gpu::transfer. Runs without mpirun; without a GPU
//! it says so and exits with status 2.
use paw_core::{Ranks, Spec};
use paw_gpu::transfer::{run, Device, Direction, Host, Transfer};

const SPEC: Spec = Spec {
    name: "gpu_keep_al_inout",
    title: "GPU transfer CPU to GPU + GPU to CPU, device memory kept, aligned host buffer (PAW 1.6 section 9.1)",
    help: "\
Timed per iteration: host to device and back (cuMemcpyHtoD, cuMemcpyDtoH; bandwidth counts both);
device memory allocated once, before timing;
pageable host memory starting on a page boundary.
NREPS samples of NLOOP iterations per size, on GPU 0; with two or more GPUs again on GPU 0
and GPU 1 at once, one thread each (bandwidth summed over both).
Env: MIN_GPU_SIZE MED_GPU_SIZE MAX_GPU_SIZE (bytes; defaults 128, 20000, 200000000).
Writes gpu_keep_al_inout_time.dat (usec per iteration) and gpu_keep_al_inout_bw.dat (GB/s, GB = 1e9 B);
with two GPUs also gpu_keep_al_inout_time_dev0+1.dat and gpu_keep_al_inout_bw_dev0+1.dat.
Exits with status 2 and one line when the CUDA driver or a GPU is missing.",
    ranks: Ranks::Any,
};

const TRANSFER: Transfer = Transfer {
    direction: Direction::InOut,
    host: Host::Aligned,
    device: Device::Keep,
    both_devices: true,
};

fn main() -> std::process::ExitCode {
    run(&SPEC, TRANSFER)
}
