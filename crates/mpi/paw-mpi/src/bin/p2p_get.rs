//! p2p_get -- MPI_Get with post/start/complete/wait between task pairs (PAW 1.6 §7.5.1).
//! One of the one-sided pair tests of `paw_mpi::rma_pair`, where what it times is stated.
paw_mpi::rma_pair_main!(get, post_start, "p2p_get", "7.5.1", "7.6", "get");
