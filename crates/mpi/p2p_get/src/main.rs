//! p2p_get -- MPI_Get with post/start/complete/wait between task pairs (PAW 1.6 §7.5.1).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::rma::Window;
use paw_core::check;
use paw_core::mpi::topology::UserGroup;
use paw_core::mpi::traits::*;
use paw_core::{
    buffer, vars, Check, Combine, Extra, Files, Pair, Paw, Ranks, Second, Spec, SweepFiles, Timing,
};
use paw_mpi::{Sweep, PAIR_CHECK};

const SPEC: Spec = Spec {
    name: "p2p_get",
    title: "MPI_Get with post/start/complete/wait between task pairs (PAW 1.6 section 7.5.1)",
    timed: "\
Task i (origin) reads SIZE bytes from the window of task i + n/2 (target). Per sample: \
NLOOP epochs; origins run MPI_Win_start, MPI_Get, MPI_Win_complete, targets \
MPI_Win_post, MPI_Win_wait (PAW Table 7.6). Untimed: window creation (MAX_P2P_SIZE \
bytes per task) and groups. Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE.",
    reports: "\
time per epoch = sample / NLOOP, usec, {ranks}; bandwidth per pair = SIZE / \
time per epoch, MB/s (MB = 2^20 B).",
    ranks: Ranks::Even,
    combine: Combine::Max,
    vars: &[vars::P2P_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: Files::Sweep(SweepFiles {
        stem: "get",
        time: "time per epoch",
        second: Second::Bandwidth("bandwidth per pair"),
        extra: Extra::Plain,
    }),
};

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
        let sweep = Sweep::new(&paw, Timing::Batch { ops_per_iter: 1.0 })?;
        let pair = paw.pair();
        let mut recv = buffer(sweep.largest());
        let win = Window::create(paw.world(), buffer(sweep.largest()));
        let partner = paw.world().group().include(&[pair.partner]);
        sweep.run(
            &mut recv,
            |recv, n| epoch(&win, &partner, pair, &mut recv[..n]),
            |recv, p| {
                // The target exposes the pattern; the epoch's post orders it before the get.
                check::fill(&mut recv[..p.n], paw.rank(), p.size, p.seq);
                win.store(0, &recv[..p.n]);
                epoch(&win, &partner, pair, &mut recv[..p.n]);
                match pair.leader {
                    true => check::mismatches(&recv[..p.n], pair.partner, p.size, p.seq),
                    false => 0,
                }
            },
        )
    })
}
