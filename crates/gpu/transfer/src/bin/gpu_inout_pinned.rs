//! gpu_inout_pinned -- GPU transfer CPU to GPU and back, pinned host memory, device memory kept (PAW 1.6 §8.2).
//! The sweep is paw_gpu::transfer; without a GPU the binary says so and exits with status 2.
//! What it times and reports, the variables it reads, its data check and its files are made
//! from the arguments below (paw_gpu::transfer_main!): `-h` and doc/binaries.md show them.
paw_gpu::transfer_main!("gpu_inout_pinned", InOut, Pinned, Keep, one, "8.2");
