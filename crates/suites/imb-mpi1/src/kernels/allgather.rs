//! Allgather (guide §3.3.4.4): MPI_Allgather; every process inputs X bytes and receives the
//! Q x X gathered bytes. Times only.

use super::{benchmark, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

pub const BENCHMARK: Benchmark = benchmark(
    "Allgather",
    (Class::Collective, 0, 1),
    |q, x, _| (x, q * x),
    typed!(pattern),
    expect,
);

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    ctx.comm.all_gather_into(b.send.elems::<T>(plan.n), b.recv.elems_mut::<T>(ctx.q * plan.n));
}

/// Block j holds rank j's first X bytes (also Allgatherv's expectation).
pub fn expect(_rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    Expect::Bytes((0..q).flat_map(|j| sent_bytes(j, 0, plan.x)).collect())
}
