//! Allgatherv (guide §3.3.4.5): Allgather through MPI_Allgatherv (counts X, displacements
//! i X), showing what the vector interface costs. Times only.

use super::{benchmark, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::datatype::PartitionMut;
use paw_core::mpi::traits::*;

pub const BENCHMARK: Benchmark = benchmark(
    "Allgatherv",
    (Class::Collective, 0, 1),
    |q, x, _| (x, q * x),
    typed!(pattern),
    super::allgather::expect,
);

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let recv = b.recv.elems_mut::<T>(ctx.q * plan.n);
    let mut gathered = PartitionMut::new(recv, &plan.counts[..], &plan.displs[..]);
    ctx.comm.all_gather_varcount_into(b.send.elems::<T>(plan.n), &mut gathered);
}
