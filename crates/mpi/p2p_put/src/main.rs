//! p2p_put -- MPI_Put with post/start/complete/wait between task pairs (PAW 1.6 §7.5.3).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::rma::Window;
use paw_core::check;
use paw_core::mpi::topology::UserGroup;
use paw_core::mpi::traits::*;
use paw_core::{buffer, vars, Check, Combine, Family, Pair, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{time_and_second, Second, PAIR_CHECK};

const SPEC: Spec = Spec {
    name: "p2p_put",
    title: "MPI_Put with post/start/complete/wait between task pairs (PAW 1.6 section 7.5.3)",
    timed: "\
Task i (origin) puts SIZE bytes into the window of task i + n/2 (target). Per sample: \
NLOOP epochs; origins run MPI_Win_start, MPI_Put, MPI_Win_complete, targets \
MPI_Win_post, MPI_Win_wait (PAW Table 7.8). Untimed: window creation (MAX_P2P_SIZE \
bytes per task) and groups. Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE.",
    reports: "\
time per epoch = sample / NLOOP, usec, {ranks} (the target's MPI_Win_wait \
covers the data's arrival); bandwidth per pair = SIZE / time per epoch, MB/s (MB = \
2^20 B).",
    ranks: Ranks::Even,
    combine: Combine::Max,
    vars: &[vars::P2P_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: "\
put_time-np_NNNN.dat (usec) and put_bw-np_NNNN.dat (MB/s), NNNN = tasks",
};

/// One epoch: the origin puts `data` at the start of its partner's window.
fn epoch(win: &Window<u8>, partner: &UserGroup, pair: Pair, data: &[u8]) {
    if pair.leader {
        win.access(partner, |e| e.put(data, pair.partner, 0));
    } else {
        win.exposed(partner, || ());
    }
}

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sweep(Family::P2p)?;
        let pair = paw.pair();
        let mut send = buffer(sizes.max as usize);
        let win = Window::create(paw.world(), buffer(sizes.max as usize));
        let partner = paw.world().group().include(&[pair.partner]);

        let mut bench = paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "put",
            "time per epoch",
            Second::Bandwidth("bandwidth per pair"),
            &[],
        )?;
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m = bench.measure(size, || epoch(&win, &partner, pair, &send[..n]))?;
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq as u64);
                epoch(&win, &partner, pair, &send[..n]);
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
