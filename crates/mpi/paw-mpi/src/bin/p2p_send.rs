//! p2p_send -- MPI_Send/MPI_Recv ping-pong between task pairs (PAW 1.6 §7.4.2).
//! One of the two ping-pong pair tests of paw_mpi (`pingpong_main!`), where what it times is stated.
paw_mpi::pingpong_main!(send, "p2p_send", "7.4.2", "7.5", "send");
