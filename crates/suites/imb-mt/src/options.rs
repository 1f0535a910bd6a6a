//! IMB-MT's command line: Intel's options (src_cpp/MT/MT_suite.cpp) and paw's `-csv`,
//! `-timeout`, `-list`; its `-h` and doc table come from the table here.

use crate::kernels::BENCHMARKS;
use paw_core::cli::{self, Flag, Line};
use paw_core::config::Lookup;
use paw_core::mpi::Threading;
use paw_core::vars::{OMP_NUM_THREADS, PAW_OUTPUT_DIR};
use paw_core::About;

/// The program's name.
pub const NAME: &str = "IMB-MT";

/// `-barrier`: what separates the timings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Barrier {
    /// None.
    Off,
    /// MPI_Barrier on MPI_COMM_WORLD (by thread 0, between two thread barriers).
    On,
    /// Zero-byte MPI_Sendrecv to rank + 2^k from rank - 2^k instead.
    Special,
}

/// `-datatype`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Datatype {
    /// MPI_INT.
    Int,
    /// MPI_CHAR.
    Char,
}

/// The command line.
#[derive(Debug, Clone)]
pub struct Options {
    /// The benchmarks, in the order named (all by default).
    pub benchmarks: Vec<usize>,
    /// `-thread_level multiple`.
    pub multiple: bool,
    /// Threads per process.
    pub threads: usize,
    /// `-count`.
    pub counts: Vec<usize>,
    /// `-datatype`.
    pub datatype: Datatype,
    /// `-repeat`.
    pub repeat: usize,
    /// `-warmup`.
    pub warmup: usize,
    /// `-window_size`.
    pub window: usize,
    /// `-barrier`.
    pub barrier: Barrier,
    /// `-stride`.
    pub stride: usize,
    /// `-check on`.
    pub check: bool,
    /// `-noheader`.
    pub noheader: bool,
    /// `-list`.
    pub list: bool,
    /// `-csv` (or PAW_OUTPUT_DIR set).
    pub csv: bool,
    /// `-timeout`.
    pub timeout: Option<u64>,
}

/// Today's IMB-MT defaults.
const REPEAT: usize = 1000;
const WARMUP: usize = 100;
const WINDOW: usize = 64;
const COUNTS: &str = "1,2,4,8";

/// A count option `-NAME n` in `range` into `field`, `default` when not given.
fn count(
    names: &'static [&'static str],
    meaning: &str,
    range: (u64, u64),
    field: fn(&mut Options) -> &mut usize,
    default: usize,
) -> Flag<Options> {
    Flag::whole(names, "n", meaning, range, move |o: &mut Options, n| *field(o) = n as usize)
        .default(default)
}

pub fn flags() -> Vec<Flag<Options>> {
    let [csv, timeout] = paw_imb::cli::paw_flags(
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
        count(&["-repeat"], "timed iterations", (1, 1 << 30), |o| &mut o.repeat, REPEAT),
        count(
            &["-warmup"],
            "untimed iterations before them",
            (0, 1 << 30),
            |o| &mut o.warmup,
            WARMUP,
        ),
        count(
            &["-window_size"],
            "messages in flight per window (UniBandMT, BiBandMT)",
            (1, 65536),
            |o| &mut o.window,
            WINDOW,
        ),
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
        count(
            &["-stride"],
            "distance between the partners of a pair (0: half the processes)",
            (0, 1 << 30),
            |o| &mut o.stride,
            0,
        ),
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

pub fn about() -> About {
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

pub fn parse(line: &Line) -> Result<Option<Options>, String> {
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
pub fn requested_level() -> Threading {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == "-thread_level");
    at.and_then(|i| args.get(i + 1)).and_then(|v| thread_level(v).ok()).unwrap_or(Threading::Single)
}
