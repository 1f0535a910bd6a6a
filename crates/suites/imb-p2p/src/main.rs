//! IMB-P2P -- today's Intel MPI Benchmarks' point-to-point patterns on every process at
//! once, as a drop-in executable: `mpirun -np P IMB-P2P [benchmark ...] [options]`.
//!
//! The driver, options and output are paw-imb's, with today's IMB's rules (Edition::V2021)
//! and IMB-P2P's repetition settings; this suite is its table of patterns (kernels/). See
//! doc/imb-p2p.md.

mod kernels;

fn main() -> std::process::ExitCode {
    paw_imb::run(&kernels::SUITE)
}
