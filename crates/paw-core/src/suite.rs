//! What a suite with its own command line (IMB, b_eff, PRESTA) shares with paw's own
//! benchmarks: the check of the environment for mistyped variables, the watchdog, and,
//! when output files are asked for, CSV tables and a JSON run record in the output
//! directory, earlier results kept.

use crate::paw::gather_strings;
use crate::runtime::{mca_files, mpi_library_version};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use paw_base::dat::{keep_earlier, np_file, Column, CsvTable, Place, Table, TextFile};
use paw_base::meta::{self, RunInfo};
use paw_base::record::{Ledger, Record};
use paw_base::session::{existing_dir, finish, output_error, warn_unknown_vars};
use paw_base::{process, vars, watchdog};
use paw_base::{About, Var};
use paw_base::{Error, Result};
use std::path::PathBuf;
use std::rc::Rc;

/// A suite's run: where its files go, if anywhere, and its record.
pub struct SuiteRun {
    about: About,
    world: SimpleCommunicator,
    dir: Option<PathBuf>,
    ledger: Rc<Ledger>,
    info: RunInfo,
}

impl std::fmt::Debug for SuiteRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SuiteRun").field("name", &self.about.name).field("dir", &self.dir).finish()
    }
}

impl SuiteRun {
    /// Starts the run of the suite binary `about` describes on `world` (collective); its
    /// title and its `timed:` and `reported:` lines head every file. `reads` are the variables it reads
    /// besides PAW_OUTPUT_DIR and PAW_TIMEOUT (a paw-like variable not among them is
    /// warned about); `timeout` is its watchdog option, if given (else PAW_TIMEOUT or the
    /// default); with `files`, CSV tables and the run record go to PAW_OUTPUT_DIR (or the
    /// current directory).
    pub fn start(
        about: &About,
        world: &SimpleCommunicator,
        reads: &[Var],
        timeout: Option<u64>,
        files: bool,
    ) -> Result<SuiteRun> {
        let name = about.name;
        let root = world.rank() == 0;
        let all: Vec<&Var> = reads.iter().chain(vars::EVERY).collect();
        let mut failure =
            if root { warn_unknown_vars(name, all.iter().copied(), None).err() } else { None };
        let seconds = match timeout {
            Some(s) => Ok(s),
            None => paw_base::config::parse_u64(
                &paw_base::config::ProcessEnv,
                &vars::PAW_TIMEOUT,
                0..=1_000_000,
            )
            // The default (vars::PAW_TIMEOUT's) is parsed with the value: never None.
            .map(Option::unwrap_or_default),
        };
        let mut secs = 0;
        match seconds {
            Ok(s) => secs = s,
            Err(e) if root => failure = failure.or(Some(e)),
            Err(_) => {}
        }
        let mut bad = failure.is_some() as u8;
        world.process_at_rank(0).broadcast_into(&mut bad);
        if bad == 1 {
            return Err(
                failure.unwrap_or_else(|| Error::input("invalid setting (reported by rank 0)"))
            );
        }
        world.process_at_rank(0).broadcast_into(&mut secs);
        watchdog::start(secs);
        let placement = gather_strings(world, &meta::placement());
        let dir = files.then(|| match std::env::var_os(paw_base::vars::PAW_OUTPUT_DIR.name) {
            Some(d) if !d.is_empty() => PathBuf::from(d),
            _ => PathBuf::from("."),
        });
        // An unusable output directory stops the run before anything is measured.
        let mut bad_dir = None;
        if let (true, Some(d)) = (root, &dir) {
            bad_dir = existing_dir(d).err().map(|e| output_error(d, "the CSV tables", &e));
        }
        let mut bad = bad_dir.is_some() as u8;
        world.process_at_rank(0).broadcast_into(&mut bad);
        if bad == 1 {
            return Err(
                bad_dir.unwrap_or_else(|| Error::input("invalid setting (reported by rank 0)"))
            );
        }
        let mut ledger = Rc::new(Ledger::default());
        if let Some(shared) = meta::shared_cpus(&placement) {
            process::warn(&shared);
        }
        let info = RunInfo {
            benchmark: name.to_string(),
            date: meta::utc_now(),
            placement,
            tasks: world.size() as usize,
            libraries: vec![format!("MPI: {}", mpi_library_version())],
            environment: meta::environment(|_| false),
            mca_files: mca_files(),
            buffers: Some(paw_base::buffer::PLACEMENT.into()),
            timer: format!("MPI_Wtime, tick {:e} s", mpi::environment::time_resolution()),
            slurm: meta::SlurmJob::current(),
            ..RunInfo::default()
        };
        if root {
            let (paw_version, git_revision) = paw_base::record::version();
            ledger = Rc::new(Ledger::new(
                Record {
                    paw_version,
                    git_revision,
                    binary: name.to_string(),
                    title: about.title.clone(),
                    arguments: std::env::args().skip(1).collect(),
                    date: meta::utc_now(),
                    status: "running".into(),
                    tasks: world.size() as usize,
                    slurm: info.slurm.clone(),
                    mpi_library: Some(mpi_library_version()),
                    environment: meta::environment(|_| false),
                    mca_files: mca_files(),
                    ..Default::default()
                }
                .placed(&info),
            ));
            let l = ledger.clone();
            process::at_exit(move |outcome| finish(&l, outcome));
        }
        Ok(SuiteRun { about: about.clone(), world: world.duplicate(), dir, ledger, info })
    }

