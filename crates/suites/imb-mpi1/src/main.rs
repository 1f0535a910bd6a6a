//! IMB-MPI1 -- the MPI-1 benchmarks of the Intel MPI Benchmarks 3.0, as a drop-in
//! executable: `mpirun -np P IMB-MPI1 [benchmark ...] [options]` (guide §5.1).
//!
//! The driver, options and output are paw-imb's; this suite is its table of kernels
//! (kernels/), timed as the guide's §5.2.8.1: N_BARR barriers, then n_sample runs of the
//! pattern between two MPI_Wtime reads. See doc/imb-mpi1.md.

mod kernels;

use paw_imb::{settings, Edition, Suite};

/// The suite: settings.h, the benchmark table, no modes.
static SUITE: Suite<kernels::Kernel> = Suite {
    name: "IMB-MPI1",
    what: "MPI-1 benchmarks",
    edition: Edition::V3,
    timed: "per benchmark, process count and length, on each active process: N_BARR = 2 \
            MPI_Barrier, then MPI_Wtime before and after n_sample runs of the benchmark's \
            pattern (guide §5.2.8.1), after N_WARMUP = 2 untimed runs at the largest length.",
    reported: "per length the repetitions n_sample and each process's time t = Δt / n_sample \
               (PingPong: Δt / 2 n_sample): single transfers t[usec] (the maximum), the \
               others t_min, t_max and t_avg over the active processes; Mbytes/sec = \
               messages per run x X / t for the transfers.",
    settings: settings::MESSAGE_PASSING,
    benchmarks: kernels::BENCHMARKS,
    windows: false,
    io: false,
    refuse_unrunnable: false,
    shape: |_, _| Some(String::new()),
    prologue: |_, _| Ok(String::new()),
    start: kernels::start,
};

fn main() -> std::process::ExitCode {
    paw_imb::run(&SUITE)
}
