//! gpu_alloc_noal_out -- GPU transfer GPU to CPU, misaligned pageable host memory, device memory re-allocated per copy (PAW 1.6 §9.1).
//! The sweep is paw_gpu::transfer; without a GPU the binary says so and exits with status 2.
//! What it times and reports, the variables it reads, its data check and its files are made
//! from the arguments below (paw_gpu::transfer_main!): `-h` and doc/binaries.md show them.
paw_gpu::transfer_main!("gpu_alloc_noal_out", Out, Misaligned, Alloc, both, "9.1");
