//! col_sct -- MPI_Scatter of SIZE bytes from a root task to every task (PAW 1.6 §7.1),
//! timed in IMB's loop by default.
//! One of the rooted block collectives of `paw_mpi::rooted`, where what it times is stated.
paw_mpi::rooted_main!(scatter, "col_sct", "sct");
