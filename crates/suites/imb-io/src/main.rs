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

fn main() -> std::process::ExitCode {
    paw_imb::run(&kernels::SUITE)
}
