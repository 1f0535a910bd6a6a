//! paw-blas: the BLAS benchmarks (src/bin: dgemm, sgemm, dgemv, sgemv over [`sweep`], and
//! blas_dgemm_single) and the BLAS calls they time, as safe functions on square column-major
//! matrices, linked to the system OpenBLAS; plus what OpenBLAS says about itself.
#![warn(missing_docs)]

// Links the BLAS implementation selected in Cargo.toml (system OpenBLAS).
extern crate blas_src;

pub mod sweep;

use cblas::{Layout, Transpose};
use paw_base::schema::{ELEMENTS, GFLOP_PER_S, SECONDS};
use paw_base::{vars, Axis, Bench, DatFile, DatSpec, Error, Node, Solo};
use std::ffi::{c_char, c_int, CStr};

extern "C" {
    fn openblas_get_num_threads() -> c_int;
    fn openblas_get_config() -> *const c_char;
}

/// Threads OpenBLAS will use (it reads OPENBLAS_NUM_THREADS, then OMP_NUM_THREADS).
pub fn threads() -> usize {
    // SAFETY: a query without arguments; OpenBLAS initialises itself on library load.
    let n = unsafe { openblas_get_num_threads() };
    n.max(1) as usize
}

/// What every BLAS test checks, always.
pub const RESULT_CHECK: &str = "each order's result against a naive f64 computation on sampled \
                                entries (tolerance 2 N epsilon); a wrong or NaN entry fails \
                                the run after every row is written";

/// The SPEC of a BLAS sweep binary (`dgemm`, `sgemm`, `dgemv`, `sgemv`): the call's
/// name and its name in capitals, what one call computes, and its flop count; the rest is
/// common to the four.
#[macro_export]
macro_rules! sweep_spec {
    ($call:literal, $upper:literal, $what:literal, $flops:literal) => {
        ::paw_base::Spec {
            name: $call,
            title: concat!(
                "multithreaded ",
                $upper,
                " over a sweep of matrix orders (PAW 1.6 section 4)"
            ),
            timed: concat!(
                "Per sample: NLOOP calls of cblas_",
                $call,
                " (system OpenBLAS), ",
                $what,
                ", column-major, alpha 1, beta 0. Orders MIN_BLAS_SIZE, doubling, to \
                 MAX_BLAS_SIZE, after one untimed call at MED_BLAS_SIZE. Untimed: filling the \
                 operands once, at the largest order."
            ),
            reports: concat!(
                "seconds per call, and GFLOP/s = ",
                $flops,
                " / time / 1e9. Threads: OPENBLAS_NUM_THREADS, else OMP_NUM_THREADS, else all \
                 cores."
            ),
            ranks: ::paw_base::Ranks::Node,
            combine: ::paw_base::Combine::Min,
            vars: &[
                ::paw_base::vars::BLAS_SIZES,
                ::paw_base::vars::MEASURE,
                ::paw_base::vars::BLAS_THREADS,
            ],
            check: ::paw_base::Check::Always($crate::RESULT_CHECK),
            files: ::paw_base::Files::Text(concat!(
                $call,
                "_time-np_TTTT.dat (s) and ",
                $call,
                "_flops-np_TTTT.dat (GFLOP/s), TTTT = threads"
            )),
            headlines: &[::paw_base::Headline::new(
                "_flops",
                concat!($upper, " N={x}"),
                ::paw_base::Pick::Last,
                ::paw_base::schema::sweep::MEDIAN,
            )],
        }
    };
}

/// Checks the thread variables OpenBLAS reads (OPENBLAS_NUM_THREADS, then
/// OMP_NUM_THREADS: a value OpenBLAS would silently replace by its default is refused),
/// adds the BLAS library line to the headers, and returns the threads OpenBLAS uses.
pub fn start(node: &mut Node) -> paw_base::Result<usize> {
    node.threads(vars::BLAS_THREADS)?;
    let threads = threads();
    node.add_library(format!("BLAS: {} ({threads} threads)", config()));
    Ok(threads)
}

