//! p2p_get_fence -- MPI_Get between MPI_Win_fence calls, task pairs (PAW 1.6 §7.5.2).
//! One of the one-sided pair tests of `paw_mpi::rma_pair`, where what it times is stated.
paw_mpi::rma_pair_main!(get, fence, "p2p_get_fence", "7.5.2", "7.7", "getfence");
