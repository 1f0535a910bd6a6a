//! The environment variables several benchmarks read, each described once. A benchmark
//! lists the groups it reads in its [`crate::Spec`]; its own variables (STREAM_ARRAY_SIZE
//! ...) are declared beside its `main`, except those an OSU option spells (WINDOW_SIZE).

/// An environment variable a benchmark reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Var {
    /// Its name.
    pub name: &'static str,
    /// Its default, as the user would type it (`-` when unset means "off").
    pub default: &'static str,
    /// What it sets, with its unit.
    pub meaning: &'static str,
    /// The values it takes, which the readers enforce and `-h` prints.
    pub accepts: Accepts,
}

impl Var {
    /// A variable: its name, default, meaning and the values it accepts.
    pub const fn new(
        name: &'static str,
        default: &'static str,
        meaning: &'static str,
        accepts: Accepts,
    ) -> Var {
        Var { name, default, meaning, accepts }
    }
}

/// The values a variable takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accepts {
    /// A whole number in this range (`Session::knob`).
    Whole(u64, u64),
    /// A byte count in this range, with an optional K, M or G suffix (`Session::bytes`).
    Bytes(u64, u64),
    /// What its meaning says: text (a path, a name), or a value with a rule of its own.
    Said,
}

impl Accepts {
    /// The range of a number, as `-h` prints it after the meaning (empty for
    /// [`Accepts::Said`]).
    pub fn describe(self) -> String {
        match self {
            Accepts::Whole(lo, hi) => format!("; {lo} to {hi}"),
            Accepts::Bytes(lo, hi) => format!("; {lo} to {hi}, K, M, G suffixes"),
            Accepts::Said => String::new(),
        }
    }
}

/// Largest MPI message (bytes) and matrix order: an MPI count and a BLAS integer are C ints.
pub const MPI_COUNT_LIMIT: u64 = i32::MAX as u64;

/// Largest loop count a variable accepts.
pub const LOOP_LIMIT: u64 = 1_000_000_000;

/// Largest size a variable without a tighter limit accepts (1 TiB): keeps doubling sweeps
/// far from overflow.
pub const SIZE_LIMIT: u64 = 1 << 40;

macro_rules! var {
    ($name:ident, $default:expr, $meaning:expr) => {
        var!($name, $default, $meaning, Accepts::Said);
    };
    ($name:ident, $default:expr, $meaning:expr, $accepts:expr) => {
        #[doc = $meaning]
        pub const $name: Var = Var {
            name: stringify!($name),
            default: $default,
            meaning: $meaning,
            accepts: $accepts,
        };
    };
}

var!(
    MIN_P2P_SIZE,
    "1",
    "first message size of the sweep, bytes (0: a 0-byte row, then 1, 2, 4 ...; in the time file only)",
    Accepts::Bytes(0, MPI_COUNT_LIMIT)
);
var!(
    MED_P2P_SIZE,
    "20000",
    "message size of the untimed warm-up, bytes",
    Accepts::Bytes(1, MPI_COUNT_LIMIT)
);
var!(
    MAX_P2P_SIZE,
    "1000000",
    "last message size of the sweep, bytes",
    Accepts::Bytes(1, MPI_COUNT_LIMIT)
);
var!(
    MIN_COL_SIZE,
    "1",
    "first message size of the sweep, bytes",
    Accepts::Bytes(1, MPI_COUNT_LIMIT)
);
var!(
    MED_COL_SIZE,
    "10000",
    "message size of the untimed warm-up, bytes",
    Accepts::Bytes(1, MPI_COUNT_LIMIT)
);
var!(
    MAX_COL_SIZE,
    "100000",
    "last message size of the sweep, bytes",
    Accepts::Bytes(1, MPI_COUNT_LIMIT)
);
var!(MIN_BLAS_SIZE, "8", "first matrix order N of the sweep", Accepts::Whole(1, MPI_COUNT_LIMIT));
var!(
    MED_BLAS_SIZE,
    "1024",
    "matrix order of the untimed warm-up call",
    Accepts::Whole(1, MPI_COUNT_LIMIT)
);
var!(
    MAX_BLAS_SIZE,
    "10000",
    "last matrix order N of the sweep",
    Accepts::Whole(1, MPI_COUNT_LIMIT)
);
var!(MIN_GPU_SIZE, "128", "first transfer size of the sweep, bytes", Accepts::Bytes(1, SIZE_LIMIT));
var!(
    MED_GPU_SIZE,
    "20000",
    "transfer size of the untimed warm-up, bytes",
    Accepts::Bytes(1, SIZE_LIMIT)
);
var!(
    MAX_GPU_SIZE,
    "200000000",
    "last transfer size of the sweep, bytes",
    Accepts::Bytes(1, SIZE_LIMIT)
);
var!(
    MIN_GPU_BLAS_SIZE,
    "8",
    "first matrix order N of the sweep",
    Accepts::Whole(1, MPI_COUNT_LIMIT)
);
var!(
    MED_GPU_BLAS_SIZE,
    "1024",
    "matrix order of the untimed warm-up call",
    Accepts::Whole(1, MPI_COUNT_LIMIT)
);
var!(
    MAX_GPU_BLAS_SIZE,
    "9192",
    "last matrix order N of the sweep",
    Accepts::Whole(1, MPI_COUNT_LIMIT)
);

