//! paw-core: paw-base and MPI, for the MPI tests and the suites.
//!
//! Everything of [`paw_base`] is re-exported here (Spec, settings, loops, statistics,
//! files, the process around a benchmark). This crate adds what needs MPI:
//! - [`Paw`] starts an MPI benchmark's [`Session`] over [`World`] (MPI_COMM_WORLD, timed
//!   with MPI_Wtime): MPI start-up, a panic on any rank ending the job, task-count rules,
//!   settings read on rank 0 and shared.
//! - [`SuiteRun`] is the same for a suite with its own command line (IMB, b_eff, PRESTA);
//!   [`start_suite`] starts MPI and reads its command line ([`start_mpi`]: MPI alone).
//! - [`agree`], [`shared_line`], [`broadcast_text`], [`waiting_barrier`]: collective
//!   helpers for decisions every rank must share.
//!
//! An MPI benchmark's `main` reads:
//!
//! ```no_run
//! use paw_core::schema::{BYTES, USEC};
//! use paw_core::{vars, Axis, Check, Combine, DatSpec, Files, Paw, Policy, Ranks, Spec, Timing};
//! const SPEC: Spec = Spec {
//!     name: "demo",
//!     title: "a demonstration",
//!     timed: "NLOOP round trips per sample",
//!     reports: "one-way time = sample / (2 NLOOP), usec, {ranks}",
//!     ranks: Ranks::Exactly(2),
//!     combine: Combine::Min,
//!     vars: &[vars::MEASURE, vars::COMBINE],
//!     check: Check::Never,
//!     files: Files::Text("demo.dat"),
//!     headlines: &[],
//! };
//! fn main() -> std::process::ExitCode {
//!     paw_core::main(SPEC.name, || {
//!         let paw = Paw::init(&SPEC)?;
//!         let mut bench = paw.bench(Timing::Batch { ops_per_iter: 2.0 }, Policy::Calibrated)?;
//!         let mut out = paw.dat(&bench, DatSpec {
//!             file: "demo.dat".into(),
//!             x: Axis::new("message size", BYTES),
//!             y: Axis::new("one-way time", USEC),
//!             notes: vec![],
//!             echo: true,
//!             extra: vec![],
//!         })?;
//!         let m = bench.measure(1, || { /* the timed MPI calls */ })?;
//!         out.row(1, &m.row(|t| t * 1e6));
//!         Ok(())
//!     })
//! }
//! ```
#![warn(missing_docs)]

pub mod heap;
mod paw;
mod runtime;
mod suite;

pub use paw::{
    agree, broadcast_text, shared_line, start_mpi, start_mpi_threaded, start_suite,
    start_suite_threaded, waiting_barrier, Pair, Paw, World,
};
pub use paw_base::*;
pub use runtime::{mca_files, mpi_library_version};
pub use suite::SuiteRun;

/// Re-export of rsmpi, so benchmarks use the same version as the core.
pub use mpi;
