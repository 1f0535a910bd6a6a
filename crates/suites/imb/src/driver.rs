//! The driver of every suite (guide §5, Figure 20): rank 0's options read on every rank, the
//! general block, then per selected benchmark, process count Q and mode a block: the first
//! Q processes (with `-multi`, P/Q groups of Q) are active and the rest wait in
//! MPI_Barrier; N_WARMUP runs at the largest length (0 for today's suites, whose kernels
//! warm up at every length); per length the repetitions of the rule, the benchmark's
//! timing, and t_min, t_max, t_avg over the active processes that took part.

use crate::cli;
use crate::options::Options;
use crate::output::{self, Arrangement, Columns, Times};
use crate::schedule::counts_for;
use crate::settings::MESSAGE_PASSING;
use crate::suite::{Ctx, ProcessTimes, Run, Suite};
use crate::table::{Benchmark, Class, Mode};
use paw_core::cli::Line;
use paw_core::config::Lookup;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::{Color, SimpleCommunicator};
use paw_core::mpi::traits::*;
use paw_core::schema::imb_csv;
use paw_core::vars::PAW_OUTPUT_DIR;
use paw_core::{agree, CsvTable, Error, SuiteRun};
use std::process::ExitCode;
use std::time::Instant;

/// Runs `suite` as the whole program: `fn main() -> ExitCode { paw_imb::run(&SUITE) }`.
pub fn run<K>(suite: &'static Suite<K>) -> ExitCode {
    paw_core::main(suite.name, || body(suite))
}

fn body<K>(suite: &'static Suite<K>) -> paw_core::Result<()> {
    let about = cli::about(suite);
    let parse = |line: &Line, np| {
        let o = cli::parse(suite, line, np)?;
        // PAW_OUTPUT_DIR asks for the files as -csv does.
        let csv = line.get(PAW_OUTPUT_DIR.name).is_some_and(|d| !d.is_empty());
        Ok(o.map(|o| Options { csv: o.csv || csv, ..o }))
    };
    let flags = cli::flags(suite);
    let Some((world, opts)) = paw_core::start_suite(&about, &flags, &[&PAW_OUTPUT_DIR], parse)?
    else {
        return Ok(());
    };
    let root = world.rank() == 0;
    if opts.list {
        if root {
            print!("{}", cli::list(suite));
        }
        return Ok(());
    }
    crate::buffers::take_from_mpi(opts.alloc_mem);
    let run = SuiteRun::start(&about, &world, &[], opts.timeout, opts.csv)?;
    let extra = agree(&world, (suite.prologue)(&opts, &world))?;
    let p = world.size() as usize;
    let (mapped, order) = renumber(&world, opts.map);
    let selected: Vec<&'static Benchmark<K>> =
        opts.benchmarks.iter().map(|&i| &suite.benchmarks[i]).collect();
    if root {
        print!("{}", output::general(suite, &opts, &selected, &extra));
    }
    let mut progress = Progress::new(suite.name, root);
    let mut total_defects = 0;
    for b in selected {
        let counts = counts_for(b.class, suite.settings.single_q, p, opts.npmin);
        if counts.is_empty() && root {
            let n = suite.settings.single_q;
            println!("\n# {} skipped: it needs {n} processes, this run has {p}", b.name);
        }
        let o = &opts.for_benchmark(b.has_root);
        for q in counts {
            let Some(shape) = (suite.shape)(b, q) else {
                if root {
                    println!("\n# !! Benchmark {} is invalid for {q} processes !!", b.name);
                }
                continue;
            };
            let block = Block { suite, b, q, shape: &shape, mapped: &mapped, order: &order, o };
            total_defects += block.run(&run, &mut progress)?;
        }
    }
    if root {
        println!("\n\n# All processes entering MPI_Finalize\n");
    }
    if total_defects > 0 {
        return Err(Error::check(format!(
            "-check found {total_defects} defects: received data differ from what was sent \
             (see the defects column)"
        )));
    }
    Ok(())
}

/// MPI_COMM_WORLD renumbered by `-map PxQ` (guide §5.1.2.6), and the world rank of each
/// new rank. Without a map, a copy of the world in the same order.
fn renumber(
    world: &SimpleCommunicator,
    map: Option<(usize, usize)>,
) -> (SimpleCommunicator, Vec<i32>) {
    let n = world.size() as usize;
    let order: Vec<i32> = match map {
        // New rank k = i Q + j is the process in row i, column j: world rank j P + i.
        Some((p, q)) => (0..n).map(|k| ((k % q) * p + k / q) as i32).collect(),
        None => (0..n as i32).collect(),
    };
    let me = world.rank();
    let key = order.iter().position(|&w| w == me).expect("every rank is in the order") as i32;
    let mapped = world.split_by_color_with_key(Color::with_value(0), key).expect("color 0");
    (mapped, order)
}

