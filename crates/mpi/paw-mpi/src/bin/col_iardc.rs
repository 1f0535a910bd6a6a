//! col_iardc -- MPI_Iallreduce (MPI_SUM over MPI_UINT8_T) of SIZE bytes: pure time and
//! overlap with computation (OSU 7.4's osu_iallreduce measure, PAW's loop).
//! One of the sized non-blocking collectives of `paw_mpi::nbc`, where what it times is stated.
paw_mpi::nbc_main!(allreduce, "col_iardc", "iardc");
