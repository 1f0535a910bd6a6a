//! Allgatherv (guide §3.3.4.5): Allgather through MPI_Allgatherv (counts X, displacements
//! i X), showing what the vector interface costs. Times only.

use super::{Benchmark, Bufs, Class, Ctx, Elem, Kernel, Plan, PLAIN};
use paw_core::mpi::datatype::PartitionMut;
use paw_core::mpi::traits::*;

pub const BENCHMARK: Benchmark = Benchmark {
    name: "Allgatherv",
    class: Class::Collective,
    n_msg: 0,
    unit: 1,
    has_bytes: true,
    memory: |q, x, _| (x, q * x),
    modes: PLAIN,
    overlap: false,
    default: true,
    has_root: false,
    kernel: Kernel {
        time_factor: 1.0,
        pattern: typed!(pattern),
        expect: super::allgather::expect,
        zeroed: false,
    },
};

fn pattern<T: Elem>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let recv = b.recv.elems_mut::<T>(ctx.q * plan.n);
    let mut gathered = PartitionMut::new(recv, &plan.counts[..], &plan.displs[..]);
    ctx.comm.all_gather_varcount_into(b.send.elems::<T>(plan.n), &mut gathered);
}
