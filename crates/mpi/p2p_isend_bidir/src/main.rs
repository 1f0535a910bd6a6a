//! p2p_isend_bidir -- both directions at once between task pairs: MPI_Isend and MPI_Irecv
//! completed by MPI_Waitall on both sides (PAW 1.6 §7.7.1, timed calls of Table 7.12).
//!
//! Task i pairs with task i + n/2. Timed per sample: NLOOP exchanges; the first half posts
//! MPI_Isend then MPI_Irecv, the second half MPI_Irecv then MPI_Isend, each then
//! MPI_Waitall. Reported: time per exchange = sample / NLOOP in usec, minimum over tasks
//! (PAW §7), and bidirectional bandwidth per pair = 2 x SIZE / time per exchange in MB/s
//! (MB = 2^20 B). Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE; untimed warm-up at
//! MED_P2P_SIZE. Needs an even number of tasks.
//! Env: MIN/MED/MAX_P2P_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_CHECK PAW_OUTPUT_DIR.
//! Writes isend_bidir_time-np_NNNN.dat (usec) and isend_bidir_bw-np_NNNN.dat (MB/s).
use mpi_ext::batch::Batch;
use paw_core::check;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::{buffer, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{time_and_second, Second};

const SPEC: Spec = Spec {
    name: "p2p_isend_bidir",
    title: "simultaneous MPI_Isend/MPI_Irecv both ways between task pairs (PAW 1.6 section 7.7.1)",
    help: "\
Task i pairs with task i+n/2. Timed per sample: NLOOP exchanges (first half: Isend, Irecv,
Waitall; second half: Irecv, Isend, Waitall). Time per exchange = sample / NLOOP, minimum
over tasks; bidirectional bandwidth per pair = 2 x SIZE / time, MB/s (MB = 2^20 B).
Needs an even number of MPI tasks:  mpirun -np 2 p2p_isend_bidir
Env: MIN_P2P_SIZE MED_P2P_SIZE MAX_P2P_SIZE (bytes; defaults 1, 20000, 1000000).
Writes isend_bidir_time-np_NNNN.dat (usec) and isend_bidir_bw-np_NNNN.dat (MB/s).",
    ranks: Ranks::Even,
};

const TIMED: &str = "timed calls: tasks 0..n/2-1 MPI_Isend, MPI_Irecv, MPI_Waitall; \
                     tasks n/2..n-1 MPI_Irecv, MPI_Isend, MPI_Waitall (PAW Table 7.12)";

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

        let mut bench =
            paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Combine::Min, Policy::Calibrated);
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "isend_bidir",
            "time per exchange (both directions)",
            Second::Bandwidth("bidirectional bandwidth per pair"),
            &[TIMED, "bandwidth = 2 x SIZE / time per exchange"],
        )?;
        let warm = sizes.med as usize;
        exchange(&mut batch, pair.leader, &partner, &send[..warm], &mut recv[..warm]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m = bench.measure(|| {
                exchange(&mut batch, pair.leader, &partner, &send[..n], &mut recv[..n])
            });
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
