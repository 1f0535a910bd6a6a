//! p2p_mrate -- message rate with WINDOW_SIZE messages in flight, one direction (PAW 1.6 §7.7.4).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::batch::Batch;
use paw_core::check;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::{
    buffer, vars, Check, Combine, Extra, Files, Paw, Ranks, Second, Spec, SweepFiles, Timing,
};
use paw_mpi::{window_size, Sweep, PAIR_CHECK, WINDOW_SIZE};

const SPEC: Spec = Spec {
    name: "p2p_mrate",
    title:
        "message rate with WINDOW_SIZE messages in flight, one direction (PAW 1.6 section 7.7.4)",
    timed: "\
Task i pairs with task i + n/2 (PAW Fig. 7.1). Per sample: NLOOP windows; in each, \
tasks 0..n/2-1 post WINDOW_SIZE MPI_Isend and tasks n/2..n-1 WINDOW_SIZE MPI_Irecv \
(into distinct buffers), then both MPI_Waitall (PAW Table 7.14). Sizes MIN_P2P_SIZE, \
doubling, to MAX_P2P_SIZE; receivers hold WINDOW_SIZE x MAX_P2P_SIZE bytes.",
    reports: "\
time per message = sample / (NLOOP x WINDOW_SIZE), usec, {ranks} (senders \
can run ahead of delivery); aggregate message rate of the n/2 pairs = n/2 / time per \
message, messages/s.",
    ranks: Ranks::Even,
    combine: Combine::Max,
    vars: &[&[WINDOW_SIZE], vars::P2P_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: Files::Sweep(SweepFiles {
        stem: "mrate",
        time: "time per message",
        second: Second::Rate("aggregate message rate of n/2 pairs"),
        extra: Extra::Plain,
    }),
};

/// One window: every send from the same buffer, every receive into its own slot of `recv`.
fn window(
    batch: &mut Batch,
    leader: bool,
    to: &Process<'_>,
    send: &[u8],
    slots: &mut [u8],
    ws: usize,
) {
    batch.run(|b| {
        if leader {
            for _ in 0..ws {
                b.isend(to, send, 0);
            }
        } else {
            for slot in slots.chunks_exact_mut(send.len()) {
                b.irecv(to, slot, 0);
            }
        }
    })
}

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = Sweep::sizes(&paw)?;
        let ws = window_size(&paw, &sizes)?;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        let slots = if pair.leader { 0 } else { ws };
        let mut state = (
            buffer(sizes.max as usize),
            buffer(slots * sizes.max as usize),
            Batch::with_capacity(ws),
        );
        let timing = Timing::Batch { ops_per_iter: ws as f64 };
        let note = format!("WINDOW_SIZE = {ws} messages in flight per pair");
        let sweep = Sweep::start(&paw, sizes, timing, &[&note])?.scaled((paw.size() / 2) as f64);
        sweep.run(
            &mut state,
            |(send, recv, batch), n| {
                window(batch, pair.leader, &partner, &send[..n], &mut recv[..slots * n], ws)
            },
            |(send, recv, batch), p| {
                check::fill(&mut send[..p.n], paw.rank(), p.size, p.seq);
                window(batch, pair.leader, &partner, &send[..p.n], &mut recv[..slots * p.n], ws);
                check::slots(&recv[..slots * p.n], p.n, pair.partner, p.size, p.seq)
            },
        )
    })
}
