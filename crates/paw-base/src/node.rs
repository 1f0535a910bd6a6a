//! The node session: a single process without MPI (BLAS, STREAM, GPU), timed with a
//! monotonic clock; and what node tests need to know about the machine.
//!
//! A launcher (mpirun, mpiexec, srun) may start one copy per node: each copy measures its
//! own node and writes its files into a subdirectory of the output directory named after
//! its host. Two copies on one host would measure each other, so that is refused.

use crate::error::{Error, Result};
use crate::meta::{self, RunInfo};
use crate::session::Session;
use crate::spec::{Args, Spec};
use crate::team::Solo;

/// A node test's session.
pub type Node = Session<Solo>;

impl Node {
    /// Reads the command line (`-h` prints help and exits), measures the clock and reads
    /// the settings every benchmark reads.
    pub fn init(spec: &Spec) -> Result<Node> {
        match spec.read_args(std::env::args().skip(1)) {
            Args::Help => {
                println!("{}", spec.help_text());
                std::process::exit(0);
            }
            Args::Bad(e) => return Err(Error::input(e)),
            Args::Run(given) => crate::osu::install(given),
        }
        let info = RunInfo {
            benchmark: spec.name.to_string(),
            title: spec.title.to_string(),
            date: meta::utc_now(),
            placement: vec![meta::placement()],
            tasks: 1,
            slurm: meta::SlurmJob::current(),
            ..RunInfo::default()
        };
        let copies = launched(|v| std::env::var(v).ok());
        if let Some(Copies { here, .. }) = copies.filter(|c| c.here > 1) {
            return Err(Error::input(format!(
                "{here} copies of {} were started on host {}: a node test measures the whole \
                 node; accepted: one copy per node (mpirun --map-by ppr:1:node, mpiexec -ppn 1, \
                 srun --ntasks-per-node=1)",
                spec.name,
                meta::hostname()
            )));
        }
        let mut node = Session::new(Solo::new(), spec, info)?;
        if let Some(c) = copies.filter(|c| c.all > 1) {
            node.per_host();
            println!(
                "{}: one of {} copies started by the launcher, one per node; files in {}",
                spec.name,
                c.all,
                node.output_dir().display()
            );
        }
        Ok(node)
    }
}

/// How many copies of this program a launcher started: in all, and on this host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Copies {
    all: usize,
    here: usize,
}

/// The copies a launcher started, from the variables Open MPI's mpirun, MPICH's mpiexec
/// (Hydra) or srun set; None when no launcher did.
fn launched(var: impl Fn(&str) -> Option<String>) -> Option<Copies> {
    let count = |name: &str| var(name).and_then(|v| v.trim().parse::<usize>().ok());
    if let Some(all) = count("OMPI_COMM_WORLD_SIZE") {
        return Some(Copies { all, here: count("OMPI_COMM_WORLD_LOCAL_SIZE").unwrap_or(1) });
    }
    // Hydra sets both; srun's PMI-2 sets PMI_SIZE alone, and its own variables follow.
    if let (Some(all), Some(here)) = (count("PMI_SIZE"), count("MPI_LOCALNRANKS")) {
        return Some(Copies { all, here });
    }
    var("SLURM_STEP_ID")?;
    let all = count("SLURM_STEP_NUM_TASKS")?;
    let node = count("SLURM_NODEID").unwrap_or(0);
    let here = var("SLURM_STEP_TASKS_PER_NODE")
        .and_then(|t| tasks_per_node(&t).get(node).copied())
        .unwrap_or(1);
    Some(Copies { all, here })
}

/// Slurm's tasks-per-node list (`2(x3),1`) expanded, one entry per node.
fn tasks_per_node(text: &str) -> Vec<usize> {
    let mut nodes = Vec::new();
    for part in text.split(',') {
        let (tasks, times) = match part.split_once("(x") {
            Some((t, n)) => (t, n.trim_end_matches(')')),
            None => (part, "1"),
        };
        if let (Ok(t), Ok(n)) = (tasks.trim().parse::<usize>(), times.trim().parse::<usize>()) {
            nodes.extend(std::iter::repeat_n(t, n));
        }
    }
    nodes
}

