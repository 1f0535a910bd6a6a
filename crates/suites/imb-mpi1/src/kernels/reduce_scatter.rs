//! Reduce_scatter (guide §3.3.4.2): MPI_Reduce_scatter of L = X / sizeof(float) floats,
//! MPI_FLOAT, MPI_SUM; with L = r Q + s, rank i receives r+1 floats if i < s, else r.
//! Times only.

use super::{benchmark, one_each, Benchmark, Bufs, Class, Ctx, Elem, Plan};
use mpi_ext::Plain;
use paw_core::mpi::collective::SystemOperation;
use paw_imb::buffers::{sums_of, Expect};
use paw_imb::settings::FLOAT;
use std::os::raw::c_int;

pub const BENCHMARK: Benchmark =
    benchmark("Reduce_scatter", (Class::Collective, 0, FLOAT), one_each, typed!(pattern), expect);

/// The guide's split of `l` floats over `q` ranks.
pub fn split(l: usize, q: usize) -> Vec<c_int> {
    let (r, s) = (l / q, l % q);
    (0..q).map(|i| (if i < s { r + 1 } else { r }) as c_int).collect()
}

fn pattern<T: Elem + Plain>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let (send, recv) = (b.send.elems::<T>(plan.n), b.recv.elems_mut::<T>(plan.n));
    mpi_ext::collective::reduce_scatter(
        ctx.comm,
        send,
        recv,
        &plan.scatter,
        SystemOperation::sum(),
    );
}

fn expect(rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    let from: usize = plan.scatter[..rank].iter().map(|&c| c as usize).sum();
    sums_of(plan.elem, q, from, plan.scatter[rank] as usize)
}

#[cfg(test)]
mod tests {
    #[test]
    fn split_follows_the_guide() {
        assert_eq!(super::split(10, 4), [3, 3, 2, 2]);
        assert_eq!(super::split(3, 4), [1, 1, 1, 0]);
        assert_eq!(super::split(0, 3), [0, 0, 0]);
        assert_eq!(super::split(8, 2), [4, 4]);
    }
}
