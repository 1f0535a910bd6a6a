//! Reduce (guide §3.3.4.1): MPI_Reduce of L = X / sizeof(float) floats, MPI_FLOAT, MPI_SUM,
//! the root changing cyclically (run i has root i mod Q). Times only.

use super::{benchmark, one_each, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sums_of, Expect};
use paw_imb::settings::FLOAT;

pub const BENCHMARK: Benchmark =
    benchmark("Reduce", (Class::Collective, 0, FLOAT), one_each, typed!(pattern), expect).rooted();

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, iteration: usize) {
    let root = iteration % ctx.q;
    let process = ctx.comm.process_at_rank(root as i32);
    let send = b.send.elems::<T>(plan.n);
    if ctx.rank == root {
        process.reduce_into_root(send, b.recv.elems_mut::<T>(plan.n), SystemOperation::sum());
    } else {
        process.reduce_into(send, SystemOperation::sum());
    }
}

fn expect(rank: usize, q: usize, plan: &Plan, iteration: usize) -> Expect {
    if rank == iteration % q {
        sums_of(plan.elem, q, 0, plan.n)
    } else {
        Expect::Nothing
    }
}
