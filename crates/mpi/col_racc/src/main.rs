//! col_racc -- MPI_Raccumulate, MPI_Wait, MPI_Win_flush_all into task 0 (PAW 1.6 §7.3).
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
    name: "col_racc",
    title: "MPI_Raccumulate, MPI_Wait, MPI_Win_flush_all into task 0 (PAW 1.6 section 7.3)",
    timed: "\
Per sample: NLOOP x (MPI_Barrier, clock, transfer, clock); tasks 1..n-1, inside one \
MPI_Win_lock_all epoch, run MPI_Raccumulate of SIZE bytes (MPI_UINT8_T, MPI_SUM) into \
task 0's window, MPI_Wait, MPI_Win_flush_all; task 0 times an empty transfer (PAW \
Table 7.3, section 7.3). Untimed: windows (MAX_COL_SIZE bytes on task 0). Sizes \
MIN_COL_SIZE, doubling, to MAX_COL_SIZE.",
    reports: "\
time per transfer = sum of the transfer times / NLOOP, usec, {ranks} (task \
0's completion covers every contribution), with TASK_MIN, TASK_MAX; bandwidth = (n-1) \
x SIZE / time, the bytes reduced into task 0 per second, MB/s (MB = 2^20 B).",
    ranks: Ranks::AtLeast(2),
    combine: Combine::Max,
    vars: &[vars::COL_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(ACC_CHECK),
    files: Files::Sweep(SweepFiles {
        stem: "racc",
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
        let sum = SystemOperation::sum();
        let most = sweep.largest();
        sweep.run_measured(
            &mut buffer(most),
            |send, bench, c| match is_target {
                true => bench.measure(c.size, || {}),
                false => win.locked_all(|epoch| {
                    bench.measure(c.size, || {
                        epoch.raccumulate_wait(&send[..c.n], 0, 0, sum);
                        epoch.flush_all();
                    })
                }),
            },
            |send, c| {
                accumulated(&paw, &win, &mut send[..c.n], c.size, c.seq, |data| {
                    // Passive target: the zeroed window is published before the others add
                    // to it, and their additions are complete before task 0 reads it.
                    win.sync_local();
                    paw.world().barrier();
                    if !is_target {
                        win.locked_all(|e| e.raccumulate_wait(data, 0, 0, sum));
                    }
                    paw.world().barrier();
                    win.sync_local();
                })
            },
        )
    })
}
