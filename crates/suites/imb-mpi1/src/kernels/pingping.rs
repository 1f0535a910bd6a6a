//! PingPing (guide §3.3.2.2): both ranks MPI_Isend to the other, MPI_Recv, MPI_Wait, the
//! sends issued simultaneously. Reported time Δt, throughput X / 2^20 / time.

use super::{benchmark, one_each, variant, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::request;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

pub const BENCHMARK: Benchmark =
    benchmark("PingPing", (Class::SingleTransfer, 1, 1), one_each, typed!(pattern), expect);

/// PingPingSpecificSource (today's IMB, run when named): PingPing, each receive naming its
/// source, as PingPing here does.
pub const SPECIFIC: Benchmark =
    Benchmark { name: "PingPingSpecificSource", default: false, ..BENCHMARK };

/// PingPingAnySource (today's IMB, run when named): the receives take MPI_ANY_SOURCE.
pub const ANY: Benchmark =
    variant(BENCHMARK, "PingPingAnySource", typed!(pattern_any), expect).when_named();

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let other = ctx.comm.process_at_rank(1 - ctx.rank as i32);
    let (send, recv) = (b.send.elems::<T>(plan.n), b.recv.elems_mut::<T>(plan.n));
    request::scope(|scope| {
        let sent = other.immediate_send(scope, send);
        other.receive_into(recv);
        sent.wait_without_status();
    });
}

fn pattern_any<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let other = ctx.comm.process_at_rank(1 - ctx.rank as i32);
    let (send, recv) = (b.send.elems::<T>(plan.n), b.recv.elems_mut::<T>(plan.n));
    request::scope(|scope| {
        let sent = other.immediate_send(scope, send);
        ctx.comm.any_process().receive_into(recv);
        sent.wait_without_status();
    });
}

fn expect(rank: usize, _q: usize, plan: &Plan, _: usize) -> Expect {
    Expect::Bytes(sent_bytes(1 - rank, 0, plan.x))
}
