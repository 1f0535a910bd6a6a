//! IMB-MPI1 -- the MPI-1 benchmarks of the Intel MPI Benchmarks 3.0, as a drop-in
//! executable: `mpirun -np P IMB-MPI1 [benchmark ...] [options]` (guide §5.1).
//!
//! The driver, options and output are paw-imb's; this suite is its table of kernels
//! (kernels/), timed as the guide's §5.2.8.1: N_BARR barriers, then n_sample runs of the
//! pattern between two MPI_Wtime reads. See doc/imb-mpi1.md.

mod kernels;

fn main() -> std::process::ExitCode {
    paw_imb::run(&kernels::SUITE)
}