/// Lines on rank 0's standard error that say where a long run is: one per length once
/// the run has lasted `QUIET` seconds, at most one per `EVERY` seconds unless a new table
/// starts or the last length took that long.
struct Progress {
    name: &'static str,
    on: bool,
    start: Instant,
    last: Option<Instant>,
}

impl Progress {
    const QUIET: f64 = 20.0;
    const EVERY: f64 = 5.0;

    fn new(name: &'static str, root: bool) -> Progress {
        Progress { name, on: root, start: Instant::now(), last: None }
    }

    fn step(&mut self, label: &str, new_table: bool) {
        let now = Instant::now();
        let since = |t: Instant| now.duration_since(t).as_secs_f64();
        let due = self.last.is_none_or(|t| new_table || since(t) >= Self::EVERY);
        if self.on && since(self.start) >= Self::QUIET && due {
            eprintln!("{}: [{:.0} s] {label}", self.name, since(self.start));
            self.last = Some(now);
        }
    }
}

/// One benchmark on one process count, every mode.
struct Block<'s, K: 'static> {
    suite: &'s Suite<K>,
    b: &'static Benchmark<K>,
    q: usize,
    /// What follows the name on the `# Benchmarking` line.
    shape: &'s str,
    mapped: &'s SimpleCommunicator,
    order: &'s [i32],
    o: &'s Options,
}

impl<K> Block<'_, K> {
    /// Runs the block and prints its tables; returns the defects found (on rank 0; 0
    /// elsewhere).
    fn run(&self, files: &SuiteRun, progress: &mut Progress) -> paw_core::Result<u64> {
        let (b, q, o) = (self.b, self.q, self.o);
        let p = self.mapped.size() as usize;
        let me = self.mapped.rank() as usize;
        let groups = if o.multi.is_some() { p / q } else { 1 };
        let used = groups * q;
        let in_use = me < used;
        let color = if in_use { Color::with_value(0) } else { Color::undefined() };
        let active = self.mapped.split_by_color_with_key(color, me as i32);
        let color = if in_use { Color::with_value((me / q) as i32) } else { Color::undefined() };
        let group = self.mapped.split_by_color_with_key(color, me as i32);

        let mut started = None;
        let mut outcome = Ok(());
        if let (Some(g), Some(a)) = (&group, &active) {
            let ctx = Ctx {
                comm: g,
                rank: g.rank() as usize,
                q,
                group: o.multi.is_some().then_some(me / q),
                active: a,
                groups,
            };
            match (self.suite.start)(b, ctx, o) {
                Ok(r) => started = Some(r),
                Err(e) => outcome = Err(format!("{}: {e}", b.name)),
            }
        }
        agree(self.mapped, outcome)?;

        let lengths = match (b.class, b.has_bytes) {
            (Class::SingleElement, _) => vec![b.unit],
            (_, true) => o.lengths_for(b.unit),
            (_, false) => vec![0],
        };
        let largest = lengths.iter().copied().max().unwrap_or(0);
        let n_warmup = self.suite.settings.n_warmup;
        if let Some(r) = started.as_mut().filter(|_| n_warmup > 0 && o.warm_up) {
            r.warm_up(largest, n_warmup).unwrap_or_else(|e| fail(b.name, largest, &e));
        }
        let arrangement = Arrangement {
            q,
            groups: (0..groups).map(|g| self.order[g * q..(g + 1) * q].to_vec()).collect(),
            idle: p - used,
            multi: o.multi.is_some(),
            mapped: o.map.is_some(),
        };
        let columns = Columns::of(b, o.edition, o, q);
        let mut found = 0;
        for &mode in b.modes {
            let name =
                imb_csv::file_name(self.suite.name, o.multi.is_some(), b.name, q, mode.csv());
            let header = columns.csv_header();
            let mut csv =
                files.csv(&name, &header.iter().map(String::as_str).collect::<Vec<_>>())?;
            if me == 0 {
                println!("{}", output::block(b, self.shape, &arrangement, mode));
                println!("{}", columns.header());
            }
            if let (Some(r), Some(active)) = (started.as_mut(), &active) {
                let table = Table { b, q, mode, o, columns, active, lengths: &lengths };
                found += table.measure(r.as_mut(), &mut csv, progress);
            }
        }
        drop(started);
        // The processes outside the groups wait here for the others; then every rank learns
        // the defects rank 0 counted, so all leave with the same status.
        self.mapped.barrier();
        self.mapped.process_at_rank(0).broadcast_into(&mut found);
        Ok(found)
    }
}

/// A failure in the middle of a measurement: the other ranks may be inside a collective
/// this rank will never enter, so the job ends here (the scratch files removed first).
fn fail(name: &str, x: usize, message: &str) -> ! {
    paw_core::scratch::remove_all();
    paw_core::fatal(&format!("{name} at {x} bytes: {message}"))
}

/// The shortest `-msg_pause` sleep.
const MSG_PAUSE_LEAST: std::time::Duration = std::time::Duration::from_millis(100);

