//! allred's arguments and its report: the samples, their statistics, the time of one
//! Allreduce and the time between two, and the warnings PRESTA 1.2 prints.

use paw_core::Stats;

/// The usage text.
pub const USAGE: &str = "\
allred : MPI_Allreduce of 4 doubles alternating with a compute phase (PRESTA 1.2 allred)

  syntax: mpirun -np P allred <compute iterations> <iterations per sample> <samples>

    compute iterations      steps of the compute phase between two Allreduce calls (>= 1)
    iterations per sample   compute phases (and Allreduce calls) per time sample (>= 1)
    samples                 time samples of each series (>= 2)
    -h                      this text

  Tune the compute iterations until \"Time between Allreduce\" is at least \"Op mean\".";

/// The three arguments, or the line saying what is wrong.
pub fn parse(args: &[String]) -> Result<Option<[u64; 3]>, String> {
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

/// Prints the samples, their statistics, Op mean and Time between Allreduce (rank 0) and
/// warns when the calls would overlap or the samples disagree (every rank).
pub fn report(root: bool, base: &[f64], op: &[f64], iters: u64) {
    let us = |v: f64| v * 1e6;
    let (b, o) = (Stats::of(base), Stats::of(op));
    let (bm, bs, om, os) = (b.mean, b.stddev, o.mean, o.stddev);
    let n = (base.len() as u64 * iters) as f64;
    let op_mean = (op.iter().sum::<f64>() - base.iter().sum::<f64>()) / n;
    let between = bm / iters as f64;
    if root {
        println!("\n{:>8}{:>18}{:>18}", "Sample", "Base (us)", "Op (us)");
        for (i, (b, o)) in base.iter().zip(op).enumerate() {
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
}
