//! p2p_rput -- MPI_Rput, MPI_Wait, MPI_Win_flush_all in a lock_all epoch (PAW 1.6 §7.6.2).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::rma::Window;
use paw_core::check;
use paw_core::mpi::traits::*;
use paw_core::{buffer, vars, Check, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{time_and_second, Second, PAIR_CHECK};

const SPEC: Spec = Spec {
    name: "p2p_rput",
    title: "MPI_Rput, MPI_Wait, MPI_Win_flush_all in a lock_all epoch (PAW 1.6 section 7.6.2)",
    timed: "\
Task i (origin) writes SIZE bytes into the window of task i + n/2 in a passive-target \
(MPI_Win_lock_all) epoch. Per sample on the origins: NLOOP x (MPI_Rput, MPI_Wait, \
MPI_Win_flush_all); targets time an empty loop (PAW Table 7.11). Untimed: window \
creation (MAX_P2P_SIZE bytes per task). Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE.",
    reports: "\
time per transfer = sample / NLOOP, usec, {ranks}; bandwidth per pair = \
SIZE / time per transfer, MB/s (MB = 2^20 B).",
    ranks: Ranks::Even,
    combine: Combine::Max,
    vars: &[vars::P2P_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: "\
rput_time-np_NNNN.dat (usec) and rput_bw-np_NNNN.dat (MB/s), NNNN = tasks",
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sweep(Family::P2p)?;
        let pair = paw.pair();
        let mut send = buffer(sizes.max as usize);
        let win = Window::create(paw.world(), buffer(sizes.max as usize));

        let mut bench = paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "rput",
            "time per transfer",
            Second::Bandwidth("bandwidth per pair"),
            &[],
        )?;
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m = if pair.leader {
                win.locked_all(|epoch| {
                    bench.measure(size, || {
                        epoch.rput_wait(&send[..n], pair.partner, 0);
                        epoch.flush_all();
                    })
                })?
            } else {
                bench.measure(size, || {})?
            };
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq as u64);
                if pair.leader {
                    win.locked_all(|epoch| epoch.rput(&send[..n], pair.partner, 0).wait());
                }
                paw.world().barrier();
                if !pair.leader {
                    // Passive-target puts reach the target's view at its own lock/sync.
                    win.sync_local();
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
