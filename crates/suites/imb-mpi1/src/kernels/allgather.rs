//! Allgather (guide §3.3.4.4): MPI_Allgather; every process inputs X bytes and receives the
//! Q x X gathered bytes. Times only.

use super::{Benchmark, Bufs, Class, Ctx, Elem, Kernel, Plan, PLAIN};
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

pub const BENCHMARK: Benchmark = Benchmark {
    name: "Allgather",
    class: Class::Collective,
    n_msg: 0,
    unit: 1,
    has_bytes: true,
    memory: |q, x, _| (x, q * x),
    modes: PLAIN,
    overlap: false,
    default: true,
    has_root: false,
    kernel: Kernel { time_factor: 1.0, pattern: typed!(pattern), expect, zeroed: false },
};

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    ctx.comm.all_gather_into(b.send.elems::<T>(plan.n), b.recv.elems_mut::<T>(ctx.q * plan.n));
}

/// Block j holds rank j's first X bytes (also Allgatherv's expectation).
pub fn expect(_rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    Expect::Bytes((0..q).flat_map(|j| sent_bytes(j, 0, plan.x)).collect())
}
