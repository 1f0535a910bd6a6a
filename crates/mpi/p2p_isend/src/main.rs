//! p2p_isend -- MPI_Isend/MPI_Irecv ping-pong between task pairs over a range of message
//! sizes (PAW 1.6 §7.4.1, timed calls of Table 7.4).
//!
//! Task i pairs with task i + n/2 (PAW Fig. 7.1). Timed per sample: NLOOP ping-pongs; the
//! first half runs MPI_Isend, MPI_Wait, MPI_Irecv, MPI_Wait, the second half MPI_Irecv,
//! MPI_Wait, MPI_Isend, MPI_Wait. Reported: one-way time = sample / (2 NLOOP) in usec,
//! minimum over tasks (PAW §7), and bandwidth per pair = SIZE / one-way time in MB/s
//! (MB = 2^20 B). Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE; untimed warm-up at
//! MED_P2P_SIZE. Needs an even number of tasks.
//! Env: MIN/MED/MAX_P2P_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_CHECK PAW_OUTPUT_DIR.
//! Writes isend_time-np_NNNN.dat (usec) and isend_bw-np_NNNN.dat (MB/s).
use paw_core::check;
use paw_core::mpi::traits::*;
use paw_core::{buffer, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{isend_pingpong, time_and_second, Second};

const SPEC: Spec = Spec {
    name: "p2p_isend",
    title: "MPI_Isend/MPI_Irecv ping-pong between task pairs (PAW 1.6 section 7.4.1)",
    help: "\
Task i pairs with task i+n/2. Timed per sample: NLOOP ping-pongs (first half: Isend, Wait,
Irecv, Wait; second half: Irecv, Wait, Isend, Wait). One-way time = sample / (2 NLOOP),
minimum over tasks; bandwidth per pair = SIZE / one-way time, MB/s (MB = 2^20 B).
Needs an even number of MPI tasks:  mpirun -np 2 p2p_isend
Env: MIN_P2P_SIZE MED_P2P_SIZE MAX_P2P_SIZE (bytes; defaults 1, 20000, 1000000).
Writes isend_time-np_NNNN.dat (usec) and isend_bw-np_NNNN.dat (MB/s).",
    ranks: Ranks::Even,
};

const TIMED: &str = "timed calls: tasks 0..n/2-1 MPI_Isend, MPI_Wait, MPI_Irecv, MPI_Wait; \
                     tasks n/2..n-1 MPI_Irecv, MPI_Wait, MPI_Isend, MPI_Wait (PAW Table 7.4)";

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::P2p)?;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        let mut send = buffer(sizes.max.max(sizes.med) as usize);
        let mut recv = buffer(send.len());

        let mut bench =
            paw.bench(Timing::Batch { ops_per_iter: 2.0 }, Combine::Min, Policy::Calibrated);
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "isend",
            "one-way time",
            Second::Bandwidth("bandwidth per pair"),
            &[TIMED, "bandwidth = SIZE / one-way time"],
        )?;
        let warm = sizes.med as usize;
        isend_pingpong(pair.leader, &partner, &send[..warm], &mut recv[..warm]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m =
                bench.measure(|| isend_pingpong(pair.leader, &partner, &send[..n], &mut recv[..n]));
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq as u64);
                isend_pingpong(pair.leader, &partner, &send[..n], &mut recv[..n]);
                wrong = check::mismatches(&recv[..n], pair.partner, size, seq as u64);
            }
            let verdict = paw.verdict(wrong);
            time.row(size, &m.row(|t| t * 1e6).verdict(verdict));
            bw.row(size, &m.row(|t| size as f64 / t / MB).verdict(verdict));
        }
        paw.checks_passed()
    })
}
