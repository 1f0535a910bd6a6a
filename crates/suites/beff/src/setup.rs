//! A b_eff run's set-up: memory per process and Lmax, the patterns of the run (with
//! `-pattern`'s selection), whether the buffers fit, and the header lines that say so.

use crate::exchange;
use crate::options::{Options, DEFAULT_MEM_CAP_MIB, SHORT_MEM_MIB};
use crate::patterns::{self, Pattern};
use crate::plan::{self, LoopRule, LENGTHS, REPETITIONS};
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::{agree, Error};

/// What a run measures.
pub struct Setup {
    /// Memory per process, MiB.
    pub mem_mib: u64,
    /// Lmax = memory / 128, bytes.
    pub lmax: usize,
    /// The 21 lengths.
    pub lengths: [usize; LENGTHS],
    /// The patterns to run, in order.
    pub patterns: Vec<Pattern>,
    /// How many patterns the run has before `-pattern`'s selection.
    pub total: usize,
    /// The 2-D and 3-D partitions of MPI_Dims_create.
    pub dims: (Vec<usize>, Vec<usize>),
    /// The loop-length rule.
    pub rule: LoopRule,
    /// No `-pattern` selection: every pattern runs and b_eff is computed.
    pub complete: bool,
}

/// The run's set-up (collective): memory, lengths, the patterns (random orders drawn on
/// rank 0), the selection, the check that the buffers fit.
pub fn setup(world: &SimpleCommunicator, opts: &Options) -> paw_core::Result<Setup> {
    let p = world.size() as usize;
    let mem_mib =
        opts.mem_mib.unwrap_or_else(|| paw_hlrs::memory_per_process(world, default_cap(opts)));
    let lmax = (mem_mib << 20) as usize / 128;
    let dims = (mpi_ext::topology::dims_create(p, 2), mpi_ext::topology::dims_create(p, 3));
    let mut all = patterns::ring_patterns(p);
    for (k, order) in random_orders(world, opts.random, opts.seed).iter().enumerate() {
        all.push(patterns::random_pattern(k + 1, order));
    }
    all.extend(patterns::extra_patterns(p, &dims.0, &dims.1));
    let total = all.len();
    if !opts.patterns.is_empty() {
        select(&mut all, &opts.patterns)?;
    }
    agree(world, fits(opts, mem_mib, lmax, world.split_shared(0).size() as usize))?;
    let rule = if opts.short { LoopRule::SHORT } else { LoopRule::FULL };
    let complete = opts.patterns.is_empty();
    Ok(Setup {
        mem_mib,
        lmax,
        lengths: plan::lengths(lmax),
        patterns: all,
        total,
        dims,
        rule,
        complete,
    })
}

/// The most memory per process a default gives, MiB.
fn default_cap(opts: &Options) -> u64 {
    if opts.short {
        SHORT_MEM_MIB
    } else {
        DEFAULT_MEM_CAP_MIB
    }
}

/// Whether `mem` MiB is at most this host's memory per process and the cyclic buffers (6
/// messages of `lmax` bytes each way) fit the memory available to each of its `local`
/// processes.
fn fits(opts: &Options, mem: u64, lmax: usize, local: usize) -> Result<(), String> {
    let slots = exchange::BUFFER_MESSAGES;
    let what =
        if opts.mem_mib.is_some() { format!("-mem {mem}") } else { format!("memory {mem} MiB") };
    let local_mib = |bytes: u64| (bytes >> 20) / local as u64;
    if let Some(total) = paw_core::total_memory().map(local_mib) {
        if mem > total {
            return Err(format!(
                "{what}: more than this host's memory per process ({total} MiB for each of \
                 its {local} processes); accepted: 1 to {total}"
            ));
        }
    }
    let need = (2 * slots as u64 * lmax as u64) >> 20;
    match paw_core::available_memory().map(local_mib) {
        Some(each) if need > each => Err(format!(
            "{what}: the buffers need {need} MiB per process (2 x {slots} messages of Lmax = \
             {lmax} bytes); {each} MiB are available to each of the {local} processes on this \
             host"
        )),
        _ => Ok(()),
    }
}

