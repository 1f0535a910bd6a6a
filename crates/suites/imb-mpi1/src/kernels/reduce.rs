//! Reduce (guide §3.3.4.1): MPI_Reduce of L = X / sizeof(float) floats, MPI_FLOAT, MPI_SUM,
//! the root changing cyclically (run i has root i mod Q). Times only.

use super::{one_each, Benchmark, Bufs, Class, Ctx, Kernel, Plan, PLAIN};
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sums, Expect};
use paw_imb::settings::FLOAT;

pub const BENCHMARK: Benchmark = Benchmark {
    name: "Reduce",
    class: Class::Collective,
    n_msg: 0,
    unit: FLOAT,
    has_bytes: true,
    memory: one_each,
    modes: PLAIN,
    overlap: false,
    default: true,
    kernel: Kernel { time_factor: 1.0, pattern, expect, zeroed: false },
};

fn pattern(ctx: &Ctx, b: &mut Bufs, plan: &Plan, iteration: usize) {
    let root = iteration % ctx.q;
    let process = ctx.comm.process_at_rank(root as i32);
    let send = b.send.floats(plan.floats);
    if ctx.rank == root {
        process.reduce_into_root(send, b.recv.floats_mut(plan.floats), SystemOperation::sum());
    } else {
        process.reduce_into(send, SystemOperation::sum());
    }
}

fn expect(rank: usize, q: usize, plan: &Plan, iteration: usize) -> Expect {
    if rank == iteration % q {
        sums(q, 0, plan.floats)
    } else {
        Expect::Nothing
    }
}
