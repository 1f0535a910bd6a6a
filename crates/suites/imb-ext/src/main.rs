//! IMB-EXT -- the one-sided benchmarks of the Intel MPI Benchmarks 3.0 (guide §4.2.3), as
//! a drop-in executable: `mpirun -np P IMB-EXT [benchmark ...] [options]`.
//!
//! The driver, options and output are paw-imb's; this suite is its table of kernels
//! (kernels/), each one-sided benchmark timed in aggregate mode (M = n_sample transfers to
//! disjoint offsets, then one MPI_Win_fence) and non-aggregate mode (M times one transfer
//! to the window's start and a fence), guide §4.2.2.2, §4.2.3 and §5.2.8.2. See
//! doc/imb-ext.md.

mod kernels;

use paw_imb::{settings, Edition, Suite};

/// The suite: settings.h, the benchmark table.
static SUITE: Suite<kernels::Kernel> = Suite {
    name: "IMB-EXT",
    what: "one-sided benchmarks",
    edition: Edition::V3,
    timed: "per benchmark, process count, mode and length, on each active process: N_BARR = \
            2 MPI_Barrier, then MPI_Wtime around M transfers: aggregate mode M = n_sample \
            transfers to disjoint offsets, then one MPI_Win_fence; non-aggregate mode M times \
            one transfer to the window's start and a fence (guide §4.2.2.2, §4.2.3, \
            §5.2.8.2); windows are created untimed.",
    reported: "per length the repetitions M and each process's time t = Δt / M: t_min, t_max \
               and t_avg over the active processes (Unidir_/Bidir_ and the single transfers: \
               t[usec]); Mbytes/sec = transfers x X / t.",
    settings: settings::MESSAGE_PASSING,
    benchmarks: kernels::BENCHMARKS,
    windows: true,
    io: false,
    refuse_unrunnable: true,
    shape: |_, _| Some(String::new()),
    prologue: kernels::prologue,
    start: kernels::start,
};

fn main() -> std::process::ExitCode {
    paw_imb::run(&SUITE)
}
