//! Gather and Gatherv (today's IMB; not in the 3.0 guide): MPI_Gather, and MPI_Gatherv
//! with counts X and displacements i X; every process sends X bytes, the root receives
//! the Q x X gathered bytes; the root changes cyclically (run i has root i mod Q), as
//! Bcast's. Times only.

use super::{benchmark, variant, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::datatype::PartitionMut;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

pub const GATHER: Benchmark =
    benchmark("Gather", (Class::Collective, 0, 1), |q, x, _| (x, q * x), typed!(gather), expect)
        .rooted()
        .when_named();

pub const GATHERV: Benchmark = variant(GATHER, "Gatherv", typed!(gatherv), expect);

fn gather<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, iteration: usize) {
    let root = iteration % ctx.q;
    let process = ctx.comm.process_at_rank(root as i32);
    let send = b.send.elems::<T>(plan.n);
    if ctx.rank == root {
        process.gather_into_root(send, b.recv.elems_mut::<T>(ctx.q * plan.n));
    } else {
        process.gather_into(send);
    }
}

fn gatherv<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, iteration: usize) {
    let root = iteration % ctx.q;
    let process = ctx.comm.process_at_rank(root as i32);
    let send = b.send.elems::<T>(plan.n);
    if ctx.rank == root {
        let recv = b.recv.elems_mut::<T>(ctx.q * plan.n);
        let mut gathered = PartitionMut::new(recv, &plan.counts[..], &plan.displs[..]);
        process.gather_varcount_into_root(send, &mut gathered);
    } else {
        process.gather_varcount_into(send);
    }
}

/// At the root, block j holds rank j's first X bytes.
fn expect(rank: usize, q: usize, plan: &Plan, iteration: usize) -> Expect {
    if rank == iteration % q {
        Expect::Bytes((0..q).flat_map(|j| sent_bytes(j, 0, plan.x)).collect())
    } else {
        Expect::Nothing
    }
}