var!(
    NLOOP,
    "-",
    "iterations per sample at every size, fixed (unset: calibrated)",
    Accepts::Whole(1, LOOP_LIMIT)
);
var!(
    PAW_WARMUP,
    "-",
    "untimed iterations before each size's samples, at least 1 where NLOOP is calibrated (unset: NLOOP_MAX at the first size, a tenth of the last NLOOP after, at most about 1 s; 1 with NLOOP set)",
    Accepts::Whole(0, LOOP_LIMIT)
);
var!(NLOOP_MAX, "1000", "iterations per sample at the first size; upper bound after it");
var!(
    NLOOP_MIN,
    "10",
    "lower bound on iterations per sample (unset: 10 in sweeps, fewer where 10 would last over 0.1 s; 1 in single-size tests)"
);
var!(
    NREPS,
    "-",
    "samples per size: set, exactly this many (PAW 1.6); unset, at least 10 and more until the row is not NOISY or the size's budget is spent"
);
var!(
    PAW_PRECISION,
    "-",
    "add samples until the median's 95% interval is within this fraction of it, e.g. 0.02"
);
var!(
    PAW_MAX_TIME,
    "-",
    "seconds one size may spend on added samples (unset: as long as its first NREPS took; 10 with PAW_PRECISION)"
);
var!(
    PAW_TOLERANCE,
    "0.05",
    "a row is NOISY when its 95% interval is wider than this fraction of its median"
);
var!(
    PAW_TAIL,
    "0",
    "single iterations timed one by one after each size's samples, for the P50, P90, P99 and PMAX columns (0: off; else 100 to 1000000)",
    Accepts::Whole(0, 1_000_000)
);
var!(PAW_COMBINE, "the benchmark's rule", "how the tasks' times combine: min, max or avg");
var!(
    PAW_CHECK,
    "0",
    "1: check the data moved after each size (CHECK column)",
    Accepts::Whole(0, 1)
);
var!(PAW_OUTPUT_DIR, ".", "directory for the output files");
var!(
    PAW_TIMEOUT,
    "600",
    "seconds one measurement step may take before the job is aborted (0: never)",
    Accepts::Whole(0, 1_000_000)
);
var!(
    PAW_STRICT,
    "0",
    "1: a variable that looks like paw's but is not read is an error, not a warning",
    Accepts::Whole(0, 1)
);
var!(
    PAW_PLACEMENT_FILE,
    "0",
    "1: every task's host and CPUs, a line per rank, in <benchmark>_placement-np_NNNN.txt (headers name hosts in ranges beyond 16, the run record beyond 256)",
    Accepts::Whole(0, 1)
);
var!(
    PAW_BUFFER,
    "host",
    "where message buffers live: host (malloc), device (GPU memory, cuMemAlloc, on the GPU of the task's node-local rank) or managed (cuMemAllocManaged); two values, e.g. device,host, place the first half of the tasks (the pairs' first tasks) and the second half (OSU's D H)"
);
var!(
    WINDOW_SIZE,
    "128",
    "messages in flight per pair (PAW Table 3.1; OSU's -W, whose default is 64)",
    Accepts::Whole(1, 65536)
);
var!(
    RECV_BUFFERS,
    "each",
    "where a window's receives go: each (a buffer per message in flight, PAW's) or one (every receive into one buffer, as osu_bw and osu_bibw post them)"
);
var!(OPENBLAS_NUM_THREADS, "all cores", "threads OpenBLAS uses");
var!(OMP_NUM_THREADS, "all cores", "threads, when the more specific variable is unset");
var!(RAYON_NUM_THREADS, "all cores", "threads of the rayon pool");

