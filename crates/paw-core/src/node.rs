//! The node session: a single process without MPI (BLAS, STREAM, GPU), timed with a
//! monotonic clock.

use crate::bench::{Bench, Timing};
use crate::calib::Policy;
use crate::dat::np_file;
use crate::error::Result;
use crate::meta::{self, RunInfo};
use crate::session::Session;
use crate::spec::{Args, Spec};
use crate::team::{Combine, Solo};

/// A node test's session.
pub type Node = Session<Solo>;

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
        Session::new(Solo::new(), info)
    }

    /// A bench with the given timing model and loop policy.
    pub fn bench(&self, timing: Timing, policy: Policy) -> Bench<'_, Solo> {
        self.make_bench(timing, Combine::Min, policy)
    }

    /// PAW's file name for a thread count: `<stem>-np_NNNN.dat`.
    pub fn np_file(&self, stem: &str, threads: usize) -> String {
        np_file(stem, threads)
    }
}
