//! blas_dgemm_single -- multithreaded DGEMM at one matrix order N = MAX_BLAS_SIZE
//! (PAW 1.6 §2 and §4), through cblas and the system OpenBLAS.
//!
//! Timed: C = A B (cblas_dgemm, column-major, alpha 1, beta 0) per iteration; NLOOP is the
//! fewest calls that clear the timer floor (1 for any sizeable N); NREPS samples after one
//! timed warm-up call. Untimed: allocating and filling A and B, and the check afterwards of
//! C against a naive product on sampled entries.
//! Reported: seconds per call and GFLOP/s = 2 N^2 (N+1) / time / 1e9.
//! Threads: what OpenBLAS uses (OPENBLAS_NUM_THREADS, else OMP_NUM_THREADS, else all
//! cores); the count goes into the file names. Env: MAX_BLAS_SIZE NLOOP_MIN NREPS PAW_OUTPUT_DIR.
//! Writes dgemm_single_time-np_TTTT.dat (s) and dgemm_single_flops-np_TTTT.dat (GFLOP/s).
use paw_core::{Axis, DatSpec, Error, Family, Node, Policy, Ranks, Spec, Timing};

const SPEC: Spec = Spec {
    name: "blas_dgemm_single",
    title: "multithreaded DGEMM at one matrix order MAX_BLAS_SIZE (PAW 1.6 sections 2 and 4)",
    help: "\
Timed: cblas_dgemm C = A B of order N = MAX_BLAS_SIZE (system OpenBLAS), NREPS samples of the
fewest calls that clear the timer floor. GFLOP/s = 2 N^2 (N+1) / time / 1e9. Setup and the
result check (against a naive product on sampled entries) are not timed.
Threads: OPENBLAS_NUM_THREADS, else OMP_NUM_THREADS, else all cores.
Env: MAX_BLAS_SIZE (matrix order, default 10000).
Writes dgemm_single_time-np_TTTT.dat (s) and dgemm_single_flops-np_TTTT.dat (GFLOP/s),
TTTT = thread count. Runs without mpirun.",
    ranks: Ranks::Any,
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let mut node = Node::init(&SPEC)?;
        let n = node.sizes(Family::Blas)?.max as usize;
        if i32::try_from(n).is_err() || n.checked_mul(n).is_none() {
            return Err(Error::input(format!("MAX_BLAS_SIZE={n} is too large for BLAS")));
        }
        let threads = paw_blas::threads();
        node.add_library(format!("BLAS: {} ({threads} threads)", paw_blas::config()));

        // Untimed setup: deterministic values in [-1, 1).
        let (a, b) = (paw_blas::fill::<f64>(n * n, 1), paw_blas::fill::<f64>(n * n, 7));
        let mut c = vec![0.0; n * n];

        let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Fewest);
        let notes = vec![
            format!("timed call: cblas_dgemm, C = A B, order N = {n}, column-major"),
            format!("flops per call: 2 N^2 (N+1) = {:.6e}", paw_blas::gemm_flops(n)),
        ];
        let mut time_out = node.dat(
            &bench,
            DatSpec {
                file: node.np_file("dgemm_single_time", threads),
                x: Axis::new("matrix order N", "elements"),
                y: Axis::new("time per DGEMM", "s"),
                notes: notes.clone(),
                echo: false,
                extra: vec![],
            },
        )?;
        let mut flops_out = node.dat(
            &bench,
            DatSpec {
                file: node.np_file("dgemm_single_flops", threads),
                x: Axis::new("matrix order N", "elements"),
                y: Axis::new("DGEMM rate", "GFLOP/s (1e9 flop/s)"),
                notes,
                echo: true,
                extra: vec![],
            },
        )?;

        let m = bench.measure(|| paw_blas::gemm(n, &a, &b, &mut c));
        time_out.row(n, &m.row(|t| t));
        flops_out.row(n, &m.row(|t| paw_blas::gemm_flops(n) / t / 1e9));

        let error = paw_blas::gemm_error(n, &a, &b, &c);
        let tolerance = paw_blas::tolerance::<f64>(n);
        if error > tolerance {
            return Err(Error::runtime(format!(
                "DGEMM result check failed: relative error {error:.3e} exceeds {tolerance:.3e}"
            )));
        }
        println!("result check: relative error {error:.3e} (tolerance {tolerance:.3e}) passed");
        Ok(())
    })
}
