//! A run's set-up: the options shared from rank 0, the memory and time it works with, the
//! protocol and summary files with their header, and the error count per partition.

use crate::buffers::Buffers;
use crate::options::{self, Options};
use crate::plan;
use crate::report::{self, Setting};
use crate::run::PartitionDone;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::{RunInfo, SuiteRun, TextFile};

/// Rank 0 reads the command line (and the hints file); every rank gets the outcome.
pub fn shared_options(world: &SimpleCommunicator) -> paw_core::Result<Options> {
    let size = world.size() as usize;
    let text = paw_core::parse_on_root(world, |args| {
        let check = std::env::var("PAW_CHECK").is_ok_and(|v| v.trim() == "1");
        let read = |f: &str| std::fs::read_to_string(f);
        options::parse(args, size, check, read).map(|o| o.encode())
    })?;
    Ok(Options::decode(&text))
}

/// The memory, MPART and time split of the run (collective): memory per process is `-MB`,
/// else this host's memory divided by its processes, the smallest over all hosts.
pub fn setting(world: &SimpleCommunicator, o: &Options, partitions: usize) -> Setting {
    let mem_mib = o.mem_mib.unwrap_or_else(|| {
        let host = world.split_shared(0);
        let mine = ((paw_core::total_memory().unwrap_or(0) >> 20) / host.size() as u64).max(1);
        let mut least = 0u64;
        world.all_reduce_into(&mine, &mut least, SystemOperation::min());
        least
    });
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
    title: &str,
) -> paw_core::Result<(TextFile, TextFile)> {
    let p = world.size() as usize;
    let stem = o.prefix.clone().unwrap_or_else(|| format!("b_eff_io-np_{p:04}"));
    let info = RunInfo { title: title.into(), ..run.info().clone() };
    let mut head = info.header_lines();
    head.extend(report::header(o, s, partitions, p));
    head.extend(info.environment_lines());
    let head: String = head.iter().map(|l| format!("# {l}\n")).collect();
    if world.rank() == 0 {
        print!("{head}");
    }
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

/// The defective chunks read in each partition, summed over its processes (collective).
pub fn errors(world: &SimpleCommunicator, done: &[PartitionDone]) -> Vec<u64> {
    let mine: Vec<u64> = done.iter().map(|d| d.defects).collect();
    let mut all = vec![0u64; mine.len()];
    world.all_reduce_into(&mine[..], &mut all[..], SystemOperation::sum());
    all
}
