//! IMB-RMA -- today's Intel MPI Benchmarks' one-sided part (MPI-3 passive target: locks,
//! flushes, accumulates and atomics), as a drop-in executable:
//! `mpirun -np P IMB-RMA [benchmark ...] [options]`.
//!
//! The driver, options and output are paw-imb's, with today's IMB's rules (Edition::V2021);
//! this suite is its table of patterns (kernels/): what each process issues is planned
//! before timing (kernels/plan.rs) and walked inside one epoch. See doc/imb-rma.md.

mod kernels;

fn main() -> std::process::ExitCode {
    paw_imb::run(&kernels::SUITE)
}
