//! Barrier (guide §3.3.4.9): MPI_Barrier. Times only, no length.

use super::{Benchmark, Bufs, Class, Ctx, Plan};
use crate::buffers::Expect;
use paw_core::mpi::traits::*;

pub const BENCHMARK: Benchmark = Benchmark {
    name: "Barrier",
    class: Class::Collective,
    n_msg: 0,
    time_factor: 1.0,
    unit: 1,
    has_bytes: false,
    memory: |_, _| (0, 0),
    pattern,
    expect,
};

fn pattern(ctx: &Ctx, _: &mut Bufs, _: &Plan, _: usize) {
    ctx.comm.barrier();
}

fn expect(_: usize, _: usize, _: &Plan, _: usize) -> Expect {
    Expect::Nothing
}