/// MIN_P2P_SIZE, MED_P2P_SIZE, MAX_P2P_SIZE.
pub const P2P_SIZES: &[Var] = &[MIN_P2P_SIZE, MED_P2P_SIZE, MAX_P2P_SIZE];
/// MIN_P2P_SIZE, MAX_P2P_SIZE (a sweep without a warm-up size).
pub const P2P_SWEEP: &[Var] = &[MIN_P2P_SIZE, MAX_P2P_SIZE];
/// MIN_COL_SIZE, MED_COL_SIZE, MAX_COL_SIZE.
pub const COL_SIZES: &[Var] = &[MIN_COL_SIZE, MED_COL_SIZE, MAX_COL_SIZE];
/// MIN_COL_SIZE, MAX_COL_SIZE (a sweep without a warm-up size).
pub const COL_SWEEP: &[Var] = &[MIN_COL_SIZE, MAX_COL_SIZE];
/// MIN_BLAS_SIZE, MED_BLAS_SIZE, MAX_BLAS_SIZE.
pub const BLAS_SIZES: &[Var] = &[MIN_BLAS_SIZE, MED_BLAS_SIZE, MAX_BLAS_SIZE];
/// MIN_GPU_SIZE, MED_GPU_SIZE, MAX_GPU_SIZE.
pub const GPU_SIZES: &[Var] = &[MIN_GPU_SIZE, MED_GPU_SIZE, MAX_GPU_SIZE];
/// MIN_GPU_BLAS_SIZE, MED_GPU_BLAS_SIZE, MAX_GPU_BLAS_SIZE.
pub const GPU_BLAS_SIZES: &[Var] = &[MIN_GPU_BLAS_SIZE, MED_GPU_BLAS_SIZE, MAX_GPU_BLAS_SIZE];
/// What every measured sweep reads: the loop counts and the statistics controls.
pub const MEASURE: &[Var] =
    &[NLOOP, NLOOP_MAX, NLOOP_MIN, PAW_WARMUP, NREPS, PAW_PRECISION, PAW_MAX_TIME, PAW_TOLERANCE];
/// PAW_COMBINE (MPI benchmarks that combine the tasks' times).
pub const COMBINE: &[Var] = &[PAW_COMBINE];
/// PAW_TAIL (latency tests with percentile columns).
pub const TAIL: &[Var] = &[PAW_TAIL];
/// PAW_BUFFER (tests that can pass GPU memory to MPI).
pub const BUFFER: &[Var] = &[PAW_BUFFER];
/// PAW_CHECK (benchmarks with [`crate::Check::Data`]).
pub const CHECK: &[Var] = &[PAW_CHECK];
/// WINDOW_SIZE, RECV_BUFFERS (the message-rate tests).
pub const WINDOW: &[Var] = &[WINDOW_SIZE, RECV_BUFFERS];
/// OPENBLAS_NUM_THREADS, OMP_NUM_THREADS (BLAS benchmarks).
pub const BLAS_THREADS: &[Var] = &[OPENBLAS_NUM_THREADS, OMP_NUM_THREADS];
/// RAYON_NUM_THREADS, OMP_NUM_THREADS (rayon benchmarks).
pub const RAYON_THREADS: &[Var] = &[RAYON_NUM_THREADS, OMP_NUM_THREADS];
/// What every benchmark reads, listed or not.
pub const EVERY: &[Var] = &[PAW_OUTPUT_DIR, PAW_TIMEOUT, PAW_STRICT, PAW_PLACEMENT_FILE];
/// paw's own shared variables (not other libraries' thread counts): a variable of the
/// environment is measured against these and the benchmark's own to tell a near miss.
pub const OWN: &[&[Var]] = &[
    P2P_SIZES,
    COL_SIZES,
    BLAS_SIZES,
    GPU_SIZES,
    GPU_BLAS_SIZES,
    MEASURE,
    COMBINE,
    TAIL,
    BUFFER,
    CHECK,
    WINDOW,
    EVERY,
];

