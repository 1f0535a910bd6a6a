//! Allgather (guide §3.3.4.4): MPI_Allgather; every process inputs X bytes and receives the
//! Q x X gathered bytes. Times only.

use super::{Benchmark, Bufs, Class, Ctx, Plan};
use crate::buffers::{sent_bytes, Expect};
use paw_core::mpi::traits::*;

pub const BENCHMARK: Benchmark = Benchmark {
    name: "Allgather",
    class: Class::Collective,
    n_msg: 0,
    time_factor: 1.0,
    unit: 1,
    has_bytes: true,
    memory: |q, x| (x, q * x),
    pattern,
    expect,
};

fn pattern(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    ctx.comm.all_gather_into(b.send.bytes(plan.x), b.recv.bytes_mut(ctx.q * plan.x));
}

/// Block j holds rank j's first X bytes (also Allgatherv's expectation).
pub fn expect(_rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    Expect::Bytes((0..q).flat_map(|j| sent_bytes(j, 0, plan.x)).collect())
}
