//! p2p_isend_bidir -- simultaneous MPI_Isend/MPI_Irecv both ways between task pairs (PAW 1.6
//! §7.7.1).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::batch::Batch;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::{vars, Check, Combine, Paw, Ranks, Spec, Timing};
use paw_mpi::{Bytes, BytesMut, Sweep, PAIR_CHECK};

const SPEC: Spec = Spec {
    name: "p2p_isend_bidir",
    title: "simultaneous MPI_Isend/MPI_Irecv both ways between task pairs (PAW 1.6 section 7.7.1)",
    timed: "\
Task i pairs with task i + n/2 (PAW Fig. 7.1). Per sample: NLOOP exchanges of SIZE \
bytes each way; tasks 0..n/2-1 post MPI_Isend then MPI_Irecv, tasks n/2..n-1 MPI_Irecv \
then MPI_Isend, each then MPI_Waitall (PAW Table 7.12). Sizes MIN_P2P_SIZE, doubling, \
to MAX_P2P_SIZE, after one untimed exchange at MED_P2P_SIZE.",
    reports: "\
time per exchange = sample / NLOOP, usec, {ranks} (PAW section 7); \
bidirectional bandwidth per pair = 2 x SIZE / time per exchange, MB/s (MB = 2^20 B).",
    ranks: Ranks::Even,
    combine: Combine::Min,
    vars: &[vars::P2P_SIZES, vars::MEASURE, vars::COMBINE, vars::BUFFER, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: paw_mpi::pair_files(
        "isend_bidir",
        "time per exchange (both directions)",
        "bidirectional bandwidth per pair",
    ),
    headlines: &[paw_core::headline::TIME, paw_core::headline::BANDWIDTH],
};

/// One exchange: both messages in flight at once, completed by one MPI_Waitall.
fn exchange(batch: &mut Batch, leader: bool, partner: &Process<'_>, send: Bytes, recv: BytesMut) {
    batch.run(|b| {
        if leader {
            b.isend_bytes(partner, send, 0);
            b.irecv_bytes(partner, recv, 0);
        } else {
            b.irecv_bytes(partner, recv, 0);
            b.isend_bytes(partner, send, 0);
        }
    })
}

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sweep = Sweep::new(&paw, Timing::Batch { ops_per_iter: 1.0 })?.scaled(2.0);
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        let mut batch = Batch::with_capacity(2);
        sweep.run_pair(true, |send, recv| exchange(&mut batch, pair.leader, &partner, send, recv))
    })
}