/// An error naming `var` unless `elements` of precision `T` fit in memory.
pub fn fits<T>(node: &Node, elements: u128, var: &str) -> paw_base::Result<()> {
    node.fits_in_memory(elements * std::mem::size_of::<T>() as u128, var, "the matrices")
}

/// OpenBLAS's build description (version, target core, threading), for output headers.
pub fn config() -> String {
    // SAFETY: OpenBLAS returns a pointer to a static NUL-terminated string it owns.
    let s = unsafe { CStr::from_ptr(openblas_get_config()) };
    s.to_string_lossy().trim().to_string()
}

/// Floating-point operations PAW counts for an order-`n` matrix product: 2n^2(n+1).
pub fn gemm_flops(n: usize) -> f64 {
    let n = n as f64;
    2.0 * n * n * (n + 1.0)
}

/// Floating-point operations PAW counts for an order-`n` matrix-vector product: 2n(n+1).
pub fn gemv_flops(n: usize) -> f64 {
    let n = n as f64;
    2.0 * n * (n + 1.0)
}

/// The two precisions the BLAS tests run: `f64` (D routines) and `f32` (S routines).
pub trait Real: Copy + Default + Into<f64> + std::fmt::Debug + 'static {
    /// Machine epsilon, as f64.
    const EPSILON: f64;
    /// The value nearest to `x`.
    fn from_f64(x: f64) -> Self;
    /// cblas_?gemm for square column-major matrices; the caller checked the lengths.
    ///
    /// # Safety
    /// `a`, `b` and `c` must hold n*n elements.
    unsafe fn gemm_unchecked(n: i32, a: &[Self], b: &[Self], c: &mut [Self]);
    /// cblas_?gemv for a square column-major matrix; the caller checked the lengths.
    ///
    /// # Safety
    /// `a` must hold n*n elements, `x` and `y` n each.
    unsafe fn gemv_unchecked(n: i32, a: &[Self], x: &[Self], y: &mut [Self]);
}

impl Real for f64 {
    const EPSILON: f64 = f64::EPSILON;
    fn from_f64(x: f64) -> Self {
        x
    }
    unsafe fn gemm_unchecked(n: i32, a: &[f64], b: &[f64], c: &mut [f64]) {
        let (l, t) = (Layout::ColumnMajor, Transpose::None);
        // SAFETY: the caller guarantees n*n elements in each slice, what DGEMM reads and
        // writes for m = n = k = lda = ldb = ldc = n.
        unsafe { cblas::dgemm(l, t, t, n, n, n, 1.0, a, n, b, n, 0.0, c, n) }
    }
    unsafe fn gemv_unchecked(n: i32, a: &[f64], x: &[f64], y: &mut [f64]) {
        // SAFETY: the caller guarantees n*n elements in `a` and n in `x` and `y`.
        unsafe {
            cblas::dgemv(Layout::ColumnMajor, Transpose::None, n, n, 1.0, a, n, x, 1, 0.0, y, 1)
        }
    }
}

impl Real for f32 {
    const EPSILON: f64 = f32::EPSILON as f64;
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    unsafe fn gemm_unchecked(n: i32, a: &[f32], b: &[f32], c: &mut [f32]) {
        let (l, t) = (Layout::ColumnMajor, Transpose::None);
        // SAFETY: as for f64.
        unsafe { cblas::sgemm(l, t, t, n, n, n, 1.0, a, n, b, n, 0.0, c, n) }
    }
    unsafe fn gemv_unchecked(n: i32, a: &[f32], x: &[f32], y: &mut [f32]) {
        // SAFETY: as for f64.
        unsafe {
            cblas::sgemv(Layout::ColumnMajor, Transpose::None, n, n, 1.0, a, n, x, 1, 0.0, y, 1)
        }
    }
}

/// The matrix order as a BLAS integer; panics beyond i32.
fn blas_int(n: usize) -> i32 {
    i32::try_from(n).expect("matrix order exceeds the BLAS integer range")
}

