//! p2p_rget -- request-based one-sided MPI_Rget in a passive-target epoch, between task
//! pairs (PAW 1.6 §7.6.1, timed calls of Table 7.10).
//!
//! Task i (first half, origin) reads from the window of task i + n/2 (target), inside one
//! MPI_Win_lock_all epoch per size (opened and closed outside the timing). Timed per
//! sample: NLOOP iterations of MPI_Rget, MPI_Wait, MPI_Win_flush_all on the origins; the
//! targets take no part (passive target) and time an empty loop. Reported: time per
//! transfer = sample / NLOOP in usec and bandwidth per pair = SIZE / time in MB/s
//! (MB = 2^20 B); each repetition takes the maximum over tasks, i.e. the origins' time.
//! Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE. Needs an even number of tasks.
//! Env: MIN/MAX_P2P_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_CHECK PAW_OUTPUT_DIR.
//! Writes rget_time-np_NNNN.dat (usec) and rget_bw-np_NNNN.dat (MB/s).
use mpi_ext::rma::Window;
use paw_core::check;
use paw_core::mpi::traits::*;
use paw_core::{buffer, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{time_and_second, Second};

const SPEC: Spec = Spec {
    name: "p2p_rget",
    title: "MPI_Rget, MPI_Wait, MPI_Win_flush_all in a lock_all epoch (PAW 1.6 section 7.6.1)",
    help: "\
Task i reads from task i+n/2's window in a passive-target (lock_all) epoch. Timed per
sample on the origins: NLOOP x (MPI_Rget, MPI_Wait, MPI_Win_flush_all). Time per transfer
= sample / NLOOP, maximum over tasks; bandwidth per pair = SIZE / time, MB/s (MB = 2^20 B).
Needs an even number of MPI tasks:  mpirun -np 2 p2p_rget
Env: MIN_P2P_SIZE MAX_P2P_SIZE (bytes; defaults 1, 1000000).
Writes rget_time-np_NNNN.dat (usec) and rget_bw-np_NNNN.dat (MB/s).",
    ranks: Ranks::Even,
};

const TIMED: &str = "timed calls: tasks 0..n/2-1 MPI_Rget, MPI_Wait, MPI_Win_flush_all inside \
                     MPI_Win_lock_all; tasks n/2..n-1 none (PAW Table 7.10)";

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::P2p)?;
        let pair = paw.pair();
        let mut recv = buffer(sizes.max as usize);
        let win = Window::create(paw.world(), buffer(sizes.max as usize));

        let mut bench =
            paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Combine::Max, Policy::Calibrated);
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "rget",
            "time per transfer",
            Second::Bandwidth("bandwidth per pair"),
            &[TIMED, "bandwidth = SIZE / time per transfer"],
        )?;
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m = if pair.leader {
                win.locked_all(|epoch| {
                    bench.measure(|| {
                        epoch.rget_wait(&mut recv[..n], pair.partner, 0);
                        epoch.flush_all();
                    })
                })
            } else {
                bench.measure(|| {})
            };
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut recv[..n], paw.rank(), size, seq as u64);
                win.store(0, &recv[..n]);
                // A local store reaches remote gets after the target's own lock/sync.
                win.sync_local();
                paw.world().barrier();
                if pair.leader {
                    win.locked_all(|epoch| epoch.rget(&mut recv[..n], pair.partner, 0).wait());
                    wrong = check::mismatches(&recv[..n], pair.partner, size, seq as u64);
                }
                paw.world().barrier();
            }
            let verdict = paw.verdict(wrong);
            time.row(size, &m.row(|t| t * 1e6).verdict(verdict));
            bw.row(size, &m.row(|t| size as f64 / t / MB).verdict(verdict));
        }
        paw.checks_passed()
    })
}
