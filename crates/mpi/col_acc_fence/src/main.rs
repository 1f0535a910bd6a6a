//! col_acc_fence -- MPI_Accumulate into task 0 between MPI_Win_fence calls (PAW 1.6 §7.2.2).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::rma::Window;
use paw_core::mpi::collective::SystemOperation;
use paw_core::{
    buffer, vars, Check, Combine, Extra, Files, Paw, Ranks, Second, Spec, SweepFiles, Timing,
};
use paw_mpi::{accumulated, Sweep, ACC_CHECK};

const SPEC: Spec = Spec {
    name: "col_acc_fence",
    title: "MPI_Accumulate into task 0 between MPI_Win_fence calls (PAW 1.6 section 7.2.2)",
    timed: "\
Per sample: NLOOP x (MPI_Barrier, clock, epoch, clock); tasks 1..n-1 run \
MPI_Win_fence, MPI_Accumulate of SIZE bytes (MPI_UINT8_T, MPI_SUM) into task 0's \
window, MPI_Win_fence; task 0 runs MPI_Win_fence, MPI_Win_fence (PAW Table 7.2, \
section 7.2.2). Untimed: windows (MAX_COL_SIZE bytes on task 0). Sizes MIN_COL_SIZE, \
doubling, to MAX_COL_SIZE.",
    reports: "\
time per epoch = sum of the epoch times / NLOOP, usec, {ranks} (task 0's \
completion covers every contribution), with TASK_MIN, TASK_MAX; bandwidth = (n-1) x \
SIZE / time, the bytes reduced into task 0 per second, MB/s (MB = 2^20 B).",
    ranks: Ranks::AtLeast(2),
    combine: Combine::Max,
    vars: &[vars::COL_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(ACC_CHECK),
    files: Files::Sweep(SweepFiles {
        stem: "accfence",
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
        let epoch = |data: &[u8]| {
            win.fenced(|e| {
                if !is_target {
                    e.accumulate(data, 0, 0, SystemOperation::sum());
                }
            })
        };
        let most = sweep.largest();
        sweep.run(
            &mut buffer(most),
            |send, n| epoch(&send[..n]),
            |send, c| accumulated(&paw, &win, &mut send[..c.n], c.size, c.seq, epoch),
        )
    })
}
