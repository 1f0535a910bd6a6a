//! Today's Intel MPI Benchmarks' collectives that complete later: IMB-NBC (the non-blocking
//! collectives) and IMB-MPI4 (the MPI-4 persistent ones), which share their timing, tables
//! and checks ([`kernels`]).

pub mod kernels;