/// C = A B for order-`n` column-major matrices (?GEMM, alpha 1, beta 0).
///
/// Panics unless every slice holds exactly n*n elements and n fits a BLAS integer.
pub fn gemm<T: Real>(n: usize, a: &[T], b: &[T], c: &mut [T]) {
    let len = n.checked_mul(n).expect("matrix order overflows");
    assert!(a.len() == len && b.len() == len && c.len() == len, "gemm needs n*n elements");
    // SAFETY: the lengths were checked above.
    unsafe { T::gemm_unchecked(blas_int(n), a, b, c) }
}

/// y = A x for an order-`n` column-major matrix (?GEMV, alpha 1, beta 0).
///
/// Panics unless `a` holds n*n elements and `x`, `y` n each.
pub fn gemv<T: Real>(n: usize, a: &[T], x: &[T], y: &mut [T]) {
    let len = n.checked_mul(n).expect("matrix order overflows");
    assert!(a.len() == len && x.len() == n && y.len() == n, "gemv needs n*n and n elements");
    // SAFETY: the lengths were checked above.
    unsafe { T::gemv_unchecked(blas_int(n), a, x, y) }
}

/// Deterministic values in [-1, 1) for matrix and vector contents (setup, untimed).
pub fn fill<T: Real>(len: usize, seed: usize) -> Vec<T> {
    (0..len).map(|i| T::from_f64(((i * 2654435761 + seed) % 2000) as f64 / 1000.0 - 1.0)).collect()
}

/// Largest relative error of `c` against A B over a sample of entries (every entry up to
/// order 64, a 16 x 16 grid above), computed naively in f64, relative to the sum of the
/// magnitudes of each entry's products: the correctness check done after timing.
pub fn gemm_error<T: Real>(n: usize, a: &[T], b: &[T], c: &[T]) -> f64 {
    let stride = if n <= 64 { 1 } else { n / 16 };
    let mut worst = 0.0f64;
    for i in (0..n).step_by(stride) {
        for j in (0..n).step_by(stride) {
            let col = (0..n).map(|k| (a[i + k * n].into(), b[k + j * n].into()));
            worst = worst.max(relative_error(c[i + j * n].into(), col));
        }
    }
    worst
}

/// Largest relative error of `y` against A x (every entry up to order 64, 256 spread
/// entries above), computed naively in f64.
pub fn gemv_error<T: Real>(n: usize, a: &[T], x: &[T], y: &[T]) -> f64 {
    let stride = if n <= 64 { 1 } else { n / 256 };
    (0..n)
        .step_by(stride.max(1))
        .map(|i| relative_error(y[i].into(), (0..n).map(|k| (a[i + k * n].into(), x[k].into()))))
        .fold(0.0, f64::max)
}

/// |got - sum of products| / sum of |products|.
fn relative_error(got: f64, products: impl Iterator<Item = (f64, f64)>) -> f64 {
    let (mut exact, mut magnitude) = (0.0f64, 0.0f64);
    for (p, q) in products {
        exact += p * q;
        magnitude += (p * q).abs();
    }
    let error = (got - exact).abs() / magnitude.max(f64::MIN_POSITIVE);
    // A NaN result is infinitely wrong (f64::max would otherwise drop it).
    if error.is_nan() {
        f64::INFINITY
    } else {
        error
    }
}

/// The error a correct order-`n` product may show in precision `T`: 2 n epsilon (the
/// classic bound for a dot product of length n, doubled).
pub fn tolerance<T: Real>(n: usize) -> f64 {
    2.0 * n as f64 * T::EPSILON
}

/// Creates `<call>_time-np_TTTT.dat` (seconds per call) and `<call>_flops-np_TTTT.dat`
/// (GFLOP/s, echoed as the summary), TTTT = thread count.
pub fn time_and_flops(
    node: &Node,
    bench: &Bench<'_, Solo>,
    call: &str,
    threads: usize,
) -> paw_base::Result<(DatFile, DatFile)> {
    let files = [
        node.np_file(&format!("{call}_time"), threads),
        node.np_file(&format!("{call}_flops"), threads),
    ];
    rate_files(node, bench, files, &call.to_uppercase())
}

