//! One IMB-MT run: the banner, and per benchmark and count every thread's timing, the
//! statistics over threads and processes, the table in Intel's layout and its CSV.

use crate::kernels::{Benchmark, Elem, Kind, Lane, Run};
use crate::options::{Barrier, Options, NAME};
use mpi_ext::threads::ThreadShared;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::mpi::Threading;
use paw_core::schema::{imb_csv, MB_PER_S};
use paw_core::SuiteRun;

/// The banner, in today's IMB-MT's layout with paw's facts of the run.
pub fn banner(o: &Options, granted: Threading) -> String {
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
pub fn table<T: Elem>(
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