/// One table: every length of one benchmark in one mode on the active processes.
struct Table<'a, K: 'static> {
    b: &'static Benchmark<K>,
    q: usize,
    mode: Mode,
    o: &'a Options,
    columns: Columns,
    active: &'a SimpleCommunicator,
    lengths: &'a [usize],
}

impl<K> Table<'_, K> {
    /// Measures every length; the active rank 0 prints the rows and returns the defects.
    fn measure(&self, r: &mut dyn Run, csv: &mut CsvTable, progress: &mut Progress) -> u64 {
        let (b, q, mode, o) = (self.b, self.q, self.mode, self.o);
        let leader = self.active.rank() == 0;
        let mut found = 0;
        for (i, &x) in self.lengths.iter().enumerate() {
            let heading = mode.heading().map(|m| format!(", {m}")).unwrap_or_default();
            let processes = if q == 1 { "process" } else { "processes" };
            let label = format!("{} on {q} {processes}{heading}, {x} bytes", b.name);
            progress.step(&label, i == 0);
            paw_core::watchdog::step(label);
            let mut reps = o.repetitions(mode, x, q);
            if o.adapts() {
                let single = o.estimate.then(|| self.estimate(r, x, reps));
                if let Some(limit) = o.time {
                    reps = self.time_limited(r, x, reps, limit, single);
                }
            } else if o.estimate {
                // Today's IMB runs a fixed count once untimed where it estimates none.
                r.measure(mode, x, reps).unwrap_or_else(|e| fail(b.name, x, &e));
            }
            let began = Instant::now();
            let mut mine = r.measure(mode, x, reps).unwrap_or_else(|e| fail(b.name, x, &e));
            paw_core::watchdog::alive();
            if o.msg_pause {
                // Today's IMB: a pause of a tenth of the length's time, at least 0.1 s.
                std::thread::sleep(began.elapsed().div_f64(10.0).max(MSG_PAUSE_LEAST));
            }
            if o.check {
                mine.defects =
                    r.check(mode, x, reps).unwrap_or_else(|e| fail(b.name, x, &e)) as f64;
            }
            let to = self.active.process_at_rank(0);
            if !leader {
                to.gather_into(&mine.to_array()[..]);
                continue;
            }
            let mut all = vec![0.0f64; 4 * self.active.size() as usize];
            to.gather_into_root(&mine.to_array()[..], &mut all[..]);
            let samples: Vec<ProcessTimes> = all.chunks(4).map(ProcessTimes::from_slice).collect();
            let overall = Times::of(&samples);
            found += overall.defects;
            let c = &self.columns;
            if o.multi == Some(1) {
                for (g, members) in samples.chunks(q).enumerate() {
                    let t = Times::of(members);
                    println!("{}", c.row(g, x, reps, &t));
                    csv.row(&c.csv_row((b.name, q, mode), g, x, reps, &t));
                }
            } else {
                println!("{}", c.row(0, x, reps, &overall));
                csv.row(&c.csv_row((b.name, q, mode), 0, x, reps, &overall));
            }
        }
        found
    }

    /// `-estimate`: the untimed runs today's IMB makes before timing a length
    /// (IMB_init_buffers_iter): one repetition, then min(`reps`, MSGSPERSAMPLE) if that one
    /// took under 1 / MSGSPERSAMPLE s on the slowest process, else about 1 s of them. Returns
    /// that one repetition's seconds.
    fn estimate(&self, r: &mut dyn Run, x: usize, reps: usize) -> f64 {
        let most = MESSAGE_PASSING.msgs_per_sample;
        let one = self.slowest_single(r, x);
        let fit = if one < 1.0 / most as f64 { most } else { (1.0 / one).round() as usize };
        let n = reps.min(fit.max(1));
        if n > 1 {
            r.measure(self.mode, x, n).unwrap_or_else(|e| fail(self.b.name, x, &e));
        }
        one
    }

    /// `-time`: the repetitions that fit in `limit` seconds, from one run with a single
    /// repetition (slowest active process; `single`, when the estimate has timed it),
    /// never more than `reps` nor fewer than one.
    fn time_limited(
        &self,
        r: &mut dyn Run,
        x: usize,
        reps: usize,
        limit: f64,
        single: Option<f64>,
    ) -> usize {
        let slowest = single.unwrap_or_else(|| self.slowest_single(r, x));
        if slowest <= 0.0 {
            return reps;
        }
        reps.min(((limit / slowest) as usize).max(1))
    }

    /// Seconds one repetition at length `x` takes on the slowest active process.
    fn slowest_single(&self, r: &mut dyn Run, x: usize) -> f64 {
        let one = r.measure(self.mode, x, 1).unwrap_or_else(|e| fail(self.b.name, x, &e));
        let mine = one.t.max(one.pure + one.cpu) * 1e-6;
        let mut slowest = 0.0f64;
        self.active.all_reduce_into(&mine, &mut slowest, SystemOperation::max());
        slowest
    }
}
