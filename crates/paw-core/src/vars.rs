//! The environment variables several benchmarks read, each described once. A benchmark
//! lists the groups it reads in its [`crate::Spec`]; its own variables (WINDOW_SIZE,
//! STREAM_ARRAY_SIZE ...) are declared beside its `main`.

/// An environment variable a benchmark reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Var {
    /// Its name.
    pub name: &'static str,
    /// Its default, as the user would type it (`-` when unset means "off").
    pub default: &'static str,
    /// What it sets, with its unit.
    pub meaning: &'static str,
}

macro_rules! var {
    ($name:ident, $default:expr, $meaning:expr) => {
        #[doc = $meaning]
        pub const $name: Var =
            Var { name: stringify!($name), default: $default, meaning: $meaning };
    };
}

var!(MIN_P2P_SIZE, "1", "first message size of the sweep, bytes");
var!(MED_P2P_SIZE, "20000", "message size of the untimed warm-up, bytes");
var!(MAX_P2P_SIZE, "1000000", "last message size of the sweep, bytes");
var!(MIN_COL_SIZE, "1", "first message size of the sweep, bytes");
var!(MED_COL_SIZE, "10000", "message size of the untimed warm-up, bytes");
var!(MAX_COL_SIZE, "100000", "last message size of the sweep, bytes");
var!(MIN_BLAS_SIZE, "8", "first matrix order N of the sweep");
var!(MED_BLAS_SIZE, "1024", "matrix order of the untimed warm-up call");
var!(MAX_BLAS_SIZE, "10000", "last matrix order N of the sweep");
var!(MIN_GPU_SIZE, "128", "first transfer size of the sweep, bytes");
var!(MED_GPU_SIZE, "20000", "transfer size of the untimed warm-up, bytes");
var!(MAX_GPU_SIZE, "200000000", "last transfer size of the sweep, bytes");
var!(MIN_GPU_BLAS_SIZE, "8", "first matrix order N of the sweep");
var!(MED_GPU_BLAS_SIZE, "1024", "matrix order of the untimed warm-up call");
var!(MAX_GPU_BLAS_SIZE, "9192", "last matrix order N of the sweep");

var!(NLOOP, "-", "iterations per sample at every size, fixed (unset: calibrated)");
var!(NLOOP_MAX, "1000", "iterations per sample at the first size; upper bound after it");
var!(
    NLOOP_MIN,
    "10",
    "lower bound on iterations per sample (unset: 10 in sweeps, fewer where 10 would last over 0.1 s; 1 in single-size tests)"
);
var!(NREPS, "10", "samples (repetitions) per size");
var!(
    PAW_PRECISION,
    "-",
    "add samples until the median's 95% interval is within this fraction of it, e.g. 0.02"
);
var!(PAW_MAX_TIME, "10", "seconds one size may spend on samples added for PAW_PRECISION");
var!(
    PAW_TOLERANCE,
    "0.05",
    "a row is NOISY when its 95% interval is wider than this fraction of its median"
);
var!(PAW_COMBINE, "the benchmark's rule", "how the tasks' times combine: min, max or avg");
var!(PAW_CHECK, "0", "1: check the data moved after each size (CHECK column)");
var!(PAW_OUTPUT_DIR, ".", "directory for the output files");
var!(
    PAW_TIMEOUT,
    "600",
    "seconds one measurement step may take before the job is aborted (0: never)"
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
    &[NLOOP, NLOOP_MAX, NLOOP_MIN, NREPS, PAW_PRECISION, PAW_MAX_TIME, PAW_TOLERANCE];
/// PAW_COMBINE (MPI benchmarks that combine the tasks' times).
pub const COMBINE: &[Var] = &[PAW_COMBINE];
/// PAW_CHECK (benchmarks with [`crate::Check::Data`]).
pub const CHECK: &[Var] = &[PAW_CHECK];
/// OPENBLAS_NUM_THREADS, OMP_NUM_THREADS (BLAS benchmarks).
pub const BLAS_THREADS: &[Var] = &[OPENBLAS_NUM_THREADS, OMP_NUM_THREADS];
/// RAYON_NUM_THREADS, OMP_NUM_THREADS (rayon benchmarks).
pub const RAYON_THREADS: &[Var] = &[RAYON_NUM_THREADS, OMP_NUM_THREADS];
/// What every benchmark reads, listed or not.
pub const EVERY: &[Var] = &[PAW_OUTPUT_DIR, PAW_TIMEOUT];

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
