//! Alltoallv (guide §3.3.4.7): Alltoall through MPI_Alltoallv (counts X, displacements
//! i X on both sides). Times only.

use super::{Benchmark, Bufs, Class, Ctx, Elem, Kernel, Plan, PLAIN};
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
    has_root: false,
    kernel: Kernel {
        time_factor: 1.0,
        pattern: typed!(pattern),
        expect: super::alltoall::expect,
        zeroed: false,
    },
};

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let n = ctx.q * plan.n;
    let send = Partition::new(b.send.elems::<T>(n), &plan.counts[..], &plan.displs[..]);
    let mut recv = PartitionMut::new(b.recv.elems_mut::<T>(n), &plan.counts[..], &plan.displs[..]);
    ctx.comm.all_to_all_varcount_into(&send, &mut recv);
}
