//! globalop -- PRESTA 1.2's Global-Op test: loops of MPI collectives, with and without a
//! simulated compute phase.
//!
//! Timed, per operation and variant, after an MPI_Barrier: a loop of `-l` iterations
//! (default 4096, as the original) of the operation, each iteration preceded by a compute
//! phase in the "compute" variant; the whole set is repeated 3 times. Operations: Barrier,
//! Reduce (MPI_MAX of one double, root 0), Bcast (one double, root 0), Allreduce (MPI_MAX),
//! Reduce + Bcast, Reduce + compute + Bcast. A compute phase is `-w` steps (default 2000)
//! of a dependent multiply-add chain whose result feeds the operation's data.
//!
//! Reported: per operation, variant and repetition the time per iteration, usec: average,
//! minimum and maximum over the processes. Files: globalop-np_NNNN.dat and .csv and the run
//! record.

use paw_core::mpi::collective::{Root, SystemOperation};
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::{Column, Stats, SuiteRun};
use std::process::ExitCode;

const NAME: &str = "globalop";
const WHAT: &str =
    "loops of MPI collectives with and without a compute phase (PRESTA 1.2 globalop)";
const USAGE: &str = "\
globalop : loops of MPI_Barrier, MPI_Reduce, MPI_Bcast, MPI_Allreduce, MPI_Reduce/MPI_Bcast
           and MPI_Reduce/compute/MPI_Bcast, with and without a compute phase (PRESTA 1.2)

  syntax: mpirun -np P globalop [-l iterations] [-w steps]

    -l iterations   iterations of each loop (default 4096, PRESTA's)
    -w steps        steps of the simulated compute phase (default 2000)
    -h              this text";

/// Repetitions of the whole set.
const SETS: usize = 3;

/// The operations, in output order.
const OPS: [&str; 6] =
    ["Barrier", "Reduce", "Bcast", "Allreduce", "Reduce+Bcast", "Reduce+compute+Bcast"];

fn compute(steps: u64, mut x: f64) -> f64 {
    for _ in 0..steps {
        x = std::hint::black_box(x * 0.999_999_9 + 1e-7);
    }
    x
}

/// `-l` and `-w`, or the line saying what is wrong; `None` for `-h`.
fn parse(args: &[String]) -> Result<Option<(u64, u64)>, String> {
    let (mut loops, mut steps) = (4096, 2000);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let target = match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "-l" => &mut loops,
            "-w" => &mut steps,
            other => return Err(format!("unknown option \"{other}\"; accepted: -l, -w, -h")),
        };
        let v = it.next().ok_or_else(|| format!("{a} needs a value: a whole number >= 1"))?;
        *target = match v.parse::<u64>() {
            Ok(n) if n >= 1 => n,
            _ => return Err(format!("{a} {v}: takes a whole number >= 1")),
        };
    }
    Ok(Some((loops, steps)))
}

/// One iteration of operation `op` (an index into [`OPS`]).
fn operation(world: &SimpleCommunicator, op: usize, steps: u64, x: &mut f64) {
    let root = world.process_at_rank(0);
    let mut out = 0.0f64;
    match op {
        0 => world.barrier(),
        1 => reduce(world, *x, &mut out),
        2 => root.broadcast_into(x),
        3 => world.all_reduce_into(&*x, &mut out, SystemOperation::max()),
        4 => {
            reduce(world, *x, &mut out);
            root.broadcast_into(&mut out);
        }
        _ => {
            reduce(world, *x, &mut out);
            out = compute(steps, out);
            root.broadcast_into(&mut out);
        }
    }
    *x += out * 1e-300;
}

fn reduce(world: &SimpleCommunicator, x: f64, out: &mut f64) {
    let root = world.process_at_rank(0);
    if world.rank() == 0 {
        root.reduce_into_root(&x, out, SystemOperation::max());
    } else {
        root.reduce_into(&x, SystemOperation::max());
    }
}

fn main() -> ExitCode {
    paw_core::main(NAME, || {
        let world = paw_core::start_mpi(NAME)?;
        // "help" or the two numbers.
        let text = paw_core::parse_on_root(&world, |args| {
            parse(args).map(|v| v.map_or("help".into(), |(l, w)| format!("{l} {w}")))
        })?;
        if text == "help" {
            if world.rank() == 0 {
                println!("{USAGE}");
            }
            return Ok(());
        }
        let n: Vec<u64> = text.split_whitespace().map(|x| x.parse().expect("sent")).collect();
        let (loops, steps) = (n[0], n[1]);
        let run = SuiteRun::start(NAME, &world, &[], None, true)?;
        let root = world.rank() == 0;
        let p = world.size() as f64;
        let params = vec![
            format!("iterations per loop (-l): {loops}"),
            format!("compute phase (-w): {steps} dependent multiply-adds"),
            format!("the set repeated {SETS} times; time per iteration, usec, over processes"),
        ];
        if root {
            print!("{}", run.header(WHAT, &params));
            println!(
                "\n{:<22}{:>9}{:>5}{:>14}{:>14}{:>14}",
                "Operation", "compute", "set", "avg (us)", "min (us)", "max (us)"
            );
        }
        let columns = [
            Column::new("OPERATION", ""),
            Column::new("COMPUTE", ""),
            Column::new("SET", ""),
            Column::new("AVG", "usec"),
            Column::new("MIN", "usec"),
            Column::new("MAX", "usec"),
        ];
        let mut notes = params.clone();
        notes.push("AVG, MIN, MAX: over processes of the time per iteration, usec".into());
        let mut table =
            run.table(&format!("globalop-np_{:04}.dat", world.size()), WHAT, &notes, &columns)?;
        let mut x = 1.0 + world.rank() as f64;
        for set in 1..=SETS {
            for (op, name) in OPS.iter().enumerate() {
                for with_compute in [false, true] {
                    paw_core::watchdog::step(format!("{name} (set {set})"));
                    world.barrier();
                    let start = paw_core::mpi::time();
                    for _ in 0..loops {
                        if with_compute {
                            x = compute(steps, x);
                        }
                        operation(&world, op, steps, &mut x);
                    }
                    let mine = (paw_core::mpi::time() - start) / loops as f64 * 1e6;
                    // Average, minimum and maximum over the processes: paw-core's statistics
                    // of every process's time, gathered on rank 0.
                    let mut all = vec![0.0f64; p as usize];
                    let zero = world.process_at_rank(0);
                    if root {
                        zero.gather_into_root(&mine, &mut all[..]);
                    } else {
                        zero.gather_into(&mine);
                    }
                    let over = Stats::of(&all);
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
                        println!(
                            "{:<22}{:>9}{:>5}{:>14}{:>14}{:>14}",
                            cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]
                        );
                    }
                    table.row(&cells);
                }
            }
        }
        std::hint::black_box(x);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let a = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(parse(&a("")), Ok(Some((4096, 2000))));
        assert_eq!(parse(&a("-l 64 -w 10")), Ok(Some((64, 10))));
        assert_eq!(parse(&a("-h")), Ok(None));
        assert!(parse(&a("-l 0")).unwrap_err().contains("-l 0: takes a whole number >= 1"));
        assert!(parse(&a("-x")).unwrap_err().contains("unknown option \"-x\""));
    }
}
