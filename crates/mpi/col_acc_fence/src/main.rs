//! col_acc_fence -- MPI_Accumulate (MPI_SUM) of every task into task 0 between two
//! MPI_Win_fence calls (PAW 1.6 §7.2.2, timed calls of Table 7.2).
//!
//! Timed: NLOOP epochs per sample, each after an untimed MPI_Barrier and between two clock
//! reads; tasks 1..n-1 run MPI_Win_fence, MPI_Accumulate of SIZE bytes (MPI_UINT8_T,
//! MPI_SUM) into task 0's window, MPI_Win_fence; task 0 runs MPI_Win_fence, MPI_Win_fence.
//! Time per epoch = sum of the epoch times / NLOOP; each repetition reports the maximum over
//! tasks (task 0's closing fence covers every contribution's arrival); TASK_MIN and TASK_MAX
//! give both ends. Bandwidth = (n-1) x SIZE / time, the bytes reduced into task 0 per
//! second, in MB/s (MB = 2^20 B). Untimed: windows (MAX_COL_SIZE bytes on task 0, none
//! elsewhere). Sizes MIN_COL_SIZE, doubling, to MAX_COL_SIZE. Needs 2 or more tasks.
//! Env: MIN/MAX_COL_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_OUTPUT_DIR.
//! Writes accfence_time-np_NNNN.dat (usec; TASK_MIN, TASK_MAX) and accfence_bw-np_NNNN.dat
//! (MB/s).
use mpi_ext::rma::Window;
use paw_core::mpi::collective::SystemOperation;
use paw_core::{buffer, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::collective_files;

const SPEC: Spec = Spec {
    name: "col_acc_fence",
    title: "MPI_Accumulate into task 0 between MPI_Win_fence calls (PAW 1.6 section 7.2.2)",
    help: "\
Timed per sample: NLOOP x (barrier, clock, epoch, clock); tasks 1..n-1: MPI_Win_fence,
MPI_Accumulate (SIZE bytes, MPI_UINT8_T, MPI_SUM) into task 0, MPI_Win_fence; task 0:
MPI_Win_fence, MPI_Win_fence. Time per epoch, maximum over tasks (TASK_MIN, TASK_MAX give
both); bandwidth = (n-1) x SIZE / time, MB/s (MB = 2^20 B).
Needs at least 2 MPI tasks:  mpirun -np 4 col_acc_fence
Env: MIN_COL_SIZE MAX_COL_SIZE (bytes; defaults 1, 100000).
Writes accfence_time-np_NNNN.dat (usec) and accfence_bw-np_NNNN.dat (MB/s).",
    ranks: Ranks::AtLeast(2),
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let is_target = paw.rank() == 0;
        let origins = (paw.size() - 1) as f64;
        let send = buffer(sizes.max as usize);
        let win =
            Window::create(paw.world(), buffer(if is_target { sizes.max as usize } else { 0 }));
        let epoch = |n: usize| {
            win.fenced(|e| {
                if !is_target {
                    e.accumulate(&send[..n], 0, 0, SystemOperation::sum());
                }
            })
        };

        let mut bench = paw.bench(Timing::PerCall, Combine::Max, Policy::Calibrated);
        let (mut time, mut bw) = collective_files(
            &paw,
            &bench,
            "accfence",
            "bytes reduced into task 0 per second, (n-1) x SIZE / time",
            &[
                "timed calls: tasks 1..n-1 MPI_Win_fence, MPI_Accumulate, MPI_Win_fence; \
                 task 0 MPI_Win_fence, MPI_Win_fence (PAW Table 7.2)",
                "SIZE = bytes each task accumulates into task 0 (MPI_UINT8_T, MPI_SUM)",
            ],
        )?;
        for size in sizes.sweep() {
            let n = size as usize;
            let m = bench.measure(|| epoch(n));
            time.row_with(size, &m.row(|t| t * 1e6), &m.spread(|t| t * 1e6));
            bw.row(size, &m.row(|t| origins * size as f64 / t / MB));
        }
        Ok(())
    })
}
