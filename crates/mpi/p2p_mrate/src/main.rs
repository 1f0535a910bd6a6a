//! p2p_mrate -- message rate with WINDOW_SIZE messages in flight, one direction (PAW 1.6 §7.7.4).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::batch::Batch;
use paw_core::check;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::{buffer, vars, Check, Combine, Family, Paw, Policy, Ranks, Spec, Timing};
use paw_mpi::{time_and_second, window_size, Second, PAIR_CHECK, WINDOW_SIZE};

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
    files: "\
mrate_time-np_NNNN.dat (usec) and mrate_rate-np_NNNN.dat (messages/s), NNNN = tasks",
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
        let sizes = paw.sweep(Family::P2p)?;
        let ws = window_size(&paw, &sizes)?;
        let pairs = (paw.size() / 2) as f64;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        let mut send = buffer(sizes.max as usize);
        let mut recv = buffer(if pair.leader { 0 } else { ws * sizes.max as usize });
        let mut batch = Batch::with_capacity(ws);

        let mut bench = paw.bench(Timing::Batch { ops_per_iter: ws as f64 }, Policy::Calibrated)?;
        let window_note = format!("WINDOW_SIZE = {ws} messages in flight per pair");
        let (mut time, mut rate) = time_and_second(
            &paw,
            &bench,
            "mrate",
            "time per message",
            Second::Rate("aggregate message rate of n/2 pairs"),
            &[&window_note],
        )?;
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let slots = if pair.leader { 0 } else { ws * n };
            let m = bench.measure(size, || {
                window(&mut batch, pair.leader, &partner, &send[..n], &mut recv[..slots], ws)
            })?;
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq as u64);
                window(&mut batch, pair.leader, &partner, &send[..n], &mut recv[..slots], ws);
                wrong = recv[..slots]
                    .chunks_exact(n)
                    .map(|slot| check::mismatches(slot, pair.partner, size, seq as u64))
                    .sum();
            }
            let verdict = paw.verdict(wrong);
            time.row(size, &m.row(|t| t * 1e6).verdict(verdict));
            rate.row(size, &m.row(|t| pairs / t).verdict(verdict));
        }
        paw.checks_passed()
    })
}