/// What an OSU-style option sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sets {
    /// The variable takes the option's value (`-i 100`: NLOOP=100).
    Value(Var),
    /// `[MIN:]MAX`: the first variable takes MIN, the second MAX.
    Range(Var, Var),
    /// The option alone sets the variable to this value (`-c`: PAW_CHECK=1).
    Fixed(Var, &'static str),
    /// OSU's accelerator and buffer placements (`-d cuda D H`): the variable takes the
    /// placement of each half of the tasks, as PAW_BUFFER spells it.
    Placement(Var),
    /// Nothing: the option is taken where the variable is read, for what paw always does
    /// (`-f`, OSU's full statistics, which every row of paw holds).
    Nothing(Var, &'static str),
}

/// An option of the OSU micro-benchmarks that is one more spelling of paw's variables. A
/// binary takes it where it reads every variable it sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spelling {
    /// The short option, as OSU spells it (`-m`).
    pub short: &'static str,
    /// The long option, as OSU spells it (`--message-size`).
    pub long: &'static str,
    /// Its value's name in `-h` (empty for a switch).
    pub value: &'static str,
    /// The variables it sets.
    pub sets: Sets,
}

/// OSU's options and the variables they set (doc/osu-options.md has the table, and the OSU
/// options paw does not take).
pub const SPELLINGS: &[Spelling] = &[
    Spelling {
        short: "-m",
        long: "--message-size",
        value: "[MIN:]MAX",
        sets: Sets::Range(MIN_P2P_SIZE, MAX_P2P_SIZE),
    },
    Spelling {
        short: "-m",
        long: "--message-size",
        value: "[MIN:]MAX",
        sets: Sets::Range(MIN_COL_SIZE, MAX_COL_SIZE),
    },
    Spelling { short: "-i", long: "--iterations", value: "N", sets: Sets::Value(NLOOP) },
    Spelling { short: "-x", long: "--warmup", value: "N", sets: Sets::Value(PAW_WARMUP) },
    Spelling { short: "-z", long: "--tail-lat", value: "", sets: Sets::Fixed(PAW_TAIL, "1000") },
    Spelling { short: "-c", long: "--validation", value: "", sets: Sets::Fixed(PAW_CHECK, "1") },
    Spelling {
        short: "-d",
        long: "--accelerator",
        value: "cuda [SRC DST]",
        sets: Sets::Placement(PAW_BUFFER),
    },
    Spelling { short: "-W", long: "--window-size", value: "N", sets: Sets::Value(WINDOW_SIZE) },
    Spelling {
        short: "-f",
        long: "--full",
        value: "",
        sets: Sets::Nothing(
            NLOOP,
            "every row holds AVG, MIN, MAX, STDDEV, MEDIAN and its interval",
        ),
    },
];

impl Sets {
    /// The variables set.
    pub fn vars(&self) -> Vec<Var> {
        match *self {
            Sets::Value(v) | Sets::Fixed(v, _) | Sets::Placement(v) | Sets::Nothing(v, _) => {
                vec![v]
            }
            Sets::Range(a, b) => vec![a, b],
        }
    }
}

