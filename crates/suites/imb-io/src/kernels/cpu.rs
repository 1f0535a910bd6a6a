//! CPU_Exploit (guide §4.2.5.1): a vectorisable 100 x 100 single-precision matrix-vector
//! product, repeated a calibrated number of times so that one call takes about
//! TARGET_CPU_SECS when the process runs undisturbed.

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Instant;

const N: usize = 100;

/// The calibration of this process.
#[derive(Debug, Clone, Copy)]
pub struct Calibration {
    /// Matrix-vector products per call.
    pub products: usize,
    /// Seconds one call takes undisturbed (t_CPU).
    pub seconds: f64,
    /// The rate that gives, Mflop/s.
    pub mflops: f64,
}

static CALIBRATION: OnceLock<Calibration> = OnceLock::new();

fn products(n: usize) -> f64 {
    let a: Vec<f32> = (0..N * N).map(|i| (i % 7) as f32 * 0.25).collect();
    let mut x = [1.0f32; N];
    let mut y = [0.0f32; N];
    let start = Instant::now();
    for _ in 0..n {
        for (row, yi) in a.chunks_exact(N).zip(y.iter_mut()) {
            *yi = row.iter().zip(&x).map(|(a, b)| a * b).sum();
        }
        x[0] = black_box(y[0]) * 1e-9 + 1.0;
    }
    black_box(&y);
    start.elapsed().as_secs_f64()
}

/// Calibrates CPU_Exploit to `target` seconds per call (once per process).
pub fn calibrate(target: f64) -> Calibration {
    *CALIBRATION.get_or_init(|| {
        let mut n = 1;
        let mut t = products(n);
        while t < target / 20.0 {
            n *= 2;
            t = products(n);
        }
        let n = ((target / t * n as f64).round() as usize).max(1);
        let seconds = products(n);
        Calibration { products: n, seconds, mflops: 2.0 * (N * N * n) as f64 / seconds / 1e6 }
    })
}

/// One CPU_Exploit call of the calibrated length.
pub fn exploit() {
    let c = CALIBRATION.get().expect("CPU_Exploit is calibrated before use");
    products(c.products);
}
