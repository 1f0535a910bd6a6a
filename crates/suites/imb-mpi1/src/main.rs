//! IMB-MPI1 -- the MPI-1 benchmarks of the Intel MPI Benchmarks 3.0, as a drop-in
//! executable: `mpirun -np P IMB-MPI1 [benchmark ...] [options]` (guide §5.1).
//!
//! For every selected benchmark (table order, kernels/) and process count Q: the first Q
//! processes (or, with `-multi`, P/Q groups of Q) are active, the rest wait in MPI_Barrier;
//! N_WARMUP runs at the largest length; then per length N_BARR barriers, n_sample runs of
//! the pattern between two MPI_Wtime reads, time = Δt / n_sample per process, and t_min,
//! t_max, t_avg over the active processes (guide §5.2). Repetitions:
//! n_sample = min(MSGSPERSAMPLE, max(1, OVERALL_VOL / X)), MSGSPERSAMPLE at X = 0.
//! Output on standard output as in the guide's §6; `-check` adds a defects column and a
//! non-zero exit on any defect. Options: see options.rs and doc/imb-mpi1.md.

mod buffers;
mod kernels;
mod options;
mod output;
mod settings;

use buffers::{defects, Buffer};
use kernels::{measure, Benchmark, Bufs, Ctx, Plan, BENCHMARKS};
use options::{counts_for, IterPolicy, Options, USAGE};
use output::{Arrangement, Columns, Times};
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::{Color, SimpleCommunicator};
use paw_core::mpi::traits::*;
use paw_core::{CsvTable, Error, SuiteRun};
use settings::{repetitions, N_WARMUP};

const NAME: &str = "IMB-MPI1";

fn main() -> std::process::ExitCode {
    paw_core::main(NAME, run)
}

fn run() -> paw_core::Result<()> {
    let world = paw_core::start_mpi(NAME)?;
    let opts = shared_options(&world)?;
    let root = world.rank() == 0;
    if opts.help {
        if root {
            println!("{}", help());
        }
        return Ok(());
    }
    let run = SuiteRun::start(NAME, &world, &[], opts.timeout, opts.csv)?;
    let p = world.size() as usize;
    let (mapped, order) = renumber(&world, opts.map);
    let selected: Vec<&Benchmark> = opts.benchmarks.iter().map(|&i| &BENCHMARKS[i]).collect();
    if root {
        print!("{}", output::general(&opts, &selected));
    }
    let mut total_defects = 0;
    for b in selected {
        let counts = counts_for(b.class, p, opts.npmin);
        if counts.is_empty() && root {
            println!("\n# {} skipped: it needs 2 processes, this run has {p}", b.name);
        }
        for q in counts {
            total_defects += block(b, q, &mapped, &order, &opts, &run)?;
        }
    }
    if root {
        println!("\n\n# All processes entering MPI_Finalize\n");
    }
    if total_defects > 0 {
        return Err(Error::runtime(format!(
            "-check found {total_defects} defects: received data differ from what was sent \
             (see the defects column)"
        )));
    }
    Ok(())
}

/// Rank 0 reads the command line (and the files it names); every rank gets the outcome.
fn shared_options(world: &SimpleCommunicator) -> paw_core::Result<Options> {
    let mut text = Vec::new();
    if world.rank() == 0 {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let parsed = options::parse(&args, world.size() as usize, |f| std::fs::read_to_string(f))
            .map(|mut o| {
                // PAW_OUTPUT_DIR asks for the files as -csv does.
                o.csv |= std::env::var_os("PAW_OUTPUT_DIR").is_some_and(|d| !d.is_empty());
                o
            });
        text = match parsed {
            Ok(o) => format!("ok\n{}", o.encode()),
            Err(e) => format!("error\n{e}"),
        }
        .into_bytes();
    }
    let mut len = text.len() as u64;
    world.process_at_rank(0).broadcast_into(&mut len);
    text.resize(len as usize, 0);
    world.process_at_rank(0).broadcast_into(&mut text[..]);
    let text = String::from_utf8_lossy(&text);
    match text.split_once('\n') {
        Some(("ok", encoded)) => Ok(Options::decode(encoded)),
        Some((_, message)) => Err(Error::input(message)),
        None => Err(Error::runtime("options were not received from rank 0")),
    }
}

