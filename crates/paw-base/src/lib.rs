//! paw-base: what every paw benchmark shares, without MPI; nothing in it names a benchmark.
//!
//! Node tests (BLAS, STREAM, GPU) depend on this crate alone, so their binaries link no MPI
//! library and start on a machine without one; paw-core adds MPI on top of it and
//! re-exports all of it, for the MPI tests and the suites.
//!
//! - [`Spec`] is a benchmark's description of itself, written once: `-h`, the header of
//!   every output file and the doc tables come from it. [`vars`] describes the shared
//!   environment variables. [`About`] is the same for a suite binary with its own options.
//! - [`Node`] (a single process, no MPI) and paw-core's `Paw` (MPI) start a [`Session`]:
//!   settings read once and recorded for the header, timer overhead and resolution, the
//!   watchdog; a session is generic over the [`Team`] of processes that measure together.
//! - [`Bench`] runs the PAW loop: warm-up, NLOOP decided on rank 0 and shared, NREPS
//!   samples (more with PAW_PRECISION), per-repetition combination over ranks ([`Combine`]).
//! - [`DatFile`] writes gnuplot-ready `.dat` files and their CSV twins with a metadata
//!   header, flushed per row; a JSON run record is kept beside them.
//! - [`main`] runs a benchmark's body and turns its outcome into the exit status;
//!   [`process::adopt`] is how a parallel runtime (MPI, in paw-core) joins the process.
//!
//! The modules [`config`], [`dat`], [`meta`], [`process`], [`record`], [`session`] and
//! [`spec`] are public for paw-core's MPI sessions; a benchmark uses the items re-exported
//! here.
//!
//! A node test's `main` reads:
//!
//! ```no_run
//! use paw_base::schema::{BYTES, USEC};
//! use paw_base::{vars, Axis, Check, Combine, DatSpec, Files, Node, Policy, Ranks, Spec, Timing};
//! const SPEC: Spec = Spec {
//!     name: "demo",
//!     title: "a demonstration",
//!     timed: "NLOOP calls per sample",
//!     reports: "time per call, usec",
//!     ranks: Ranks::Node,
//!     combine: Combine::Min,
//!     vars: &[vars::MEASURE],
//!     check: Check::Never,
//!     files: Files::Text("demo.dat"),
//!     headlines: &[],
//! };
//! fn main() -> std::process::ExitCode {
//!     paw_base::main(SPEC.name, || {
//!         let node = Node::init(&SPEC)?;
//!         let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
//!         let mut out = node.dat(&bench, DatSpec {
//!             file: "demo.dat".into(),
//!             x: Axis::new("size", BYTES),
//!             y: Axis::new("time per call", USEC),
//!             notes: vec![],
//!             echo: true,
//!             extra: vec![],
//!         })?;
//!         let m = bench.measure(1, || { /* the timed calls */ })?;
//!         out.row(1, &m.row(|t| t * 1e6));
//!         Ok(())
//!     })
//! }
//! ```
#![warn(missing_docs)]

pub mod about;
mod bench;
pub mod buffer;
mod calib;
pub mod check;
pub mod cli;
pub mod config;
pub mod dat;
mod error;
pub mod meta;
mod node;
pub mod osu;
pub mod process;
pub mod record;
pub mod schema;
pub mod scratch;
pub mod session;
pub mod spec;
mod stats;
mod team;
mod timer;
pub mod vars;
pub mod watchdog;
pub mod work;

pub use about::{About, Opt};
pub use bench::{percentile, Bench, Measurement, Singles, Tail, Timing, TAIL_COLUMNS};
pub use buffer::{buffer, Buffer};
pub use calib::Policy;
pub use config::{check_requested, doubling, Family, SizeRange, MPI_COUNT_LIMIT};
pub use dat::{Axis, Column, CsvTable, DatFile, DatSpec, Row, Table, TextFile};
pub use error::{Error, Result};
pub use meta::{available_memory, total_memory, uname, RunInfo, SlurmJob};
pub use node::{cores, last_level_cache_bytes, online_cores, Node};
pub use process::{fatal, main, warn};
pub use session::Session;
pub use spec::{headline, Check, Extra, Files, Headline, Pick, Ranks, Second, Spec, SweepFiles};
pub use stats::{median, median_interval, Stats};
pub use team::{Combine, Solo, Team};
pub use vars::Var;

/// Bytes in PAW's megabyte (MB = 2^20 B) for bandwidth columns ([`schema::MIB_PER_S`]).
pub const MB: f64 = schema::MIB_PER_S.factor;
