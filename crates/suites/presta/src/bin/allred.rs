//! allred -- PRESTA 1.2's MPI_Allreduce in an application-like loop: compute phases
//! alternating with MPI_Allreduce of 4 doubles (MPI_SUM).
//!
//! Usage: `mpirun -np P allred <compute iterations> <iterations per sample> <samples>`.
//! Timed, per sample, after an MPI_Barrier: Base = `iterations` compute phases; Op =
//! `iterations` times (compute phase, MPI_Allreduce). A compute phase is `compute
//! iterations` steps of a dependent multiply-add chain whose result is kept (black_box,
//! and summed into the Allreduce's data), so the optimiser cannot remove it. Each sample is
//! the slowest process's time.
//!
//! Reported: every sample of both series, their mean, standard deviation and stddev/mean;
//! Op mean = (sum Op - sum Base) / (samples x iterations), the time of one Allreduce; Time
//! between Allreduce = mean Base / iterations, one compute phase; warnings when that is
//! below the Op mean (Allreduce calls would overlap in a real code) or stddev/mean exceeds
//! 0.05 (inconsistent samples). Files: allred-np_NNNN.dat and .csv (SAMPLE, BASE, OP in
//! usec) and the run record.

use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::{Column, Stats, SuiteRun};
use std::process::ExitCode;

const NAME: &str = "allred";
const WHAT: &str = "MPI_Allreduce in a simulated application (PRESTA 1.2 allred)";
const USAGE: &str = "\
allred : MPI_Allreduce of 4 doubles alternating with a compute phase (PRESTA 1.2 allred)

  syntax: mpirun -np P allred <compute iterations> <iterations per sample> <samples>

    compute iterations      steps of the compute phase between two Allreduce calls (>= 1)
    iterations per sample   compute phases (and Allreduce calls) per time sample (>= 1)
    samples                 time samples of each series (>= 2)
    -h                      this text

  Tune the compute iterations until \"Time between Allreduce\" is at least \"Op mean\".";

/// One compute phase: `steps` dependent multiply-adds on `x`.
fn compute(steps: u64, mut x: f64) -> f64 {
    for _ in 0..steps {
        x = std::hint::black_box(x * 0.999_999_9 + 1e-7);
    }
    x
}

/// The three arguments, or the line saying what is wrong.
fn parse(args: &[String]) -> Result<Option<[u64; 3]>, String> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Ok(None);
    }
    if let Some(a) = args.iter().find(|a| a.starts_with('-')) {
        return Err(format!(
            "unknown option \"{a}\"; accepted: -h, and three whole numbers (compute \
             iterations, iterations per sample, samples)"
        ));
    }
    let names = ["compute iterations", "iterations per sample", "samples"];
    if args.len() != 3 {
        return Err(format!(
            "allred takes 3 arguments (compute iterations, iterations per sample, samples), \
             {} given; accepted: three whole numbers, e.g. allred 10000 100 20",
            args.len()
        ));
    }
    let mut v = [0u64; 3];
    for (i, a) in args.iter().enumerate() {
        let min = if i == 2 { 2 } else { 1 };
        v[i] = match a.parse::<u64>() {
            Ok(n) if n >= min => n,
            _ => return Err(format!("{} \"{a}\": takes a whole number >= {min}", names[i])),
        };
    }
    Ok(Some(v))
}

