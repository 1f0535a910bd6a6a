//! col_racc -- MPI_Raccumulate, MPI_Wait, MPI_Win_flush_all into task 0 (PAW 1.6 §7.3).
//! One of the one-sided collectives of `paw_mpi::rma_acc`, where what it times is stated.
paw_mpi::rma_acc_main!(lock_all, "col_racc", "7.3", "7.3", "racc");
