//! p2p_fan_in -- congestion: every other task sends to task 0 at once (OSU 7.4's osu_bw_fan_in).
//! One of the two congestion tests of `paw_mpi::fan`, where what it times is stated.
paw_mpi::fan_main!(in, "p2p_fan_in", "fan_in");
