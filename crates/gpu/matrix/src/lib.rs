//! paw-gpu-matrix: the twelve binaries of the GPU transfer matrix (PAW 1.6 Table 9.1 with
//! GPUs in place of the Xeon Phi): device memory re-allocated per copy or kept, host
//! buffer aligned or not, each direction; each a [`paw_gpu::transfer::Transfer`] choice in
//! `src/bin/`.
