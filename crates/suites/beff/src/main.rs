//! b_eff -- the effective bandwidth benchmark (HLRS; Rabenseifner and Koniges, paper §2.1,
//! §3.1, §4), re-implemented to compute what b_eff 3.6 computes.
//!
//! Timed: per repetition, message length L, pattern and method (3.6's order), after a
//! barrier and (below length index 18) one untimed step, `loops` steps of the pattern
//! between two MPI_Wtime reads on each process; loop counts as 3.6 chooses them
//! (`plan::LoopRule`). A step: every process of a ring sends L bytes to its left neighbour
//! while receiving from its right, then the reverse (one exchange in a ring of two); the
//! methods are MPI_Sendrecv per exchange, one MPI_Alltoallv, or MPI_Irecv/MPI_Isend/
//! MPI_Waitall. Messages come from cyclically used buffers (`exchange::Cursor`).
//!
//! Reported (MB/s, MB = 10^6 B): bandwidth = min over processes of L x loops x own
//! exchanges / own time, times messages per step / rank 0's exchanges; per pattern the
//! mean over the 21 lengths of the maximum over methods and repetitions; b_eff =
//! logavg(logavg over the six ring patterns, logavg over the random patterns); Table 1 of
//! the paper; the additional patterns outside the average.
//!
//! Ranks: any number >= 2. Options: see `options::HELP` (`-h`); PAW_CHECK=1 as `-check`.
//! Files in PAW_OUTPUT_DIR (default .): b_eff-np_PPPP.prot (every measurement),
//! b_eff_bw-np_PPPP.dat and .csv (bandwidth against length, a column per pattern), the
//! run record b_eff-np_PPPP.json.

mod exchange;
#[cfg(test)]
mod golden;
mod options;
mod patterns;
mod plan;
mod report;

use exchange::{Exchanger, Method, METHODS};
use options::Options;
use patterns::{Kind, Pattern};
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::{agree, vars, Column, Error, RunInfo, SuiteRun, TextFile};
use plan::{LoopRule, LENGTHS, REPETITIONS};
use report::{PatternResult, Sample};
use std::process::ExitCode;
use std::time::Instant;

const NAME: &str = "b_eff";
const TITLE: &str = "effective bandwidth (b_eff, HLRS): ring and random patterns, 3 methods";

/// Memory per process by default at most (the original's Lmax cap of 128 MiB), MiB.
const DEFAULT_MEM_CAP_MIB: u64 = 16_384;
/// Memory per process by default in short mode, MiB.
const SHORT_MEM_MIB: u64 = 512;

fn main() -> ExitCode {
    paw_core::main(NAME, body)
}

