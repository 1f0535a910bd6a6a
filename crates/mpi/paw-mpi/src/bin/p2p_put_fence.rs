//! p2p_put_fence -- MPI_Put between MPI_Win_fence calls, task pairs (PAW 1.6 §7.5.4).
//! One of the one-sided pair tests of `paw_mpi::rma_pair`, where what it times is stated.
paw_mpi::rma_pair_main!(put, fence, "p2p_put_fence", "7.5.4", "7.9", "putfence");
