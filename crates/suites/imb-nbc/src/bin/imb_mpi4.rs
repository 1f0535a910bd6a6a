//! IMB-MPI4 -- today's Intel MPI Benchmarks' MPI-4 part (persistent collectives), as a
//! drop-in executable: `mpirun -np P IMB-MPI4 [benchmark ...] [options]`. IMB-NBC's
//! timing over MPI_<coll>_init, MPI_Start and MPI_Wait; see doc/imb-mpi4.md.

fn main() -> std::process::ExitCode {
    paw_imb::run(&paw_imb_nbc::kernels::mpi4::SUITE)
}
