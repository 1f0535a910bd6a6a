//! p2p_rput -- MPI_Rput, MPI_Wait, MPI_Win_flush_all in a lock_all epoch (PAW 1.6 §7.6.2).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::rma::Window;
use paw_core::check;
use paw_core::mpi::traits::*;
use paw_core::{
    buffer, vars, Check, Combine, Extra, Files, Paw, Ranks, Second, Spec, SweepFiles, Timing,
};
use paw_mpi::{Sweep, PAIR_CHECK};

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
    files: Files::Sweep(SweepFiles {
        stem: "rput",
        time: "time per transfer",
        second: Second::Bandwidth("bandwidth per pair"),
        extra: Extra::Plain,
    }),
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sweep = Sweep::new(&paw, Timing::Batch { ops_per_iter: 1.0 })?;
        let pair = paw.pair();
        let mut send = buffer(sweep.largest());
        let win = Window::create(paw.world(), buffer(sweep.largest()));
        sweep.run_measured(
            &mut send,
            |send, bench, p| match pair.leader {
                true => win.locked_all(|epoch| {
                    bench.measure(p.size, || {
                        epoch.rput_wait(&send[..p.n], pair.partner, 0);
                        epoch.flush_all();
                    })
                }),
                false => bench.measure(p.size, || {}),
            },
            |send, p| {
                check::fill(&mut send[..p.n], paw.rank(), p.size, p.seq);
                if pair.leader {
                    win.locked_all(|epoch| epoch.rput(&send[..p.n], pair.partner, 0).wait());
                }
                paw.world().barrier();
                if pair.leader {
                    return 0;
                }
                // Passive-target puts reach the target's view at its own lock/sync.
                win.sync_local();
                win.load(0, &mut send[..p.n]);
                check::mismatches(&send[..p.n], pair.partner, p.size, p.seq)
            },
        )
    })
}
