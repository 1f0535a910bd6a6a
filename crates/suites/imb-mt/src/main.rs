//! IMB-MT -- the multi-threaded benchmarks of today's Intel MPI Benchmarks (2021), as a
//! drop-in executable: `mpirun -np P IMB-MT [benchmark ...] [options]`. With
//! `-thread_level multiple` every process runs OMP_NUM_THREADS threads, each the same
//! benchmark on its own duplicate of MPI_COMM_WORLD (weak scaling); otherwise one. Intel's
//! names, options, table layout and statistics; see doc/imb-mt.md.

mod kernels;

use kernels::{Benchmark, Elem, Kind, Lane, Run, BENCHMARKS};
use mpi_ext::threads::ThreadShared;
use paw_core::cli::{self, Flag, Line};
use paw_core::config::Lookup;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::mpi::Threading;
use paw_core::schema::{imb_csv, MB_PER_S};
use paw_core::vars::{OMP_NUM_THREADS, PAW_OUTPUT_DIR};
use paw_core::{About, Error, SuiteRun};
use std::process::ExitCode;

const NAME: &str = "IMB-MT";

/// `-barrier`: what separates the timings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Barrier {
    /// None.
    Off,
    /// MPI_Barrier on MPI_COMM_WORLD (by thread 0, between two thread barriers).
    On,
    /// Zero-byte MPI_Sendrecv to rank + 2^k from rank - 2^k instead.
    Special,
}

/// `-datatype`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Datatype {
    Int,
    Char,
}

/// The command line.
#[derive(Debug, Clone)]
struct Options {
    benchmarks: Vec<usize>,
    multiple: bool,
    threads: usize,
    counts: Vec<usize>,
    datatype: Datatype,
    repeat: usize,
    warmup: usize,
    window: usize,
    barrier: Barrier,
    stride: usize,
    check: bool,
    noheader: bool,
    list: bool,
    csv: bool,
    timeout: Option<u64>,
}

/// Today's IMB-MT defaults.
const REPEAT: usize = 1000;
const WARMUP: usize = 100;
const WINDOW: usize = 64;
const COUNTS: &str = "1,2,4,8";

fn flags() -> Vec<Flag<Options>> {
    let [csv, timeout] = paw_imb::options::paw_flags(
        |o: &mut Options| o.csv = true,
        |o: &mut Options, s| o.timeout = Some(s),
    );
    vec![
        Flag::text(
            &["-thread_level"],
            "level",
            "single, funneled or serialized: one thread per process; multiple: \
             OMP_NUM_THREADS threads (else one per core of the process), MPI_THREAD_MULTIPLE",
            |o: &mut Options, v| {
                o.multiple = thread_level(v)? == Threading::Multiple;
                Ok(())
            },
        )
        .default("single"),
        Flag::text(
            &["-count"],
            "n[,n...]",
            "elements per message (per thread); #bytes = elements x type size x threads",
            |o: &mut Options, v| {
                o.counts = counts(v)?;
                Ok(())
            },
        )
        .default(COUNTS),
        Flag::text(&["-datatype"], "int|char", "the element type", |o: &mut Options, v| {
            o.datatype = match v.to_ascii_lowercase().as_str() {
                "int" => Datatype::Int,
                "char" => Datatype::Char,
                _ => return Err("takes int or char".into()),
            };
            Ok(())
        })
        .default("int"),
        Flag::whole(&["-repeat"], "n", "timed iterations", (1, 1 << 30), |o: &mut Options, n| {
            o.repeat = n as usize
        })
        .default(REPEAT),
        Flag::whole(
            &["-warmup"],
            "n",
            "untimed iterations before them",
            (0, 1 << 30),
            |o: &mut Options, n| o.warmup = n as usize,
        )
        .default(WARMUP),
        Flag::whole(
            &["-window_size"],
            "n",
            "messages in flight per window (UniBandMT, BiBandMT)",
            (1, 65536),
            |o: &mut Options, n| o.window = n as usize,
        )
        .default(WINDOW),
        Flag::text(
            &["-barrier"],
            "on|off|special",
            "between timings: MPI_Barrier (threads: thread 0 calls it between two thread \
             barriers), nothing, or zero-byte MPI_Sendrecv to rank + 2^k from rank - 2^k",
            |o: &mut Options, v| {
                o.barrier = match v.to_ascii_lowercase().as_str() {
                    "on" | "1" | "yes" | "true" | "enable" => Barrier::On,
                    "off" | "0" | "no" | "false" | "disable" => Barrier::Off,
                    "special" => Barrier::Special,
                    _ => return Err("takes on, off or special".into()),
                };
                Ok(())
            },
        )
        .default("on"),
        Flag::whole(
            &["-stride"],
            "n",
            "distance between the partners of a pair (0: half the processes)",
            (0, 1 << 30),
            |o: &mut Options, n| o.stride = n as usize,
        )
        .default(0),
        Flag::on_off(
            &["-check"],
            "one more untimed iteration per length from Intel's values, every element \
             received compared; a difference fails the run",
            |o: &mut Options, on| o.check = on,
        )
        .default("off"),
        Flag::switch(&["-noheader"], "no banner before the tables", |o: &mut Options| {
            o.noheader = true
        }),
        csv,
        timeout,
        Flag::switch(&["-list"], "print the benchmarks", |o: &mut Options| o.list = true),
        Flag::help(&["-h", "-help", "--help"], "this help"),
    ]
}

