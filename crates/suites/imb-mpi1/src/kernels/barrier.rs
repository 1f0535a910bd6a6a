//! Barrier (guide §3.3.4.9): MPI_Barrier. Times only, no length.

use super::{Benchmark, Bufs, Class, Ctx, Kernel, Plan, PLAIN};
use paw_core::mpi::traits::*;
use paw_imb::buffers::Expect;

pub const BENCHMARK: Benchmark = Benchmark {
    name: "Barrier",
    class: Class::Collective,
    n_msg: 0,
    unit: 1,
    has_bytes: false,
    memory: |_, _, _| (0, 0),
    modes: PLAIN,
    overlap: false,
    default: true,
    has_root: false,
    kernel: Kernel { time_factor: 1.0, pattern: [pattern; 5], expect, zeroed: false },
};

fn pattern(ctx: &Ctx, _: &mut Bufs, _: &Plan, _: usize) {
    ctx.comm.barrier();
}

fn expect(_: usize, _: usize, _: &Plan, _: usize) -> Expect {
    Expect::Nothing
}
