//! col_pardc -- MPI-4 persistent MPI_Allreduce (MPI_Allreduce_init, MPI_Start, MPI_Wait)
//! against plain MPI_Allreduce, SIZE bytes of MPI_UINT8_T summed (OSU 7.4's
//! osu_allreduce_persistent, on PAW's loop).
//! One of the persistent collectives of `paw_mpi::persistent`, where what it times is stated.
paw_mpi::persistent_main!(allreduce, "col_pardc", "pardc");
