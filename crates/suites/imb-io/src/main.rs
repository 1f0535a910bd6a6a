//! IMB-IO -- the MPI-IO benchmarks of the Intel MPI Benchmarks 3.0 (guide §4.2.4-4.2.5),
//! as a drop-in executable: `mpirun -np P IMB-IO [benchmark ...] [options]`.
//!
//! The driver, options and output are paw-imb's with settings_io.h; this suite is its
//! table of kernels (kernels/): Open_Close and S_/P_/C_ [I]Write/[I]Read with individual,
//! explicit, shared and private file pointers, the non-blocking ones overlapped with the
//! CPU_Exploit kernel. Files go to `-dir` (default: the current directory), named `-prefix`
//! (default IMB_out) with the guide's `_g<group>` and `_<rank>` suffixes; an existing file
//! of that name is refused, never overwritten. See doc/imb-io.md.

mod kernels;

use paw_imb::{settings, Edition, Suite};

/// The suite: settings_io.h, the benchmark table.
static SUITE: Suite<kernels::Kernel> = Suite {
    name: "IMB-IO",
    what: "MPI-IO benchmarks",
    edition: Edition::V3,
    timed: "per benchmark, process count, mode and length: the file opened and its view set \
            untimed; N_BARR = 2 MPI_Barrier, then MPI_Wtime around M transfers of X bytes: \
            blocking writes aggregate (n_sample transfers, then one MPI_File_sync) and \
            non-aggregate (each transfer followed by MPI_File_sync), reads aggregate only; \
            non-blocking I/O timed alone (t_pure) and as M rounds of initiate / CPU_Exploit / \
            wait (t_ovrl); Open_Close: MPI_File_open and MPI_File_close.",
    reported: "per length the repetitions M and each process's time t = Δt / M: t_min, t_max \
               and t_avg over the active processes; Mbytes/sec = X / t; non-blocking I/O also \
               t_ovrl, t_pure, t_CPU (the calibrated CPU_Exploit period) and overlap = (t_pure + \
               t_CPU - t_ovrl) / min(t_pure, t_CPU), in percent, held to 0..100.",
    settings: settings::IO,
    benchmarks: kernels::BENCHMARKS,
    windows: false,
    io: true,
    refuse_unrunnable: true,
    shape: |_, _| Some(String::new()),
    prologue: kernels::prologue,
    start: kernels::start,
};

fn main() -> std::process::ExitCode {
    paw_imb::run(&SUITE)
}