fn body() -> paw_core::Result<()> {
    let world = paw_core::start_mpi(NAME)?;
    let opts = shared_options(&world)?;
    let root = world.rank() == 0;
    if opts.help {
        if root {
            println!("{}", options::HELP);
        }
        return Ok(());
    }
    let p = world.size() as usize;
    if p < 2 {
        return Err(Error::input(
            "b_eff needs at least 2 processes (mpirun -np P with P >= 2); this run has 1",
        ));
    }
    let run = SuiteRun::start(NAME, &world, &[vars::PAW_CHECK], None, true)?;
    let host = world.split_shared(0);
    let mem_mib = memory(&world, &host, &opts);
    let lmax = (mem_mib << 20) as usize / 128;
    let lengths = plan::lengths(lmax);

    let dims2 = mpi_ext::topology::dims_create(p, 2);
    let dims3 = mpi_ext::topology::dims_create(p, 3);
    let mut all = patterns::ring_patterns(p);
    for (k, order) in random_orders(&world, opts.random, opts.seed).iter().enumerate() {
        all.push(patterns::random_pattern(k + 1, order));
    }
    all.extend(patterns::extra_patterns(p, &dims2, &dims3));
    let total = all.len();
    let complete = opts.patterns.is_empty();
    if !complete {
        select(&mut all, &opts.patterns)?;
    }
    agree(&world, fits(&opts, mem_mib, lmax, host.size() as usize))?;

    let rule = if opts.short { LoopRule::SHORT } else { LoopRule::FULL };
    let mut prot = run.text(&format!("{NAME}-np_{p:04}.prot"))?;
    let x = |d: &[usize]| d.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("x");
    let info = RunInfo { title: TITLE.to_string(), ..run.info().clone() };
    let mut head = info.header_lines();
    head.extend([
        format!(
            "memory per process: {mem_mib} MiB ({}); Lmax = memory / 128 = {lmax} bytes",
            match (opts.mem_mib, mem_mib == default_cap(&opts)) {
                (Some(_), _) => "-mem",
                (None, true) => "default: host memory / its processes, capped",
                (None, false) => "default: host memory / its processes, smallest over hosts",
            }
        ),
        format!("lengths: {}", lengths.map(|l| l.to_string()).join(" ")),
        format!(
            "patterns: 6 ring, {} random (seed {}; -seed {} repeats them), {} additional; \
             2-D partition {}, 3-D {}",
            opts.random,
            opts.seed,
            opts.seed,
            total - 6 - opts.random,
            x(&dims2),
            x(&dims3)
        ),
        if complete {
            "run: every pattern".to_string()
        } else {
            format!(
                "run: {} of the {total} patterns (-pattern {}); b_eff is not computed",
                all.len(),
                opts.patterns.join(",")
            )
        },
        format!(
            "methods: MPI_Sendrecv, MPI_Alltoallv, MPI_Irecv + MPI_Isend + MPI_Waitall \
             (the ping-pong: MPI_Send/MPI_Recv); {REPETITIONS} repetitions each; the maximum \
             bandwidth counts"
        ),
        format!(
            "loops (b_eff 3.6): about {} s per length and method over all patterns; per \
             repetition a calibration pass of {} loops at 1 byte sets the most, the first \
             length runs half of it, each next length the previous count over the ratio of \
             lengths, scaled up to the time aimed at; one untimed step before each timed loop \
             below length {}{}",
            rule.per_length,
            plan::CALIBRATION_LOOPS,
            lengths[plan::WARM_UP_BELOW.min(LENGTHS - 1)],
            if opts.short { " (short mode)" } else { "" }
        ),
        "buffers (b_eff 3.6): one send and one receive buffer of 6 x (Lmax + 16) bytes, used \
         cyclically: each message at a running offset that moves on by its length rounded up \
         to 8 bytes and wraps to 0 when the next would not fit"
            .to_string(),
        format!(
            "check: {}",
            if opts.check {
                "on: every received message against its sender's pattern"
            } else {
                "off"
            }
        ),
        "bandwidth (b_eff 3.6) = the minimum over processes of L x loops x own exchanges / own \
         time, times the pattern's messages per step over rank 0's exchanges (where all \
         processes exchange alike: L x messages x loops / slowest time); a ring of two sends \
         one message each way per step; MB = 10^6 bytes, MiB = 2^20 bytes"
            .to_string(),
    ]);
    head.extend(info.environment_lines());
    let head: String = head.iter().map(|l| format!("# {l}\n")).collect();
    if root {
        print!("{head}");
    }
    prot.write(&head);
    prot.write(&format!("# columns: {}\n", report::PROTOCOL_COLUMNS));

    let mut ex = Exchanger::new(&world, lmax);
    let mut results: Vec<PatternResult> = all.iter().map(PatternResult::new).collect();
    let defects = measure(&mut ex, &all, &lengths, rule, opts.check, &mut results, &mut prot);
    if root {
        println!("\n{}", report::pattern_heading());
        for r in &results {
            println!("{}", report::pattern_line(r));
        }
    }

    let summary = report::summarize(&results);
    let (table1, last) = if complete {
        (
            report::table1(&summary, p, lmax),
            report::final_line(&summary, p, mem_mib, &paw_core::uname()),
        )
    } else {
        let why = format!(
            "b_eff not computed: -pattern ran {} of the {total} patterns, and b_eff averages \
             every ring and random pattern",
            results.len()
        );
        (String::new(), why)
    };
    if root {
        println!("\n{table1}\n{last}");
    }
    let comment = |text: &str| text.lines().map(|l| format!("# {l}\n")).collect::<String>();
    let lines: Vec<String> = results.iter().map(report::pattern_line).collect();
    prot.write(&comment(&format!(
        "\n{}\n{}\n\n{table1}\n{last}",
        report::pattern_heading(),
        lines.join("\n")
    )));
    write_dat(&run, &results, &lengths, p, &prot, complete)?;

    let mut total = 0u64;
    world.all_reduce_into(&(defects as u64), &mut total, SystemOperation::sum());
    if total > 0 {
        return Err(Error::check(format!(
            "-check found {total} defective bytes: received data differ from what was sent"
        )));
    }
    Ok(())
}

