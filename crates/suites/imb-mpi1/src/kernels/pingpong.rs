//! PingPong (guide §3.3.2.1): rank 0 MPI_Send, MPI_Recv; rank 1 MPI_Recv, MPI_Send.
//! Reported time Δt/2, throughput X / 2^20 / time.

use super::{benchmark, one_each, variant, Benchmark, Bufs, Class, Ctx, Elem, Kernel, Plan};
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

pub const BENCHMARK: Benchmark = {
    let b = benchmark("PingPong", (Class::SingleTransfer, 1, 1), one_each, typed!(pattern), expect);
    Benchmark { kernel: Kernel { time_factor: 0.5, ..b.kernel }, ..b }
};

/// PingPongSpecificSource (today's IMB, run when named): PingPong, each receive naming its
/// source, as PingPong here does.
pub const SPECIFIC: Benchmark =
    Benchmark { name: "PingPongSpecificSource", default: false, ..BENCHMARK };

/// PingPongAnySource (today's IMB, run when named): the receives take MPI_ANY_SOURCE.
pub const ANY: Benchmark =
    variant(BENCHMARK, "PingPongAnySource", typed!(pattern_any), expect).when_named();

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let other = ctx.comm.process_at_rank(1 - ctx.rank as i32);
    let (send, recv) = (b.send.elems::<T>(plan.n), b.recv.elems_mut::<T>(plan.n));
    if ctx.rank == 0 {
        other.send(send);
        other.receive_into(recv);
    } else {
        other.receive_into(recv);
        other.send(send);
    }
}

fn pattern_any<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let other = ctx.comm.process_at_rank(1 - ctx.rank as i32);
    let (send, recv) = (b.send.elems::<T>(plan.n), b.recv.elems_mut::<T>(plan.n));
    if ctx.rank == 0 {
        other.send(send);
        ctx.comm.any_process().receive_into(recv);
    } else {
        ctx.comm.any_process().receive_into(recv);
        other.send(send);
    }
}

fn expect(rank: usize, _q: usize, plan: &Plan, _: usize) -> Expect {
    Expect::Bytes(sent_bytes(1 - rank, 0, plan.x))
}
