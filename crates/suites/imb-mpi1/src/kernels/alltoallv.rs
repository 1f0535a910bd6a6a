//! Alltoallv (guide §3.3.4.7): Alltoall through MPI_Alltoallv (counts X, displacements
//! i X on both sides). Times only.

use super::{Benchmark, Bufs, Class, Ctx, Kernel, Plan, PLAIN};
use paw_core::mpi::datatype::{Partition, PartitionMut};
use paw_core::mpi::traits::*;

pub const BENCHMARK: Benchmark = Benchmark {
    name: "Alltoallv",
    class: Class::Collective,
    n_msg: 0,
    unit: 1,
    has_bytes: true,
    memory: |q, x, _| (q * x, q * x),
    modes: PLAIN,
    overlap: false,
    default: true,
    kernel: Kernel { time_factor: 1.0, pattern, expect: super::alltoall::expect, zeroed: false },
};

fn pattern(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let n = ctx.q * plan.x;
    let send = Partition::new(b.send.bytes(n), &plan.counts[..], &plan.displs[..]);
    let mut recv = PartitionMut::new(b.recv.bytes_mut(n), &plan.counts[..], &plan.displs[..]);
    ctx.comm.all_to_all_varcount_into(&send, &mut recv);
}
