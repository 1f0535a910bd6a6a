//! p2p_put_fence -- one-sided MPI_Put between two MPI_Win_fence calls, between task pairs
//! (PAW 1.6 §7.5.4, timed calls of Table 7.9).
//!
//! Task i (first half, origin) puts into the window of task i + n/2 (target). Timed per
//! sample: NLOOP epochs; origins run MPI_Win_fence, MPI_Put, MPI_Win_fence, targets
//! MPI_Win_fence, MPI_Win_fence (fences are collective over all tasks). Reported: time per
//! epoch = sample / NLOOP in usec and bandwidth per pair = SIZE / time in MB/s
//! (MB = 2^20 B); each repetition takes the maximum over tasks. Untimed: window creation
//! (MAX_P2P_SIZE bytes per task). Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE.
//! Needs an even number of tasks.
//! Env: MIN/MAX_P2P_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_CHECK PAW_OUTPUT_DIR.
//! Writes putfence_time-np_NNNN.dat (usec) and putfence_bw-np_NNNN.dat (MB/s).
use mpi_ext::rma::Window;
use paw_core::check;
use paw_core::{buffer, Combine, Family, Pair, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{time_and_second, Second};

const SPEC: Spec = Spec {
    name: "p2p_put_fence",
    title: "MPI_Put between MPI_Win_fence calls, task pairs (PAW 1.6 section 7.5.4)",
    help: "\
Task i puts into task i+n/2's window. Timed per sample: NLOOP epochs (origins:
MPI_Win_fence, MPI_Put, MPI_Win_fence; targets: MPI_Win_fence, MPI_Win_fence).
Time per epoch = sample / NLOOP, maximum over tasks; bandwidth per pair = SIZE / time,
MB/s (MB = 2^20 B).
Needs an even number of MPI tasks:  mpirun -np 2 p2p_put_fence
Env: MIN_P2P_SIZE MAX_P2P_SIZE (bytes; defaults 1, 1000000).
Writes putfence_time-np_NNNN.dat (usec) and putfence_bw-np_NNNN.dat (MB/s).",
    ranks: Ranks::Even,
};

const TIMED: &str = "timed calls: tasks 0..n/2-1 MPI_Win_fence, MPI_Put, MPI_Win_fence; \
                     tasks n/2..n-1 MPI_Win_fence, MPI_Win_fence (PAW Table 7.9)";

/// One fence epoch: the origin puts `data` at the start of its partner's window.
fn epoch(win: &Window<u8>, pair: Pair, data: &[u8]) {
    win.fenced(|e| {
        if pair.leader {
            e.put(data, pair.partner, 0);
        }
    });
}

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::P2p)?;
        let pair = paw.pair();
        let mut send = buffer(sizes.max as usize);
        let win = Window::create(paw.world(), buffer(sizes.max as usize));

        let mut bench =
            paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Combine::Max, Policy::Calibrated);
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "putfence",
            "time per epoch",
            Second::Bandwidth("bandwidth per pair"),
            &[TIMED, "bandwidth = SIZE / time per epoch"],
        )?;
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m = bench.measure(|| epoch(&win, pair, &send[..n]));
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq as u64);
                epoch(&win, pair, &send[..n]);
                if !pair.leader {
                    win.load(0, &mut send[..n]);
                    wrong = check::mismatches(&send[..n], pair.partner, size, seq as u64);
                }
            }
            let verdict = paw.verdict(wrong);
            time.row(size, &m.row(|t| t * 1e6).verdict(verdict));
            bw.row(size, &m.row(|t| size as f64 / t / MB).verdict(verdict));
        }
        paw.checks_passed()
    })
}
