//! The Intel MPI Benchmarks machinery shared by paw's six IMB suites: IMB-MPI1, IMB-EXT and
//! IMB-IO (the 3.0 guide's) and IMB-NBC, IMB-RMA, IMB-P2P (today's IMB's; see [`Edition`]):
//! the command line ([`cli`]) and the options it sets ([`options`]), the settings and
//! repetition rules ([`settings`]), the output tables ([`output`]), buffer values and the
//! results check ([`buffers`]), and the driver ([`run`]) that selects process counts and
//! groups, times every length and prints. This file declares the modules and names what
//! they export; each module imports only those below it (`table`, `settings`, `types` at
//! the bottom, `driver` at the top).
//!
//! A suite is a [`Suite`]: its [`Table`] (a name, its settings and a const table of
//! [`Benchmark`]s) and its hooks. Each
//! benchmark carries its suite's kernel description `K`; the suite's `start` turns it into
//! a [`Run`] for one process count, which the driver asks for times and checks.

mod barrier;
pub mod buffers;
pub mod cli;
/// Today's IMB CPU work (CPU_Exploit), shared with paw's non-blocking collectives.
pub use paw_core::work as cpu;
mod driver;
pub mod general;
pub mod options;
pub mod output;
pub mod placement;
pub mod schedule;
pub mod settings;
mod suite;
mod table;
pub mod types;

pub use barrier::sendrecv_barrier;
pub use driver::run;
pub use options::Options;
pub use settings::Settings;
pub use suite::{Ctx, ProcessTimes, Run, Started, Suite};
pub use table::{Benchmark, Class, Edition, Gen, General, Mode, Table};
