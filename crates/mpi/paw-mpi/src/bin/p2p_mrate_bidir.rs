//! p2p_mrate_bidir -- message rate with WINDOW_SIZE messages in flight each way (PAW 1.6 §7.7.5).
//! One of the two message-rate tests of `paw_mpi::message_rate`, where what it times is stated.
paw_mpi::mrate_main!(both_ways, "p2p_mrate_bidir", "7.7.5", "mrate_bidir");
