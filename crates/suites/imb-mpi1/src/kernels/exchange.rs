//! Exchange (guide §3.3.3.2): a periodic chain; every process MPI_Isend to the left and to
//! the right, MPI_Recv from the left and from the right, MPI_Waitall. Reported time Δt,
//! throughput 4X / 2^20 / time.

use super::{benchmark, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

pub const BENCHMARK: Benchmark = benchmark(
    "Exchange",
    (Class::ParallelTransfer, 4, 1),
    |_, x, _| (x, 2 * x),
    typed!(pattern),
    expect,
);

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let (left, right) = ctx.chain();
    let (left, right) = (ctx.comm.process_at_rank(left), ctx.comm.process_at_rank(right));
    let send = b.send.elems::<T>(plan.n);
    let (from_left, from_right) = b.recv.elems_mut::<T>(2 * plan.n).split_at_mut(plan.n);
    // The batch ends with MPI_Waitall on both sends.
    b.batch.run(|sends| {
        sends.isend(&left, send, 0);
        sends.isend(&right, send, 0);
        left.receive_into(from_left);
        right.receive_into(from_right);
    });
}

fn expect(rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    let mut bytes = sent_bytes((rank + q - 1) % q, 0, plan.x);
    bytes.extend(sent_bytes((rank + 1) % q, 0, plan.x));
    Expect::Bytes(bytes)
}
