//! allred -- PRESTA 1.2's MPI_Allreduce in an application-like loop: compute phases
//! alternating with MPI_Allreduce of 4 doubles (MPI_SUM).
//!
//! What it times and reports, its arguments and files: `paw_presta::allred::about` (`-h`).

use paw_core::dat::np_file;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::schema::{table, NONE, USEC};
use paw_core::{Column, SuiteRun};
use paw_presta::allred;
use std::process::ExitCode;

fn main() -> ExitCode {
    paw_core::main(allred::NAME, || {
        let about = allred::about();
        let parse = |line: &_, _| allred::parse(line);
        let Some((world, args)) = paw_core::start_suite(&about, &allred::flags(), &[], parse)?
        else {
            return Ok(());
        };
        let [steps, iters, samples] = [args.numbers[0], args.numbers[1], args.numbers[2]];
        let run = SuiteRun::start(&about, &world, &[], None, true)?;
        let root = world.rank() == 0;
        let params = vec![
            format!("compute iterations: {steps}"),
            format!("iterations per sample: {iters}"),
            format!("samples: {samples}"),
            "Allreduce: 4 MPI_DOUBLE, MPI_SUM; each sample the slowest process's time".into(),
        ];
        if root {
            print!("{}", run.header(&params));
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
                        x = paw_presta::compute(steps, x);
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

        let columns = [
            Column::new(table::SAMPLE, NONE),
            Column::new(table::BASE, USEC),
            Column::new(table::OP, USEC),
        ];
        let mut notes = params.clone();
        notes.push("BASE: compute only; OP: compute and Allreduce; usec per sample".into());
        let mut table = run.table(&np_file("allred", world.size() as usize), &notes, &columns)?;
        for (i, (b, o)) in base.iter().zip(&op).enumerate() {
            let us = |v: f64| format!("{:.3}", v * 1e6);
            table.row(&[(i + 1).to_string(), us(*b), us(*o)]);
        }
        allred::report(root, &base, &op, iters);
        Ok(())
    })
}
