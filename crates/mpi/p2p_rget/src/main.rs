//! p2p_rget -- MPI_Rget, MPI_Wait, MPI_Win_flush_all in a lock_all epoch (PAW 1.6 §7.6.1).
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
    name: "p2p_rget",
    title: "MPI_Rget, MPI_Wait, MPI_Win_flush_all in a lock_all epoch (PAW 1.6 section 7.6.1)",
    timed: "\
Task i (origin) reads SIZE bytes from the window of task i + n/2 in a passive-target \
(MPI_Win_lock_all) epoch. Per sample on the origins: NLOOP x (MPI_Rget, MPI_Wait, \
MPI_Win_flush_all); targets time an empty loop (PAW Table 7.10). Untimed: window \
creation (MAX_P2P_SIZE bytes per task). Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE.",
    reports: "\
time per transfer = sample / NLOOP, usec, {ranks}; bandwidth per pair = \
SIZE / time per transfer, MB/s (MB = 2^20 B).",
    ranks: Ranks::Even,
    combine: Combine::Max,
    vars: &[vars::P2P_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: Files::Sweep(SweepFiles {
        stem: "rget",
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
        let mut recv = buffer(sweep.largest());
        let win = Window::create(paw.world(), buffer(sweep.largest()));
        sweep.run_measured(
            &mut recv,
            |recv, bench, p| match pair.leader {
                true => win.locked_all(|epoch| {
                    bench.measure(p.size, || {
                        epoch.rget_wait(&mut recv[..p.n], pair.partner, 0);
                        epoch.flush_all();
                    })
                }),
                false => bench.measure(p.size, || {}),
            },
            |recv, p| {
                check::fill(&mut recv[..p.n], paw.rank(), p.size, p.seq);
                win.store(0, &recv[..p.n]);
                // A local store reaches remote gets after the target's own lock/sync.
                win.sync_local();
                paw.world().barrier();
                let mut wrong = 0;
                if pair.leader {
                    win.locked_all(|epoch| epoch.rget(&mut recv[..p.n], pair.partner, 0).wait());
                    wrong = check::mismatches(&recv[..p.n], pair.partner, p.size, p.seq);
                }
                paw.world().barrier();
                wrong
            },
        )
    })
}
