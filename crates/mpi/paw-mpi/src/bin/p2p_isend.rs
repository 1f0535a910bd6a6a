//! p2p_isend -- MPI_Isend/MPI_Irecv ping-pong between task pairs (PAW 1.6 §7.4.1).
//! One of the two ping-pong pair tests of paw_mpi (`pingpong_main!`), where what it times is stated.
paw_mpi::pingpong_main!(isend, "p2p_isend", "7.4.1", "7.4", "isend");
