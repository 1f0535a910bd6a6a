//! paw-presta: what PRESTA 1.2's com, laten and rma share -- options read on rank 0 and
//! shared, pairing and allocation, the butterfly barrier and the time sample, the
//! activation of the pairs of each process count, the run's description, the closing
//! lines (pairs, MPI_Wtick, MPI_Wtime overhead, clock ticks of the shortest sample) and the
//! `.dat` tables of bandwidth over size per process count; rma's tests and windows
//! ([`rma`]); allred's and globalop's arguments, compute phase, operations and reports
//! ([`allred`], [`globalop`]).
#![warn(missing_docs)]

pub mod allred;
pub mod globalop;
pub mod options;
pub mod pairs;
pub mod rma;
pub mod timing;

use options::{Options, Takes};
use pairs::Layout;
use paw_core::mpi::topology::{Color, SimpleCommunicator};
use paw_core::mpi::traits::*;
use paw_core::schema::{sweep, table, Unit, BYTES};
use paw_core::{Column, SuiteRun, Table};

/// One compute phase of allred and globalop: `steps` dependent multiply-adds on `x`, kept
/// by black_box so the optimiser cannot remove them.
pub fn compute(steps: u64, mut x: f64) -> f64 {
    for _ in 0..steps {
        x = std::hint::black_box(x * 0.999_999_9 + 1e-7);
    }
    x
}

/// A binary of the suite, its facts written once ([`options::about`] makes its `-h`,
/// header lines and doc table from them).
#[derive(Debug, Clone, Copy)]
pub struct Binary {
    /// Program name (`com`, `laten`, `rma`).
    pub name: &'static str,
    /// One line: what it measures (`-h` and file headers).
    pub title: &'static str,
    /// Options beyond the common ones.
    pub takes: Takes,
    /// What one sample times.
    pub timed: &'static str,
    /// What is reported, by which formulas.
    pub reported: &'static str,
    /// The files it writes.
    pub files: &'static str,
}

/// A started run of com, laten or rma.
pub struct Presta {
    /// MPI_COMM_WORLD.
    pub world: SimpleCommunicator,
    /// The options, the same on every rank.
    pub opts: Options,
    /// Pairing and allocation.
    pub layout: Layout,
    /// Output files and the run record.
    pub run: SuiteRun,
    /// The binary.
    pub binary: Binary,
}

impl std::fmt::Debug for Presta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Presta({}, {:?})", self.binary.name, self.opts)
    }
}

/// The processes of one process count: this process's part, if active.
pub struct Active {
    /// The active processes (ordered by world rank).
    pub comm: SimpleCommunicator,
    /// The partner's world rank.
    pub partner: i32,
    /// Whether this process is the pair's first (the sender of one-way tests).
    pub first: bool,
    /// Index of this process's pair in allocation order.
    pub pair: usize,
}

impl std::fmt::Debug for Active {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Active(pair {}, partner {}, first {})", self.pair, self.partner, self.first)
    }
}

impl Presta {
    /// Starts MPI and reads rank 0's command line on every rank; `None` after printing
    /// the usage for `-h`.
    pub fn start(binary: Binary) -> paw_core::Result<Option<Presta>> {
        let about = options::about(&binary);
        let parse = |line: &_, size| options::parse(line, binary.takes, size);
        let flags = options::flags(binary.takes);
        let Some((world, opts)) = paw_core::start_suite(&about, &flags, &[], parse)? else {
            return Ok(None);
        };
        let size = world.size() as usize;
        let run = SuiteRun::start(&about, &world, &[], None, true)?;
        let layout = opts.layout(size);
        Ok(Some(Presta { world, opts, layout, run, binary }))
    }

    /// Whether this is rank 0, which prints.
    pub fn root(&self) -> bool {
        self.world.rank() == 0
    }

    /// The pairs of `count` processes (collective over the world): this process's part if
    /// it is active. Inactive processes wait in the next [`Presta::done`].
    pub fn activate(&self, count: usize) -> Option<Active> {
        let me = self.world.rank() as usize;
        let pairs = self.layout.active(count);
        let found = pairs.iter().enumerate().find_map(|(k, &(a, b))| match me {
            r if r == a => Some((k, b, true)),
            r if r == b => Some((k, a, false)),
            _ => None,
        });
        let color = if found.is_some() { Color::with_value(0) } else { Color::undefined() };
        let comm = self.world.split_by_color_with_key(color, me as i32)?;
        let (pair, partner, first) = found?;
        Some(Active { comm, partner: partner as i32, first, pair })
    }

    /// The end of a process count's measurements: every process of the world meets
    /// (those without a pair wait here through the whole count, the watchdog told).
    pub fn done(&self) {
        paw_core::waiting_barrier(&self.world);
    }

