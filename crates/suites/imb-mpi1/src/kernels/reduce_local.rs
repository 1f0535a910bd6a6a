//! Reduce_local (today's IMB; not in the 3.0 guide): MPI_Reduce_local of L = X /
//! sizeof(float) floats, MPI_FLOAT, MPI_SUM, the send buffer added into the receive buffer
//! on every process, no communication. Times only.

use super::{one_each, Benchmark, Bufs, Class, Ctx, Kernel, Plan, PLAIN};
use paw_core::mpi::collective::{reduce_local_into, SystemOperation};
use paw_imb::buffers::{buf_value, Expect};
use paw_imb::settings::FLOAT;

pub const BENCHMARK: Benchmark = Benchmark {
    name: "Reduce_local",
    class: Class::Collective,
    n_msg: 0,
    unit: FLOAT,
    has_bytes: true,
    memory: one_each,
    modes: PLAIN,
    overlap: false,
    default: false,
    kernel: Kernel { time_factor: 1.0, pattern, expect, zeroed: true },
};

fn pattern(_: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let (send, recv) = (b.send.floats(plan.floats), b.recv.floats_mut(plan.floats));
    reduce_local_into(send, recv, SystemOperation::sum());
}

/// From a zeroed receive buffer: this process's own send values.
fn expect(rank: usize, _: usize, plan: &Plan, _: usize) -> Expect {
    let values = (0..plan.floats).map(|i| buf_value(rank, i) as f64).collect();
    Expect::Sums { values, terms: 1 }
}
