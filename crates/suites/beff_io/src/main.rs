//! b_eff_io -- the effective I/O bandwidth benchmark (HLRS; Rabenseifner and Koniges, paper
//! §2.2, §3.2, §5, §6) through MPI-IO, re-implemented to compute what release 2.1 computes.
//!
//! Timed (see `run`): access methods outermost (write, rewrite, read), then the partitions
//! (the first n processes), then per type from the barrier before MPI_File_open to the
//! barrier after MPI_File_close, on rank 0's clock; each pattern of Table 2 of the type in
//! turn, the write of types 0-2 for Tn x U / 150 of the partition's time Tn = T /
//! partitions, deciding after every call (a barrier and a broadcast from rank 0); types 3
//! and 4 and the later accesses repeat counts (`plan::segment`).
//!
//! Reported (MB/s = 10^6 B/s): per type all bytes / its time; per partition 2.1's
//! sqrt(mean(write types, rewrite type 0) x read with type 0 twice); b_eff_io = the
//! maximum over partitions (the paper's weighting printed beside it).
//!
//! Ranks: any. Options: see `options::help` (`-h`). Files: the data files in `-p` (checked
//! absent first, removed by the reads, at the end, on error and on SIGTERM, SIGINT or
//! SIGHUP unless -keep); in PAW_OUTPUT_DIR: the protocol and summary (`-f`), per partition
//! and access a .dat + .csv, the run record.

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

const NAME: &str = "b_eff_io";
const TITLE: &str = "effective I/O bandwidth (b_eff_io, HLRS) through MPI-IO";

fn main() -> ExitCode {
    paw_core::main(NAME, body)
}

fn body() -> paw_core::Result<()> {
    let Some(Started { world, opts, run }) = paw_hlrs::start::<Options>(NAME, &options::help(), 1)?
    else {
        return Ok(());
    };
    let (p, rank, root) = (world.size() as usize, world.rank() as usize, world.rank() == 0);
    let (partitions, files) = setup::files(&world, &opts)?;
    let s = setup::setting(&world, &opts, partitions.len());
    let table = plan::patterns(s.mpart);
    agree(&world, setup::fits(&world, &opts, &s, &table))?;
    let (mut prot, mut sum) = setup::outputs(&world, &run, &opts, &s, &partitions, TITLE)?;
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
        report::write_dats(&run, TITLE, p, root.then_some(d), n, s.mpart)?;
    }
    let total: u64 = errors.iter().sum();
    if total > 0 {
        return Err(Error::check(format!(
            "the read check found {total} chunks that differ from what was written"
        )));
    }
    Ok(())
}
