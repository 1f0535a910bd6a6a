//! The node session: a single process without MPI (BLAS, STREAM, GPU), timed with a
//! monotonic clock.

use crate::bench::{Bench, Timing};
use crate::calib::Policy;
use crate::config::{Family, Loops, SizeRange};
use crate::dat::{np_file, DatFile, DatSpec};
use crate::error::Result;
use crate::meta::{self, RunInfo};
use crate::session::Core;
use crate::spec::{Args, Spec};
use crate::team::{Combine, Solo};
use std::ops::RangeInclusive;

/// A node test's session.
#[derive(Debug)]
pub struct Node {
    core: Core<Solo>,
}

impl Node {
    /// Reads the command line (`-h` prints help and exits), measures the clock and reads
    /// the loop controls.
    pub fn init(spec: &Spec) -> Result<Node> {
        match spec.read_args(std::env::args().skip(1)) {
            Args::Help => {
                println!("{}", spec.help_text());
                std::process::exit(0);
            }
            Args::Unknown(arg) => return Err(spec.unknown_arg(&arg)),
            Args::Run => {}
        }
        let info = RunInfo {
            benchmark: spec.name.to_string(),
            title: spec.title.to_string(),
            date: meta::utc_now(),
            placement: vec![meta::placement()],
            tasks: 1,
            libraries: Vec::new(),
            settings: meta::settings(),
            mca_files: Vec::new(),
            timer: String::new(),
        };
        Ok(Node {
            core: Core::new(Solo::new(), info)?,
        })
    }

    /// Adds a library line (e.g. the BLAS build) to the header of files created afterwards.
    pub fn add_library(&mut self, line: impl Into<String>) {
        self.core.info.libraries.push(line.into());
    }

    /// NLOOP_MAX, NLOOP_MIN and NREPS.
    pub fn loops(&self) -> Loops {
        self.core.loops
    }

    /// Run metadata (header of every file).
    pub fn info(&self) -> &RunInfo {
        &self.core.info
    }

    /// A family's MIN/MED/MAX sizes.
    pub fn sizes(&self, family: Family) -> Result<SizeRange> {
        self.core.sizes(family)
    }

    /// A benchmark-specific whole-number variable.
    pub fn knob(&self, name: &str, default: u64, range: RangeInclusive<u64>) -> Result<u64> {
        self.core.knob(name, default, range)
    }

    /// A bench with the given timing model and loop policy.
    pub fn bench(&self, timing: Timing, policy: Policy) -> Bench<'_, Solo> {
        self.core.bench(timing, Combine::Min, policy)
    }

    /// Creates a data file with the run header and the bench's description.
    pub fn dat(&self, bench: &Bench<'_, Solo>, spec: DatSpec) -> Result<DatFile> {
        self.core.dat(bench, spec)
    }

    /// PAW's file name for a thread count: `<stem>-np_NNNN.dat`.
    pub fn np_file(&self, stem: &str, threads: usize) -> String {
        np_file(stem, threads)
    }
}
