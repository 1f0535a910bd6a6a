//! col_racc -- request-based MPI_Raccumulate (MPI_SUM) of every task into task 0 in a
//! passive-target epoch (PAW 1.6 §7.3, timed calls of Table 7.3).
//!
//! Timed: NLOOP transfers per sample, each after an untimed MPI_Barrier and between two
//! clock reads; tasks 1..n-1, inside one MPI_Win_lock_all epoch per size (opened outside
//! the timing), run MPI_Raccumulate of SIZE bytes (MPI_UINT8_T, MPI_SUM) into task 0's
//! window, MPI_Wait, MPI_Win_flush_all; task 0 takes no part (passive target) and times
//! empty calls. Time per transfer = sum / NLOOP; each repetition reports the maximum over
//! tasks, i.e. the slowest origin; TASK_MIN and TASK_MAX give both ends (TASK_MIN is task
//! 0's empty call). Bandwidth = (n-1) x SIZE / time, the bytes reduced into task 0 per
//! second, in MB/s (MB = 2^20 B). Untimed: windows (MAX_COL_SIZE bytes on task 0, none
//! elsewhere). Sizes MIN_COL_SIZE, doubling, to MAX_COL_SIZE. Needs 2 or more tasks.
//! Env: MIN/MAX_COL_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_OUTPUT_DIR.
//! Writes racc_time-np_NNNN.dat (usec; TASK_MIN, TASK_MAX) and racc_bw-np_NNNN.dat (MB/s);
//! PAW's guide names them rget_* (a slip that collides with p2p_rget), see doc/collectives.md.
use mpi_ext::rma::Window;
use paw_core::mpi::collective::SystemOperation;
use paw_core::{buffer, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::collective_files;

const SPEC: Spec = Spec {
    name: "col_racc",
    title: "MPI_Raccumulate, MPI_Wait, MPI_Win_flush_all into task 0 (PAW 1.6 section 7.3)",
    help: "\
Timed per sample: NLOOP x (barrier, clock, transfer, clock); tasks 1..n-1 in a lock_all
epoch: MPI_Raccumulate (SIZE bytes, MPI_UINT8_T, MPI_SUM) into task 0, MPI_Wait,
MPI_Win_flush_all; task 0: nothing. Time per transfer, maximum over tasks (TASK_MIN, TASK_MAX give
both); bandwidth = (n-1) x SIZE / time, MB/s (MB = 2^20 B).
Needs at least 2 MPI tasks:  mpirun -np 4 col_racc
Env: MIN_COL_SIZE MAX_COL_SIZE (bytes; defaults 1, 100000).
Writes racc_time-np_NNNN.dat (usec) and racc_bw-np_NNNN.dat (MB/s).",
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

        let mut bench = paw.bench(Timing::PerCall, Combine::Max, Policy::Calibrated);
        let (mut time, mut bw) = collective_files(
            &paw,
            &bench,
            "racc",
            "bytes reduced into task 0 per second, (n-1) x SIZE / time",
            &[
                "timed calls: tasks 1..n-1 MPI_Raccumulate, MPI_Wait, MPI_Win_flush_all inside \
                 MPI_Win_lock_all; task 0 none (PAW Table 7.3)",
                "SIZE = bytes each task accumulates into task 0 (MPI_UINT8_T, MPI_SUM)",
            ],
        )?;
        for size in sizes.sweep() {
            let n = size as usize;
            let m = if is_target {
                bench.measure(|| {})
            } else {
                win.locked_all(|epoch| {
                    bench.measure(|| {
                        epoch.raccumulate_wait(&send[..n], 0, 0, SystemOperation::sum());
                        epoch.flush_all();
                    })
                })
            };
            time.row_with(size, &m.row(|t| t * 1e6), &m.spread(|t| t * 1e6));
            bw.row(size, &m.row(|t| origins * size as f64 / t / MB));
        }
        Ok(())
    })
}
