//! Alltoall (guide §3.3.4.6): MPI_Alltoall; every process sends X bytes to each process
//! and receives X bytes from each. Times only.

use super::{benchmark, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

pub const BENCHMARK: Benchmark = benchmark(
    "Alltoall",
    (Class::Collective, 0, 1),
    |q, x, _| (q * x, q * x),
    typed!(pattern),
    expect,
);

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let n = ctx.q * plan.n;
    ctx.comm.all_to_all_into(b.send.elems::<T>(n), b.recv.elems_mut::<T>(n));
}

/// Block j holds the block of rank j's send buffer meant for this rank (also Alltoallv's).
pub fn expect(rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    Expect::Bytes((0..q).flat_map(|j| sent_bytes(j, rank * plan.x, plan.x)).collect())
}
