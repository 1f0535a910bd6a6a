//! gpu_in_nopin -- GPU transfer CPU to GPU, page-aligned pageable host memory, device memory kept
//! (PAW 1.6 §8.2).
//! Without a GPU it says so and exits with status 2. What it times and reports, the
//! variables it reads, its data check and its files are made from the arguments of
//! transfer_spec! below (`-h` and doc/binaries.md show them); the sweep is paw_gpu::transfer.
use paw_gpu::transfer::Sweep;

paw_gpu::transfer_spec!("gpu_in_nopin", In, Aligned, Keep, one, "8.2");

fn main() -> std::process::ExitCode {
    paw_base::main(SPEC.name, || {
        // Untimed: the settings, GPU 0, a page-aligned pageable host buffer and a device buffer of
        // the largest size.
        let sweep = Sweep::start(&SPEC, TRANSFER)?;
        // Timed, NLOOP times per sample at each size n: the copy, a wait for the staged data to
        // arrive.
        sweep.run(|lane, n| {
            lane.copy_in(n);
            lane.synchronize();
        })
    })
}
