//! col_ia2a -- MPI_Ialltoall of SIZE bytes between every pair of tasks: pure time and
//! overlap with computation (OSU 7.4's osu_ialltoall measure, PAW's loop).
//! One of the sized non-blocking collectives of `paw_mpi::nbc`, where what it times is stated.
paw_mpi::nbc_main!(alltoall, "col_ia2a", "ia2a");
