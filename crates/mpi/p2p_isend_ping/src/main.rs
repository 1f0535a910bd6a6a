//! p2p_isend_ping -- one direction only: the first half of the tasks streams messages to
//! the second half with MPI_Isend/MPI_Irecv and MPI_Wait (PAW 1.6 §7.7.2, Table 7.13).
//! Useful to expose asymmetries a ping-pong averages away (e.g. between unlike devices).
//!
//! Task i pairs with task i + n/2. Timed per sample: NLOOP messages; senders run MPI_Isend,
//! MPI_Wait, receivers MPI_Irecv, MPI_Wait. Reported: time per message = sample / NLOOP in
//! usec and bandwidth per pair = SIZE / time in MB/s (MB = 2^20 B). Each repetition takes
//! the maximum over tasks, not PAW's minimum: a sender's MPI_Wait may return before its
//! message arrives, so only the receiver's clock covers the delivery.
//! Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE; untimed warm-up at MED_P2P_SIZE.
//! Needs an even number of tasks.
//! Env: MIN/MED/MAX_P2P_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_CHECK PAW_OUTPUT_DIR.
//! Writes isend_ping_time-np_NNNN.dat (usec) and isend_ping_bw-np_NNNN.dat (MB/s).
use paw_core::check;
use paw_core::mpi::request;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::{buffer, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{time_and_second, Second};

const SPEC: Spec = Spec {
    name: "p2p_isend_ping",
    title: "one-directional MPI_Isend/MPI_Irecv stream between task pairs (PAW 1.6 section 7.7.2)",
    help: "\
Task i sends to task i+n/2. Timed per sample: NLOOP messages (first half: Isend, Wait;
second half: Irecv, Wait). Time per message = sample / NLOOP, maximum over tasks (the
receiver's clock); bandwidth per pair = SIZE / time, MB/s (MB = 2^20 B).
Needs an even number of MPI tasks:  mpirun -np 2 p2p_isend_ping
Env: MIN_P2P_SIZE MED_P2P_SIZE MAX_P2P_SIZE (bytes; defaults 1, 20000, 1000000).
Writes isend_ping_time-np_NNNN.dat (usec) and isend_ping_bw-np_NNNN.dat (MB/s).",
    ranks: Ranks::Even,
};

const TIMED: &str = "timed calls: tasks 0..n/2-1 MPI_Isend, MPI_Wait; \
                     tasks n/2..n-1 MPI_Irecv, MPI_Wait (PAW Table 7.13)";

/// One message from the leader to its partner.
fn ping(leader: bool, partner: &Process<'_>, send: &[u8], recv: &mut [u8]) {
    request::scope(|scope| {
        if leader {
            partner.immediate_send(scope, send).wait_without_status();
        } else {
            partner.immediate_receive_into(scope, recv).wait_without_status();
        }
    })
}

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::P2p)?;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        let mut send = buffer(sizes.max.max(sizes.med) as usize);
        let mut recv = buffer(send.len());

        let mut bench =
            paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Combine::Max, Policy::Calibrated);
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "isend_ping",
            "time per message",
            Second::Bandwidth("bandwidth per pair"),
            &[TIMED, "bandwidth = SIZE / time per message"],
        )?;
        let warm = sizes.med as usize;
        ping(pair.leader, &partner, &send[..warm], &mut recv[..warm]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m = bench.measure(|| ping(pair.leader, &partner, &send[..n], &mut recv[..n]));
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq as u64);
                ping(pair.leader, &partner, &send[..n], &mut recv[..n]);
                if !pair.leader {
                    wrong = check::mismatches(&recv[..n], pair.partner, size, seq as u64);
                }
            }
            let verdict = paw.verdict(wrong);
            time.row(size, &m.row(|t| t * 1e6).verdict(verdict));
            bw.row(size, &m.row(|t| size as f64 / t / MB).verdict(verdict));
        }
        paw.checks_passed()
    })
}
