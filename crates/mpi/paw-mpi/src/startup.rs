//! The start-up tests' files and line (col_init, col_init_th).

use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::schema::{table, NONE, SECONDS};
use paw_core::{Column, Headline, Paw, Pick};

/// The headline of a start-up test whose files are `time_<stem>`: the slowest task's
/// MPI start-up time of every run appended to `time_<stem>.dat`.
pub const fn headline(file: &'static str) -> Headline {
    let figure = "MPI start-up at {x} tasks (slowest task)";
    Headline::of_table(file, figure, Pick::Every, table::TMAX, SECONDS.label)
}

/// The start-up tests' report of `seconds` (this task's MPI_Init or MPI_Init_thread time):
/// the maximum, minimum and mean over tasks written to `time_<stem>_<TASKS>.dat` and
/// appended to `time_<stem>.dat` (one row per run), and `nprocs tMax` printed by rank 0.
pub fn startup_times(
    paw: &Paw,
    stem: &str,
    seconds: f64,
    notes: &[String],
) -> paw_core::Result<()> {
    let world = paw.world();
    let (mut max, mut min, mut sum) = (0.0, 0.0, 0.0);
    world.all_reduce_into(&seconds, &mut max, SystemOperation::max());
    world.all_reduce_into(&seconds, &mut min, SystemOperation::min());
    world.all_reduce_into(&seconds, &mut sum, SystemOperation::sum());
    let tasks = paw.size();
    let fmt = |s: f64| format!("{s:.6}");
    let row = [tasks.to_string(), fmt(max), fmt(min), fmt(sum / tasks as f64)];
    let mut notes = notes.to_vec();
    notes.push("TMAX, TMIN, TAVG: maximum, minimum and mean over tasks, seconds".to_string());
    let columns = [
        Column::new(table::TASKS, NONE),
        Column::new(table::TMAX, SECONDS),
        Column::new(table::TMIN, SECONDS),
        Column::new(table::TAVG, SECONDS),
    ];
    paw.table(&format!("time_{stem}_{tasks}.dat"), &notes, &columns, false)?.row(&row);
    paw.table(&format!("time_{stem}.dat"), &notes, &columns, true)?.row(&row);
    if paw.rank() == 0 {
        println!("{tasks} {}", fmt(max));
    }
    Ok(())
}