    /// Whether output files were asked for.
    pub fn writes_files(&self) -> bool {
        self.dir.is_some()
    }

    /// Creates CSV table `file` on rank 0 when files were asked for (collective: an
    /// unwritable directory is an error on every rank); an inactive table otherwise.
    pub fn csv(&self, file: &str, columns: &[&str]) -> Result<CsvTable> {
        let made = self.on_root(file, |place| CsvTable::create(place, file, columns))?;
        Ok(made.unwrap_or_else(CsvTable::inactive))
    }

    /// Creates the table `file` (a `.dat` file and its CSV twin) on rank 0 when files were
    /// asked for, its header [`SuiteRun::header_lines`] with `notes` as the suite's own lines
    /// (collective).
    pub fn table(&self, file: &str, notes: &[String], columns: &[Column]) -> Result<Table> {
        let header = self.header_lines(notes);
        let made = self.on_root(file, |place| Table::open(place, file, &header, columns, None))?;
        Ok(made.unwrap_or_else(Table::inactive))
    }

    /// The run's description as header lines, the one builder of every suite's headers:
    /// the suite's title, date, hosts, placement, MPI library and timer, then the suite's
    /// `own` lines, the environment (MCA settings, variables), and what the suite times and
    /// reports ([`About::header_lines`]).
    pub fn header_lines(&self, own: &[String]) -> Vec<String> {
        let info = RunInfo { title: self.about.title.clone(), ..self.info.clone() };
        let mut lines = info.header_lines();
        lines.extend(own.iter().cloned());
        lines.extend(info.environment_lines());
        lines.extend(self.about.header_lines());
        lines
    }

    /// [`SuiteRun::header_lines`] as text, each line behind `# `.
    pub fn header(&self, own: &[String]) -> String {
        self.header_lines(own).iter().map(|l| format!("# {l}\n")).collect()
    }

    /// Creates the text file `file` on rank 0 when files were asked for (collective).
    pub fn text(&self, file: &str) -> Result<TextFile> {
        let made = self.on_root(file, |place| TextFile::create(place, file))?;
        Ok(made.unwrap_or_else(TextFile::inactive))
    }

    /// The run's description, as the headers of its tables give it.
    pub fn info(&self) -> &RunInfo {
        &self.info
    }

    /// Runs `create` in the output directory on rank 0, after moving an earlier run's file
    /// of that name aside; every rank learns whether it worked.
    fn on_root<F>(
        &self,
        file: &str,
        create: impl FnOnce(&Place) -> std::io::Result<F>,
    ) -> Result<Option<F>> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        let mut made = None;
        let mut failure = None;
        if self.world.rank() == 0 {
            let place =
                Place { dir: dir.clone(), ledger: self.ledger.clone(), fail: process::fatal };
            let result = existing_dir(dir)
                .and_then(|_| self.record_file())
                .and_then(|_| self.keep(file))
                .and_then(|_| create(&place));
            match result {
                Ok(t) => made = Some(t),
                Err(e) => failure = Some(output_error(dir, file, &e)),
            }
        }
        // Every rank leaves with rank 0's error and its exit status.
        let mut code = failure.as_ref().map_or(0, Error::code);
        self.world.process_at_rank(0).broadcast_into(&mut code);
        if code != 0 {
            return Err(failure.unwrap_or_else(|| {
                Error::with_code(code, "cannot create output (reported by rank 0)")
            }));
        }
        Ok(made)
    }

    /// Starts the run record beside the first table.
    fn record_file(&self) -> std::io::Result<()> {
        if self.ledger.has_file() {
            return Ok(());
        }
        let dir = self.dir.as_ref().expect("files asked for");
        let name = np_file(self.about.name, self.world.size() as usize).replace(".dat", ".json");
        self.keep(&name)?;
        self.ledger.place(dir.join(name))
    }

    fn keep(&self, file: &str) -> std::io::Result<()> {
        let dir = self.dir.as_ref().expect("files asked for");
        let moved = keep_earlier(dir, file)?;
        self.ledger.update(|r| r.kept.extend(moved));
        Ok(())
    }
}
