//! gpu_alloc_noal_in -- GPU transfer CPU to GPU, misaligned pageable host memory, device memory
//! re-allocated per copy (PAW 1.6 §9.1).
//! Without a GPU it says so and exits with status 2. What it times and reports, the
//! variables it reads, its data check and its files are made from the arguments of
//! transfer_spec! below (`-h` and doc/binaries.md show them); the sweep is paw_gpu::transfer.
use paw_gpu::transfer::Sweep;

paw_gpu::transfer_spec!("gpu_alloc_noal_in", In, Misaligned, Alloc, both, "9.1");

fn main() -> std::process::ExitCode {
    paw_base::main(SPEC.name, || {
        // Untimed: the settings, GPU 0 (and GPU 1 for the two-device run), a pageable host buffer
        // GPU_MISALIGN bytes past a page boundary of the largest size.
        let sweep = Sweep::start(&SPEC, TRANSFER)?;
        // Timed, NLOOP times per sample at each size n: the copy, device memory allocated and freed
        // around it and a wait for the staged data to arrive.
        sweep.run(|lane, n| {
            lane.alloc(n);
            lane.copy_in(n);
            lane.synchronize();
            lane.free();
        })
    })
}
