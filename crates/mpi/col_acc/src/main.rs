//! col_acc -- MPI_Accumulate into task 0 with post/start/complete/wait (PAW 1.6 §7.2.1).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::rma::Window;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::{
    buffer, vars, Check, Combine, Extra, Files, Paw, Ranks, Second, Spec, SweepFiles, Timing,
};
use paw_mpi::{accumulated, Sweep, ACC_CHECK};

const SPEC: Spec = Spec {
    name: "col_acc",
    title: "MPI_Accumulate into task 0 with post/start/complete/wait (PAW 1.6 section 7.2.1)",
    timed: "\
Per sample: NLOOP x (MPI_Barrier, clock, epoch, clock); tasks 1..n-1 run \
MPI_Win_start, MPI_Accumulate of SIZE bytes (MPI_UINT8_T, MPI_SUM) into task 0's \
window, MPI_Win_complete; task 0 runs MPI_Win_post, MPI_Win_wait (PAW Table 7.1, \
section 7.2.1). Untimed: windows (MAX_COL_SIZE bytes on task 0) and groups. Sizes \
MIN_COL_SIZE, doubling, to MAX_COL_SIZE.",
    reports: "\
time per epoch = sum of the epoch times / NLOOP, usec, {ranks} (task 0's \
completion covers every contribution), with TASK_MIN, TASK_MAX; bandwidth = (n-1) x \
SIZE / time, the bytes reduced into task 0 per second, MB/s (MB = 2^20 B).",
    ranks: Ranks::AtLeast(2),
    combine: Combine::Max,
    vars: &[vars::COL_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(ACC_CHECK),
    files: Files::Sweep(SweepFiles {
        stem: "acc",
        time: "time per call",
        second: Second::Bandwidth("bytes reduced into task 0 per second, (n-1) x SIZE / time"),
        extra: Extra::Spread,
    }),
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sweep = Sweep::new(&paw, Timing::PerCall)?.scaled((paw.size() - 1) as f64);
        let is_target = paw.rank() == 0;
        let win = Window::create(paw.world(), buffer(if is_target { sweep.largest() } else { 0 }));
        let group = paw.world().group();
        let (task0, others) = (group.include(&[0]), group.exclude(&[0]));
        let epoch = |data: &[u8]| {
            if is_target {
                win.exposed(&others, || ());
            } else {
                win.access(&task0, |e| e.accumulate(data, 0, 0, SystemOperation::sum()));
            }
        };
        let most = sweep.largest();
        sweep.run(
            &mut buffer(most),
            |send, n| epoch(&send[..n]),
            |send, c| accumulated(&paw, &win, &mut send[..c.n], c.size, c.seq, epoch),
        )
    })
}
