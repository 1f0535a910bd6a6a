//! col_nbr_a2a -- MPI_Neighbor_alltoall of SIZE bytes per neighbour on a Cartesian grid of
//! tasks, timed in IMB's loop by default (OSU 7.4's osu_neighbor_alltoall, on PAW's loop).
//! One of the neighbourhood collectives of `paw_mpi::neighbor`, where what it times is stated.
paw_mpi::nbr_main!(alltoall, "col_nbr_a2a", "nbr_a2a");
