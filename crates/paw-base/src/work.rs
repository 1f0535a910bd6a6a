//! CPU work to overlap with communication: passes of a dense 10 x 10 single-precision
//! matrix-vector multiply-accumulate, `x[i] += a[i][j] y[j]`, 200 flops each, with no MPI call
//! inside (today's IMB CPU_Exploit, used by IMB-NBC and IMB-RMA, and the computation of the
//! non-blocking collectives). The rate is measured once per process (250 001 passes); a
//! measurement then asks for as many passes as fill the time it wants.

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Instant;

const N: usize = 10;
/// Passes of the calibration (50 Mflop, plus one).
const CALIBRATION_PASSES: usize = 250_001;

/// The work's state: the matrix and vectors one process computes on.
#[derive(Debug, Clone)]
pub struct Exploit {
    a: [[f32; N]; N],
    x: [f32; N],
    y: [f32; N],
}

/// This process's measured rate.
#[derive(Debug, Clone, Copy)]
pub struct Rate {
    /// Passes per second.
    pub passes_per_second: f64,
    /// Mflop/s.
    pub mflops: f64,
}

static RATE: OnceLock<Rate> = OnceLock::new();

impl Exploit {
    /// Fresh state.
    pub fn new() -> Exploit {
        let mut a = [[0.0f32; N]; N];
        for (i, row) in a.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = ((i * N + j) % 7) as f32 * 1e-3;
            }
        }
        Exploit { a, x: [0.0; N], y: [1.0; N] }
    }

    /// `passes` passes of the multiply-accumulate.
    pub fn run(&mut self, passes: usize) {
        for _ in 0..passes {
            for (xi, row) in self.x.iter_mut().zip(&self.a) {
                for (a, y) in row.iter().zip(&self.y) {
                    *xi += a * y;
                }
            }
            black_box(&mut self.x);
        }
    }

    /// The passes that take `seconds` at this process's rate (none for no time).
    pub fn passes_for(seconds: f64) -> usize {
        if seconds <= 0.0 {
            return 0;
        }
        ((seconds * rate().passes_per_second) as usize).max(1)
    }
}

impl Default for Exploit {
    fn default() -> Exploit {
        Exploit::new()
    }
}

/// This process's rate, measured on first use.
pub fn rate() -> Rate {
    *RATE.get_or_init(|| {
        let mut work = Exploit::new();
        let start = Instant::now();
        work.run(CALIBRATION_PASSES);
        let seconds = start.elapsed().as_secs_f64().max(1e-9);
        let passes_per_second = CALIBRATION_PASSES as f64 / seconds;
        Rate { passes_per_second, mflops: passes_per_second * 200.0 / 1e6 }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_fill_the_time_asked() {
        assert_eq!(Exploit::passes_for(0.0), 0);
        assert_eq!(Exploit::passes_for(1e-12), 1, "at least one pass for any time");
        let passes = Exploit::passes_for(0.02);
        let mut work = Exploit::new();
        let start = Instant::now();
        work.run(passes);
        let took = start.elapsed().as_secs_f64();
        assert!(took > 0.005 && took < 0.2, "{passes} passes took {took} s for 0.02 s");
    }
}
