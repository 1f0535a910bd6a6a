//! paw-blas: the BLAS calls the paw BLAS tests time, as safe functions on square
//! column-major matrices, linked to the system OpenBLAS; plus what OpenBLAS says about itself.
#![warn(missing_docs)]

// Links the BLAS implementation selected in Cargo.toml (system OpenBLAS).
extern crate blas_src;

use cblas::{Layout, Transpose};
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

/// C = A B for order-`n` column-major matrices (DGEMM, alpha 1, beta 0).
///
/// Panics unless every slice holds exactly n*n elements and n fits a BLAS integer.
pub fn dgemm(n: usize, a: &[f64], b: &[f64], c: &mut [f64]) {
    let len = n.checked_mul(n).expect("matrix order overflows");
    assert!(a.len() == len && b.len() == len && c.len() == len, "dgemm needs n*n elements");
    let ni = i32::try_from(n).expect("matrix order exceeds the BLAS integer range");
    // SAFETY: all three slices hold n*n elements (checked above), which is what DGEMM reads
    // and writes for m = n = k = lda = ldb = ldc = n; `c` is borrowed exclusively.
    unsafe {
        cblas::dgemm(
            Layout::ColumnMajor,
            Transpose::None,
            Transpose::None,
            ni,
            ni,
            ni,
            1.0,
            a,
            ni,
            b,
            ni,
            0.0,
            c,
            ni,
        );
    }
}

/// Largest relative error of `c` against A B over a sample of entries (every entry for
/// small matrices), computed naively in f64: the correctness check done after timing.
pub fn dgemm_error(n: usize, a: &[f64], b: &[f64], c: &[f64]) -> f64 {
    let stride = if n <= 64 { 1 } else { n / 16 };
    let mut worst = 0.0f64;
    for i in (0..n).step_by(stride) {
        for j in (0..n).step_by(stride) {
            let (mut exact, mut magnitude) = (0.0f64, 0.0f64);
            for k in 0..n {
                let p = a[i + k * n] * b[k + j * n];
                exact += p;
                magnitude += p.abs();
            }
            let err = (c[i + j * n] - exact).abs() / magnitude.max(f64::MIN_POSITIVE);
            worst = worst.max(err);
        }
    }
    worst
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
        dgemm(n, &a, &b, &mut c);
        assert!(dgemm_error(n, &a, &b, &c) < 1e-14);
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
        dgemm(n, &a, &b, &mut c);
        assert!(dgemm_error(n, &a, &b, &c) < 1e-15);
        c[3 * n + 5] += 1e-3;
        assert!(dgemm_error(n, &a, &b, &c) > 1e-6);
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
    #[should_panic(expected = "n*n elements")]
    fn short_slice_is_refused() {
        dgemm(4, &[0.0; 16], &[0.0; 15], &mut [0.0; 16]);
    }
}
