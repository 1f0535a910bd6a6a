//! p2p_isend_bidir -- simultaneous MPI_Isend/MPI_Irecv both ways between task pairs (PAW 1.6
//! §7.7.1).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::batch::Batch;
use paw_core::check;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::{buffer, vars, Check, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{time_and_second, Second, PAIR_CHECK};

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
    vars: &[vars::P2P_SIZES, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: "\
isend_bidir_time-np_NNNN.dat (usec) and isend_bidir_bw-np_NNNN.dat (MB/s), NNNN = \
tasks",
};

/// One exchange: both messages in flight at once, completed by one MPI_Waitall.
fn exchange(batch: &mut Batch, leader: bool, partner: &Process<'_>, send: &[u8], recv: &mut [u8]) {
    batch.run(|b| {
        if leader {
            b.isend(partner, send, 0);
            b.irecv(partner, recv, 0);
        } else {
            b.irecv(partner, recv, 0);
            b.isend(partner, send, 0);
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
        let mut batch = Batch::with_capacity(2);

        let mut bench = paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "isend_bidir",
            "time per exchange (both directions)",
            Second::Bandwidth("bidirectional bandwidth per pair"),
            &[],
        )?;
        let warm = sizes.med as usize;
        exchange(&mut batch, pair.leader, &partner, &send[..warm], &mut recv[..warm]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m = bench.measure(size, || {
                exchange(&mut batch, pair.leader, &partner, &send[..n], &mut recv[..n])
            })?;
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq as u64);
                exchange(&mut batch, pair.leader, &partner, &send[..n], &mut recv[..n]);
                wrong = check::mismatches(&recv[..n], pair.partner, size, seq as u64);
            }
            let verdict = paw.verdict(wrong);
            time.row(size, &m.row(|t| t * 1e6).verdict(verdict));
            bw.row(size, &m.row(|t| 2.0 * size as f64 / t / MB).verdict(verdict));
        }
        paw.checks_passed()
    })
}
