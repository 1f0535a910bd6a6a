//! col_acc_fence -- MPI_Accumulate into task 0 between MPI_Win_fence calls (PAW 1.6 §7.2.2).
//! One of the one-sided collectives of `paw_mpi::rma_acc`, where what it times is stated.
paw_mpi::rma_acc_main!(fence, "col_acc_fence", "7.2.2", "7.2", "accfence");
