//! p2p_rput -- MPI_Rput, MPI_Wait, MPI_Win_flush_all in a lock_all epoch (PAW 1.6 §7.6.2).
//! One of the one-sided pair tests of `paw_mpi::rma_pair`, where what it times is stated.
paw_mpi::rma_pair_main!(put, lock_all, "p2p_rput", "7.6.2", "7.11", "rput");
