//! allred's arguments and its report: the samples, their statistics, the time of one
//! Allreduce and the time between two, and the warnings PRESTA 1.2 prints.

use paw_core::cli::{self, Flag, Line};
use paw_core::{About, Opt, Stats};

/// The program's name.
pub const NAME: &str = "allred";

/// allred's description: `-h`, the header's `timed:` and `reported:` lines and the doc
/// table come from it.
pub fn about() -> About {
    About {
        name: NAME,
        title: "MPI_Allreduce in a simulated application (PRESTA 1.2 allred)".into(),
        usage: format!(
            "syntax: mpirun -np P {NAME} <compute iterations> <iterations per sample> <samples>"
        ),
        summary: "Tune the compute iterations until \"Time between Allreduce\" is at least \
                  \"Op mean\"."
            .into(),
        timed: "per sample, after an MPI_Barrier: Base = `iterations per sample` compute \
                phases; Op = `iterations per sample` times (compute phase, MPI_Allreduce of 4 \
                doubles, MPI_SUM). A compute phase is `compute iterations` steps of a dependent \
                multiply-add chain whose result is kept (and summed into the Allreduce's data). \
                Each sample is the slowest process's time."
            .into(),
        reported: "every sample of both series, their mean, standard deviation and \
                   stddev/mean; Op mean = (sum Op - sum Base) / (samples x iterations), the \
                   time of one Allreduce; Time between Allreduce = mean Base / iterations, one \
                   compute phase; warnings when the Op mean is not above zero, when it \
                   exceeds the time between Allreduce, or when stddev/mean exceeds 0.05; usec."
            .into(),
        tasks: "any number >= 1.".into(),
        check: "none (as PRESTA 1.2)".into(),
        files: "in PAW_OUTPUT_DIR (default: the current directory): allred-np_NNNN.dat and \
                .csv (SAMPLE, BASE, OP in usec) and the run record allred-np_NNNN.json."
            .into(),
        options: vec![
            Opt::flag(
                "compute iterations",
                "steps of the compute phase between two Allreduce calls (>= 1); required",
            ),
            Opt::flag(
                "iterations per sample",
                "compute phases (and Allreduce calls) per time sample (>= 1); required",
            ),
            Opt::flag("samples", "time samples of each series (>= 2); required"),
        ]
        .into_iter()
        .chain(cli::options(&flags()))
        .collect(),
    }
}

/// allred's command line: its three numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Args {
    /// The numbers as given: compute iterations, iterations per sample, samples.
    pub numbers: Vec<u64>,
}

/// The operands' names and least values.
const OPERANDS: [(&str, u64); 3] =
    [("compute iterations", 1), ("iterations per sample", 1), ("samples", 2)];

/// allred's one option.
pub fn flags() -> Vec<Flag<Args>> {
    vec![Flag::help(&["-h", "--help"], "this text")]
}

/// Reads `line`: the three numbers (`None` for `-h`), or the line saying what is wrong.
pub fn parse(line: &Line) -> Result<Option<Args>, String> {
    let mut args = Args::default();
    let help = cli::parse(&flags(), line, &mut args, |a, v| {
        let Some(&(name, least)) = OPERANDS.get(a.numbers.len()) else {
            return Err(format!("{v}: allred takes 3 arguments, e.g. allred 10000 100 20"));
        };
        match v.parse::<u64>() {
            Ok(n) if n >= least => {
                a.numbers.push(n);
                Ok(())
            }
            _ => Err(format!("{name} \"{v}\": takes a whole number >= {least}")),
        }
    })?;
    if help {
        return Ok(None);
    }
    if args.numbers.len() != 3 {
        return Err(format!(
            "allred takes 3 arguments (compute iterations, iterations per sample, samples), \
             {} given; accepted: three whole numbers, e.g. allred 10000 100 20",
            args.numbers.len()
        ));
    }
    Ok(Some(args))
}

/// Prints the samples, their statistics, Op mean and Time between Allreduce (rank 0) and
/// warns when the calls would overlap or the samples disagree (every rank).
pub fn report(root: bool, base: &[f64], op: &[f64], iters: u64) {
    let us = |v: f64| v * 1e6;
    let f = Figures::of(base, op, iters);
    let (bm, bs, om, os) = (f.base.mean, f.base.stddev, f.op.mean, f.op.stddev);
    let (op_mean, between) = (f.op_mean, f.between);
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
    for w in f.warnings() {
        paw_core::warn(&w);
    }
}

