//! Alltoall (guide §3.3.4.6): MPI_Alltoall; every process sends X bytes to each process
//! and receives X bytes from each. Times only.

use super::{Benchmark, Bufs, Class, Ctx, Elem, Kernel, Plan, PLAIN};
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

pub const BENCHMARK: Benchmark = Benchmark {
    name: "Alltoall",
    class: Class::Collective,
    n_msg: 0,
    unit: 1,
    has_bytes: true,
    memory: |q, x, _| (q * x, q * x),
    modes: PLAIN,
    overlap: false,
    default: true,
    has_root: false,
    kernel: Kernel { time_factor: 1.0, pattern: typed!(pattern), expect, zeroed: false },
};

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let n = ctx.q * plan.n;
    ctx.comm.all_to_all_into(b.send.elems::<T>(n), b.recv.elems_mut::<T>(n));
}

/// Block j holds the block of rank j's send buffer meant for this rank (also Alltoallv's).
pub fn expect(rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    Expect::Bytes((0..q).flat_map(|j| sent_bytes(j, rank * plan.x, plan.x)).collect())
}
