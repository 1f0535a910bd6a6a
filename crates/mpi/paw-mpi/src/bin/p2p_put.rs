//! p2p_put -- MPI_Put with post/start/complete/wait between task pairs (PAW 1.6 §7.5.3).
//! One of the one-sided pair tests of `paw_mpi::rma_pair`, where what it times is stated.
paw_mpi::rma_pair_main!(put, post_start, "p2p_put", "7.5.3", "7.8", "put");
