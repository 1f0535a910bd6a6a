//! globalop's options, operations and the statistics over processes of a loop's time.

use paw_core::cli::{self, Flag, Line};
use paw_core::mpi::collective::{Root, SystemOperation};
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::schema::{sweep, table, NONE, USEC};
use paw_core::{About, Column, Stats};

/// The terminal table's column heads.
pub const HEAD: [&str; 6] = ["Operation", "compute", "set", "avg (us)", "min (us)", "max (us)"];

/// The `.dat` columns.
pub fn columns() -> [Column; 6] {
    [
        Column::new(table::OPERATION, NONE),
        Column::new(table::COMPUTE, NONE),
        Column::new(table::SET, NONE),
        Column::new(sweep::AVG, USEC),
        Column::new(sweep::MIN, USEC),
        Column::new(sweep::MAX, USEC),
    ]
}

/// One line of the terminal table.
pub fn line(cells: &[impl std::fmt::Display; 6]) -> String {
    let [a, b, c, d, e, f] = cells;
    format!("{a:<22}{b:>9}{c:>5}{d:>14}{e:>14}{f:>14}")
}

/// The program's name.
pub const NAME: &str = "globalop";
/// Default `-l`: iterations of each loop (PRESTA's).
pub const LOOPS: u64 = 4096;
/// Default `-w`: steps of the compute phase.
pub const STEPS: u64 = 2000;

/// globalop's description: `-h`, the header's `timed:` and `reported:` lines and the doc
/// table come from it.
pub fn about() -> About {
    About {
        name: NAME,
        title: "loops of MPI collectives with and without a compute phase (PRESTA 1.2 globalop)"
            .into(),
        usage: format!("syntax: mpirun -np P {NAME} [-l iterations] [-w steps]"),
        summary: String::new(),
        timed: format!(
            "per operation and variant, after an MPI_Barrier, a loop of -l iterations of the \
             operation, each preceded by a compute phase in the \"compute\" variant; the whole \
             set repeated {SETS} times. Operations: Barrier, Reduce (MPI_MAX of one double, root \
             0), Bcast (one double, root 0), Allreduce (MPI_MAX), Reduce + Bcast, Reduce + \
             compute + Bcast. A compute phase is -w steps of a dependent multiply-add chain \
             whose result feeds the operation's data."
        ),
        reported: "per operation, variant and repetition the time per iteration, usec: \
                   average, minimum and maximum over the processes."
            .into(),
        tasks: "any number >= 1.".into(),
        check: "none (as PRESTA 1.2)".into(),
        files: "in PAW_OUTPUT_DIR (default: the current directory): globalop-np_NNNN.dat and \
                .csv and the run record globalop-np_NNNN.json."
            .into(),
        options: cli::options(&flags()),
    }
}

/// Repetitions of the whole set.
pub const SETS: usize = 3;

/// The operations, in output order.
pub const OPS: [&str; 6] =
    ["Barrier", "Reduce", "Bcast", "Allreduce", "Reduce+Bcast", "Reduce+compute+Bcast"];

/// globalop's command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Args {
    /// `-l`: iterations of each loop.
    pub loops: u64,
    /// `-w`: steps of the compute phase.
    pub steps: u64,
}

/// globalop's options, in `-h`'s order.
pub fn flags() -> Vec<Flag<Args>> {
    vec![
        Flag::whole(
            &["-l"],
            "iterations",
            "iterations of each loop",
            (1, u64::MAX),
            |a: &mut Args, n| a.loops = n,
        )
        .default(format!("{LOOPS} (PRESTA's)")),
        Flag::whole(
            &["-w"],
            "steps",
            "steps of the simulated compute phase",
            (1, u64::MAX),
            |a: &mut Args, n| a.steps = n,
        )
        .default(STEPS),
        Flag::help(&["-h", "--help"], "this text"),
    ]
}

/// Reads `line`: the arguments (`None` for `-h`), or the line saying what is wrong.
pub fn parse(line: &Line) -> Result<Option<Args>, String> {
    let mut args = Args { loops: LOOPS, steps: STEPS };
    let help = cli::parse(&flags(), line, &mut args, cli::no_operand)?;
    Ok((!help).then_some(args))
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
    fn help_gives_back_every_option_as_written() {
        assert_eq!(about().help_misreads(), None);
    }

    #[test]
    fn options() {
        let a = |s: &str| parse(&Line::of(s, &flags(), |_| Ok(String::new())));
        let got = |s: &str| a(s).map(|v| v.map(|v| (v.loops, v.steps)));
        assert_eq!(got(""), Ok(Some((4096, 2000))));
        assert_eq!(got("-l 64 -w 10"), Ok(Some((64, 10))));
        assert_eq!(got("-h"), Ok(None));
        assert!(a("-l 0").unwrap_err().contains("-l 0: takes a whole number >= 1"));
        assert!(a("-x").unwrap_err().contains("unknown option \"-x\""));
    }
}
