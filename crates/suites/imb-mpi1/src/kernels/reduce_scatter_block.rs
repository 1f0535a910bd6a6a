//! Reduce_scatter_block (today's IMB; not in the 3.0 guide): MPI_Reduce_scatter_block,
//! MPI_FLOAT, MPI_SUM; every process contributes Q x L floats (L = X / sizeof(float)) and
//! receives its block of L reduced floats. Times only.

use super::{benchmark, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sums_of, Expect};
use paw_imb::settings::FLOAT;

pub const BENCHMARK: Benchmark = benchmark(
    "Reduce_scatter_block",
    (Class::Collective, 0, FLOAT),
    |q, x, _| (q * x, x),
    typed!(pattern),
    expect,
)
.when_named();

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let send = b.send.elems::<T>(ctx.q * plan.n);
    let recv = b.recv.elems_mut::<T>(plan.n);
    ctx.comm.reduce_scatter_block_into(send, recv, SystemOperation::sum());
}

fn expect(rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    sums_of(plan.elem, q, rank * plan.n, plan.n)
}
