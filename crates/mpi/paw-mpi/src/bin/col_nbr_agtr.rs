//! col_nbr_agtr -- MPI_Neighbor_allgather of SIZE bytes on a Cartesian grid of tasks,
//! timed in IMB's loop by default (OSU 7.4's osu_neighbor_allgather, on PAW's loop).
//! One of the neighbourhood collectives of `paw_mpi::neighbor`, where what it times is stated.
paw_mpi::nbr_main!(allgather, "col_nbr_agtr", "nbr_agtr");