fn thread_level(v: &str) -> Result<Threading, String> {
    match v.to_ascii_lowercase().as_str() {
        "single" => Ok(Threading::Single),
        "funneled" => Ok(Threading::Funneled),
        "serialized" => Ok(Threading::Serialized),
        "multiple" => Ok(Threading::Multiple),
        _ => Err("takes single, funneled, serialized or multiple".into()),
    }
}

fn counts(v: &str) -> Result<Vec<usize>, String> {
    let bad = || "takes element counts n[,n...], each from 0 to 2^28".to_string();
    v.split(',')
        .map(|c| c.trim().parse::<usize>().ok().filter(|&c| c <= 1 << 28).ok_or_else(bad))
        .collect()
}

fn about() -> About {
    let names: Vec<&str> = BENCHMARKS.iter().map(|b| b.name).collect();
    About {
        name: NAME,
        title: "the multi-threaded part (MT) of the Intel MPI Benchmarks 2021 (paw)".into(),
        usage: cli::usage(NAME, "[benchmark ...]", &flags()),
        summary: format!("benchmarks (case-insensitive; default all): {}", names.join(" ")),
        timed: "per benchmark and count, every thread of every process on its own \
                duplicate of MPI_COMM_WORLD: point-to-point (PingPongMT, PingPingMT, \
                SendRecvMT, ExchangeMT, UniBandMT, BiBandMT): -warmup untimed iterations, \
                the barrier, then MPI_Wtime around -repeat iterations; collectives \
                (BcastMT, ReduceMT, AllReduceMT, root 0; BarrierMT): each of -warmup + \
                -repeat iterations timed alone, the first -warmup dropped, the barrier five \
                times after each (BarrierMT: none)."
            .into(),
        reported: "per count: #bytes = count x type size x threads; each thread's time \
                   summed over -repeat iterations, divided by -repeat (and by 2 for \
                   PingPongMT and BiBandMT, by the window for UniBandMT and BiBandMT): \
                   t_min, t_max over every thread of every process taking part, t_avg their \
                   mean; Mbytes/sec = #bytes x (2 SendRecvMT, 4 ExchangeMT) / t_max; windows: \
                   Mbytes/sec = #bytes / threads x (pairs of threads) / t_max, Msg/sec = \
                   (pairs of threads) / t_avg. Times in usec (MPI_Wtime); 1 Mbyte = 10^6 bytes."
            .into(),
        tasks: "any number; the point-to-point benchmarks pair process i with i + stride \
                (processes without a partner sit out); with -thread_level multiple the MPI \
                library must grant MPI_THREAD_MULTIPLE."
            .into(),
        check: "with -check on, one more untimed iteration per count from Intel's values \
                (element i of process r's input (r + 1) i), every element received compared; \
                any difference is reported and fails the run."
            .into(),
        files: "the tables on standard output in Intel's layout; with -csv or PAW_OUTPUT_DIR, \
                IMB-MT-Benchmark-np_NNNN.csv per benchmark and the run record \
                IMB-MT-np_NNNN.json."
            .into(),
        options: cli::options(&flags()),
    }
}

