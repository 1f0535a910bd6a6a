//! paw-core: what every paw benchmark shares, and nothing that names a benchmark.
//!
//! - [`Paw`] (MPI tests) and [`Node`] (single-process tests) start a session: MPI start-up
//!   with abort-on-panic, task-count rules, configuration from the environment of PAW
//!   Table 3.1 read on rank 0 and shared, timer overhead and resolution.
//! - [`Bench`] runs the PAW loop: warm-up, NLOOP decided on rank 0 and broadcast, NREPS
//!   samples, per-repetition combination over ranks ([`Combine`]).
//! - [`DatFile`] writes gnuplot-ready `.dat` files with a metadata header, flushed per row.
//!
//! A benchmark's `main` reads:
//!
//! ```no_run
//! use paw_core::{Axis, Combine, DatSpec, Paw, Policy, Ranks, Spec, Timing};
//! const SPEC: Spec = Spec { name: "demo", title: "demo", help: "", ranks: Ranks::Exactly(2) };
//! fn main() -> std::process::ExitCode {
//!     paw_core::main(SPEC.name, || {
//!         let paw = Paw::init(&SPEC)?;
//!         let mut bench = paw.bench(Timing::Batch { ops_per_iter: 2.0 }, Combine::Min, Policy::Calibrated);
//!         let mut out = paw.dat(&bench, DatSpec {
//!             file: "demo.dat".into(),
//!             x: Axis::new("message size", "bytes"),
//!             y: Axis::new("one-way time", "usec"),
//!             notes: vec![],
//!             echo: true,
//!             extra: vec![],
//!         })?;
//!         let m = bench.measure(|| { /* the timed MPI calls */ });
//!         out.row(1, &m.row(|t| t * 1e6));
//!         Ok(())
//!     })
//! }
//! ```
#![warn(missing_docs)]

pub mod bench;
pub mod calib;
pub mod check;
pub mod config;
pub mod dat;
pub mod error;
pub mod meta;
pub mod node;
pub mod paw;
pub mod session;
pub mod spec;
pub mod stats;
pub mod team;
pub mod timer;

pub use bench::{Bench, Measurement, Row, Timing};
pub use calib::{Calibration, Policy};
pub use config::{Family, Loops, SizeRange};
pub use dat::{Axis, DatFile, DatSpec, Table};
pub use error::{main, Error, Result};
pub use node::Node;
pub use paw::{mpi_library_version, start_mpi, Pair, Paw, World};
pub use session::{output_dir, Session};
pub use spec::{Ranks, Spec};
pub use stats::Stats;
pub use team::{Combine, Solo, Team};

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
