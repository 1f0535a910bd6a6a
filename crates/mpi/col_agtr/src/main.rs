//! col_agtr -- MPI_Allgather of SIZE bytes from every task to every task, timed call by call (PAW 1.6 §7.1).
//!
//! Timed: NLOOP calls of MPI_Allgather per sample, each after an untimed MPI_Barrier and between
//! two clock reads; sample = sum of the call times / NLOOP. Every task times its own calls;
//! each repetition reports the minimum over tasks (PAW §7.1: the minimum for every collective but Bcast and Scatter).
//! The time file also gives the medians of the minimum and the maximum over tasks
//! (TASK_MIN, TASK_MAX). Bandwidth = SIZE / time per call in MB/s (MB = 2^20 B), from the
//! minimum. SIZE = bytes each task contributes (each receives SIZE x tasks). Sizes MIN_COL_SIZE, doubling, to MAX_COL_SIZE; one untimed call at
//! MED_COL_SIZE first. Any task count.
//! Env: MIN/MED/MAX_COL_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_OUTPUT_DIR.
//! Writes agtr_time-np_NNNN.dat (usec; TASK_MIN, TASK_MAX) and agtr_bw-np_NNNN.dat (MB/s).
use paw_core::mpi::traits::*;
use paw_core::{buffer, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::collective_files;

const SPEC: Spec = Spec {
    name: "col_agtr",
    title: "MPI_Allgather of SIZE bytes from every task to every task, timed call by call (PAW 1.6 section 7.1)",
    help: "\
Timed per sample: NLOOP x (barrier, clock, MPI_Allgather, clock); time per call = sum / NLOOP,
minimum over tasks (TASK_MIN, TASK_MAX columns give both). SIZE = bytes each task contributes (each receives SIZE x tasks).
Bandwidth = SIZE / time per call, MB/s (MB = 2^20 B).
Run on any number of MPI tasks:  mpirun -np 4 col_agtr
Env: MIN_COL_SIZE MED_COL_SIZE MAX_COL_SIZE (bytes; defaults 1, 10000, 100000).
Writes agtr_time-np_NNNN.dat (usec) and agtr_bw-np_NNNN.dat (MB/s).",
    ranks: Ranks::Any,
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let world = paw.world();
        let p = paw.size();
        let most = sizes.max.max(sizes.med) as usize;
        let send = buffer(most);
        let mut recv = buffer(most * p);
        let mut call = |n: usize| world.all_gather_into(&send[..n], &mut recv[..n * p]);

        let mut bench = paw.bench(Timing::PerCall, Combine::Min, Policy::Calibrated);
        let (mut time, mut bw) = collective_files(
            &paw,
            &bench,
            "agtr",
            "bandwidth, SIZE / time per call",
            &[
                "timed call: MPI_Allgather",
                "SIZE = bytes each task contributes (each receives SIZE x tasks)",
            ],
        )?;
        call(sizes.med as usize);
        for size in sizes.sweep() {
            let n = size as usize;
            let m = bench.measure(|| call(n));
            time.row_with(size, &m.row(|t| t * 1e6), &m.spread(|t| t * 1e6));
            bw.row(size, &m.row(|t| size as f64 / t / MB));
        }
        Ok(())
    })
}