fn parse(line: &Line) -> Result<Option<Options>, String> {
    let mut o = Options {
        benchmarks: Vec::new(),
        multiple: false,
        threads: 1,
        counts: counts(COUNTS)?,
        datatype: Datatype::Int,
        repeat: REPEAT,
        warmup: WARMUP,
        window: WINDOW,
        barrier: Barrier::On,
        stride: 0,
        check: false,
        noheader: false,
        list: false,
        csv: line.get(PAW_OUTPUT_DIR.name).is_some_and(|d| !d.is_empty()),
        timeout: None,
    };
    let choose = |o: &mut Options, name: &str| {
        let i = BENCHMARKS.iter().position(|b| b.name.eq_ignore_ascii_case(name));
        let names: Vec<&str> = BENCHMARKS.iter().map(|b| b.name).collect();
        let i = i.ok_or_else(|| {
            format!("unknown benchmark {name:?}; valid names: {}", names.join(", "))
        })?;
        if !o.benchmarks.contains(&i) {
            o.benchmarks.push(i);
        }
        Ok(())
    };
    if cli::parse(&flags(), line, &mut o, choose)? {
        return Ok(None);
    }
    if o.benchmarks.is_empty() {
        o.benchmarks = (0..BENCHMARKS.len()).collect();
    }
    if o.multiple {
        o.threads = match line.get(OMP_NUM_THREADS.name) {
            Some(v) => {
                v.trim().parse().ok().filter(|n| (1..=1024).contains(n)).ok_or_else(|| {
                    format!("OMP_NUM_THREADS={v:?}; accepted: a whole number from 1 to 1024")
                })?
            }
            None => paw_core::cores(),
        };
    }
    Ok(Some(o))
}

/// The thread level `-thread_level` asks for, read before MPI starts (every process has the
/// same arguments); a bad value is refused after start-up, by the option table.
fn requested_level() -> Threading {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == "-thread_level");
    at.and_then(|i| args.get(i + 1)).and_then(|v| thread_level(v).ok()).unwrap_or(Threading::Single)
}

fn main() -> ExitCode {
    paw_core::main(NAME, body)
}

fn body() -> paw_core::Result<()> {
    let about = about();
    let level = requested_level();
    let started = paw_core::start_suite_threaded(
        &about,
        level,
        &flags(),
        &[&PAW_OUTPUT_DIR, &OMP_NUM_THREADS],
        |line, _| parse(line),
    )?;
    let Some((world, granted, mut o)) = started else {
        return Ok(());
    };
    let root = world.rank() == 0;
    if o.list {
        if root {
            println!("List of benchmarks:");
            BENCHMARKS.iter().for_each(|b| println!("{}", b.name));
        }
        return Ok(());
    }
    if o.multiple && granted != Threading::Multiple {
        return Err(Error::unavailable(format!(
            "-thread_level multiple: {} granted {granted:?}, not MPI_THREAD_MULTIPLE; accepted: \
             an MPI library built with thread support, or -thread_level single",
            paw_core::mpi_library_version().lines().next().unwrap_or("the MPI library")
        )));
    }
    let mut threads = o.threads as u64;
    world.process_at_rank(0).broadcast_into(&mut threads);
    o.threads = threads as usize;
    let run = SuiteRun::start(&about, &world, &[OMP_NUM_THREADS], o.timeout, o.csv)?;
    if root && !o.noheader {
        print!("{}", banner(&o, granted));
    }
    let comms: Vec<SimpleCommunicator> = (0..o.threads).map(|_| world.duplicate()).collect();
    let mut failures = 0;
    for &i in &o.benchmarks {
        failures += match o.datatype {
            Datatype::Int => table::<i32>(&BENCHMARKS[i], &o, &world, &comms, &run)?,
            Datatype::Char => table::<i8>(&BENCHMARKS[i], &o, &world, &comms, &run)?,
        };
    }
    if failures > 0 {
        return Err(Error::check(format!(
            "-check found {failures} wrong elements: received data differ from what was sent"
        )));
    }
    Ok(())
}

