//! The thirteen MPI-4 persistent collectives of IMB-MPI4 (today's IMB, src_cpp/MPI4): each
//! made once per length over the same buffers and counts as its IMB-NBC twin in [`super::ops`]
//! (which also says what the receive buffers then hold). The suite's prologue checks that
//! the library has them before any is made.

use super::{Bufs, Ctx, Plan};
use mpi_ext::persistent::{self as p, Persistent};
use paw_core::mpi::collective::SystemOperation;

/// Makes the persistent collective of one length (root as given; collective).
pub type Init = for<'b> fn(&'b Ctx<'_>, &'b mut Bufs, &'b Plan, root: usize) -> Persistent<'b>;

const MPI4: &str = "MPI-4 checked by the prologue";

/// Whether this process is the root.
fn at_root(ctx: &Ctx, root: usize) -> bool {
    ctx.rank == root
}

/// MPI_Bcast_init: the root's send buffer, the others' receive buffer.
pub fn bcast<'b>(ctx: &'b Ctx<'_>, b: &'b mut Bufs, plan: &'b Plan, root: usize) -> Persistent<'b> {
    let buf = if at_root(ctx, root) { b.send.bytes_mut(plan.x) } else { b.recv.bytes_mut(plan.x) };
    p::bcast_init(ctx.comm, root as i32, buf).expect(MPI4)
}

/// MPI_Allgather_init of X bytes.
pub fn allgather<'b>(
    ctx: &'b Ctx<'_>,
    b: &'b mut Bufs,
    plan: &'b Plan,
    _: usize,
) -> Persistent<'b> {
    let (send, recv) = (b.send.bytes(plan.x), b.recv.bytes_mut(ctx.q * plan.x));
    p::allgather_init(ctx.comm, send, recv).expect(MPI4)
}

/// MPI_Allgatherv_init of X bytes per process.
pub fn allgatherv<'b>(
    ctx: &'b Ctx<'_>,
    b: &'b mut Bufs,
    plan: &'b Plan,
    _: usize,
) -> Persistent<'b> {
    let (send, recv) = (b.send.bytes(plan.x), b.recv.bytes_mut(ctx.q * plan.x));
    p::allgatherv_init(ctx.comm, send, recv, &plan.counts, &plan.displs).expect(MPI4)
}

/// MPI_Gather_init of X bytes to the root.
pub fn gather<'b>(
    ctx: &'b Ctx<'_>,
    b: &'b mut Bufs,
    plan: &'b Plan,
    root: usize,
) -> Persistent<'b> {
    let send = b.send.bytes(plan.x);
    let recv = at_root(ctx, root).then(|| b.recv.bytes_mut(ctx.q * plan.x));
    p::gather_init(ctx.comm, root as i32, send, recv).expect(MPI4)
}

/// MPI_Gatherv_init of X bytes per process to the root.
pub fn gatherv<'b>(
    ctx: &'b Ctx<'_>,
    b: &'b mut Bufs,
    plan: &'b Plan,
    root: usize,
) -> Persistent<'b> {
    let send = b.send.bytes(plan.x);
    let recv = at_root(ctx, root).then(|| b.recv.bytes_mut(ctx.q * plan.x));
    p::gatherv_init(ctx.comm, root as i32, send, recv, &plan.counts, &plan.displs).expect(MPI4)
}

/// MPI_Scatter_init of X bytes per process from the root.
pub fn scatter<'b>(
    ctx: &'b Ctx<'_>,
    b: &'b mut Bufs,
    plan: &'b Plan,
    root: usize,
) -> Persistent<'b> {
    let send = at_root(ctx, root).then(|| b.send.bytes(ctx.q * plan.x));
    p::scatter_init(ctx.comm, root as i32, send, b.recv.bytes_mut(plan.x)).expect(MPI4)
}

/// MPI_Scatterv_init of X bytes per process from the root.
pub fn scatterv<'b>(
    ctx: &'b Ctx<'_>,
    b: &'b mut Bufs,
    plan: &'b Plan,
    root: usize,
) -> Persistent<'b> {
    let send = at_root(ctx, root).then(|| b.send.bytes(ctx.q * plan.x));
    let recv = b.recv.bytes_mut(plan.x);
    p::scatterv_init(ctx.comm, root as i32, send, recv, &plan.counts, &plan.displs).expect(MPI4)
}

/// MPI_Alltoall_init of X bytes to every process.
pub fn alltoall<'b>(ctx: &'b Ctx<'_>, b: &'b mut Bufs, plan: &'b Plan, _: usize) -> Persistent<'b> {
    let n = ctx.q * plan.x;
    p::alltoall_init(ctx.comm, b.send.bytes(n), b.recv.bytes_mut(n)).expect(MPI4)
}

/// MPI_Alltoallv_init of X bytes to every process.
pub fn alltoallv<'b>(
    ctx: &'b Ctx<'_>,
    b: &'b mut Bufs,
    plan: &'b Plan,
    _: usize,
) -> Persistent<'b> {
    let n = ctx.q * plan.x;
    let (send, recv) = (b.send.bytes(n), b.recv.bytes_mut(n));
    p::alltoallv_init(ctx.comm, send, recv, &plan.counts, &plan.displs).expect(MPI4)
}

/// MPI_Reduce_init of L floats (MPI_SUM) to the root.
pub fn reduce<'b>(
    ctx: &'b Ctx<'_>,
    b: &'b mut Bufs,
    plan: &'b Plan,
    root: usize,
) -> Persistent<'b> {
    let send = b.send.floats(plan.floats);
    let recv = at_root(ctx, root).then(|| b.recv.floats_mut(plan.floats));
    p::reduce_init(ctx.comm, root as i32, send, recv, SystemOperation::sum()).expect(MPI4)
}

/// MPI_Reduce_scatter_init of Q L floats, L to each process (MPI_SUM).
pub fn reduce_scatter<'b>(
    ctx: &'b Ctx<'_>,
    b: &'b mut Bufs,
    plan: &'b Plan,
    _: usize,
) -> Persistent<'b> {
    let send = b.send.floats(ctx.q * plan.floats);
    let recv = b.recv.floats_mut(plan.floats);
    let sum = SystemOperation::sum();
    p::reduce_scatter_init(ctx.comm, send, recv, &plan.floats_each, sum).expect(MPI4)
}

/// MPI_Allreduce_init of L floats (MPI_SUM).
pub fn allreduce<'b>(
    ctx: &'b Ctx<'_>,
    b: &'b mut Bufs,
    plan: &'b Plan,
    _: usize,
) -> Persistent<'b> {
    let (send, recv) = (b.send.floats(plan.floats), b.recv.floats_mut(plan.floats));
    p::allreduce_init(ctx.comm, send, recv, SystemOperation::sum()).expect(MPI4)
}

/// MPI_Barrier_init.
pub fn barrier<'b>(ctx: &'b Ctx<'_>, _: &'b mut Bufs, _: &'b Plan, _: usize) -> Persistent<'b> {
    p::barrier_init(ctx.comm).expect(MPI4)
}
