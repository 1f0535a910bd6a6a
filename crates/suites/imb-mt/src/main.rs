//! IMB-MT -- the multi-threaded benchmarks of today's Intel MPI Benchmarks (2021), as a
//! drop-in executable: `mpirun -np P IMB-MT [benchmark ...] [options]`. With
//! `-thread_level multiple` every process runs OMP_NUM_THREADS threads, each the same
//! benchmark on its own duplicate of MPI_COMM_WORLD (weak scaling); otherwise one. Intel's
//! names, options, table layout and statistics; see doc/imb-mt.md.

mod kernels;
mod options;
mod run;

use kernels::BENCHMARKS;
use options::{about, flags, parse, requested_level, Datatype, NAME};
use paw_core::mpi::traits::*;
use paw_core::mpi::Threading;
use paw_core::vars::{OMP_NUM_THREADS, PAW_OUTPUT_DIR};
use paw_core::{Error, SuiteRun};
use std::process::ExitCode;

fn main() -> ExitCode {
    paw_core::main(NAME, body)
}

fn body() -> paw_core::Result<()> {
    let about = about();
    let level = requested_level();
    let started = paw_core::start_suite_threaded(
        &about,
        level,
        &flags(),
        &[&PAW_OUTPUT_DIR, &OMP_NUM_THREADS],
        |line, _| parse(line),
    )?;
    let Some((world, granted, mut o)) = started else {
        return Ok(());
    };
    let root = world.rank() == 0;
    if o.list {
        if root {
            println!("List of benchmarks:");
            BENCHMARKS.iter().for_each(|b| println!("{}", b.name));
        }
        return Ok(());
    }
    if o.multiple && granted != Threading::Multiple {
        return Err(Error::unavailable(format!(
            "-thread_level multiple: {} granted {granted:?}, not MPI_THREAD_MULTIPLE; accepted: \
             an MPI library built with thread support, or -thread_level single",
            paw_core::mpi_library_version().lines().next().unwrap_or("the MPI library")
        )));
    }
    let mut threads = o.threads as u64;
    world.process_at_rank(0).broadcast_into(&mut threads);
    o.threads = threads as usize;
    let run = SuiteRun::start(&about, &world, &[OMP_NUM_THREADS], o.timeout, o.csv)?;
    if root && !o.noheader {
        print!("{}", run::banner(&o, granted));
    }
    let comms: Vec<_> = (0..o.threads).map(|_| world.duplicate()).collect();
    let mut failures = 0;
    for &i in &o.benchmarks {
        failures += match o.datatype {
            Datatype::Int => run::table::<i32>(&BENCHMARKS[i], &o, &world, &comms, &run)?,
            Datatype::Char => run::table::<i8>(&BENCHMARKS[i], &o, &world, &comms, &run)?,
        };
    }
    if failures > 0 {
        return Err(Error::check(format!(
            "-check found {failures} wrong elements: received data differ from what was sent"
        )));
    }
    Ok(())
}