/// Rank 0 reads the command line (and draws the seed); every rank gets the outcome.
fn shared_options(world: &SimpleCommunicator) -> paw_core::Result<Options> {
    let text = paw_core::parse_on_root(world, |args| {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        let check = std::env::var("PAW_CHECK").is_ok_and(|v| v.trim() == "1");
        options::parse(args, seed, check).map(|o| o.encode())
    })?;
    Ok(Options::decode(&text))
}

/// The most memory per process a default gives, MiB.
fn default_cap(opts: &Options) -> u64 {
    if opts.short {
        SHORT_MEM_MIB
    } else {
        DEFAULT_MEM_CAP_MIB
    }
}

/// Memory per process, MiB: `-mem`, else this host's memory divided by its processes (at
/// most [`default_cap`]), the smallest over all hosts (collective).
fn memory(world: &SimpleCommunicator, host: &SimpleCommunicator, opts: &Options) -> u64 {
    if let Some(m) = opts.mem_mib {
        return m;
    }
    let cap = default_cap(opts);
    let total = paw_core::total_memory().unwrap_or(0) >> 20;
    let mine = (total / host.size() as u64).clamp(1, cap);
    let mut least = 0u64;
    world.all_reduce_into(&mine, &mut least, SystemOperation::min());
    least
}

/// Whether `mem` MiB is at most this host's memory per process and the cyclic buffers (6
/// messages of `lmax` bytes each way) fit the memory available to each of its `local`
/// processes.
fn fits(opts: &Options, mem: u64, lmax: usize, local: usize) -> Result<(), String> {
    let slots = exchange::BUFFER_MESSAGES;
    let what =
        if opts.mem_mib.is_some() { format!("-mem {mem}") } else { format!("memory {mem} MiB") };
    let local_mib = |bytes: u64| (bytes >> 20) / local as u64;
    if let Some(total) = paw_core::total_memory().map(local_mib) {
        if mem > total {
            return Err(format!(
                "{what}: more than this host's memory per process ({total} MiB for each of \
                 its {local} processes); accepted: 1 to {total}"
            ));
        }
    }
    let need = (2 * slots as u64 * lmax as u64) >> 20;
    match paw_core::available_memory().map(local_mib) {
        Some(each) if need > each => Err(format!(
            "{what}: the buffers need {need} MiB per process (2 x {slots} messages of Lmax = \
             {lmax} bytes); {each} MiB are available to each of the {local} processes on this \
             host"
        )),
        _ => Ok(()),
    }
}

/// Keeps the patterns `-pattern` names; a name that matches none is bad input.
fn select(all: &mut Vec<Pattern>, names: &[String]) -> paw_core::Result<()> {
    if let Some(bad) = names.iter().find(|n| !all.iter().any(|p| p.is_named(n))) {
        let known: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
        return Err(Error::input(format!(
            "-pattern {bad}: no pattern of this run has that name; accepted: {}",
            known.join(", ")
        )));
    }
    all.retain(|p| names.iter().any(|n| p.is_named(n)));
    Ok(())
}

/// The orders of the random patterns: drawn on rank 0 from `seed`, sent to every rank.
fn random_orders(world: &SimpleCommunicator, count: usize, seed: u64) -> Vec<Vec<usize>> {
    let p = world.size() as usize;
    let mut flat = vec![0u64; p * count];
    if world.rank() == 0 {
        let orders = patterns::permutations(p, count, seed);
        for (slot, &r) in flat.iter_mut().zip(orders.iter().flatten()) {
            *slot = r as u64;
        }
    }
    world.process_at_rank(0).broadcast_into(&mut flat[..]);
    flat.chunks(p).map(|c| c.iter().map(|&r| r as usize).collect()).collect()
}

