//! p2p_mrate_bidir -- message rate with WINDOW_SIZE messages in flight each way (PAW 1.6 §7.7.5).
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
    files: "\
mrate_bidir_time-np_NNNN.dat (usec) and mrate_bidir_rate-np_NNNN.dat (messages/s), \
NNNN = tasks",
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
        let sizes = paw.sweep(Family::P2p)?;
        let ws = window_size(&paw, &sizes)?;
        let pairs = (paw.size() / 2) as f64;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        let mut send = buffer(sizes.max as usize);
        let mut recv = buffer(ws * sizes.max as usize);
        let mut batch = Batch::with_capacity(2 * ws);

        let mut bench =
            paw.bench(Timing::Batch { ops_per_iter: 2.0 * ws as f64 }, Policy::Calibrated)?;
        let window_note = format!("WINDOW_SIZE = {ws} messages in flight per pair and direction");
        let (mut time, mut rate) = time_and_second(
            &paw,
            &bench,
            "mrate_bidir",
            "time per message",
            Second::Rate("aggregate message rate of n/2 pairs"),
            &[&window_note],
        )?;
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m = bench.measure(size, || {
                window(&mut batch, pair.leader, &partner, &send[..n], &mut recv[..ws * n])
            })?;
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq as u64);
                window(&mut batch, pair.leader, &partner, &send[..n], &mut recv[..ws * n]);
                wrong = recv[..ws * n]
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
