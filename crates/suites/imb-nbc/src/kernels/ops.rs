//! The thirteen non-blocking collectives (today's IMB-NBC, section A of its definition):
//! each posts its MPI_I<coll>, runs `between` while it is in flight, and waits for it; and
//! what the receive buffer then holds. Rooted collectives take their root as an argument;
//! reductions are MPI_FLOAT sums of L = X / 4 floats; everything else is MPI_BYTE.

use super::{Bufs, Ctx, Plan};
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::datatype::{Partition, PartitionMut};
use paw_core::mpi::request::{scope, Request, Scope};
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, sums, Expect};

/// One run of a collective: post, `between`, wait.
pub type Op = fn(&Ctx, &mut Bufs, &Plan, root: usize, between: &mut dyn FnMut());

/// `between` while `request` is in flight, then its completion.
fn overlapped<'a, D: ?Sized, S: Scope<'a>>(request: Request<'a, D, S>, between: &mut dyn FnMut()) {
    between();
    request.wait_without_status();
}

pub fn ibcast(ctx: &Ctx, b: &mut Bufs, plan: &Plan, root: usize, between: &mut dyn FnMut()) {
    let p = ctx.comm.process_at_rank(root as i32);
    // The root's data is its send buffer, which a broadcast only reads there.
    let buf = if ctx.rank == root { b.send.bytes_mut(plan.x) } else { b.recv.bytes_mut(plan.x) };
    scope(|s| overlapped(p.immediate_broadcast_into(s, buf), between));
}

pub fn iallgather(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize, between: &mut dyn FnMut()) {
    let (send, recv) = (b.send.bytes(plan.x), b.recv.bytes_mut(ctx.q * plan.x));
    scope(|s| overlapped(ctx.comm.immediate_all_gather_into(s, send, recv), between));
}

pub fn iallgatherv(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize, between: &mut dyn FnMut()) {
    let (send, recv) = (b.send.bytes(plan.x), b.recv.bytes_mut(ctx.q * plan.x));
    let mut all = PartitionMut::new(recv, &plan.counts[..], &plan.displs[..]);
    scope(|s| overlapped(ctx.comm.immediate_all_gather_varcount_into(s, send, &mut all), between));
}

pub fn igather(ctx: &Ctx, b: &mut Bufs, plan: &Plan, root: usize, between: &mut dyn FnMut()) {
    let p = ctx.comm.process_at_rank(root as i32);
    let send = b.send.bytes(plan.x);
    scope(|s| {
        if ctx.rank == root {
            overlapped(
                p.immediate_gather_into_root(s, send, b.recv.bytes_mut(ctx.q * plan.x)),
                between,
            )
        } else {
            overlapped(p.immediate_gather_into(s, send), between)
        }
    });
}

pub fn igatherv(ctx: &Ctx, b: &mut Bufs, plan: &Plan, root: usize, between: &mut dyn FnMut()) {
    let p = ctx.comm.process_at_rank(root as i32);
    let send = b.send.bytes(plan.x);
    let recv = b.recv.bytes_mut(ctx.q * plan.x);
    let mut all = PartitionMut::new(recv, &plan.counts[..], &plan.displs[..]);
    scope(|s| {
        if ctx.rank == root {
            overlapped(p.immediate_gather_varcount_into_root(s, send, &mut all), between)
        } else {
            overlapped(p.immediate_gather_varcount_into(s, send), between)
        }
    });
}

pub fn iscatter(ctx: &Ctx, b: &mut Bufs, plan: &Plan, root: usize, between: &mut dyn FnMut()) {
    let p = ctx.comm.process_at_rank(root as i32);
    let recv = b.recv.bytes_mut(plan.x);
    scope(|s| {
        if ctx.rank == root {
            let send = b.send.bytes(ctx.q * plan.x);
            overlapped(p.immediate_scatter_into_root(s, send, recv), between)
        } else {
            overlapped(p.immediate_scatter_into(s, recv), between)
        }
    });
}

pub fn iscatterv(ctx: &Ctx, b: &mut Bufs, plan: &Plan, root: usize, between: &mut dyn FnMut()) {
    let p = ctx.comm.process_at_rank(root as i32);
    let recv = b.recv.bytes_mut(plan.x);
    let all = Partition::new(b.send.bytes(ctx.q * plan.x), &plan.counts[..], &plan.displs[..]);
    scope(|s| {
        if ctx.rank == root {
            overlapped(p.immediate_scatter_varcount_into_root(s, &all, recv), between)
        } else {
            overlapped(p.immediate_scatter_varcount_into(s, recv), between)
        }
    });
}

