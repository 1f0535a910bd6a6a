//! col_ibct -- MPI_Ibcast of SIZE bytes from task 0: pure time and overlap with
//! computation (OSU 7.4's osu_ibcast measure, PAW's loop).
//! One of the sized non-blocking collectives of `paw_mpi::nbc`, where what it times is stated.
paw_mpi::nbc_main!(bcast, "col_ibct", "ibct");
