//! A run's set-up: the partitions and their files, the memory and time it works with, whether
//! the buffers fit, the protocol and summary files with their header.

use crate::buffers::Buffers;
use crate::files::{self, Files};
use crate::options::Options;
use crate::plan;
use crate::report::{self, Setting};
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::{agree, SuiteRun, TextFile};

/// The partitions (`-N` or 2.1's defaults) and their data files, checked before anything
/// runs (collective): the hints name only partitions of the run, the directory is usable,
/// no file of the run's names exists (each rank looks at those it may create); unless
/// -keep, the files are registered for removal.
pub fn files(world: &SimpleCommunicator, o: &Options) -> paw_core::Result<(Vec<usize>, Files)> {
    let (p, rank) = (world.size() as usize, world.rank() as usize);
    let partitions =
        if o.partitions.is_empty() { plan::default_partitions(p) } else { o.partitions.clone() };
    agree(world, o.hints.check_partitions(&partitions))?;
    let files = Files::new(&o.dir, &partitions);
    agree(world, paw_core::scratch::check_dir(&o.dir, "-p "))?;
    agree(world, files::absent(&files.of_rank(rank)))?;
    if !o.keep {
        paw_core::scratch::register(files.of_rank(rank));
    }
    Ok((partitions, files))
}

/// The memory, MPART and time split of the run (collective): memory per process is `-MB`,
/// else this host's memory divided by its processes, the smallest over all hosts.
pub fn setting(world: &SimpleCommunicator, o: &Options, partitions: usize) -> Setting {
    let mem_mib = o.mem_mib.unwrap_or_else(|| paw_hlrs::memory_per_process(world, u64::MAX));
    Setting {
        mem_mib,
        total_mib: o.total_mib.unwrap_or(mem_mib * world.size() as u64),
        mpart: plan::mpart(mem_mib << 20),
        tn: o.t / partitions as f64,
        shared: o.shared,
        check: o.check,
    }
}

/// The protocol and summary files (`-f PREFIX`: PREFIX.prot and PREFIX.sum, else
/// b_eff_io-np_PPPP.*), each opened with the header, which rank 0 also prints.
pub fn outputs(
    world: &SimpleCommunicator,
    run: &SuiteRun,
    o: &Options,
    s: &Setting,
    partitions: &[usize],
) -> paw_core::Result<(TextFile, TextFile)> {
    let p = world.size() as usize;
    let stem = o.prefix.clone().unwrap_or_else(|| paw_core::dat::np_name("b_eff_io", p));
    let head = paw_hlrs::header(world, run, report::header(o, s, partitions, p));
    let (mut prot, mut sum) =
        (run.text(&format!("{stem}.prot"))?, run.text(&format!("{stem}.sum"))?);
    prot.write(&head);
    prot.write(&format!("{}\n", report::PROTOCOL_COLUMNS));
    sum.write(&head);
    Ok((prot, sum))
}

/// Whether this process's buffers for `table` fit the memory available to each of this
/// host's processes (collective): a `-MB` too large is refused, not met by the kernel's
/// out-of-memory killer.
pub fn fits(
    world: &SimpleCommunicator,
    o: &Options,
    s: &Setting,
    table: &[plan::Pattern],
) -> Result<(), String> {
    let local = world.split_shared(0).size() as u64;
    let need = Buffers::bytes(table) >> 20;
    let Some(each) = paw_core::available_memory().map(|b| (b >> 20) / local) else { return Ok(()) };
    if need <= each {
        return Ok(());
    }
    let what = match o.mem_mib {
        Some(m) => format!("-MB {m}"),
        None => format!("memory {} MiB per process (the default)", s.mem_mib),
    };
    Err(format!(
        "{what}: the buffers need {need} MiB per process (MPART = {} bytes); {each} MiB are \
         available to each of the {local} processes on this host; accepted: a smaller -MB",
        s.mpart
    ))
}
