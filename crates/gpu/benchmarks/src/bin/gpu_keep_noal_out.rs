//! gpu_keep_noal_out -- GPU transfer GPU to CPU, misaligned pageable host memory, device memory
//! kept (PAW 1.6 §9.1).
//! Without a GPU it says so and exits with status 2; what it times is its arguments to
//! `transfer_main!` (paw_gpu::transfer), and `-h` states it.
paw_gpu::transfer_main!("gpu_keep_noal_out", Out, Misaligned, Keep, both, "9.1");
