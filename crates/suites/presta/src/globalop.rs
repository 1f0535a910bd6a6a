//! globalop's options, operations and the statistics over processes of a loop's time.

use paw_core::mpi::collective::{Root, SystemOperation};
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::{Column, Stats};

/// The terminal table's column heads.
pub const HEAD: [&str; 6] = ["Operation", "compute", "set", "avg (us)", "min (us)", "max (us)"];

/// The `.dat` columns.
pub fn columns() -> [Column; 6] {
    [
        Column::new("OPERATION", ""),
        Column::new("COMPUTE", ""),
        Column::new("SET", ""),
        Column::new("AVG", "usec"),
        Column::new("MIN", "usec"),
        Column::new("MAX", "usec"),
    ]
}

/// One line of the terminal table.
pub fn line(cells: &[impl std::fmt::Display; 6]) -> String {
    let [a, b, c, d, e, f] = cells;
    format!("{a:<22}{b:>9}{c:>5}{d:>14}{e:>14}{f:>14}")
}

/// The usage text.
pub const USAGE: &str = "\
globalop : loops of MPI_Barrier, MPI_Reduce, MPI_Bcast, MPI_Allreduce, MPI_Reduce/MPI_Bcast
           and MPI_Reduce/compute/MPI_Bcast, with and without a compute phase (PRESTA 1.2)

  syntax: mpirun -np P globalop [-l iterations] [-w steps]

    -l iterations   iterations of each loop (default 4096, PRESTA's)
    -w steps        steps of the simulated compute phase (default 2000)
    -h              this text";

/// Repetitions of the whole set.
pub const SETS: usize = 3;

/// The operations, in output order.
pub const OPS: [&str; 6] =
    ["Barrier", "Reduce", "Bcast", "Allreduce", "Reduce+Bcast", "Reduce+compute+Bcast"];

/// `-l` and `-w`, or the line saying what is wrong; `None` for `-h`.
pub fn parse(args: &[String]) -> Result<Option<(u64, u64)>, String> {
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
pub fn operation(world: &SimpleCommunicator, op: usize, steps: u64, x: &mut f64) {
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
            out = crate::compute(steps, out);
            root.broadcast_into(&mut out);
        }
    }
    *x += out * 1e-300;
}

/// MPI_Reduce of one double with MPI_MAX to rank 0.
fn reduce(world: &SimpleCommunicator, x: f64, out: &mut f64) {
    let root = world.process_at_rank(0);
    if world.rank() == 0 {
        root.reduce_into_root(&x, out, SystemOperation::max());
    } else {
        root.reduce_into(&x, SystemOperation::max());
    }
}

/// Mean, minimum and maximum over the processes of `mine` (rank 0's only; collective).
pub fn over_processes(world: &SimpleCommunicator, mine: f64) -> Stats {
    let mut all = vec![0.0f64; world.size() as usize];
    let zero = world.process_at_rank(0);
    if world.rank() == 0 {
        zero.gather_into_root(&mine, &mut all[..]);
    } else {
        zero.gather_into(&mine);
    }
    Stats::of(&all)
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
