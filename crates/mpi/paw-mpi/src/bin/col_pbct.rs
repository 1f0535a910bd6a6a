//! col_pbct -- MPI-4 persistent MPI_Bcast (MPI_Bcast_init, MPI_Start, MPI_Wait) against
//! plain MPI_Bcast of SIZE bytes from task 0 (OSU 7.4's osu_bcast_persistent, on PAW's
//! loop).
//! One of the persistent collectives of `paw_mpi::persistent`, where what it times is stated.
paw_mpi::persistent_main!(bcast, "col_pbct", "pbct");
