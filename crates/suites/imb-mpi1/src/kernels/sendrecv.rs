//! Sendrecv (guide §3.3.3.1): a periodic chain; every process MPI_Sendrecv, sending to the
//! right and receiving from the left neighbour. Reported time Δt, throughput 2X / 2^20 / time.

use super::{benchmark, one_each, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::point_to_point::send_receive_into;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

pub const BENCHMARK: Benchmark =
    benchmark("Sendrecv", (Class::ParallelTransfer, 2, 1), one_each, typed!(pattern), expect);

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let (left, right) = ctx.chain();
    let (left, right) = (ctx.comm.process_at_rank(left), ctx.comm.process_at_rank(right));
    send_receive_into(b.send.elems::<T>(plan.n), &right, b.recv.elems_mut::<T>(plan.n), &left);
}

fn expect(rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    Expect::Bytes(sent_bytes((rank + q - 1) % q, 0, plan.x))
}
