//! p2p_get -- one-sided MPI_Get with active-target (post/start/complete/wait)
//! synchronisation between task pairs (PAW 1.6 §7.5.1, timed calls of Table 7.6).
//!
//! Task i (first half, origin) reads from the window of task i + n/2 (target). Timed per
//! sample: NLOOP epochs; origins run MPI_Win_start, MPI_Get, MPI_Win_complete (the data is
//! in the origin's buffer when it returns), targets MPI_Win_post, MPI_Win_wait. Reported:
//! time per epoch = sample / NLOOP in usec and bandwidth per pair = SIZE / time in MB/s
//! (MB = 2^20 B); each repetition takes the maximum over tasks. Untimed: window creation
//! (MAX_P2P_SIZE bytes per task) and the groups. Sizes MIN_P2P_SIZE, doubling, to
//! MAX_P2P_SIZE. Needs an even number of tasks.
//! Env: MIN/MAX_P2P_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_CHECK PAW_OUTPUT_DIR.
//! Writes get_time-np_NNNN.dat (usec) and get_bw-np_NNNN.dat (MB/s).
use mpi_ext::rma::Window;
use paw_core::check;
use paw_core::mpi::topology::UserGroup;
use paw_core::mpi::traits::*;
use paw_core::{buffer, Combine, Family, Pair, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{time_and_second, Second};

const SPEC: Spec = Spec {
    name: "p2p_get",
    title: "MPI_Get with post/start/complete/wait between task pairs (PAW 1.6 section 7.5.1)",
    help: "\
Task i reads from task i+n/2's window. Timed per sample: NLOOP epochs (origins:
MPI_Win_start, MPI_Get, MPI_Win_complete; targets: MPI_Win_post, MPI_Win_wait).
Time per epoch = sample / NLOOP, maximum over tasks; bandwidth per pair = SIZE / time,
MB/s (MB = 2^20 B).
Needs an even number of MPI tasks:  mpirun -np 2 p2p_get
Env: MIN_P2P_SIZE MAX_P2P_SIZE (bytes; defaults 1, 1000000).
Writes get_time-np_NNNN.dat (usec) and get_bw-np_NNNN.dat (MB/s).",
    ranks: Ranks::Even,
};

const TIMED: &str = "timed calls: tasks 0..n/2-1 MPI_Win_start, MPI_Get, MPI_Win_complete; \
                     tasks n/2..n-1 MPI_Win_post, MPI_Win_wait (PAW Table 7.6)";

/// One epoch: the origin reads `into.len()` bytes from the start of its partner's window.
fn epoch(win: &Window<u8>, partner: &UserGroup, pair: Pair, into: &mut [u8]) {
    if pair.leader {
        win.access(partner, |e| e.get(into, pair.partner, 0));
    } else {
        win.exposed(partner, || ());
    }
}

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::P2p)?;
        let pair = paw.pair();
        let mut recv = buffer(sizes.max as usize);
        let win = Window::create(paw.world(), buffer(sizes.max as usize));
        let partner = paw.world().group().include(&[pair.partner]);

        let mut bench =
            paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Combine::Max, Policy::Calibrated);
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "get",
            "time per epoch",
            Second::Bandwidth("bandwidth per pair"),
            &[TIMED, "bandwidth = SIZE / time per epoch"],
        )?;
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m = bench.measure(|| epoch(&win, &partner, pair, &mut recv[..n]));
            let mut wrong = 0;
            if paw.checking() {
                // The target exposes the pattern; the epoch's post orders it before the get.
                check::fill(&mut recv[..n], paw.rank(), size, seq as u64);
                win.store(0, &recv[..n]);
                epoch(&win, &partner, pair, &mut recv[..n]);
                if pair.leader {
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
