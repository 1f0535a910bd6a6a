//! gpu_keep_al_inout -- GPU transfer CPU to GPU and back, page-aligned pageable host memory, device
//! memory kept (PAW 1.6 §9.1).
//! Without a GPU it says so and exits with status 2. What it times and reports, the
//! variables it reads, its data check and its files are made from the arguments of
//! transfer_spec! below (`-h` and doc/binaries.md show them); the sweep is paw_gpu::transfer.
use paw_gpu::transfer::Sweep;

paw_gpu::transfer_spec!("gpu_keep_al_inout", InOut, Aligned, Keep, both, "9.1");

fn main() -> std::process::ExitCode {
    paw_base::main(SPEC.name, || {
        // Untimed: the settings, GPU 0 (and GPU 1 for the two-device run), a page-aligned pageable
        // host buffer and a device buffer of the largest size.
        let sweep = Sweep::start(&SPEC, TRANSFER)?;
        // Timed, NLOOP times per sample at each size n: the two copies.
        sweep.run(|lane, n| {
            lane.copy_in(n);
            lane.copy_out(n);
        })
    })
}
