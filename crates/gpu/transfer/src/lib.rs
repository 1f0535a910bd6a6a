//! paw-gpu-transfer: the six binaries of PAW 1.6 Table 8.1 (gpu_in/out/inout_pinned and
//! _nopin), each a [`paw_gpu::transfer::Transfer`] choice in `src/bin/`.