/// The banner, in today's IMB-MT's layout with paw's facts of the run.
fn banner(o: &Options, granted: Threading) -> String {
    const RULE: &str = "#------------------------------------------------------------------";
    format!(
        "{RULE}\n#    paw IMB-MT: the MT part of the Intel MPI Benchmarks 2021, re-implemented\n\
         {RULE}\n#\n# MPI Library           : {}\n# MPI Thread Environment: {granted:?} \
         granted\n# Threads per process   : {} ({})\n# Calling sequence was  : {}\n#\n",
        paw_core::mpi_library_version(),
        o.threads,
        if o.multiple { "-thread_level multiple" } else { "one: -thread_level single" },
        std::env::args().collect::<Vec<_>>().join(" ")
    )
}

/// One benchmark at every count: its table on rank 0 and its CSV; the wrong elements
/// `-check` found (on every rank).
fn table<T: Elem>(
    b: &Benchmark,
    o: &Options,
    world: &SimpleCommunicator,
    comms: &[SimpleCommunicator],
    run: &SuiteRun,
) -> paw_core::Result<usize> {
    let root = world.rank() == 0;
    let counts = if b.kind == Kind::Barrier { vec![0] } else { o.counts.clone() };
    let csv_name = imb_csv::file_name(NAME, false, b.name, world.size() as usize, "");
    let columns = csv_columns();
    let mut csv = run.csv(&csv_name, &columns.iter().map(String::as_str).collect::<Vec<_>>())?;
    let mut printed_head = false;
    let mut failures = 0;
    for count in counts {
        paw_core::watchdog::step(format!("{} at count {count}", b.name));
        let per_thread = measure::<T>(b, o, world, comms, count);
        paw_core::watchdog::alive();
        let sum = |v: f64| {
            let mut s = 0.0;
            world.all_reduce_into(&v, &mut s, SystemOperation::sum());
            s
        };
        let mine: Vec<f64> = per_thread.iter().map(|(t, _)| t.unwrap_or(0.0)).collect();
        let taking_part = per_thread.iter().filter(|(t, _)| t.is_some()).count();
        let (mut t_min, mut t_max) = (0.0, 0.0);
        world.all_reduce_into(
            &mine.iter().copied().fold(1e6, f64::min),
            &mut t_min,
            SystemOperation::min(),
        );
        world.all_reduce_into(
            &mine.iter().copied().fold(0.0, f64::max),
            &mut t_max,
            SystemOperation::max(),
        );
        let results = sum(taking_part as f64) as usize;
        let t_avg = if results > 0 { sum(mine.iter().sum()) / results as f64 } else { 0.0 };
        let wrong: usize = per_thread.iter().map(|(_, w)| w).sum();
        failures += sum(wrong as f64) as usize;
        if !root {
            continue;
        }
        let divide = o.repeat as f64 * b.divide * if b.window { o.window as f64 } else { 1.0 };
        let (t_min, t_max, t_avg) = (t_min / divide, t_max / divide, t_avg / divide);
        let bytes = count * T::SIZE * o.threads;
        if results == 0 {
            if !printed_head {
                println!(
                    "\n{RULE}\n# Benchmarking {}\n# NO SUCCESSFUL EXECUTIONS\n{RULE}\n",
                    b.name
                );
                printed_head = true;
            }
            continue;
        }
        if !printed_head {
            print!("{}", head(b, results / o.threads, o));
            printed_head = true;
        }
        let pairs = (results / 2) as f64;
        let (bandwidth, rate) = if b.window {
            (bytes as f64 / o.threads as f64 * pairs / t_max / 1e6, Some((pairs / t_avg) as i64))
        } else if b.bandwidth > 0.0 {
            (bytes as f64 * b.bandwidth / t_max / 1e6, None)
        } else {
            (f64::NAN, None)
        };
        let mut line = String::new();
        if b.kind != Kind::Barrier {
            line += &format!("{bytes:>13}");
        }
        line += &format!("{:>13}", o.repeat);
        if b.window {
            line += &format!("{:>13.2}{bandwidth:>13.2}{:>13}", t_avg * 1e6, rate.unwrap_or(0));
        } else {
            line += &format!("{:>13.2}{:>13.2}{:>13.2}", t_min * 1e6, t_max * 1e6, t_avg * 1e6);
            if !bandwidth.is_nan() {
                line += &format!("{bandwidth:>13.2}");
            }
        }
        println!("{line}");
        let cell = |v: f64| if v.is_nan() { String::new() } else { format!("{v:.4}") };
        csv.row(&[
            b.name.to_string(),
            (results / o.threads).to_string(),
            o.threads.to_string(),
            bytes.to_string(),
            o.repeat.to_string(),
            cell(t_min * 1e6),
            cell(t_max * 1e6),
            cell(t_avg * 1e6),
            cell(bandwidth),
            rate.map_or(String::new(), |r| r.to_string()),
        ]);
    }
    if root && failures > 0 {
        println!("CHECK FAILURES: {}: {failures} wrong elements", b.name);
    }
    Ok(failures)
}

