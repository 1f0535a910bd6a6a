//! paw-core: what every paw benchmark shares, and nothing that names a benchmark.
//!
//! - [`Spec`] is a benchmark's description of itself, written once: `-h`, the header of
//!   every output file and the doc tables come from it. [`vars`] describes the shared
//!   environment variables.
//! - [`Paw`] (MPI tests) and [`Node`] (single-process tests) start a [`Session`]: MPI
//!   start-up with abort-on-panic, task-count rules, settings read on rank 0 and shared
//!   (and recorded for the header), timer overhead and resolution, the watchdog.
//! - [`Bench`] runs the PAW loop: warm-up, NLOOP decided on rank 0 and broadcast, NREPS
//!   samples (more with PAW_PRECISION), per-repetition combination over ranks ([`Combine`]).
//! - [`DatFile`] writes gnuplot-ready `.dat` files and their CSV twins with a metadata
//!   header, flushed per row; a JSON run record is kept beside them.
//! - [`main`] runs a benchmark's body and turns its outcome into the exit status.
//!
//! A benchmark's `main` reads:
//!
//! ```no_run
//! use paw_core::{vars, Axis, Check, Combine, DatSpec, Paw, Policy, Ranks, Spec, Timing};
//! const SPEC: Spec = Spec {
//!     name: "demo",
//!     title: "a demonstration",
//!     timed: "NLOOP round trips per sample",
//!     reports: "one-way time = sample / (2 NLOOP), usec, {ranks}",
//!     ranks: Ranks::Exactly(2),
//!     combine: Combine::Min,
//!     vars: &[vars::MEASURE, vars::COMBINE],
//!     check: Check::Never,
//!     files: "demo.dat",
//! };
//! fn main() -> std::process::ExitCode {
//!     paw_core::main(SPEC.name, || {
//!         let paw = Paw::init(&SPEC)?;
//!         let mut bench = paw.bench(Timing::Batch { ops_per_iter: 2.0 }, Policy::Calibrated)?;
//!         let mut out = paw.dat(&bench, DatSpec {
//!             file: "demo.dat".into(),
//!             x: Axis::new("message size", "bytes"),
//!             y: Axis::new("one-way time", "usec"),
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

mod bench;
mod calib;
pub mod check;
mod config;
mod dat;
mod error;
mod meta;
mod node;
mod paw;
mod process;
mod record;
pub mod scratch;
mod session;
mod spec;
mod stats;
mod suite;
mod team;
mod timer;
pub mod vars;
pub mod watchdog;

pub use bench::{Bench, Measurement, Row, Timing};
pub use calib::Policy;
pub use config::{check_requested, doubling, Family, SizeRange, MPI_COUNT_LIMIT};
pub use dat::{Axis, Column, CsvTable, DatFile, DatSpec, Table, TextFile};
pub use error::{Error, Result};
pub use meta::{available_memory, mpi_library_version, total_memory, uname, RunInfo, SlurmJob};
pub use node::{cores, last_level_cache_bytes, Node};
pub use paw::{agree, broadcast_text, parse_on_root, start_mpi, waiting_barrier, Pair, Paw, World};
pub use process::{fatal, main, warn};
pub use session::Session;
pub use spec::{Check, Ranks, Spec};
pub use stats::Stats;
pub use suite::SuiteRun;
pub use team::{Combine, Solo, Team};
pub use vars::Var;

/// Re-export of rsmpi, so benchmarks use the same version as the core.
pub use mpi;

/// Bytes in PAW's megabyte (MB = 2^20 B) for bandwidth columns.
pub const MB: f64 = 1_048_576.0;

/// A message buffer of `len` bytes with every page written.
///
/// Use it for every buffer a benchmark sends from, receives into or exposes: a fresh
/// `vec![0u8; n]` leaves its pages mapped to the kernel's shared zero page until written,
/// so large sends from it read one cached page and report bandwidth memory cannot deliver.
pub fn buffer(len: usize) -> Vec<u8> {
    vec![0xa5; len]
}
