//! p2p_rget -- MPI_Rget, MPI_Wait, MPI_Win_flush_all in a lock_all epoch (PAW 1.6 §7.6.1).
//! One of the one-sided pair tests of `paw_mpi::rma_pair`, where what it times is stated.
paw_mpi::rma_pair_main!(get, lock_all, "p2p_rget", "7.6.1", "7.10", "rget");
