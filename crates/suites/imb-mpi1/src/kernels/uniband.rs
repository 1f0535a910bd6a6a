//! Uniband and Biband (today's IMB, run when named): windows of messages between pairs.
//! With Q processes, rank r < Q/2 pairs with r + Q/2. One repetition is a window: Uniband's
//! lower rank MPI_Isend W = `-window_size` messages of X bytes to its partner, which posts W
//! MPI_Irecv; both MPI_Waitall, then the receiver sends a 1-byte acknowledgement. Biband:
//! both post W MPI_Irecv and W MPI_Isend, MPI_Waitall on all 2W, then the upper rank
//! acknowledges. Msg/sec = messages per window x pairs / t_max; Mbytes/sec = Msg/sec x X.

use super::{benchmark, Benchmark, Bufs, Class, Ctx, Elem, Kernel, Plan};
use mpi_ext::Plain;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, Expect};

// The window's messages all land in one buffer; it holds the acknowledgement at 0 bytes.
pub const UNIBAND: Benchmark = benchmark(
    "Uniband",
    (Class::MessageRate, 1, 1),
    |_, x, _| (x.max(1), x.max(1)),
    typed!(uniband),
    expect_uniband,
)
.when_named();

pub const BIBAND: Benchmark = Benchmark {
    name: "Biband",
    n_msg: 2,
    kernel: Kernel { pattern: typed!(biband), expect: expect_biband, ..UNIBAND.kernel },
    ..UNIBAND
};

/// This rank's partner and whether it is in the lower half.
fn pair(rank: usize, q: usize) -> (usize, bool) {
    let peers = q / 2;
    if rank < peers {
        (rank + peers, true)
    } else {
        (rank - peers, false)
    }
}

fn uniband<T: Elem + Plain>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let (partner, lower) = pair(ctx.rank, ctx.q);
    let other = ctx.comm.process_at_rank(partner as i32);
    if lower {
        let send = b.send.elems::<T>(plan.n);
        b.batch.run(|p| (0..plan.window).for_each(|_| p.isend(&other, send, 1)));
        other.receive_into(b.recv.bytes_mut(1));
    } else {
        let recv = b.recv.elems_mut::<T>(plan.n);
        b.batch.run(|p| p.irecv_window(&other, recv, plan.window, 1));
        other.send(b.send.bytes(1));
    }
}

fn biband<T: Elem + Plain>(ctx: &Ctx, b: &mut Bufs, plan: &Plan, _: usize) {
    let (partner, lower) = pair(ctx.rank, ctx.q);
    let other = ctx.comm.process_at_rank(partner as i32);
    let (send, recv) = (b.send.elems::<T>(plan.n), b.recv.elems_mut::<T>(plan.n));
    b.batch.run(|p| {
        p.irecv_window(&other, recv, plan.window, 1);
        (0..plan.window).for_each(|_| p.isend(&other, send, 1));
    });
    if lower {
        other.receive_into(b.recv.bytes_mut(1));
    } else {
        other.send(b.send.bytes(1));
    }
}

/// Uniband: the receiver holds its partner's X bytes, the sender its acknowledgement byte.
fn expect_uniband(rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    let (partner, lower) = pair(rank, q);
    Expect::Bytes(sent_bytes(partner, 0, if lower { 1 } else { plan.x }))
}

/// Biband: both hold the partner's X bytes; the lower rank's first byte is then
/// overwritten by the acknowledgement, the partner's first byte again.
fn expect_biband(rank: usize, q: usize, plan: &Plan, _: usize) -> Expect {
    let (partner, lower) = pair(rank, q);
    Expect::Bytes(sent_bytes(partner, 0, if lower { plan.x.max(1) } else { plan.x }))
}

#[cfg(test)]
mod tests {
    use super::pair;

    #[test]
    fn the_lower_half_pairs_with_the_upper() {
        assert_eq!(pair(0, 2), (1, true));
        assert_eq!(pair(1, 2), (0, false));
        assert_eq!(pair(1, 6), (4, true));
        assert_eq!(pair(5, 6), (2, false));
    }
}
