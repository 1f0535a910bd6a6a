//! IMB-RMA -- today's Intel MPI Benchmarks' one-sided part (MPI-3 passive target: locks,
//! flushes, accumulates and atomics), as a drop-in executable:
//! `mpirun -np P IMB-RMA [benchmark ...] [options]`.
//!
//! The driver, options and output are paw-imb's, with today's IMB's rules (Edition::V2021);
//! this suite is its table of patterns (kernels/): what each process issues is planned
//! before timing (kernels/plan.rs) and walked inside one epoch. See doc/imb-rma.md.

mod kernels;

use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_imb::{settings, Edition, Options, Suite};

/// The suite: IMB-MPI1's settings, warm-up per length inside the kernels, both modes for
/// the pair benchmarks.
static SUITE: Suite<kernels::Pattern> = Suite {
    name: "IMB-RMA",
    what: "MPI-RMA part",
    edition: Edition::V2021,
    timed: "per benchmark, process count, mode and length: untimed warm-up timings (a tenth \
            of the repetitions, at least min(10, n)), then 2 MPI_Barrier, the origins' \
            operations inside one passive-target epoch (MPI_Win_lock shared, or \
            MPI_Win_lock_all) with the lock and unlock outside the timing, 1 MPI_Barrier. \
            Non-aggregate: a flush after every operation; aggregate: one after all n. \
            Truly_passive_put: MPI_Put, MPI_Win_flush, MPI_Barrier per iteration with the \
            target waiting (t_pure), then with the target computing for t_pure before each \
            barrier (t_ovrl).",
    reported: "per length the repetitions n and each origin's time t = Δt / n: pair and \
               one-to-all benchmarks t[usec] (the slowest origin) and Mbytes/sec = X / t; \
               All_* and Exchange_* t_min, t_max, t_avg; Truly_passive_put t_pure and t_ovrl \
               of the origin.",
    settings: settings::Settings { n_warmup: 0, ..settings::MESSAGE_PASSING },
    benchmarks: kernels::BENCHMARKS,
    windows: true,
    io: false,
    refuse_unrunnable: false,
    shape: |_, _| Some(String::new()),
    prologue,
    start: kernels::start,
};

/// Measures the CPU work's rate on every process before any timing, when
/// Truly_passive_put runs.
fn prologue(o: &Options, world: &SimpleCommunicator) -> Result<String, String> {
    let passive = o
        .benchmarks
        .iter()
        .any(|&i| kernels::BENCHMARKS[i].kernel == kernels::Pattern::TrulyPassive);
    if !passive {
        return Ok(String::new());
    }
    let rate = paw_imb::cpu::rate();
    world.barrier();
    Ok(format!(
        "# CPU work (Truly_passive_put)   :   10 x 10 matrix-vector passes, {:.0} Mflop/s \
         (rank 0)\n",
        rate.mflops
    ))
}

fn main() -> std::process::ExitCode {
    paw_imb::run(&SUITE)
}