/// What allred reports of its two series, in seconds.
struct Figures {
    base: Stats,
    op: Stats,
    /// (sum Op - sum Base) / (samples x iterations): one Allreduce.
    op_mean: f64,
    /// mean Base / iterations: one compute phase.
    between: f64,
}

impl Figures {
    /// The figures of samples `base` and `op` of `iters` iterations each.
    fn of(base: &[f64], op: &[f64], iters: u64) -> Figures {
        let n = (base.len() as u64 * iters) as f64;
        let op_mean = (op.iter().sum::<f64>() - base.iter().sum::<f64>()) / n;
        let base = Stats::of(base);
        let between = base.mean / iters as f64;
        Figures { base, op: Stats::of(op), op_mean, between }
    }

    /// The tuning warnings: PRESTA 1.2's two, and a non-positive Op mean.
    fn warnings(&self) -> Vec<String> {
        let us = |v: f64| v * 1e6;
        let (op_mean, between) = (self.op_mean, self.between);
        let mut w = Vec::new();
        if op_mean <= 0.0 {
            // A difference of two sums: one Base sample slowed by the system outweighs the
            // Allreduce calls when they are few or short.
            w.push(format!(
                "the Op mean ({:.3} us) is not above zero: the Allreduce is lost in the samples' \
                 noise; raise the iterations per sample",
                us(op_mean)
            ));
        } else if between < op_mean {
            w.push(format!(
                "the time between Allreduce ({:.3} us) is below the Op mean ({:.3} us): raise \
                 the compute iterations",
                us(between),
                us(op_mean)
            ));
        }
        let (bv, ov) = (self.base.stddev / self.base.mean, self.op.stddev / self.op.mean);
        if bv > 0.05 || ov > 0.05 {
            w.push(format!(
                "stddev/mean is {bv:.3} (Base) and {ov:.3} (Op), above 0.05: the samples are \
                 inconsistent; more iterations per sample or samples may help"
            ));
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_name_what_the_samples_show() {
        // 10 iterations per sample; seconds.
        let calm = [10e-6, 10e-6, 10e-6];
        let with_calls = [20e-6, 20e-6, 20e-6];
        assert!(
            Figures::of(&calm, &with_calls, 10).warnings().is_empty(),
            "1 us calls, 1 us apart"
        );
        let preempted = [10e-6, 10e-6, 1e-3];
        let w = Figures::of(&preempted, &with_calls, 10).warnings();
        assert!(w[0].contains("Op mean (-32.000 us) is not above zero"), "{w:?}");
        assert!(w[1].contains("above 0.05"), "{w:?}");
        let long_calls = [50e-6, 50e-6, 50e-6];
        let w = Figures::of(&calm, &long_calls, 10).warnings();
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("below the Op mean (4.000 us)"), "{w:?}");
    }

    #[test]
    fn help_gives_back_every_option_as_written() {
        assert_eq!(about().help_misreads(), None);
    }

    fn args(s: &str) -> Line {
        Line::of(s, &flags(), |_| Ok(String::new()))
    }

    #[test]
    fn arguments() {
        assert_eq!(parse(&args("10 20 3")).unwrap().unwrap().numbers, [10, 20, 3]);
        assert_eq!(parse(&args("-h")), Ok(None));
        assert!(parse(&args("1 2 3 4")).unwrap_err().contains("4: allred takes 3 arguments"));
        assert!(parse(&args("10 20")).unwrap_err().contains("3 arguments"));
        assert!(parse(&args("0 20 3")).unwrap_err().contains("compute iterations \"0\""));
        assert!(parse(&args("1 1 1"))
            .unwrap_err()
            .contains("samples \"1\": takes a whole number >= 2"));
        assert!(parse(&args("1 x 3")).unwrap_err().contains("iterations per sample \"x\""));
        assert!(parse(&args("-q 1 2 3")).unwrap_err().contains("unknown option \"-q\""));
    }
}
