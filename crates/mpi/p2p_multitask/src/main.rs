//! p2p_multitask -- point-to-point bandwidth of many task pairs at once, at one message
//! size (PAW 1.6 §7.7.3, timed calls of Table 7.4).
//!
//! Task i pairs with task i + n/2 (PAW Fig. 7.1). Timed: NLOOP ping-pongs per sample; the
//! first half runs MPI_Isend, MPI_Wait, MPI_Irecv, MPI_Wait, the second half MPI_Irecv,
//! MPI_Wait, MPI_Isend, MPI_Wait, with MAX_P2P_SIZE bytes each way (the kernel of
//! p2p_isend). NREPS samples. Reported: one-way time = sample / (2 x NLOOP), maximum over
//! tasks (the slowest pair bounds the whole exchange), and the aggregate bandwidth of all
//! n/2 pairs: n/2 x MAX_P2P_SIZE / one-way time, in MB/s (MB = 2^20 B).
//! Needs an even number of tasks.
//! Env: MAX_P2P_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_CHECK PAW_OUTPUT_DIR.
//! Writes multitask_time-np_NNNN.dat (usec) and multitask_bw-np_NNNN.dat (MB/s).
use paw_core::check;
use paw_core::mpi::traits::*;
use paw_core::{buffer, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{isend_pingpong, time_and_second, Second};

const SPEC: Spec = Spec {
    name: "p2p_multitask",
    title: "aggregate MPI_Isend/MPI_Irecv ping-pong bandwidth of n/2 task pairs (PAW 1.6 section 7.7.3)",
    help: "\
Task i pairs with task i+n/2. Timed per sample: NLOOP ping-pongs of MAX_P2P_SIZE bytes
(first half: Isend, Wait, Irecv, Wait; second half: Irecv, Wait, Isend, Wait).
One-way time = sample / (2 NLOOP), maximum over tasks; aggregate bandwidth =
n/2 x MAX_P2P_SIZE / one-way time in MB/s (MB = 2^20 B).
Needs an even number of MPI tasks:  mpirun -np 4 p2p_multitask
Env: MAX_P2P_SIZE (bytes, default 1000000).
Writes multitask_time-np_NNNN.dat (usec) and multitask_bw-np_NNNN.dat (MB/s).",
    ranks: Ranks::Even,
};

const TIMED: &str = "timed calls: tasks 0..n/2-1 MPI_Isend, MPI_Wait, MPI_Irecv, MPI_Wait; \
                     tasks n/2..n-1 MPI_Irecv, MPI_Wait, MPI_Isend, MPI_Wait (PAW Table 7.4)";

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let size = paw.sizes(Family::P2p)?.max;
        let n = size as usize;
        let pairs = (paw.size() / 2) as f64;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        let mut send = buffer(n);
        let mut recv = buffer(n);

        let mut bench =
            paw.bench(Timing::Batch { ops_per_iter: 2.0 }, Combine::Max, Policy::Calibrated);
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "multitask",
            "one-way time per message",
            Second::Bandwidth("aggregate bandwidth of n/2 pairs"),
            &[TIMED, "bandwidth = n/2 x SIZE / one-way time"],
        )?;
        let m = bench.measure(|| isend_pingpong(pair.leader, &partner, &send, &mut recv));
        let mut wrong = 0;
        if paw.checking() {
            check::fill(&mut send, paw.rank(), size, 0);
            isend_pingpong(pair.leader, &partner, &send, &mut recv);
            wrong = check::mismatches(&recv, pair.partner, size, 0);
        }
        let verdict = paw.verdict(wrong);
        time.row(size, &m.row(|t| t * 1e6).verdict(verdict));
        bw.row(size, &m.row(|t| pairs * size as f64 / t / MB).verdict(verdict));
        paw.checks_passed()
    })
}
