//! Bcast (guide §3.3.4.8): MPI_Bcast of X bytes, the root changing cyclically (run i has
//! root i mod Q). Times only.

use super::{benchmark, one_each, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

pub const BENCHMARK: Benchmark =
    benchmark("Bcast", (Class::Collective, 0, 1), one_each, typed!(pattern), expect).rooted();

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, iteration: usize) {
    let root = iteration % ctx.q;
    let process = ctx.comm.process_at_rank(root as i32);
    if ctx.rank == root {
        // MPI_Bcast only reads the root's buffer: the send buffer keeps its contents.
        process.broadcast_into(b.send.elems_mut::<T>(plan.n));
    } else {
        process.broadcast_into(b.recv.elems_mut::<T>(plan.n));
    }
}

fn expect(rank: usize, q: usize, plan: &Plan, iteration: usize) -> Expect {
    let root = iteration % q;
    if rank == root {
        Expect::Nothing
    } else {
        Expect::Bytes(sent_bytes(root, 0, plan.x))
    }
}
