//! globalop -- PRESTA 1.2's Global-Op test: loops of MPI collectives, with and without a
//! simulated compute phase.
//!
//! What it times and reports, its arguments and files: `paw_presta::globalop::about` (`-h`).

use paw_core::dat::np_file;
use paw_core::mpi::traits::*;
use paw_core::SuiteRun;
use paw_presta::globalop;
use std::process::ExitCode;

fn main() -> ExitCode {
    paw_core::main(globalop::NAME, || {
        let about = globalop::about();
        let parse = |line: &_, _| globalop::parse(line);
        let Some((world, args)) = paw_core::start_suite(&about, &globalop::flags(), &[], parse)?
        else {
            return Ok(());
        };
        let (loops, steps) = (args.loops, args.steps);
        let run = SuiteRun::start(&about, &world, &[], None, true)?;
        let root = world.rank() == 0;
        let params = vec![
            format!("iterations per loop (-l): {loops}"),
            format!("compute phase (-w): {steps} dependent multiply-adds"),
            format!(
                "the set repeated {} times; time per iteration, usec, over processes",
                globalop::SETS
            ),
        ];
        if root {
            print!("{}", run.header(&params));
            println!("\n{}", globalop::line(&globalop::HEAD));
        }
        let columns = globalop::columns();
        let mut notes = params.clone();
        notes.push("AVG, MIN, MAX: over processes of the time per iteration, usec".into());
        let mut table = run.table(&np_file("globalop", world.size() as usize), &notes, &columns)?;
        let mut x = 1.0 + world.rank() as f64;
        for set in 1..=globalop::SETS {
            for (op, name) in globalop::OPS.iter().enumerate() {
                for with_compute in [false, true] {
                    paw_core::watchdog::step(format!("{name} (set {set})"));
                    world.barrier();
                    let start = paw_core::mpi::time();
                    for _ in 0..loops {
                        if with_compute {
                            x = paw_presta::compute(steps, x);
                        }
                        globalop::operation(&world, op, steps, &mut x);
                    }
                    let mine = (paw_core::mpi::time() - start) / loops as f64 * 1e6;
                    let over = globalop::over_processes(&world, mine);
                    let yes = if with_compute { "yes" } else { "no" };
                    let cells = [
                        name.to_string(),
                        yes.to_string(),
                        set.to_string(),
                        format!("{:.4}", over.mean),
                        format!("{:.4}", over.min),
                        format!("{:.4}", over.max),
                    ];
                    if root {
                        println!("{}", globalop::line(&cells));
                    }
                    table.row(&cells);
                }
            }
        }
        std::hint::black_box(x);
        Ok(())
    })
}