/// The machine's cores (what the scheduler lets this process use).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The host's online CPUs (all of them, whatever this process may run on), or [`cores`]
/// where the list cannot be read.
pub fn online_cores() -> usize {
    std::fs::read_to_string("/sys/devices/system/cpu/online")
        .ok()
        .and_then(|list| crate::meta::cpu_list(&list))
        .map_or_else(cores, |cpus| cpus.len())
}

/// Sum of the distinct highest-level caches seen in sysfs, in bytes.
pub fn last_level_cache_bytes() -> Option<u64> {
    let mut seen: Vec<(u32, String, u64)> = Vec::new();
    for cpu in std::fs::read_dir("/sys/devices/system/cpu").ok()?.flatten() {
        let name = cpu.file_name().to_string_lossy().into_owned();
        if !name.starts_with("cpu") || !name[3..].chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let Ok(indices) = std::fs::read_dir(cpu.path().join("cache")) else {
            continue;
        };
        for index in indices.flatten() {
            let read = |f: &str| std::fs::read_to_string(index.path().join(f)).ok();
            let (Some(level), Some(size), Some(shared)) =
                (read("level"), read("size"), read("shared_cpu_list"))
            else {
                continue;
            };
            if read("type").is_some_and(|t| t.trim() == "Instruction") {
                continue;
            }
            let (Ok(level), Some(bytes)) =
                (level.trim().parse::<u32>(), crate::config::bytes(size.trim()))
            else {
                continue;
            };
            let shared = shared.trim().to_string();
            if !seen.iter().any(|(l, s, _)| *l == level && *s == shared) {
                seen.push((level, shared, bytes));
            }
        }
    }
    let top = seen.iter().map(|(l, _, _)| *l).max()?;
    Some(seen.iter().filter(|(l, _, _)| *l == top).map(|(_, _, b)| b).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launcher_copies() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |v: &str| pairs.iter().find(|(k, _)| *k == v).map(|(_, x)| x.to_string())
        };
        assert_eq!(launched(env(&[])), None, "started by hand");
        let ompi = env(&[("OMPI_COMM_WORLD_SIZE", "4"), ("OMPI_COMM_WORLD_LOCAL_SIZE", "1")]);
        assert_eq!(launched(ompi), Some(Copies { all: 4, here: 1 }));
        let hydra = env(&[("PMI_SIZE", "2"), ("MPI_LOCALNRANKS", "2")]);
        assert_eq!(launched(hydra), Some(Copies { all: 2, here: 2 }));
        let srun_pmi2 = env(&[
            ("PMI_SIZE", "2"),
            ("SLURM_STEP_ID", "0"),
            ("SLURM_STEP_NUM_TASKS", "2"),
            ("SLURM_STEP_TASKS_PER_NODE", "2"),
        ]);
        assert_eq!(launched(srun_pmi2), Some(Copies { all: 2, here: 2 }));
        let srun = env(&[
            ("SLURM_STEP_ID", "0"),
            ("SLURM_STEP_NUM_TASKS", "5"),
            ("SLURM_NODEID", "3"),
            ("SLURM_STEP_TASKS_PER_NODE", "1(x3),2"),
        ]);
        assert_eq!(launched(srun), Some(Copies { all: 5, here: 2 }));
        let batch = env(&[("SLURM_JOB_ID", "7"), ("SLURM_NTASKS", "4")]);
        assert_eq!(launched(batch), None, "a batch script is no launch");
        assert_eq!(tasks_per_node("2(x3),1"), vec![2, 2, 2, 1]);
    }

    #[test]
    fn cache_sizes() {
        assert_eq!(crate::config::bytes("491520K"), Some(491520 * 1024));
        assert_eq!(crate::config::bytes("32M"), Some(32 << 20));
        assert_eq!(crate::config::bytes("512"), Some(512));
        assert_eq!(crate::config::bytes("x"), None);
    }
}