/// Keeps the patterns `-pattern` names; a name that matches none is bad input.
fn select(all: &mut Vec<Pattern>, names: &[String]) -> paw_core::Result<()> {
    if let Some(bad) = names.iter().find(|n| !all.iter().any(|p| p.is_named(n))) {
        let known: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
        return Err(Error::input(format!(
            "-pattern {bad}: no pattern of this run has that name; accepted: {}",
            known.join(", ")
        )));
    }
    all.retain(|p| names.iter().any(|n| p.is_named(n)));
    Ok(())
}

/// The orders of the random patterns: drawn on rank 0 from `seed`, sent to every rank.
fn random_orders(world: &SimpleCommunicator, count: usize, seed: u64) -> Vec<Vec<usize>> {
    let p = world.size() as usize;
    let mut flat = vec![0u64; p * count];
    if world.rank() == 0 {
        let orders = patterns::permutations(p, count, seed);
        for (slot, &r) in flat.iter_mut().zip(orders.iter().flatten()) {
            *slot = r as u64;
        }
    }
    world.process_at_rank(0).broadcast_into(&mut flat[..]);
    flat.chunks(p).map(|c| c.iter().map(|&r| r as usize).collect()).collect()
}

/// The run's own header lines.
pub fn header(opts: &Options, s: &Setup) -> Vec<String> {
    let (mem_mib, lmax, lengths, rule, total) = (s.mem_mib, s.lmax, &s.lengths, s.rule, s.total);
    let complete = s.complete;
    let x = |d: &[usize]| d.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("x");
    let (dims2, dims3) = (&s.dims.0, &s.dims.1);
    let all = &s.patterns;
    vec![
        format!(
            "memory per process: {mem_mib} MiB ({}); Lmax = memory / 128 = {lmax} bytes",
            match (opts.mem_mib, mem_mib == default_cap(opts)) {
                (Some(_), _) => "-mem",
                (None, true) => "default: host memory / its processes, capped",
                (None, false) => "default: host memory / its processes, smallest over hosts",
            }
        ),
        format!("lengths: {}", lengths.map(|l| l.to_string()).join(" ")),
        format!(
            "patterns: 6 ring, {} random (seed {}; -seed {} repeats them), {} additional; \
             2-D partition {}, 3-D {}",
            opts.random,
            opts.seed,
            opts.seed,
            total - 6 - opts.random,
            x(dims2),
            x(dims3)
        ),
        if complete {
            "run: every pattern".to_string()
        } else {
            format!(
                "run: {} of the {total} patterns (-pattern {}); b_eff is not computed",
                all.len(),
                opts.patterns.join(",")
            )
        },
        format!(
            "methods: MPI_Sendrecv, MPI_Alltoallv, MPI_Irecv + MPI_Isend + MPI_Waitall \
             (the ping-pong: MPI_Send/MPI_Recv); {REPETITIONS} repetitions each; the maximum \
             bandwidth counts"
        ),
        format!(
            "loops (b_eff 3.6): about {} s per length and method over all patterns; per \
             repetition a calibration pass of {} loops at 1 byte sets the most, the first \
             length runs half of it, each next length the previous count over the ratio of \
             lengths, scaled up to the time aimed at; one untimed step before each timed loop \
             below length {}{}",
            rule.per_length,
            plan::CALIBRATION_LOOPS,
            lengths[plan::WARM_UP_BELOW.min(LENGTHS - 1)],
            if opts.short { " (short mode)" } else { "" }
        ),
        "buffers (b_eff 3.6): one send and one receive buffer of 6 x (Lmax + 16) bytes, used \
         cyclically: each message at a running offset that moves on by its length rounded up \
         to 8 bytes and wraps to 0 when the next would not fit"
            .to_string(),
        format!(
            "check: {}",
            if opts.check {
                "on: every received message against its sender's pattern"
            } else {
                "off"
            }
        ),
        "bandwidth (b_eff 3.6) = the minimum over processes of L x loops x own exchanges / own \
         time, times the pattern's messages per step over rank 0's exchanges (where all \
         processes exchange alike: L x messages x loops / slowest time); a ring of two sends \
         one message each way per step; MB = 10^6 bytes, MiB = 2^20 bytes"
            .to_string(),
    ]
}
