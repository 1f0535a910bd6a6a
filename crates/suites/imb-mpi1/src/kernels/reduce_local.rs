//! Reduce_local (today's IMB; not in the 3.0 guide): MPI_Reduce_local of L = X /
//! sizeof(float) floats, MPI_FLOAT, MPI_SUM, the send buffer added into the receive buffer
//! on every process, no communication. Times only.

use super::{benchmark, one_each, Benchmark, Bufs, Class, Ctx, Elem, Kernel, Plan};
use paw_core::mpi::collective::{reduce_local_into, SystemOperation};
use paw_imb::buffers::{reduction_value, Expect};
use paw_imb::settings::FLOAT;

pub const BENCHMARK: Benchmark = {
    let b =
        benchmark("Reduce_local", (Class::Collective, 0, FLOAT), one_each, typed!(pattern), expect);
    Benchmark { kernel: Kernel { zeroed: true, ..b.kernel }, ..b }.when_named()
};

fn pattern<T: Elem>(_: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let (send, recv) = (b.send.elems::<T>(plan.n), b.recv.elems_mut::<T>(plan.n));
    reduce_local_into(send, recv, SystemOperation::sum());
}

/// From a zeroed receive buffer: this process's own send values.
fn expect(rank: usize, _: usize, plan: &Plan, _: usize) -> Expect {
    let values = (0..plan.n).map(|i| reduction_value(plan.elem, rank, i)).collect();
    Expect::Sums { values, terms: 1, elem: plan.elem }
}
