//! Alltoallv (guide §3.3.4.7): Alltoall through MPI_Alltoallv (counts X, displacements
//! i X on both sides). Times only.

use super::{benchmark, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::datatype::{Partition, PartitionMut};
use paw_core::mpi::traits::*;

pub const BENCHMARK: Benchmark = benchmark(
    "Alltoallv",
    (Class::Collective, 0, 1),
    |q, x, _| (q * x, q * x),
    typed!(pattern),
    super::alltoall::expect,
);

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let n = ctx.q * plan.n;
    let send = Partition::new(b.send.elems::<T>(n), &plan.counts[..], &plan.displs[..]);
    let mut recv = PartitionMut::new(b.recv.elems_mut::<T>(n), &plan.counts[..], &plan.displs[..]);
    ctx.comm.all_to_all_varcount_into(&send, &mut recv);
}