/// Measures every pattern at every length by every method, [`REPETITIONS`] times, in
/// b_eff 3.6's order (repetition, length, pattern, method) and with its loop lengths
/// ([`LoopRule`]); fills `results`, writes each length's rows to the protocol `prot` as
/// soon as it is measured (a killed run keeps whole rows), and returns the defective bytes
/// this rank received (when checking). Rank 0 decides the loop counts from its own times
/// and broadcasts them.
fn measure(
    ex: &mut Exchanger<'_>,
    all: &[Pattern],
    lengths: &[usize; LENGTHS],
    rule: LoopRule,
    check: bool,
    results: &mut [PatternResult],
    prot: &mut TextFile,
) -> usize {
    let world = ex.world();
    let start = Instant::now();
    let mut defects = 0;
    for rep in 0..REPETITIONS {
        // Calibration at the first length: its time also counts towards that length's.
        let mut totals = vec![[0.0f64; 3]; LENGTHS];
        for pattern in all {
            ex.prepare(pattern, lengths[0]);
            for (m, &method) in methods(pattern).iter().enumerate() {
                totals[0][m] += ex.time(method, plan::CALIBRATION_LOOPS, true, pattern).mine;
            }
        }
        let mut most = [0usize; 3];
        let mut loops = [0usize; 3];
        if world.rank() == 0 {
            most = totals[0].map(|t| rule.most(t));
            loops = most.map(|m| rule.first(m));
        }
        world.process_at_rank(0).broadcast_into(&mut most[..]);
        for (i, &len) in lengths.iter().enumerate() {
            if i > 0 && world.rank() == 0 {
                let ratio = plan::length_factor(i, lengths[LENGTHS - 1]);
                for m in 0..3 {
                    loops[m] = rule.next(loops[m], totals[i - 1][m], ratio, most[m]);
                }
            }
            world.process_at_rank(0).broadcast_into(&mut loops[..]);
            if world.rank() == 0 && start.elapsed().as_secs_f64() > 10.0 {
                eprintln!(
                    "{NAME}: [{:.0} s] repetition {} of {REPETITIONS}, length {len} ({} of {LENGTHS})",
                    start.elapsed().as_secs_f64(),
                    rep + 1,
                    i + 1
                );
            }
            for (n, pattern) in all.iter().enumerate() {
                paw_core::watchdog::step(format!("pattern {} at {len} bytes", pattern.name));
                ex.prepare(pattern, len);
                for (m, &method) in methods(pattern).iter().enumerate() {
                    let t = ex.time(method, loops[m], i < plan::WARM_UP_BELOW, pattern);
                    totals[i][m] += t.mine;
                    if check {
                        defects += ex.checked_step(method, n as u64);
                    }
                    let sample =
                        Sample { loops: t.loops, seconds: t.slowest, mb_per_s: t.mb_per_s };
                    results[n].samples[i][m].push(sample);
                    paw_core::watchdog::alive();
                }
            }
            let rows: String =
                results.iter().map(|r| report::protocol_rows(r, lengths, i, rep)).collect();
            prot.write(&rows);
        }
    }
    defects
}

/// The methods a pattern is measured by: the ping-pong's one, else all three.
fn methods(pattern: &Pattern) -> &'static [Method] {
    if pattern.ping_pong {
        &METHODS[..1]
    } else {
        &METHODS
    }
}

/// The `.dat` table (and its CSV twin): per length the best bandwidth of every pattern,
/// after b_eff and the ring and random averages at that length.
fn write_dat(
    run: &SuiteRun,
    results: &[PatternResult],
    lengths: &[usize; LENGTHS],
    p: usize,
    prot: &TextFile,
    averages: bool,
) -> paw_core::Result<()> {
    const UNIT: &str = "MB/s (MB = 10^6 B)";
    let mut columns = vec![Column::new("SIZE", "bytes")];
    if averages {
        columns.extend(["b_eff", "rings", "random"].map(|n| Column::new(n, UNIT)));
    }
    columns.extend(results.iter().map(|r| Column::new(r.name.clone(), UNIT)));
    let notes = [
        "x: SIZE = message length [bytes]".to_string(),
        format!("y: bandwidth of the pattern, maximum over methods and repetitions [{UNIT}]"),
        if averages {
            "b_eff: logavg(rings, random) at this length; rings, random: logavg over the ring \
             and the random patterns"
                .to_string()
        } else {
            "a column per pattern -pattern selected (no averages: they need every pattern)"
                .to_string()
        },
        format!(
            "every measurement: {}",
            prot.path().map_or("the .prot file".into(), |f| f.display().to_string())
        ),
    ];
    let file = format!("b_eff_bw-np_{p:04}.dat");
    let mut table = run.table(&file, TITLE, &notes, &columns)?;
    for (i, &len) in lengths.iter().enumerate() {
        let best = |kind: Kind| -> Vec<f64> {
            results.iter().filter(|r| r.kind == kind).map(|r| r.best(i)).collect()
        };
        let (rings, random) = (plan::logavg(&best(Kind::Ring)), plan::logavg(&best(Kind::Random)));
        let mut row = vec![len.to_string()];
        if averages {
            row.extend([plan::logavg(&[rings, random]), rings, random].map(|v| format!("{v:.4}")));
        }
        row.extend(results.iter().map(|r| format!("{:.4}", r.best(i))));
        table.row(&row);
    }
    Ok(())
}
