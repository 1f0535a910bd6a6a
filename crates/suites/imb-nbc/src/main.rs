//! IMB-NBC -- today's Intel MPI Benchmarks' non-blocking collectives, as a drop-in
//! executable: `mpirun -np P IMB-NBC [benchmark ...] [options]`.
//!
//! The driver, options and output are paw-imb's, with today's IMB's rules (Edition::V2021);
//! this suite is its table of kernels (kernels/); the CPU work the collectives overlap is
//! paw-imb's `cpu`. See doc/imb-nbc.md.

// libnbc's schedules meet the program's allocations in the C library's heap otherwise.
paw_core::own_heap!();

fn main() -> std::process::ExitCode {
    paw_imb::run(&paw_imb_nbc::kernels::SUITE)
}
