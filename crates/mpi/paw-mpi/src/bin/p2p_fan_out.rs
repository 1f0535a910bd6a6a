//! p2p_fan_out -- congestion: task 0 sends to every other task at once (OSU 7.4's osu_bw_fan_out).
//! One of the two congestion tests of `paw_mpi::fan`, where what it times is stated.
paw_mpi::fan_main!(out, "p2p_fan_out", "fan_out");
