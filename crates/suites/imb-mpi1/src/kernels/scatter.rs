//! Scatter and Scatterv (today's IMB; not in the 3.0 guide): MPI_Scatter, and MPI_Scatterv
//! with counts X and displacements i X; the root sends X bytes to each process; the root
//! changes cyclically (run i has root i mod Q). Times only.

use super::{benchmark, variant, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::datatype::Partition;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

pub const SCATTER: Benchmark =
    benchmark("Scatter", (Class::Collective, 0, 1), |q, x, _| (q * x, x), typed!(scatter), expect)
        .rooted()
        .when_named();

pub const SCATTERV: Benchmark = variant(SCATTER, "Scatterv", typed!(scatterv), expect);

fn scatter<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, iteration: usize) {
    let root = iteration % ctx.q;
    let process = ctx.comm.process_at_rank(root as i32);
    let recv = b.recv.elems_mut::<T>(plan.n);
    if ctx.rank == root {
        process.scatter_into_root(b.send.elems::<T>(ctx.q * plan.n), recv);
    } else {
        process.scatter_into(recv);
    }
}

fn scatterv<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, iteration: usize) {
    let root = iteration % ctx.q;
    let process = ctx.comm.process_at_rank(root as i32);
    let recv = b.recv.elems_mut::<T>(plan.n);
    if ctx.rank == root {
        let send = b.send.elems::<T>(ctx.q * plan.n);
        let parts = Partition::new(send, &plan.counts[..], &plan.displs[..]);
        process.scatter_varcount_into_root(&parts, recv);
    } else {
        process.scatter_varcount_into(recv);
    }
}

/// Rank j receives block j of the root's send buffer.
fn expect(rank: usize, q: usize, plan: &Plan, iteration: usize) -> Expect {
    Expect::Bytes(sent_bytes(iteration % q, rank * plan.x, plan.x))
}
