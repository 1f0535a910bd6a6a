//! b_eff_io -- the effective I/O bandwidth benchmark (HLRS; Rabenseifner and Koniges, paper
//! §2.2, §3.2, §5, §6) through MPI-IO, re-implemented to compute what release 2.1 computes.
//!
//! What it times and reports, its options and files: `options::about` (`-h`); `run` holds
//! the timed spans.

mod buffers;
mod files;
#[cfg(test)]
mod golden;
mod hints;
mod options;
mod plan;
mod progress;
mod report;
mod run;
mod setup;

use options::Options;
use paw_core::mpi::topology::Color;
use paw_core::mpi::traits::*;
use paw_core::{agree, Error};
use paw_hlrs::Started;
use plan::ACCESSES;
use run::{PartitionDone, Run};
use std::process::ExitCode;

fn main() -> ExitCode {
    paw_hlrs::run::<Options>(&options::about(), 1, body)
}

fn body(Started { world, opts, run }: Started<Options>) -> paw_core::Result<()> {
    let (p, rank, root) = (world.size() as usize, world.rank() as usize, world.rank() == 0);
    let (partitions, files) = setup::files(&world, &opts)?;
    let s = setup::setting(&world, &opts, partitions.len());
    let table = plan::patterns(s.mpart);
    agree(&world, setup::fits(&world, &opts, &s, &table))?;
    let (mut prot, mut sum) = setup::outputs(&world, &run, &opts, &s, &partitions)?;
    let buffers = buffers::Buffers::new(&table);
    let progress = progress::Progress::new(root, opts.t);
    let mut r =
        Run { opts: &opts, table, mpart: s.mpart, files: &files, tn: s.tn, buffers, progress };
    let mut done = vec![PartitionDone::default(); partitions.len()];
    for access in ACCESSES {
        for (i, &n) in partitions.iter().enumerate() {
            let inside = if rank < n { Color::with_value(0) } else { Color::undefined() };
            if let Some(comm) = world.split_by_color_with_key(inside, rank as i32) {
                r.access(&comm, i, access, &mut done[i]);
                for t in done[i].of(access) {
                    prot.write(&report::protocol_rows(n, access, t, s.tn, opts.rewrite_all));
                }
            }
            // The processes outside the partition wait here through its time.
            paw_core::waiting_barrier(&world);
        }
    }
    r.progress.finish();

    let errors: Vec<u64> = done.iter().map(|d| paw_hlrs::total(&world, d.defects)).collect();
    if root {
        let text = report::finish(&done, &errors, &s);
        print!("{text}");
        sum.write(&text);
    }
    for (d, &n) in done.iter().zip(&partitions) {
        report::write_dats(&run, p, root.then_some(d), n, s.mpart)?;
    }
    let total: u64 = errors.iter().sum();
    if total > 0 {
        return Err(Error::check(format!(
            "the read check found {total} chunks that differ from what was written"
        )));
    }
    Ok(())
}