const RULE: &str = "#-----------------------------------------------------------------------------";

/// The CSV columns of every table.
fn csv_columns() -> Vec<String> {
    let bandwidth = imb_csv::bandwidth(MB_PER_S);
    [
        imb_csv::BENCHMARK,
        imb_csv::PROCESSES,
        imb_csv::THREADS,
        imb_csv::BYTES,
        imb_csv::REPETITIONS,
        imb_csv::T_MIN,
        imb_csv::T_MAX,
        imb_csv::T_AVG,
        &bandwidth,
        imb_csv::MSGS,
    ]
    .map(String::from)
    .to_vec()
}

/// A table's head, as today's IMB-MT prints it.
fn head(b: &Benchmark, processes: usize, o: &Options) -> String {
    let mut s = format!(
        "\n{RULE}\n# Benchmarking {}\n# #processes = {processes} (threads: {})\n",
        b.name, o.threads
    );
    if b.window {
        s += &format!("# window_size = {}\n", o.window);
    }
    s += &format!("{RULE}\n");
    let mut cols: Vec<&str> = Vec::new();
    if b.kind != Kind::Barrier {
        cols.push("#bytes");
    }
    cols.push("#repetitions");
    if b.window {
        cols.extend(["t_avg[usec]", "Mbytes/sec", "Msg/sec"]);
    } else {
        cols.extend(["t_min[usec]", "t_max[usec]", "t_avg[usec]"]);
        if b.bandwidth > 0.0 {
            cols.push("Mbytes/sec");
        }
    }
    for c in cols {
        s += &format!("{c:>13}");
    }
    s + "\n"
}

/// Every thread's seconds over the timed iterations (`None` where it took no part) and
/// the wrong elements of its check.
fn measure<T: Elem>(
    b: &Benchmark,
    o: &Options,
    world: &SimpleCommunicator,
    comms: &[SimpleCommunicator],
    count: usize,
) -> Vec<(Option<f64>, usize)> {
    let one = |comm: &SimpleCommunicator, barrier: &dyn Fn(), meet: &dyn Fn()| {
        let r = Run { count, stride: o.stride, window: o.window, barrier, meet };
        let mut lane = Lane::<T>::new(comm, count, b.two_in, o.window);
        let t = lane.measure(b, &r, o.warmup, o.repeat);
        let wrong = if o.check { lane.check(b, &r).unwrap_or(0) } else { 0 };
        (t, wrong)
    };
    let world_barrier = |world: &SimpleCommunicator| match o.barrier {
        Barrier::Off => {}
        Barrier::On => world.barrier(),
        Barrier::Special => paw_imb::sendrecv_barrier(world),
    };
    if !o.multiple {
        return vec![one(&comms[0], &|| world_barrier(world), &|| {})];
    }
    let granted = Threading::Multiple;
    let shared_world = ThreadShared::new(world, granted).expect("checked at start");
    let lanes: Vec<ThreadShared<&SimpleCommunicator>> =
        comms.iter().map(|c| ThreadShared::new(c, granted).expect("checked at start")).collect();
    let together = std::sync::Barrier::new(o.threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = lanes
            .iter()
            .enumerate()
            .map(|(t, comm)| {
                let (together, shared_world, one, world_barrier) =
                    (&together, &shared_world, &one, &world_barrier);
                scope.spawn(move || {
                    let barrier = move || {
                        if o.barrier == Barrier::Off {
                            return;
                        }
                        together.wait();
                        if t == 0 {
                            world_barrier(shared_world.get());
                        }
                        together.wait();
                    };
                    one(comm.get(), &barrier, &|| {
                        together.wait();
                    })
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a thread of IMB-MT panicked")).collect()
    })
}
