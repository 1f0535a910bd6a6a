//! gpu_in_nopin -- GPU transfer CPU to GPU, page-aligned pageable host memory, device memory kept
//! (PAW 1.6 §8.2).
//! Without a GPU it says so and exits with status 2; what it times is its arguments to
//! `transfer_main!` (paw_gpu::transfer), and `-h` states it.
paw_gpu::transfer_main!("gpu_in_nopin", In, Aligned, Keep, one, "8.2");
