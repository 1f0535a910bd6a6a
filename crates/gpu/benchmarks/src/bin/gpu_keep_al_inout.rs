//! gpu_keep_al_inout -- GPU transfer CPU to GPU and back, page-aligned pageable host memory, device
//! memory kept (PAW 1.6 §9.1).
//! Without a GPU it says so and exits with status 2; what it times is its arguments to
//! `transfer_main!` (paw_gpu::transfer), and `-h` states it.
paw_gpu::transfer_main!("gpu_keep_al_inout", InOut, Aligned, Keep, both, "9.1");
