//! IMB-EXT -- the one-sided benchmarks of the Intel MPI Benchmarks 3.0 (guide §4.2.3), as
//! a drop-in executable: `mpirun -np P IMB-EXT [benchmark ...] [options]`.
//!
//! The driver, options and output are paw-imb's; this suite is its table of kernels
//! (kernels/), each one-sided benchmark timed in aggregate mode (M = n_sample transfers to
//! disjoint offsets, then one MPI_Win_fence) and non-aggregate mode (M times one transfer
//! to the window's start and a fence), guide §4.2.2.2, §4.2.3 and §5.2.8.2. See
//! doc/imb-ext.md.

mod kernels;

fn main() -> std::process::ExitCode {
    paw_imb::run(&kernels::SUITE)
}
