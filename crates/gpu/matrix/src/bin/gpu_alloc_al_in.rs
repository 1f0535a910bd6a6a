//! gpu_alloc_al_in -- CPU to GPU copies, re-allocating device memory, aligned host buffer
//! (the GPU form of PAW 1.6 §9.1, Table 9.1).
//! Timed per iteration: host to device (cuMemcpyHtoD);
//! device memory cuMemAlloc-ed before and cuMemFree-d after every copy, inside the timing; pageable host memory starting on a page boundary.
//! With two or more GPUs the sweep runs again on GPU 0 and GPU 1 at once (files *_dev0+1.dat).
//! The sweep, formulas and files: paw_gpu::transfer. Runs without mpirun; without a GPU
//! it says so and exits with status 2.
use paw_core::{Ranks, Spec};
use paw_gpu::transfer::{run, Device, Direction, Host, Transfer};

const SPEC: Spec = Spec {
    name: "gpu_alloc_al_in",
    title: "GPU transfer CPU to GPU, device memory re-allocated per copy, aligned host buffer (PAW 1.6 section 9.1)",
    help: "\
Timed per iteration: host to device (cuMemcpyHtoD);
device memory cuMemAlloc-ed before and cuMemFree-d after every copy, inside the timing;
pageable host memory starting on a page boundary.
NREPS samples of NLOOP iterations per size, on GPU 0; with two or more GPUs again on GPU 0
and GPU 1 at once, one thread each (bandwidth summed over both).
Env: MIN_GPU_SIZE MED_GPU_SIZE MAX_GPU_SIZE (bytes; defaults 128, 20000, 200000000).
Writes gpu_alloc_al_in_time.dat (usec per iteration) and gpu_alloc_al_in_bw.dat (GB/s, GB = 1e9 B);
with two GPUs also gpu_alloc_al_in_time_dev0+1.dat and gpu_alloc_al_in_bw_dev0+1.dat.
Exits with status 2 and one line when the CUDA driver or a GPU is missing.",
    ranks: Ranks::Any,
};

const TRANSFER: Transfer = Transfer {
    direction: Direction::In,
    host: Host::Aligned,
    device: Device::Alloc,
    both_devices: true,
};

fn main() -> std::process::ExitCode {
    run(&SPEC, TRANSFER)
}
