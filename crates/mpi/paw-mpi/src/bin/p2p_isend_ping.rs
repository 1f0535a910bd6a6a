//! p2p_isend_ping -- one-directional MPI_Isend/MPI_Irecv stream between task pairs (PAW 1.6
//! §7.7.2).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use paw_core::mpi::request;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::{vars, Check, Combine, Paw, Ranks, Spec, Timing};
use paw_mpi::{Bytes, BytesMut, Sweep, PAIR_CHECK};

const SPEC: Spec = Spec {
    name: "p2p_isend_ping",
    title: "one-directional MPI_Isend/MPI_Irecv stream between task pairs (PAW 1.6 section 7.7.2)",
    timed: "\
Task i pairs with task i + n/2 (PAW Fig. 7.1). Per sample: NLOOP messages of SIZE \
bytes in one direction; tasks 0..n/2-1 run MPI_Isend, MPI_Wait, tasks n/2..n-1 \
MPI_Irecv, MPI_Wait (PAW Table 7.13). Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE, \
after one untimed message at MED_P2P_SIZE.",
    reports: "\
time per message = sample / NLOOP, usec, {ranks} (a sender's MPI_Wait may \
return before its message arrives: only the receiver's clock covers delivery); \
bandwidth per pair = SIZE / time per message, MB/s (MB = 2^20 B).",
    ranks: Ranks::Even,
    combine: Combine::Max,
    vars: &[vars::P2P_SIZES, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: paw_mpi::pair_files("isend_ping", "time per message", "bandwidth per pair"),
    headlines: &[paw_core::headline::TIME, paw_core::headline::BANDWIDTH],
};

/// One message from the leader to its partner.
fn ping(leader: bool, partner: &Process<'_>, send: Bytes<'_>, mut recv: BytesMut<'_>) {
    request::scope(|scope| {
        if leader {
            partner.immediate_send(scope, &send).wait_without_status();
        } else {
            partner.immediate_receive_into(scope, &mut recv).wait_without_status();
        }
    })
}

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sweep = Sweep::new(&paw, Timing::Batch { ops_per_iter: 1.0 })?;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        sweep.run_pair(false, |send, recv| ping(pair.leader, &partner, send, recv))
    })
}
