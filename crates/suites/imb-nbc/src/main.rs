//! IMB-NBC -- today's Intel MPI Benchmarks' non-blocking collectives, as a drop-in
//! executable: `mpirun -np P IMB-NBC [benchmark ...] [options]`.
//!
//! The driver, options and output are paw-imb's, with today's IMB's rules (Edition::V2021);
//! this suite is its table of kernels (kernels/); the CPU work the collectives overlap is
//! paw-imb's `cpu`. See doc/imb-nbc.md.

mod kernels;

use paw_core::mpi::traits::*;
use paw_imb::{settings, Edition, Options, Suite};

/// The suite: IMB-MPI1's settings, warm-up per length inside the kernels, no modes.
static SUITE: Suite<kernels::Kernel> = Suite {
    name: "IMB-NBC",
    what: "MPI-NBC part",
    edition: Edition::V2021,
    timed: "per benchmark, process count and length, on each active process: untimed warm-up \
            runs (a tenth of the repetitions, at least min(10, n)); N_BARR = 2 MPI_Barrier; \
            then n iterations, each timed from posting the non-blocking collective to its \
            MPI_Wait, with an MPI_Barrier after each outside the timing (Ibarrier: none). \
            I<coll>_pure: the collective alone (t_pure). I<coll>: t_pure first, then n \
            iterations of post, CPU work calibrated to this process's t_pure, wait (t_ovrl); \
            the CPU work alone is t_CPU.",
    reported: "per length the repetitions n; I<coll>_pure: t_min, t_max and t_avg of t_pure \
               over the active processes; I<coll>: t_ovrl, t_pure and t_CPU of the process \
               with the largest t_ovrl and overlap[%] = 100 (t_pure + t_CPU - t_ovrl) / \
               max(t_pure, t_CPU), held to 0..100.",
    settings: settings::Settings { n_warmup: 0, ..settings::MESSAGE_PASSING },
    benchmarks: kernels::BENCHMARKS,
    windows: false,
    io: false,
    refuse_unrunnable: false,
    shape: |_, _| Some(String::new()),
    prologue,
    start: kernels::start,
};

/// Measures the CPU work's rate on every process (once, before any benchmark); the header
/// line gives rank 0's.
fn prologue(
    o: &Options,
    world: &paw_core::mpi::topology::SimpleCommunicator,
) -> Result<String, String> {
    if !o.benchmarks.iter().any(|&i| kernels::BENCHMARKS[i].overlap) {
        return Ok(String::new());
    }
    let rate = paw_imb::cpu::rate();
    world.barrier();
    Ok(format!(
        "# CPU work (overlap)             :   10 x 10 matrix-vector passes, {:.0} Mflop/s \
         (rank 0), as long as each process's own t_pure\n",
        rate.mflops
    ))
}

fn main() -> std::process::ExitCode {
    paw_imb::run(&SUITE)
}
