//! col_acc -- MPI_Accumulate into task 0 with post/start/complete/wait (PAW 1.6 §7.2.1).
//! One of the one-sided collectives of `paw_mpi::rma_acc`, where what it times is stated.
paw_mpi::rma_acc_main!(post_start, "col_acc", "7.2.1", "7.1", "acc");
