//! p2p_mrate -- message rate with WINDOW_SIZE messages in flight, one direction (PAW 1.6 §7.7.4).
//! One of the two message-rate tests of `paw_mpi::message_rate`, where what it times is stated.
paw_mpi::mrate_main!(one_way, "p2p_mrate", "7.7.4", "mrate");
