//! Allreduce (guide §3.3.4.3): MPI_Allreduce of L = X / sizeof(float) floats, MPI_FLOAT,
//! MPI_SUM. Times only.

use super::{benchmark, one_each, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sums_of, Expect};
use paw_imb::settings::FLOAT;

pub const BENCHMARK: Benchmark =
    benchmark("Allreduce", (Class::Collective, 0, FLOAT), one_each, typed!(pattern), expect);

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let (send, recv) = (b.send.elems::<T>(plan.n), b.recv.elems_mut::<T>(plan.n));
    ctx.comm.all_reduce_into(send, recv, SystemOperation::sum());
}

fn expect(_rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    sums_of(plan.elem, q, 0, plan.n)
}
