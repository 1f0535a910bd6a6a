//! p2p_mrate -- sustained message rate, one direction: WINDOW_SIZE messages in flight,
//! then MPI_Waitall (PAW 1.6 §7.7.4, timed calls of Table 7.14).
//!
//! Task i sends to task i + n/2. Timed per sample: NLOOP windows; in each, senders post
//! WINDOW_SIZE MPI_Isend and receivers WINDOW_SIZE MPI_Irecv (into distinct buffers), then
//! both MPI_Waitall. Reported: time per message = sample / (NLOOP x WINDOW_SIZE) in usec, and
//! the aggregate message rate of the n/2 pairs = n/2 / time per message, in messages/s.
//! Each repetition takes the maximum over tasks: senders can run ahead of delivery, only
//! the receivers' clocks cover it. Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE.
//! Needs an even number of tasks; receivers hold WINDOW_SIZE x MAX_P2P_SIZE bytes.
//! Env: WINDOW_SIZE (default 128) MIN/MAX_P2P_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_CHECK
//! PAW_OUTPUT_DIR. Writes mrate_time-np_NNNN.dat (usec) and mrate_rate-np_NNNN.dat (messages/s).
use mpi_ext::batch::Batch;
use paw_core::check;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::{buffer, Combine, Family, Paw, Policy, Ranks, Spec, Timing};
use paw_mpi::{time_and_second, window_size, Second};

const SPEC: Spec = Spec {
    name: "p2p_mrate",
    title:
        "message rate with WINDOW_SIZE messages in flight, one direction (PAW 1.6 section 7.7.4)",
    help: "\
Task i sends to task i+n/2. Timed per sample: NLOOP windows of WINDOW_SIZE messages
(first half: Isend x WINDOW_SIZE, Waitall; second half: Irecv x WINDOW_SIZE, Waitall).
Time per message = sample / (NLOOP x WINDOW_SIZE), maximum over tasks; aggregate rate =
n/2 / time per message, messages/s.
Needs an even number of MPI tasks:  mpirun -np 2 p2p_mrate
Env: WINDOW_SIZE (default 128), MIN_P2P_SIZE MAX_P2P_SIZE (bytes).
Writes mrate_time-np_NNNN.dat (usec) and mrate_rate-np_NNNN.dat (messages/s).",
    ranks: Ranks::Even,
};

const TIMED: &str = "timed calls: tasks 0..n/2-1 WINDOW_SIZE x MPI_Isend, MPI_Waitall; \
                     tasks n/2..n-1 WINDOW_SIZE x MPI_Irecv, MPI_Waitall (PAW Table 7.14)";

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
        let sizes = paw.sizes(Family::P2p)?;
        let ws = window_size(&paw, &sizes)?;
        let pairs = (paw.size() / 2) as f64;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        let mut send = buffer(sizes.max as usize);
        let mut recv = buffer(if pair.leader { 0 } else { ws * sizes.max as usize });
        let mut batch = Batch::with_capacity(ws);

        let mut bench =
            paw.bench(Timing::Batch { ops_per_iter: ws as f64 }, Combine::Max, Policy::Calibrated);
        let window_note = format!("WINDOW_SIZE = {ws} messages in flight per pair");
        let (mut time, mut rate) = time_and_second(
            &paw,
            &bench,
            "mrate",
            "time per message",
            Second::Rate("aggregate message rate of n/2 pairs"),
            &[TIMED, &window_note, "rate = n/2 / time per message"],
        )?;
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let slots = if pair.leader { 0 } else { ws * n };
            let m = bench.measure(|| {
                window(&mut batch, pair.leader, &partner, &send[..n], &mut recv[..slots], ws)
            });
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
