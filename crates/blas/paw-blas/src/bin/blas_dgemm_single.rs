//! blas_dgemm_single -- multithreaded DGEMM at one matrix order N = MAX_BLAS_SIZE (PAW 1.6 §2
//! and §4), through cblas and the system OpenBLAS.
//!
//! What is timed and reported, the variables read, the result check and the files written
//! are stated once, in SPEC below: `-h`, the output headers and doc/binaries.md are made
//! from it.
use paw_base::schema::{sweep::MEDIAN, ELEMENTS, GFLOP_PER_S, SECONDS};
use paw_base::{
    vars, Axis, Check, Combine, DatSpec, Error, Files, Headline, Node, Pick, Policy, Ranks, Spec,
    Timing,
};
use paw_blas::RESULT_CHECK;

const SPEC: Spec = Spec {
    name: "blas_dgemm_single",
    title: "multithreaded DGEMM at one matrix order MAX_BLAS_SIZE (PAW 1.6 sections 2 and 4)",
    timed: "\
Per sample: the fewest calls of cblas_dgemm that clear the timer floor (1 for any \
sizeable N), C = A B of order N = MAX_BLAS_SIZE, column-major, alpha 1, beta 0, after one \
timed warm-up call. Untimed: allocating and filling A and B.",
    reports: "\
seconds per call, and GFLOP/s = 2 N^2 (N+1) / time / 1e9. Threads: OPENBLAS_NUM_THREADS, \
else OMP_NUM_THREADS, else all cores.",
    ranks: Ranks::Node,
    combine: Combine::Min,
    vars: &[&[vars::MAX_BLAS_SIZE], vars::MEASURE, vars::BLAS_THREADS],
    check: Check::Always(RESULT_CHECK),
    files: Files::Text(
        "\
dgemm_single_time-np_TTTT.dat (s) and dgemm_single_flops-np_TTTT.dat (GFLOP/s), TTTT = \
threads",
    ),
    headlines: &[Headline::new("_flops", "DGEMM N={x}", Pick::Last, MEDIAN)],
};

fn main() -> std::process::ExitCode {
    paw_base::main(SPEC.name, || {
        let mut node = Node::init(&SPEC)?;
        let n = node.knob(&vars::MAX_BLAS_SIZE)? as usize;
        let threads = paw_blas::start(&mut node)?;
        paw_blas::fits::<f64>(&node, 3 * (n as u128).pow(2), "MAX_BLAS_SIZE")?;

        // Untimed setup: deterministic values in [-1, 1).
        let (a, b) = (paw_blas::fill::<f64>(n * n, 1), paw_blas::fill::<f64>(n * n, 7));
        let mut c = vec![0.0; n * n];

        let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Fewest)?;
        let notes = vec![format!("flops per call: 2 N^2 (N+1) = {:.6e}", paw_blas::gemm_flops(n))];
        let mut time_out = node.dat(
            &bench,
            DatSpec {
                file: node.np_file("dgemm_single_time", threads),
                x: Axis::new("matrix order N", ELEMENTS),
                y: Axis::new("time per DGEMM", SECONDS),
                notes: notes.clone(),
                echo: false,
                extra: vec![],
            },
        )?;
        let mut flops_out = node.dat(
            &bench,
            DatSpec {
                file: node.np_file("dgemm_single_flops", threads),
                x: Axis::new("matrix order N", ELEMENTS),
                y: Axis::new("DGEMM rate", GFLOP_PER_S),
                notes,
                echo: true,
                extra: vec![],
            },
        )?;

        let m = bench.measure(n, || paw_blas::gemm(n, &a, &b, &mut c))?;
        time_out.row(n, &m.row(|t| t));
        flops_out.row(n, &m.row(|t| GFLOP_PER_S.of(paw_blas::gemm_flops(n) / t)));

        let error = paw_blas::gemm_error(n, &a, &b, &c);
        let tolerance = paw_blas::tolerance::<f64>(n);
        if error > tolerance {
            return Err(Error::check(format!(
                "DGEMM result check failed: relative error {error:.3e} exceeds {tolerance:.3e}"
            )));
        }
        println!("result check: relative error {error:.3e} (tolerance {tolerance:.3e}) passed");
        Ok(())
    })
}