/// Creates the `[time, flops]` files of a matrix-order sweep of `call` (its name as the
/// axis labels show it): seconds per call, and GFLOP/s echoed as the summary.
pub fn rate_files(
    node: &Node,
    bench: &Bench<'_, Solo>,
    [time_file, flops_file]: [String; 2],
    call: &str,
) -> paw_base::Result<(DatFile, DatFile)> {
    let order = Axis::new("matrix order N", ELEMENTS);
    let file = |file: String, y: Axis, echo: bool| {
        let (x, notes, extra) = (order.clone(), vec![], vec![]);
        node.dat(bench, DatSpec { file, x, y, notes, echo, extra })
    };
    let time = file(time_file, Axis::new(format!("time per {call} call"), SECONDS), false)?;
    let flops = file(flops_file, Axis::new(format!("{call} rate"), GFLOP_PER_S), true)?;
    Ok((time, flops))
}

/// The run's verdict from the worst error/tolerance ratio over the sizes checked.
pub fn checked(call: &str, worst_ratio: f64) -> paw_base::Result<()> {
    if worst_ratio > 1.0 {
        return Err(Error::check(format!(
            "{call} result check failed: an entry's relative error is {worst_ratio:.1} times \
             the tolerance (2 N epsilon)"
        )));
    }
    println!(
        "result check: every checked entry within {worst_ratio:.3} of the tolerance (2 N epsilon)"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dgemm_matches_naive_product() {
        let n = 37;
        let a: Vec<f64> = (0..n * n).map(|i| ((i * 7) % 11) as f64 - 5.0).collect();
        let b: Vec<f64> = (0..n * n).map(|i| ((i * 3) % 13) as f64 * 0.5).collect();
        let mut c = vec![f64::NAN; n * n];
        gemm(n, &a, &b, &mut c);
        assert!(gemm_error(n, &a, &b, &c) < 1e-14);
        // Column-major: C[0,1] = sum_k A[0,k] B[k,1].
        let expect: f64 = (0..n).map(|k| a[k * n] * b[k + n]).sum();
        assert_eq!(c[n], expect);
    }

    #[test]
    fn checker_catches_a_wrong_product() {
        let n = 8;
        let a = vec![1.0; n * n];
        let b = vec![2.0; n * n];
        let mut c = vec![0.0; n * n];
        gemm(n, &a, &b, &mut c);
        assert!(gemm_error(n, &a, &b, &c) < 1e-15);
        c[3 * n + 5] += 1e-3;
        assert!(gemm_error(n, &a, &b, &c) > 1e-6);
    }

    #[test]
    fn single_precision_and_gemv_are_checked() {
        let n = 100;
        let (a, b) = (fill::<f32>(n * n, 1), fill::<f32>(n * n, 7));
        let mut c = vec![0.0f32; n * n];
        gemm(n, &a, &b, &mut c);
        assert!(gemm_error(n, &a, &b, &c) < tolerance::<f32>(n));
        let (x, mut y) = (fill::<f32>(n, 3), vec![0.0f32; n]);
        gemv(n, &a, &x, &mut y);
        assert!(gemv_error(n, &a, &x, &y) < tolerance::<f32>(n));
        y[50] += 0.5;
        assert!(gemv_error(n, &a, &x, &y) > tolerance::<f32>(n));
        let (a, x, mut y) = (fill::<f64>(n * n, 1), fill::<f64>(n, 3), vec![0.0f64; n]);
        gemv(n, &a, &x, &mut y);
        assert!(gemv_error(n, &a, &x, &y) < tolerance::<f64>(n));
        assert_eq!(gemv_flops(10), 220.0);
    }

    #[test]
    fn flop_count_is_paws() {
        assert_eq!(gemm_flops(10), 2200.0);
    }

    #[test]
    fn openblas_reports_itself() {
        assert!(threads() >= 1);
        assert!(config().contains("OpenBLAS"), "{}", config());
    }

    #[test]
    #[should_panic(expected = "gemm needs n*n elements")]
    fn short_slice_is_refused() {
        gemm(4, &[0.0f64; 16], &[0.0; 15], &mut [0.0; 16]);
    }
}