/// Why a variable of the environment that a benchmark does not read deserves a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unread<'a> {
    /// One of paw's variables, read by other benchmarks.
    Elsewhere,
    /// One of paw's names in another letter case: the name as paw spells it.
    Case(&'a str),
    /// A near miss (paw's prefixes, or within two edits of a name paw knows): the closest
    /// variable the benchmark reads, if one is that close.
    Near(Option<&'a str>),
}

/// What `var`, set in the environment, is to a benchmark that reads `reads` (None: it
/// reads it, or the name is nothing like paw's). Known names are `reads` and [`OWN`].
pub fn unread<'a>(var: &str, reads: &[&'a str]) -> Option<Unread<'a>> {
    if reads.contains(&var) {
        return None;
    }
    let own = OWN.iter().flat_map(|g| g.iter()).map(|v| v.name);
    let known: Vec<&'a str> = reads.iter().copied().chain(own).collect();
    if known.contains(&var) {
        return Some(Unread::Elsewhere);
    }
    let upper = var.to_ascii_uppercase();
    if let Some(k) = known.iter().find(|k| **k == upper) {
        return Some(Unread::Case(k));
    }
    let distance = |k: &&str| strsim::levenshtein(k, &upper);
    let near = |k: &&str| var.len() >= 4 && distance(k) <= 2;
    if !looks_like_paw(&upper) && !known.iter().any(near) {
        return None;
    }
    let closest = reads.iter().copied().filter(|k| distance(k) <= 2).min_by_key(|k| distance(k));
    Some(Unread::Near(closest))
}

/// Patterns of names that look like paw's: a variable matching one that a benchmark does
/// not read is probably a typo, and is warned about. The size families (`*_P2P_*` ...)
/// count only in names of at most four words, as paw's own (`MAX_GPU_BLAS_SIZE`), so that
/// other libraries' variables (`NVPL_BLAS_DEBUG_CPU_TYPE`) are left alone.
pub fn looks_like_paw(name: &str) -> bool {
    const INFIXES: &[&str] = &["_P2P_", "_COL_", "_BLAS_", "_GPU_"];
    const PREFIXES: &[&str] = &["NLOOP", "NREPS", "PAW_", "STREAM_", "WINDOW_"];
    let family = INFIXES.iter().any(|i| name.contains(i)) && name.split('_').count() <= 4;
    (family || PREFIXES.iter().any(|p| name.starts_with(p))) && !name.starts_with("PAW_TEST_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unread_variables_are_told_apart() {
        let reads = ["NREPS", "NLOOP", "MAX_P2P_SIZE", "PAW_MAX_TIME", "WINDOW_SIZE"];
        assert_eq!(unread("NREPS", &reads), None);
        assert_eq!(unread("NREP", &reads), Some(Unread::Near(Some("NREPS"))));
        assert_eq!(unread("MAX_P2P_SZIE", &reads), Some(Unread::Near(Some("MAX_P2P_SIZE"))));
        assert_eq!(unread("max_p2p_size", &reads), Some(Unread::Case("MAX_P2P_SIZE")));
        assert_eq!(unread("window_size", &reads), Some(Unread::Case("WINDOW_SIZE")));
        assert_eq!(unread("MAX_COL_SIZE", &reads), Some(Unread::Elsewhere));
        assert_eq!(unread("PAW_FOO", &reads), Some(Unread::Near(None)));
        assert_eq!(unread("WINDOW_SZE", &reads), Some(Unread::Near(Some("WINDOW_SIZE"))));
        // A shared name this benchmark does not read is not a near miss of one it reads.
        assert_eq!(unread("MAX_COL_SIZE", &["MAX_P2P_SIZE"]), Some(Unread::Elsewhere));
        for other in ["PATH", "HOME", "OMP_NUM_THREADS", "WINDOWID", "LANG", "_", "SHLVL"] {
            assert_eq!(unread(other, &reads), None, "{other}");
        }
    }

    #[test]
    fn paw_like_names() {
        for n in
            ["MAX_P2P_SZIE", "MIN_COL_SIZE", "MAX_GPU_BLAS_SIZE", "NLOOPMAX", "NREPS_X", "PAW_CHEK"]
        {
            assert!(looks_like_paw(n), "{n}");
        }
        for n in
            ["NVPL_BLAS_DEBUG_CPU_TYPE", "PAW_TEST_HANG", "OMP_NUM_THREADS", "PATH", "CUDA_HOME"]
        {
            assert!(!looks_like_paw(n), "{n}");
        }
    }
}
