//! Barrier (guide §3.3.4.9): MPI_Barrier. Times only, no length.

use super::{benchmark, Benchmark, Bufs, Class, Ctx, Plan};
use paw_core::mpi::traits::*;
use paw_imb::buffers::Expect;

pub const BENCHMARK: Benchmark = {
    let b = benchmark("Barrier", (Class::Collective, 0, 1), |_, _, _| (0, 0), [pattern; 5], expect);
    Benchmark { has_bytes: false, ..b }
};

fn pattern(ctx: &Ctx, _: &mut Bufs, _: &Plan, _: usize) {
    ctx.comm.barrier();
}

fn expect(_: usize, _: usize, _: &Plan, _: usize) -> Expect {
    Expect::Nothing
}
