//! col_gtr -- MPI_Gather of SIZE bytes from every task to a root task (PAW 1.6 §7.1), timed
//! in IMB's loop by default.
//! One of the rooted block collectives of `paw_mpi::rooted`, where what it times is stated.
paw_mpi::rooted_main!(gather, "col_gtr", "gtr");
