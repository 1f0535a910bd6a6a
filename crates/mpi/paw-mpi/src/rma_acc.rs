//! The three one-sided collectives of PAW 1.6 §7.2-7.3 (col_acc, col_acc_fence, col_racc):
//! tasks 1..n-1 add SIZE bytes (MPI_UINT8_T, MPI_SUM) into task 0's window in one of the
//! kinds of epoch of [`Sync`]. A main is one line, [`rma_acc_main!`](crate::rma_acc_main),
//! which makes its Spec and calls [`main`].

use crate::rma_pair::Sync;
use crate::Sweep;
use mpi_ext::rma::Window;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Paw, Spec, Timing};

/// What the one-sided collectives check with PAW_CHECK=1.
pub const ACC_CHECK: &str = "one more epoch into task 0's zeroed window, every other task \
                             adding a pattern set by its rank, the size and a sequence \
                             number (small enough that no byte overflows); task 0 compares \
                             its window with the exact sum";

/// The one-sided collectives' data check ([`ACC_CHECK`]) of `send.len()` bytes at sweep
/// position `seq`: every task fills `send` with its summand, task 0 zeroes its window, `add`
/// runs one more epoch (complete on task 0 when it returns), and task 0 compares its window
/// with the exact sum of tasks 1..n-1. Returns the wrong bytes task 0 found (0 elsewhere).
pub fn accumulated(
    paw: &Paw,
    win: &Window<u8>,
    send: &mut [u8],
    size: u64,
    seq: u64,
    add: impl FnOnce(&[u8]),
) -> usize {
    let (rank, tasks) = (paw.rank(), paw.size());
    let n = send.len();
    check::fill_summand(send, rank, size, seq, tasks);
    if rank == 0 {
        win.store(0, &vec![0u8; n]);
    }
    add(send);
    if rank != 0 {
        return 0;
    }
    let mut got = vec![0u8; n];
    win.load(0, &mut got);
    check::differences(&got, &check::sum_of(1..tasks as i32, tasks, size, seq))
}