pub fn ialltoall(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize, between: &mut dyn FnMut()) {
    let n = ctx.q * plan.x;
    let (send, recv) = (b.send.bytes(n), b.recv.bytes_mut(n));
    scope(|s| overlapped(ctx.comm.immediate_all_to_all_into(s, send, recv), between));
}

pub fn ialltoallv(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize, between: &mut dyn FnMut()) {
    let n = ctx.q * plan.x;
    let send = Partition::new(b.send.bytes(n), &plan.counts[..], &plan.displs[..]);
    let mut recv = PartitionMut::new(b.recv.bytes_mut(n), &plan.counts[..], &plan.displs[..]);
    scope(|s| {
        overlapped(ctx.comm.immediate_all_to_all_varcount_into(s, &send, &mut recv), between)
    });
}

pub fn ireduce(ctx: &Ctx, b: &mut Bufs, plan: &Plan, root: usize, between: &mut dyn FnMut()) {
    let p = ctx.comm.process_at_rank(root as i32);
    let send = b.send.floats(plan.floats);
    let sum = SystemOperation::sum();
    scope(|s| {
        if ctx.rank == root {
            let recv = b.recv.floats_mut(plan.floats);
            overlapped(p.immediate_reduce_into_root(s, send, recv, sum), between)
        } else {
            overlapped(p.immediate_reduce_into(s, send, sum), between)
        }
    });
}

/// MPI_Ireduce_scatter with every process's count L (today's IMB's call, not the block form).
pub fn ireduce_scatter(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize, between: &mut dyn FnMut()) {
    let send = b.send.floats(ctx.q * plan.floats);
    let recv = b.recv.floats_mut(plan.floats);
    let sum = SystemOperation::sum();
    mpi_ext::collective::reduce_scatter_overlapped(
        ctx.comm,
        send,
        recv,
        &plan.floats_each,
        sum,
        between,
    );
}

pub fn iallreduce(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize, between: &mut dyn FnMut()) {
    let (send, recv) = (b.send.floats(plan.floats), b.recv.floats_mut(plan.floats));
    let sum = SystemOperation::sum();
    scope(|s| overlapped(ctx.comm.immediate_all_reduce_into(s, send, recv, sum), between));
}

pub fn ibarrier(ctx: &Ctx, _: &mut Bufs, _: &Plan, _: usize, between: &mut dyn FnMut()) {
    let request = ctx.comm.immediate_barrier();
    between();
    request.wait_without_status();
}

/// What a receive buffer holds: (rank, processes, plan, root) to the expectation.
pub type Expected = fn(usize, usize, &Plan, usize) -> Expect;

/// Every process but the root holds the root's X bytes.
pub fn from_root(rank: usize, _: usize, plan: &Plan, root: usize) -> Expect {
    if rank == root {
        Expect::Nothing
    } else {
        Expect::Bytes(sent_bytes(root, 0, plan.x))
    }
}

/// Block j holds process j's first X bytes.
pub fn gathered(_: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    Expect::Bytes((0..q).flat_map(|j| sent_bytes(j, 0, plan.x)).collect())
}

/// The root holds what [`gathered`] describes; the others nothing.
pub fn gathered_at_root(rank: usize, q: usize, plan: &Plan, root: usize) -> Expect {
    if rank == root {
        gathered(rank, q, plan, root)
    } else {
        Expect::Nothing
    }
}

/// Process r holds block r of the root's send buffer.
pub fn scattered(rank: usize, _: usize, plan: &Plan, root: usize) -> Expect {
    Expect::Bytes(sent_bytes(root, rank * plan.x, plan.x))
}

/// Block j holds the block of process j's send buffer meant for this process.
pub fn exchanged(rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    Expect::Bytes((0..q).flat_map(|j| sent_bytes(j, rank * plan.x, plan.x)).collect())
}

/// The root holds the element-wise sums of L floats.
pub fn summed_at_root(rank: usize, q: usize, plan: &Plan, root: usize) -> Expect {
    if rank == root {
        sums(q, 0, plan.floats)
    } else {
        Expect::Nothing
    }
}

/// Every process holds the sums of its block of L floats.
pub fn summed_block(rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    sums(q, rank * plan.floats, plan.floats)
}

/// Every process holds the sums of L floats.
pub fn summed(_: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    sums(q, 0, plan.floats)
}

/// Nothing is received.
pub fn nothing(_: usize, _: usize, _: &Plan, _: usize) -> Expect {
    Expect::Nothing
}
