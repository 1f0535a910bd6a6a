//! gpu_keep_noal_inout -- GPU transfer CPU to GPU and back, misaligned pageable host memory, device memory kept (PAW 1.6 §9.1).
//! The sweep is paw_gpu::transfer; without a GPU the binary says so and exits with status 2.
//! What it times and reports, the variables it reads, its data check and its files are made
//! from the arguments below (paw_gpu::transfer_main!): `-h` and doc/binaries.md show them.
paw_gpu::transfer_main!("gpu_keep_noal_inout", InOut, Misaligned, Keep, both, "9.1");