fn help() -> String {
    let names: Vec<&str> = BENCHMARKS.iter().map(|b| b.name).collect();
    format!(
        "IMB-MPI1 (paw): the MPI-1 benchmarks of the Intel MPI Benchmarks 3.0\n\n\
         usage: {USAGE}\n\n\
         benchmarks (case-insensitive; default all): {}\n\n\
         -npmin P_min   smallest process count: P_min, 2 P_min, 4 P_min, ..., P (default 2)\n\
         -multi 0|1     run the Multi- versions in P/Q disjoint groups at once; 0 shows the\n\
         \x20              worst group, 1 every group\n\
         -input file    benchmark names, one per line (# starts a comment)\n\
         -msglen file   message lengths in bytes, one per line, replacing 0, 1, 2, ..., 4194304\n\
         -msglog [a:]b  lengths 0 and 2^a .. 2^b (default 0:22)\n\
         -map PxQ       number the P x Q processes along the rows of a P x Q matrix\n\
         -iter n[,vol[,nonaggr[,policy]]]\n\
         \x20              at most n repetitions per length (MSGSPERSAMPLE, default 1000),\n\
         \x20              at most vol MB moved per length (OVERALL_VOL, default 40)\n\
         -iter_policy p off: n repetitions at every length; dynamic (default): the vol rule\n\
         -time s        at most about s seconds per length (fewer repetitions)\n\
         -mem GB        refuse a run whose message buffers exceed GB gigabytes per process\n\
         -check         compare every received buffer with what was sent (defects column)\n\
         -csv           also write each table as a CSV file into PAW_OUTPUT_DIR (or .), with\n\
         \x20              a JSON run record; setting PAW_OUTPUT_DIR does the same\n\
         -timeout s     end the job when one length takes over s seconds (default:\n\
         \x20              PAW_TIMEOUT, else 600; 0: never)\n\
         -h             this help\n\n\
         Times in usec (MPI_Wtime); Mbytes/sec with 1 Mbyte = 2^20 bytes. See doc/imb-mpi1.md.",
        names.join(" ")
    )
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

/// Runs benchmark `b` on `q` processes per group and prints its block; returns the
/// defects found (on rank 0; 0 elsewhere).
fn block(
    b: &Benchmark,
    q: usize,
    mapped: &SimpleCommunicator,
    order: &[i32],
    o: &Options,
    run: &SuiteRun,
) -> paw_core::Result<u64> {
    let p = mapped.size() as usize;
    let me = mapped.rank() as usize;
    let groups = if o.multi.is_some() { p / q } else { 1 };
    let used = groups * q;
    let in_use = me < used;
    let color = if in_use { Color::with_value(0) } else { Color::undefined() };
    let active = mapped.split_by_color_with_key(color, me as i32);
    let color = if in_use { Color::with_value((me / q) as i32) } else { Color::undefined() };
    let group = mapped.split_by_color_with_key(color, me as i32);

    let root = me == 0;
    let columns = Columns::of(b, o);
    let multi = if o.multi.is_some() { "Multi-" } else { "" };
    let mut csv =
        run.csv(&format!("{NAME}-{multi}{}-np_{q:04}.csv", b.name), &columns.csv_header())?;
    if root {
        let arrangement = Arrangement {
            q,
            groups: (0..groups).map(|g| order[g * q..(g + 1) * q].to_vec()).collect(),
            idle: p - used,
            multi: o.multi.is_some(),
            mapped: o.map.is_some(),
        };
        println!("{}", output::block(b, &arrangement));
        println!("{}", columns.header());
    }
    let mut found = 0;
    if let (Some(active), Some(group)) = (active, group) {
        found = measure_block(b, q, &active, &group, o, columns, &mut csv);
    }
    // The processes outside the groups wait here for the others; then every rank learns
    // the defects rank 0 counted, so all leave with the same status.
    mapped.barrier();
    mapped.process_at_rank(0).broadcast_into(&mut found);
    Ok(found)
}

/// A self-test of `-check`: `PAW_TEST_CORRUPT=r` flips one received byte in group rank r
/// after every check run (never in timed runs), so the defects column and the exit status
/// can be seen to work.
fn corrupt_rank() -> Option<usize> {
    std::env::var("PAW_TEST_CORRUPT").ok().and_then(|v| v.parse().ok())
}

/// The measurement of one block on an active process; rank 0 prints the rows.
fn measure_block(
    b: &Benchmark,
    q: usize,
    active: &SimpleCommunicator,
    group: &SimpleCommunicator,
    o: &Options,
    columns: Columns,
    csv: &mut CsvTable,
) -> u64 {
    let ctx = Ctx { comm: group, rank: group.rank() as usize, q };
    let lengths = if b.has_bytes { o.lengths.for_benchmark(b.unit) } else { vec![0] };
    let largest = lengths.iter().copied().max().unwrap_or(0);
    let (send, recv) = (b.memory)(q, largest);
    let mut bufs = Bufs {
        send: Buffer::filled(send, ctx.rank),
        recv: Buffer::filled(recv, ctx.rank),
        batch: mpi_ext::batch::Batch::with_capacity(2),
    };
    let warm = Plan::new(largest, q);
    for i in 0..N_WARMUP {
        (b.pattern)(&ctx, &mut bufs, &warm, i);
    }
    let leader = active.rank() == 0;
    let corrupt = corrupt_rank();
    let mut found = 0;
    for x in lengths {
        paw_core::watchdog::step(format!("{} on {q} processes at {x} bytes", b.name));
        let plan = Plan::new(x, q);
        let mut reps = match o.iter_policy {
            IterPolicy::Off => o.per_sample,
            IterPolicy::Dynamic => repetitions(x, o.per_sample, o.overall_vol),
        };
        if let Some(limit) = o.time {
            reps = time_limited(b, &ctx, active, &mut bufs, &plan, reps, limit);
        }
        let seconds = measure(b, &ctx, &mut bufs, &plan, reps);
        let mut wrong = 0;
        if o.check {
            // Untimed: one more run into a poisoned receive buffer, then compare.
            let iteration = q - 1;
            let expect = (b.expect)(ctx.rank, q, &plan, iteration);
            bufs.recv.poison_against(&expect);
            (b.pattern)(&ctx, &mut bufs, &plan, iteration);
            if corrupt == Some(ctx.rank) && x > 0 {
                bufs.recv.bytes_mut(1)[0] ^= 1;
            }
            wrong = defects(&expect, &bufs.recv);
        }
        let mine = [seconds * 1e6, wrong as f64];
        let to = active.process_at_rank(0);
        if !leader {
            to.gather_into(&mine[..]);
            continue;
        }
        let mut all = vec![0.0f64; 2 * active.size() as usize];
        to.gather_into_root(&mine[..], &mut all[..]);
        let samples: Vec<(f64, f64)> = all.chunks(2).map(|c| (c[0], c[1])).collect();
        let overall = Times::of(&samples);
        found += overall.defects;
        if o.multi == Some(1) {
            for (g, members) in samples.chunks(q).enumerate() {
                let t = Times::of(members);
                println!("{}", columns.row(g, x, reps, &t));
                csv.row(&columns.csv_row(b.name, q, g, x, reps, &t));
            }
        } else {
            println!("{}", columns.row(0, x, reps, &overall));
            csv.row(&columns.csv_row(b.name, q, 0, x, reps, &overall));
        }
    }
    found
}

/// `-time`: the repetitions that fit in `limit` seconds, from one untimed run of the
/// pattern (slowest active process), never more than `reps` nor fewer than one.
fn time_limited(
    b: &Benchmark,
    ctx: &Ctx,
    active: &SimpleCommunicator,
    bufs: &mut Bufs,
    plan: &Plan,
    reps: usize,
    limit: f64,
) -> usize {
    ctx.comm.barrier();
    let start = paw_core::mpi::time();
    (b.pattern)(ctx, bufs, plan, 0);
    let mine = paw_core::mpi::time() - start;
    let mut slowest = 0.0f64;
    active.all_reduce_into(&mine, &mut slowest, SystemOperation::max());
    if slowest <= 0.0 {
        return reps;
    }
    reps.min(((limit / slowest) as usize).max(1))
}