fn main() -> ExitCode {
    paw_core::main(NAME, || {
        let world = paw_core::start_mpi(NAME)?;
        // "help" or the three numbers.
        let text = paw_core::parse_on_root(&world, |args| {
            parse(args).map(|v| v.map_or("help".into(), |v| format!("{} {} {}", v[0], v[1], v[2])))
        })?;
        if text == "help" {
            if world.rank() == 0 {
                println!("{USAGE}");
            }
            return Ok(());
        }
        let n: Vec<u64> = text.split_whitespace().map(|x| x.parse().expect("sent")).collect();
        let [steps, iters, samples] = [n[0], n[1], n[2]];
        let run = SuiteRun::start(NAME, &world, &[], None, true)?;
        let root = world.rank() == 0;
        let params = vec![
            format!("compute iterations: {steps}"),
            format!("iterations per sample: {iters}"),
            format!("samples: {samples}"),
            "Allreduce: 4 MPI_DOUBLE, MPI_SUM; each sample the slowest process's time".into(),
        ];
        if root {
            print!("{}", run.header(WHAT, &params));
        }
        let mut x = 1.0 + world.rank() as f64;
        let mut data = [0.0f64; 4];
        let mut sum = [0.0f64; 4];
        let mut timed = |with_op: bool| -> Vec<f64> {
            (0..samples)
                .map(|s| {
                    paw_core::watchdog::step(format!(
                        "{} sample {s}",
                        if with_op { "Op" } else { "Base" }
                    ));
                    world.barrier();
                    let start = paw_core::mpi::time();
                    for _ in 0..iters {
                        x = compute(steps, x);
                        if with_op {
                            data[0] = x;
                            world.all_reduce_into(&data[..], &mut sum[..], SystemOperation::sum());
                            data[1] = sum[0] * 1e-300;
                        }
                    }
                    let mine = paw_core::mpi::time() - start;
                    let mut slowest = 0.0;
                    world.all_reduce_into(&mine, &mut slowest, SystemOperation::max());
                    slowest
                })
                .collect()
        };
        let base = timed(false);
        let op = timed(true);
        std::hint::black_box((x, sum));

        let us = |v: f64| v * 1e6;
        let (b, o) = (Stats::of(&base), Stats::of(&op));
        let (bm, bs, om, os) = (b.mean, b.stddev, o.mean, o.stddev);
        let n = (samples * iters) as f64;
        let op_mean = (op.iter().sum::<f64>() - base.iter().sum::<f64>()) / n;
        let between = bm / iters as f64;
        let columns =
            [Column::new("SAMPLE", ""), Column::new("BASE", "usec"), Column::new("OP", "usec")];
        let mut notes = params.clone();
        notes.push("BASE: compute only; OP: compute and Allreduce; usec per sample".into());
        let mut table =
            run.table(&format!("allred-np_{:04}.dat", world.size()), WHAT, &notes, &columns)?;
        for (i, (b, o)) in base.iter().zip(&op).enumerate() {
            table.row(&[(i + 1).to_string(), format!("{:.3}", us(*b)), format!("{:.3}", us(*o))]);
        }
        if root {
            println!("\n{:>8}{:>18}{:>18}", "Sample", "Base (us)", "Op (us)");
            for (i, (b, o)) in base.iter().zip(&op).enumerate() {
                println!("{:>8}{:>18.3}{:>18.3}", i + 1, us(*b), us(*o));
            }
            println!("\n{:<24}{:>18}{:>18}", "", "Base", "Op");
            println!("{:<24}{:>18.3}{:>18.3}", "mean (us)", us(bm), us(om));
            println!("{:<24}{:>18.3}{:>18.3}", "stddev (us)", us(bs), us(os));
            println!("{:<24}{:>18.5}{:>18.5}", "stddev/mean", bs / bm, os / om);
            println!("\nOp mean (us)                : {:.4}", us(op_mean));
            println!("Time between Allreduce (us) : {:.4}", us(between));
        }
        if between < op_mean {
            paw_core::warn(&format!(
                "the time between Allreduce ({:.3} us) is below the Op mean ({:.3} us): raise \
                 the compute iterations",
                us(between),
                us(op_mean)
            ));
        }
        if bs / bm > 0.05 || os / om > 0.05 {
            paw_core::warn(&format!(
                "stddev/mean is {:.3} (Base) and {:.3} (Op), above 0.05: the samples are \
                 inconsistent; more iterations per sample or samples may help",
                bs / bm,
                os / om
            ));
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn arguments() {
        assert_eq!(parse(&args("10 20 3")), Ok(Some([10, 20, 3])));
        assert_eq!(parse(&args("-h")), Ok(None));
        assert!(parse(&args("10 20")).unwrap_err().contains("3 arguments"));
        assert!(parse(&args("0 20 3")).unwrap_err().contains("compute iterations \"0\""));
        assert!(parse(&args("1 1 1"))
            .unwrap_err()
            .contains("samples \"1\": takes a whole number >= 2"));
        assert!(parse(&args("1 x 3")).unwrap_err().contains("iterations per sample \"x\""));
        assert!(parse(&args("-q 1 2 3")).unwrap_err().contains("unknown option \"-q\""));
    }

    #[test]
    fn compute_is_a_chain() {
        assert!((compute(0, 2.0) - 2.0).abs() < 1e-15);
        assert!(compute(1000, 2.0) < 2.0);
    }
}
