//! p2p_get_fence -- MPI_Get between MPI_Win_fence calls, task pairs (PAW 1.6 §7.5.2).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::rma::Window;
use paw_core::check;
use paw_core::{buffer, vars, Check, Combine, Family, Pair, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{time_and_second, Second, PAIR_CHECK};

const SPEC: Spec = Spec {
    name: "p2p_get_fence",
    title: "MPI_Get between MPI_Win_fence calls, task pairs (PAW 1.6 section 7.5.2)",
    timed: "\
Task i (origin) reads SIZE bytes from the window of task i + n/2. Per sample: NLOOP \
epochs; origins run MPI_Win_fence, MPI_Get, MPI_Win_fence, targets MPI_Win_fence, \
MPI_Win_fence (PAW Table 7.7). Untimed: window creation (MAX_P2P_SIZE bytes per task). \
Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE.",
    reports: "\
time per epoch = sample / NLOOP, usec, {ranks}; bandwidth per pair = SIZE / \
time per epoch, MB/s (MB = 2^20 B).",
    ranks: Ranks::Even,
    combine: Combine::Max,
    vars: &[vars::P2P_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: "\
getfence_time-np_NNNN.dat (usec) and getfence_bw-np_NNNN.dat (MB/s), NNNN = tasks",
};

/// One fence epoch: the origin reads `into.len()` bytes from its partner's window.
fn epoch(win: &Window<u8>, pair: Pair, into: &mut [u8]) {
    win.fenced(|e| {
        if pair.leader {
            e.get(into, pair.partner, 0);
        }
    });
}

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sweep(Family::P2p)?;
        let pair = paw.pair();
        let mut recv = buffer(sizes.max as usize);
        let win = Window::create(paw.world(), buffer(sizes.max as usize));

        let mut bench = paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "getfence",
            "time per epoch",
            Second::Bandwidth("bandwidth per pair"),
            &[],
        )?;
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m = bench.measure(size, || epoch(&win, pair, &mut recv[..n]))?;
            let mut wrong = 0;
            if paw.checking() {
                // The target exposes the pattern; the opening fence orders it before the get.
                check::fill(&mut recv[..n], paw.rank(), size, seq as u64);
                win.store(0, &recv[..n]);
                epoch(&win, pair, &mut recv[..n]);
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
