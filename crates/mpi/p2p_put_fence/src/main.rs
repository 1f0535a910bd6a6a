//! p2p_put_fence -- MPI_Put between MPI_Win_fence calls, task pairs (PAW 1.6 §7.5.4).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::rma::Window;
use paw_core::check;
use paw_core::{
    buffer, vars, Check, Combine, Extra, Files, Pair, Paw, Ranks, Second, Spec, SweepFiles, Timing,
};
use paw_mpi::{Sweep, PAIR_CHECK};

const SPEC: Spec = Spec {
    name: "p2p_put_fence",
    title: "MPI_Put between MPI_Win_fence calls, task pairs (PAW 1.6 section 7.5.4)",
    timed: "\
Task i (origin) puts SIZE bytes into the window of task i + n/2. Per sample: NLOOP \
epochs; origins run MPI_Win_fence, MPI_Put, MPI_Win_fence, targets MPI_Win_fence, \
MPI_Win_fence (PAW Table 7.9). Untimed: window creation (MAX_P2P_SIZE bytes per task). \
Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE.",
    reports: "\
time per epoch = sample / NLOOP, usec, {ranks}; bandwidth per pair = SIZE / \
time per epoch, MB/s (MB = 2^20 B).",
    ranks: Ranks::Even,
    combine: Combine::Max,
    vars: &[vars::P2P_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: Files::Sweep(SweepFiles {
        stem: "putfence",
        time: "time per epoch",
        second: Second::Bandwidth("bandwidth per pair"),
        extra: Extra::Plain,
    }),
};

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
        let sweep = Sweep::new(&paw, Timing::Batch { ops_per_iter: 1.0 })?;
        let pair = paw.pair();
        let mut send = buffer(sweep.largest());
        let win = Window::create(paw.world(), buffer(sweep.largest()));
        sweep.run(
            &mut send,
            |send, n| epoch(&win, pair, &send[..n]),
            |send, p| {
                check::fill(&mut send[..p.n], paw.rank(), p.size, p.seq);
                epoch(&win, pair, &send[..p.n]);
                if pair.leader {
                    return 0;
                }
                win.load(0, &mut send[..p.n]);
                check::mismatches(&send[..p.n], pair.partner, p.size, p.seq)
            },
        )
    })
}