    /// The run's description, as `# ` lines on rank 0's standard output.
    pub fn print_header(&self, extra: &[String]) {
        if !self.root() {
            return;
        }
        let own: Vec<String> = self.parameters().into_iter().chain(extra.iter().cloned()).collect();
        print!("{}", self.run.header(&own));
    }

    /// The test parameters, one line each.
    pub fn parameters(&self) -> Vec<String> {
        let o = &self.opts;
        let t = self.binary.takes;
        let mut v = Vec::new();
        if t.epochs {
            v.push(format!("operations per epoch (-o): {}", o.ops));
            v.push(format!("epochs per sample (-c): {}", o.epochs));
        } else {
            v.push(format!("operations per sample (-o): {}", o.ops));
        }
        if t.sizes {
            v.push(format!(
                "message sizes: {} to {} bytes, factor {} (-b, -e, -s)",
                o.start, o.stop, o.factor
            ));
        }
        let counts: Vec<String> = o.counts.iter().map(|c| c.to_string()).collect();
        v.push(format!(
            "process counts{}: {}",
            if o.file.is_some() { " (-f)" } else { "" },
            counts.join(" ")
        ));
        let used = self.layout.used;
        let pairing = match (o.nearby, o.ppn) {
            (true, Some(t)) => format!("rank + {t} on the next SMP (-r)"),
            _ => format!("(rank + {}) mod {used}", used / 2),
        };
        v.push(format!(
            "pairing: {}; allocation: {}{}",
            pairing,
            if o.cyclic { "cyclic (-p c)" } else { "block" },
            o.ppn.map_or(String::new(), |t| format!("; {t} processes per SMP (-t)"))
        ));
        v.push(format!(
            "barrier in the timed region: {}",
            if o.no_barrier { "no (-n)" } else { "yes (butterfly)" }
        ));
        let world = self.world.size() as usize;
        if world > self.layout.used {
            v.push(format!("rank {} takes no part (an odd number of processes)", world - 1));
        }
        v
    }

    /// The closing lines: the pairs with their hosts (with `-i`), MPI_Wtick, the
    /// MPI_Wtime overhead and the clock ticks of the shortest sample (`shortest`,
    /// seconds), with a warning below 100 ticks.
    pub fn closing(&self, shortest: f64) -> String {
        let mut out = String::new();
        let info = self.run.info();
        if self.opts.print_pairs {
            let host = |r: usize| {
                info.placement.get(r).and_then(|p| p.split_whitespace().next()).unwrap_or("?")
            };
            out += "Process pairs (rank host <-> rank host), in allocation order:\n";
            for (a, b) in self.layout.pairs() {
                out += &format!("  {a} {} <-> {b} {}\n", host(a), host(b));
            }
        }
        let tick = paw_core::mpi::time_resolution();
        let ticks = shortest / tick;
        out += &format!("MPI_Wtick                : {tick:e} s\n");
        out += &format!("MPI_Wtime overhead       : {:.4} us\n", timing::wtime_overhead() * 1e6);
        out += &format!("Ticks for minimum sample : {ticks:.0}\n");
        if ticks < 100.0 {
            paw_core::warn(&format!(
                "the shortest sample lasted {ticks:.0} ticks of MPI_Wtick (fewer than 100); \
                 raise -o for more operations per sample"
            ));
        }
        out
    }

    /// The table `file` (a `.dat` file and its CSV twin) of `y` against message size, a
    /// column per process count: `rows[i]` holds size `sizes[i]` and one value per count.
    pub fn size_table(
        &self,
        file: &str,
        y: &str,
        unit: Unit,
        sizes: &[u64],
        rows: &[Vec<f64>],
    ) -> paw_core::Result<()> {
        let mut columns = vec![Column::new(sweep::SIZE, BYTES)];
        columns.extend(self.opts.counts.iter().map(|c| Column::new(table::processes(*c), unit)));
        let notes = [
            "x: SIZE = message size [bytes]".to_string(),
            format!("y: {y} [{}]; a column per process count (P2: 2 processes)", unit.label),
        ];
        let mut table = self.table(file, &notes, &columns)?;
        for (size, row) in sizes.iter().zip(rows) {
            let mut cells = vec![size.to_string()];
            cells.extend(row.iter().map(|v| format!("{v:.6}")));
            table.row(&cells);
        }
        Ok(())
    }

    /// A table file with the paw header and this run's parameters.
    pub fn table(
        &self,
        file: &str,
        notes: &[String],
        columns: &[Column],
    ) -> paw_core::Result<Table> {
        let mut all = self.parameters();
        all.extend(notes.iter().cloned());
        self.run.table(file, &all, columns)
    }
}

/// Bandwidth in MB/s (10^6 B/s) of `messages` of `size` bytes in `seconds`.
pub fn bandwidth(messages: f64, size: u64, seconds: f64) -> f64 {
    paw_core::schema::MB_PER_S.of(messages * size as f64 / seconds)
}