/// A one-sided collective's SPEC and `main`: `rma_acc_main!(post_start|fence|lock_all, name,
/// PAW section, PAW table, file stem)`.
#[macro_export]
macro_rules! rma_acc_main {
    ($sync:ident, $name:literal, $section:literal, $table:literal, $stem:literal) => {
        $crate::spec_main!(::paw_core::Spec {
            name: $name,
            title: concat!($crate::rma_acc_main!(@title $sync), " (PAW 1.6 section ", $section, ")"),
            timed: concat!(
                "Per sample: NLOOP x (MPI_Barrier, clock, ",
                $crate::rma_acc_main!(@unit $sync),
                ", clock); tasks 1..n-1",
                $crate::rma_acc_main!(@what $sync),
                " (PAW Table ",
                $table,
                ", section ",
                $section,
                "). Untimed: windows (MAX_COL_SIZE bytes on task 0)",
                $crate::rma_acc_main!(@groups $sync),
                ". Sizes MIN_COL_SIZE, doubling, to MAX_COL_SIZE."
            ),
            reports: concat!(
                "time per ",
                $crate::rma_acc_main!(@unit $sync),
                " = sum of the ",
                $crate::rma_acc_main!(@unit $sync),
                " times / NLOOP, usec, {ranks} (task 0's completion covers every \
                 contribution), with TASK_MIN, TASK_MAX; bandwidth = (n-1) x SIZE / time, the \
                 bytes reduced into task 0 per second, MB/s (MB = 2^20 B)."
            ),
            ranks: ::paw_core::Ranks::AtLeast(2),
            combine: ::paw_core::Combine::Max,
            vars: &[
                ::paw_core::vars::COL_SWEEP,
                ::paw_core::vars::MEASURE,
                ::paw_core::vars::COMBINE,
                ::paw_core::vars::CHECK,
            ],
            check: ::paw_core::Check::Data($crate::rma_acc::ACC_CHECK),
            files: ::paw_core::Files::Sweep(::paw_core::SweepFiles {
                stem: $stem,
                time: "time per call",
                second: ::paw_core::Second::Bandwidth(
                    "bytes reduced into task 0 per second, (n-1) x SIZE / time",
                ),
                extra: ::paw_core::Extra::Spread,
            }),
            headlines: &[::paw_core::headline::TIME, ::paw_core::headline::BANDWIDTH],
        }, |spec| {
            use $crate::rma_pair::Sync;
            $crate::rma_acc::main(spec, $crate::rma_pair_spec!(@Sync $sync))
        });
    };
    (@title post_start) => { "MPI_Accumulate into task 0 with post/start/complete/wait" };
    (@title fence) => { "MPI_Accumulate into task 0 between MPI_Win_fence calls" };
    (@title lock_all) => { "MPI_Raccumulate, MPI_Wait, MPI_Win_flush_all into task 0" };
    (@unit lock_all) => { "transfer" };
    (@unit $s:ident) => { "epoch" };
    (@what post_start) => {
        " run MPI_Win_start, MPI_Accumulate of SIZE bytes (MPI_UINT8_T, MPI_SUM) into task 0's \
         window, MPI_Win_complete; task 0 runs MPI_Win_post, MPI_Win_wait"
    };
    (@what fence) => {
        " run MPI_Win_fence, MPI_Accumulate of SIZE bytes (MPI_UINT8_T, MPI_SUM) into task 0's \
         window, MPI_Win_fence; task 0 runs MPI_Win_fence, MPI_Win_fence"
    };
    (@what lock_all) => {
        ", inside one MPI_Win_lock_all epoch, run MPI_Raccumulate of SIZE bytes (MPI_UINT8_T, \
         MPI_SUM) into task 0's window, MPI_Wait, MPI_Win_flush_all; task 0 times an empty \
         transfer"
    };
    (@groups post_start) => { " and groups" };
    (@groups $s:ident) => { "" };
}

/// Runs the test `spec` describes: tasks 1..n-1 accumulate into task 0 in epochs of `sync`;
/// with PAW_CHECK=1 one more epoch into a zeroed window, checked by task 0 ([`accumulated`]).
pub fn main(spec: &'static Spec, sync: Sync) -> std::process::ExitCode {
    paw_core::main(spec.name, || {
        let paw = Paw::init(spec)?;
        let sweep = Sweep::new(&paw, Timing::PerCall)?.scaled((paw.size() - 1) as f64);
        let is_target = paw.rank() == 0;
        let win = Window::create(paw.world(), buffer(if is_target { sweep.largest() } else { 0 }));
        let sum = SystemOperation::sum();
        let most = sweep.largest();
        if sync == Sync::LockAll {
            return sweep.run_measured(
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
                        // Passive target: the zeroed window is published before the others
                        // add to it, and their additions are complete before task 0 reads it.
                        win.sync_local();
                        paw.world().barrier();
                        if !is_target {
                            win.locked_all(|e| e.raccumulate_wait(data, 0, 0, sum));
                        }
                        paw.world().barrier();
                        win.sync_local();
                    })
                },
            );
        }
        let group = paw.world().group();
        let (task0, others) = (group.include(&[0]), group.exclude(&[0]));
        let epoch = |data: &[u8]| match sync {
            Sync::Fence => win.fenced(|e| {
                if !is_target {
                    e.accumulate(data, 0, 0, sum);
                }
            }),
            _ if is_target => win.exposed(&others, || ()),
            _ => win.access(&task0, |e| e.accumulate(data, 0, 0, sum)),
        };
        sweep.run(
            &mut buffer(most),
            |send, n| epoch(&send[..n]),
            |send, c| accumulated(&paw, &win, &mut send[..c.n], c.size, c.seq, epoch),
        )
    })
}
