//! p2p_mrate_bidir -- message rate with WINDOW_SIZE messages in flight each way (PAW 1.6 §7.7.5).
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
    name: "p2p_mrate_bidir",
    title: "message rate with WINDOW_SIZE messages in flight each way (PAW 1.6 section 7.7.5)",
    timed: "\
Task i pairs with task i + n/2 (PAW Fig. 7.1). Per sample: NLOOP windows; in each, \
tasks 0..n/2-1 post WINDOW_SIZE x (MPI_Isend, MPI_Irecv), tasks n/2..n-1 WINDOW_SIZE x \
(MPI_Irecv, MPI_Isend), then both MPI_Waitall (PAW Table 7.15). Sizes MIN_P2P_SIZE, \
doubling, to MAX_P2P_SIZE; each task holds WINDOW_SIZE x MAX_P2P_SIZE bytes of receive \
buffers.",
    reports: "\
time per message = sample / (NLOOP x 2 x WINDOW_SIZE), usec, {ranks}; \
aggregate message rate of the n/2 pairs = n/2 / time per message, messages/s.",
    ranks: Ranks::Even,
    combine: Combine::Max,
    vars: &[&[WINDOW_SIZE], vars::P2P_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: Files::Sweep(SweepFiles {
        stem: "mrate_bidir",
        time: "time per message",
        second: Second::Rate("aggregate message rate of n/2 pairs"),
        extra: Extra::Plain,
    }),
};

/// One window each way: sends from one buffer, receives into distinct slots of `slots`.
fn window(batch: &mut Batch, leader: bool, peer: &Process<'_>, send: &[u8], slots: &mut [u8]) {
    batch.run(|b| {
        for slot in slots.chunks_exact_mut(send.len()) {
            if leader {
                b.isend(peer, send, 0);
                b.irecv(peer, slot, 0);
            } else {
                b.irecv(peer, slot, 0);
                b.isend(peer, send, 0);
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
        let mut state = (
            buffer(sizes.max as usize),
            buffer(ws * sizes.max as usize),
            Batch::with_capacity(2 * ws),
        );
        let timing = Timing::Batch { ops_per_iter: 2.0 * ws as f64 };
        let note = format!("WINDOW_SIZE = {ws} messages in flight per pair and direction");
        let sweep = Sweep::start(&paw, sizes, timing, &[&note])?.scaled((paw.size() / 2) as f64);
        sweep.run(
            &mut state,
            |(send, recv, batch), n| {
                window(batch, pair.leader, &partner, &send[..n], &mut recv[..ws * n])
            },
            |(send, recv, batch), p| {
                check::fill(&mut send[..p.n], paw.rank(), p.size, p.seq);
                window(batch, pair.leader, &partner, &send[..p.n], &mut recv[..ws * p.n]);
                check::slots(&recv[..ws * p.n], p.n, pair.partner, p.size, p.seq)
            },
        )
    })
}
