//! b_eff -- the effective bandwidth benchmark (HLRS; Rabenseifner and Koniges, paper §2.1,
//! §3.1, §4), re-implemented to compute what b_eff 3.6 computes.
//!
//! Timed: per repetition, message length L, pattern and method (3.6's order), after a
//! barrier and (below length index 18) one untimed step, `loops` steps of the pattern
//! between two MPI_Wtime reads on each process; loop counts as 3.6 chooses them
//! (`plan::LoopRule`). A step: every process of a ring sends L bytes to its left neighbour
//! while receiving from its right, then the reverse (one exchange in a ring of two); the
//! methods are MPI_Sendrecv per exchange, one MPI_Alltoallv, or MPI_Irecv/MPI_Isend/
//! MPI_Waitall. Messages come from cyclically used buffers (`exchange::Cursor`).
//!
//! Reported (MB/s, MB = 10^6 B): bandwidth = min over processes of L x loops x own
//! exchanges / own time, times messages per step / rank 0's exchanges; per pattern the
//! mean over the 21 lengths of the maximum over methods and repetitions; b_eff =
//! logavg(logavg over the six ring patterns, logavg over the random patterns); Table 1 of
//! the paper; the additional patterns outside the average.
//!
//! Ranks: any number >= 2. Options: see `options::help` (`-h`); PAW_CHECK=1 as `-check`.
//! Files in PAW_OUTPUT_DIR (default .): b_eff-np_PPPP.prot (every measurement),
//! b_eff_bw-np_PPPP.dat and .csv (bandwidth against length, a column per pattern), the
//! run record b_eff-np_PPPP.json.

mod exchange;
#[cfg(test)]
mod golden;
mod options;
mod patterns;
mod plan;
mod report;
mod run;
mod setup;

use options::Options;
use paw_core::mpi::traits::*;
use paw_core::Error;
use paw_hlrs::Started;
use report::PatternResult;
use std::process::ExitCode;

/// The program's name.
const NAME: &str = "b_eff";
const TITLE: &str = "effective bandwidth (b_eff, HLRS): ring and random patterns, 3 methods";

fn main() -> ExitCode {
    paw_core::main(NAME, body)
}

fn body() -> paw_core::Result<()> {
    let Some(Started { world, opts, run }) = paw_hlrs::start::<Options>(NAME, &options::help(), 2)?
    else {
        return Ok(());
    };
    let p = world.size() as usize;
    let s = setup::setup(&world, &opts)?;
    let mut prot = run.text(&format!("{NAME}-np_{p:04}.prot"))?;
    let head = paw_hlrs::header(&world, &run, TITLE, setup::header(&opts, &s));
    prot.write(&head);
    prot.write(&format!("# columns: {}\n", report::PROTOCOL_COLUMNS));

    let mut ex = exchange::Exchanger::new(&world, s.lmax);
    let mut results: Vec<PatternResult> = s.patterns.iter().map(PatternResult::new).collect();
    let defects =
        run::measure(&mut ex, &s.patterns, &s.lengths, s.rule, opts.check, &mut results, &mut prot);

    let summary = report::summary(&results, &s, p);
    if world.rank() == 0 {
        println!("{summary}");
    }
    prot.write(&summary.lines().map(|l| format!("# {l}\n")).collect::<String>());
    report::write_dat(&run, TITLE, &results, &s.lengths, p, &prot, s.complete)?;

    let total = paw_hlrs::total(&world, defects as u64);
    if total > 0 {
        return Err(Error::check(format!(
            "-check found {total} defective bytes: received data differ from what was sent"
        )));
    }
    Ok(())
}
