//! b_eff -- the effective bandwidth benchmark (HLRS; Rabenseifner and Koniges, paper §2.1,
//! §3.1, §4), re-implemented to compute what b_eff 3.6 computes.
//!
//! What it times and reports, its options and files: `options::about` (`-h`).

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
use paw_core::dat::np_name;
use paw_core::mpi::traits::*;
use paw_core::Error;
use paw_hlrs::Started;
use report::PatternResult;
use std::process::ExitCode;

fn main() -> ExitCode {
    paw_hlrs::run::<Options>(&options::about(), 2, body)
}

fn body(Started { world, opts, run }: Started<Options>) -> paw_core::Result<()> {
    let p = world.size() as usize;
    let s = setup::setup(&world, &opts)?;
    let mut prot = run.text(&format!("{}.prot", np_name(options::NAME, p)))?;
    let head = paw_hlrs::header(&world, &run, setup::header(&opts, &s));
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
    report::write_dat(&run, &results, &s.lengths, p, &prot, s.complete)?;

    let total = paw_hlrs::total(&world, defects as u64);
    if total > 0 {
        return Err(Error::check(format!(
            "-check found {total} defective bytes: received data differ from what was sent"
        )));
    }
    Ok(())
}
