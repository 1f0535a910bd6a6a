//! col_iagtr -- MPI_Iallgather of SIZE bytes from every task to every task: pure time and
//! overlap with computation (OSU 7.4's osu_iallgather measure, PAW's loop).
//! One of the sized non-blocking collectives of `paw_mpi::nbc`, where what it times is stated.
paw_mpi::nbc_main!(allgather, "col_iagtr", "iagtr");
