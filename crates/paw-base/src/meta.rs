//! Run metadata written at the top of every output file.

use serde::{Deserialize, Serialize};
use std::time::{SystemTime, UNIX_EPOCH};

/// Facts about a run that a reader needs to trust or compare its numbers.
#[derive(Debug, Clone, Default)]
pub struct RunInfo {
    /// Benchmark name (the binary's name).
    pub benchmark: String,
    /// One-line description of what is measured.
    pub title: String,
    /// Start time, UTC, ISO 8601.
    pub date: String,
    /// One entry per rank (or the single process): `host cpus=LIST`.
    pub placement: Vec<String>,
    /// Number of tasks (1 for node tests).
    pub tasks: usize,
    /// Library versions that shape the results (MPI, BLAS …).
    pub libraries: Vec<String>,
    /// MPI and threading tuning variables of the environment, `NAME=value`.
    pub environment: Vec<String>,
    /// Open MPI MCA parameter files in effect: `path: name=value …`.
    pub mca_files: Vec<String>,
    /// Where message buffers are placed ([`crate::buffer::PLACEMENT`]); none for node
    /// tests, which keep their own arrays.
    pub buffers: Option<String>,
    /// Timer description.
    pub timer: String,
    /// The Slurm job the run is part of, when started by Slurm.
    pub slurm: Option<SlurmJob>,
}

impl RunInfo {
    /// Header lines (without the leading `# `) up to the settings: what describes the run
    /// rather than one benchmark's measurement.
    pub fn header_lines(&self) -> Vec<String> {
        let mut lines = vec![
            format!("paw {} -- {}", self.benchmark, self.title),
            format!("date: {}", self.date),
            format!("tasks: {}", self.tasks),
            format!("hosts: {}", self.hosts_summary()),
        ];
        if self.placement.len() <= 16 {
            lines.push(format!("placement: {}", self.placement.join("; ")));
        }
        if let Some(shared) = shared_cpus(&self.placement) {
            lines.push(format!("binding: {shared}"));
        }
        if let Some(job) = &self.slurm {
            lines.push(format!("slurm: {}", job.describe()));
        }
        for lib in &self.libraries {
            lines.push(format!("library: {lib}"));
        }
        lines
    }

    /// Header lines after the settings: environment, MCA files, buffers, timer.
    pub fn environment_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if !self.environment.is_empty() {
            lines.push(format!("environment: {}", self.environment.join(" ")));
        }
        for f in &self.mca_files {
            lines.push(format!("mca file: {f}"));
        }
        if let Some(b) = &self.buffers {
            lines.push(format!("buffers: {b}"));
        }
        lines.push(format!("timer: {}", self.timer));
        lines
    }

    /// The hosts and their task counts, in order of first appearance.
    pub fn hosts(&self) -> Vec<(String, usize)> {
        hosts(&self.placement)
    }

    /// The hosts as headers name them: one by one up to [`LISTED_HOSTS`], beyond in ranges.
    pub fn hosts_summary(&self) -> String {
        summarize_hosts(&self.placement)
    }
}

fn hosts(placement: &[String]) -> Vec<(String, usize)> {
    let mut hosts: Vec<(String, usize)> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for p in placement {
        let host = p.split_whitespace().next().unwrap_or("?");
        match index.get(host) {
            Some(&k) => hosts[k].1 += 1,
            None => {
                index.insert(host, hosts.len());
                hosts.push((host.to_string(), 1));
            }
        }
    }
    hosts
}

/// Which tasks may run on the same CPUs as another task of their host (not bound, or
/// bound together), from the placement; None when every task of a host has CPUs of its own
/// or the CPUs are unknown. Such tasks' times include waiting for each other's CPU.
pub fn shared_cpus(placement: &[String]) -> Option<String> {
    let placed: Vec<(&str, Vec<u32>)> = placement
        .iter()
        .map(|p| {
            let host = p.split_whitespace().next().unwrap_or("");
            let mut cpus =
                p.split_once(" cpus=").and_then(|(_, l)| cpu_list(l)).unwrap_or_default();
            cpus.sort_unstable();
            cpus.dedup();
            (host, cpus)
        })
        .collect();
    // How many tasks of each host may run on each CPU: one pass, whatever the task count.
    let mut holders: std::collections::HashMap<(&str, u32), usize> = Default::default();
    for (host, cpus) in &placed {
        cpus.iter().for_each(|&c| *holders.entry((host, c)).or_default() += 1);
    }
    let shares = |(host, cpus): &(&str, Vec<u32>)| cpus.iter().any(|&c| holders[&(*host, c)] > 1);
    let sharing: Vec<String> =
        placed.iter().enumerate().filter(|(_, t)| shares(t)).map(|(i, _)| i.to_string()).collect();
    if sharing.is_empty() {
        return None;
    }
    let n = sharing.len();
    let which = if n <= 8 { format!(" ({})", sharing.join(", ")) } else { String::new() };
    Some(format!(
        "{n} of {} tasks{which} share CPUs with another task of their host (not bound, or \
         bound together): their times include waiting for a CPU; bind them (mpirun \
         --bind-to core, srun --cpu-bind=cores)",
        placement.len()
    ))
}

/// The CPUs of a list such as `0-3,8`; None if it is not one.
pub(crate) fn cpu_list(list: &str) -> Option<Vec<u32>> {
    let mut cpus = Vec::new();
    for part in list.trim().split(',') {
        match part.split_once('-') {
            Some((a, b)) => cpus.extend(a.parse::<u32>().ok()?..=b.parse::<u32>().ok()?),
            None => cpus.push(part.parse().ok()?),
        }
    }
    Some(cpus)
}

/// This process's peak resident memory (VmHWM of /proc/self/status), bytes; None where
/// there is no such file.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok().map(|kb| kb * 1024)
}

/// Hosts a header names one by one; beyond, in ranges by task count ([`host_ranges`]).
pub const LISTED_HOSTS: usize = 16;

/// `host (N tasks)` for every distinct host, in order of first appearance; beyond
/// [`LISTED_HOSTS`] hosts, their count and [`host_ranges`].
fn summarize_hosts(placement: &[String]) -> String {
    let hosts = hosts(placement);
    let tasks = |n: usize| format!("{n} task{}", if n == 1 { "" } else { "s" });
    if hosts.len() > LISTED_HOSTS {
        return format!(
            "{} hosts, {}: {}",
            hosts.len(),
            tasks(placement.len()),
            host_ranges(&hosts)
        );
    }
    hosts.iter().map(|(h, n)| format!("{h} ({})", tasks(*n))).collect::<Vec<_>>().join(", ")
}

/// Hosts and their task counts, compactly: the hosts of each task count in ranges as Slurm
/// writes node lists, `node[001-127,129] (64 tasks each), node128 (32 tasks)`, the counts
/// in order of first appearance.
pub fn host_ranges(hosts: &[(String, usize)]) -> String {
    let mut counts: Vec<(usize, Vec<&str>)> = Vec::new();
    for (h, n) in hosts {
        match counts.iter_mut().find(|(c, _)| c == n) {
            Some((_, names)) => names.push(h),
            None => counts.push((*n, vec![h])),
        }
    }
    let each = |names: &[&str], n: usize| match (names.len(), n) {
        (1, 1) => "(1 task)".to_string(),
        (1, n) => format!("({n} tasks)"),
        (_, 1) => "(1 task each)".to_string(),
        (_, n) => format!("({n} tasks each)"),
    };
    counts
        .iter()
        .map(|(n, names)| format!("{} {}", name_ranges(names), each(names, *n)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Host names in ranges: names that differ only in a trailing number share their prefix's
/// brackets, `node[01-04,07]` (zero-padded to the widest padded one), in order of first
/// appearance of each prefix, after the names without a number.
fn name_ranges(names: &[&str]) -> String {
    // Per prefix and its padded width (0: not padded), the numbers.
    let mut groups: Vec<((&str, usize), Vec<u64>)> = Vec::new();
    let mut plain: Vec<(usize, &str)> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
        let (prefix, number) = name.split_at(name.len() - digits);
        let Ok(value) = number.parse::<u64>() else {
            plain.push((i, name));
            continue;
        };
        let width = if number.starts_with('0') && number.len() > 1 { number.len() } else { 0 };
        match groups.iter_mut().find(|((p, _), _)| *p == prefix) {
            Some(((_, w), v)) => {
                *w = (*w).max(width);
                v.push(value)
            }
            None => groups.push(((prefix, width), vec![value])),
        }
    }
    let mut out: Vec<String> = plain.into_iter().map(|(_, n)| n.to_string()).collect();
    for ((prefix, width), mut numbers) in groups {
        numbers.sort_unstable();
        numbers.dedup();
        let num = |v: u64| format!("{v:0width$}");
        if numbers.len() == 1 {
            out.push(format!("{prefix}{}", num(numbers[0])));
            continue;
        }
        let mut ranges: Vec<String> = Vec::new();
        let mut start = 0;
        for i in 1..=numbers.len() {
            if i == numbers.len() || numbers[i] != numbers[i - 1] + 1 {
                ranges.push(match i - start {
                    1 => num(numbers[start]),
                    _ => format!("{}-{}", num(numbers[start]), num(numbers[i - 1])),
                });
                start = i;
            }
        }
        out.push(format!("{prefix}[{}]", ranges.join(",")));
    }
    out.join(",")
}

/// The Slurm job and step of a run, as Slurm tells the tasks it starts (srun, sbatch). The
/// step's fields are there when srun started the tasks; the tasks' real hosts and CPUs are
/// in [`RunInfo::placement`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SlurmJob {
    /// The job id (SLURM_JOB_ID).
    pub job_id: String,
    /// The step id (SLURM_STEP_ID).
    pub step_id: Option<String>,
    /// The cluster (SLURM_CLUSTER_NAME).
    pub cluster: Option<String>,
    /// The partition (SLURM_JOB_PARTITION).
    pub partition: Option<String>,
    /// The job's nodes in Slurm's compact form, e.g. `node[01-04]` (SLURM_JOB_NODELIST).
    pub job_nodes: Option<String>,
    /// The step's nodes (SLURM_STEP_NODELIST).
    pub step_nodes: Option<String>,
    /// The step's tasks per node in Slurm's form, e.g. `2(x3),1` (SLURM_STEP_TASKS_PER_NODE).
    pub step_tasks_per_node: Option<String>,
    /// How the step's tasks were laid out over nodes and CPUs (SLURM_DISTRIBUTION).
    pub distribution: Option<String>,
    /// The CPU binding srun applied (SLURM_CPU_BIND).
    pub cpu_bind: Option<String>,
    /// srun's MPI plugin (SLURM_MPI_TYPE).
    pub mpi_plugin: Option<String>,
}

impl SlurmJob {
    /// The job as the variables `var` returns describe it; `None` without a job id.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Option<SlurmJob> {
        Some(SlurmJob {
            job_id: var("SLURM_JOB_ID")?,
            step_id: var("SLURM_STEP_ID"),
            cluster: var("SLURM_CLUSTER_NAME"),
            partition: var("SLURM_JOB_PARTITION"),
            job_nodes: var("SLURM_JOB_NODELIST"),
            step_nodes: var("SLURM_STEP_NODELIST"),
            step_tasks_per_node: var("SLURM_STEP_TASKS_PER_NODE"),
            distribution: var("SLURM_DISTRIBUTION"),
            cpu_bind: var("SLURM_CPU_BIND"),
            mpi_plugin: var("SLURM_MPI_TYPE"),
        })
    }

    /// The job of this process, or `None` outside Slurm.
    pub fn current() -> Option<SlurmJob> {
        SlurmJob::from_vars(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
    }

    /// One line: `job 42 step 0, cluster c, partition p, job nodes n[1-2], …`.
    pub fn describe(&self) -> String {
        let mut out = format!("job {}", self.job_id);
        if let Some(step) = &self.step_id {
            out += &format!(" step {step}");
        }
        let parts = [
            ("cluster", &self.cluster),
            ("partition", &self.partition),
            ("job nodes", &self.job_nodes),
            ("step nodes", &self.step_nodes),
            ("step tasks per node", &self.step_tasks_per_node),
            ("distribution", &self.distribution),
            ("cpu bind", &self.cpu_bind),
            ("mpi plugin", &self.mpi_plugin),
        ];
        for (label, value) in parts {
            if let Some(v) = value {
                out += &format!(", {label} {v}");
            }
        }
        out
    }
}

/// Current time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    utc_from_unix(secs)
}

/// Formats seconds since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian).
pub fn utc_from_unix(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Shift the epoch to 0000-03-01 so leap days fall at the end of each 400-year era.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153; // 0 = March
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem / 60 % 60, rem % 60)
}

/// This machine's host name.
pub fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the pointer and length describe `buf`, which outlives the call; gethostname
    // writes at most `len` bytes into it.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return "unknown-host".to_string();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The CPUs this process may run on, as a compact list (`0-3,8`), or `?` if unknown.
pub fn cpu_affinity() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_else(|| "?".to_string())
}

/// `host cpus=LIST` for this process.
pub fn placement() -> String {
    format!("{} cpus={}", hostname(), cpu_affinity())
}

/// Environment prefixes whose variables change MPI, threading or BLAS behaviour.
const TUNING_PREFIXES: &[&str] = &[
    "OMPI_MCA_",
    "PMIX_MCA_",
    "MPICH_",
    "MPIR_CVAR_",
    "I_MPI_",
    "MV2_",
    "UCX_",
    "FI_",
    "PSM2_",
    "HFI_",
    "OMP_",
    "GOMP_",
    "KMP_",
    "OPENBLAS_",
    "GOTO_",
    "RAYON_",
    "CUDA_",
];

/// Launchers set these for their own bookkeeping in every rank's environment; they say
/// nothing about how the run was tuned.
const LAUNCHER_PREFIXES: &[&str] = &[
    "OMPI_MCA_orte_",
    "OMPI_MCA_ess",
    "OMPI_MCA_pmix",
    "OMPI_MCA_initial_wdir",
    "OMPI_MCA_shmem_RUNTIME_QUERY_hint",
    "OMPI_MCA_ompi_command",
    "OMPI_MCA_ompi_argv",
    "OMPI_MCA_mpi_oversubscribe",
    "MPIR_CVAR_CH3_INTERFACE_HOSTNAME",
    "PMIX_MCA_mca_base_component_show_load_errors",
    "PMIX_MCA_psec",
    "HFI_NO_BACKTRACE",
    "PSM2_DEVICES",
    // Intel MPI's hydra: the job's identifier, the machine and pinning it found, its defaults.
    "I_MPI_HYDRA_UUID",
    "I_MPI_INFO_",
    "I_MPI_PIN_INFO",
    "I_MPI_PIN_MAPPING",
    "I_MPI_BIND_WIN_ALLOCATE",
    "I_MPI_HYDRA_TOPOLIB",
    "I_MPI_INTERNAL_MEM_POLICY",
    "I_MPI_RETURN_WIN_MEM_NUMA",
];

/// Whether an environment variable tunes MPI, threading or BLAS and belongs in the header.
pub fn is_tuning(name: &str) -> bool {
    TUNING_PREFIXES.iter().any(|p| name.starts_with(p))
        && !LAUNCHER_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// The tuning variables of this process's environment that the benchmark does not read
/// itself (those go on the settings line), sorted, as `NAME=value`.
pub fn environment(read: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = std::env::vars()
        .filter(|(k, _)| is_tuning(k) && !read(k))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    out.sort();
    out
}

/// Bytes of memory available to a new allocation (MemAvailable of /proc/meminfo).
pub fn available_memory() -> Option<u64> {
    meminfo("MemAvailable:")
}

/// This host as uname(1) -a names it: system, host name, release, version, machine
/// (`Linux vm 6.1.0 #1 SMP ... x86_64`), as the HLRS programs end their final lines.
pub fn uname() -> String {
    let kernel = |f: &str| {
        std::fs::read_to_string(format!("/proc/sys/kernel/{f}"))
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    };
    let mut words = ["ostype", "hostname", "osrelease", "version"].map(kernel).to_vec();
    words.push(std::env::consts::ARCH.to_string());
    words.retain(|w| !w.is_empty());
    words.join(" ")
}

/// Bytes of memory of this host (MemTotal of /proc/meminfo).
pub fn total_memory() -> Option<u64> {
    meminfo("MemTotal:")
}

/// A `/proc/meminfo` entry in bytes.
fn meminfo(key: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix(key))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_hosts_are_named_in_ranges_by_task_count() {
        let mut hosts: Vec<(String, usize)> =
            (1..=1000).map(|i| (format!("node{i:04}"), if i == 128 { 32 } else { 64 })).collect();
        hosts.push(("login".into(), 1));
        hosts.extend((9..=11).map(|i| (format!("paw-h{i}"), 64)));
        assert_eq!(
            host_ranges(&hosts),
            "node[0001-0127,0129-1000],paw-h[9-11] (64 tasks each), node0128 (32 tasks), login (1 task)"
        );
        let placement: Vec<String> =
            (0..256).map(|r| format!("paw-h{} cpus=0-1", r % 32 + 1)).collect();
        let line = summarize_hosts(&placement);
        assert_eq!(line, "32 hosts, 256 tasks: paw-h[1-32] (8 tasks each)");
        let few: Vec<String> = ["a cpus=0", "b cpus=0", "a cpus=1"].map(String::from).into();
        assert_eq!(summarize_hosts(&few), "a (2 tasks), b (1 task)");
    }

    #[test]
    fn dates() {
        assert_eq!(utc_from_unix(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_from_unix(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_from_unix(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(utc_from_unix(4_107_542_399), "2100-02-28T23:59:59Z");
    }

    #[test]
    fn slurm_job() {
        let none = |_: &str| None;
        assert_eq!(SlurmJob::from_vars(none), None, "no job id: not under Slurm");
        let step = |name: &str| {
            let v = match name {
                "SLURM_JOB_ID" => "42",
                "SLURM_STEP_ID" => "0",
                "SLURM_JOB_PARTITION" => "debug",
                "SLURM_JOB_NODELIST" => "n[01-03]",
                "SLURM_STEP_NODELIST" => "n[01-02]",
                "SLURM_STEP_TASKS_PER_NODE" => "2(x2)",
                _ => return None,
            };
            Some(v.to_string())
        };
        let job = SlurmJob::from_vars(step).unwrap();
        assert_eq!(
            job.describe(),
            "job 42 step 0, partition debug, job nodes n[01-03], step nodes n[01-02], \
             step tasks per node 2(x2)"
        );
        let batch = |name: &str| (name == "SLURM_JOB_ID").then(|| "7".to_string());
        assert_eq!(SlurmJob::from_vars(batch).unwrap().describe(), "job 7");
    }

    #[test]
    fn tuning_filter() {
        assert!(is_tuning("OMPI_MCA_btl"));
        assert!(is_tuning("OMP_NUM_THREADS"));
        assert!(is_tuning("UCX_TLS"));
        assert!(!is_tuning("MAX_P2P_SIZE"), "paw's own variables go on the settings line");
        assert!(!is_tuning("OMPI_MCA_orte_hnp_uri"));
        assert!(!is_tuning("PSM2_DEVICES"), "set by the launcher");
        assert!(is_tuning("I_MPI_FABRICS"));
        assert!(!is_tuning("I_MPI_HYDRA_UUID"), "a new value for every job");
        assert!(!is_tuning("PATH"));
    }

    #[test]
    fn hosts_are_counted() {
        let p = vec!["a cpus=0".into(), "a cpus=1".into(), "b cpus=0".into()];
        assert_eq!(shared_cpus(&p), None, "own CPUs, or alone on a host");
        assert_eq!(summarize_hosts(&p), "a (2 tasks), b (1 task)");
    }

    #[test]
    fn tasks_sharing_cpus_are_named() {
        let unbound: Vec<String> = vec!["a cpus=0-1".into(), "a cpus=0-1".into()];
        let w = shared_cpus(&unbound).unwrap();
        assert!(w.starts_with("2 of 2 tasks (0, 1) share CPUs"), "{w}");
        let one_cpu: Vec<String> =
            vec!["a cpus=0".into(), "a cpus=2,4-5".into(), "a cpus=0".into()];
        assert!(shared_cpus(&one_cpu).unwrap().starts_with("2 of 3 tasks (0, 2)"));
        let hosts: Vec<String> = vec!["a cpus=0-3".into(), "b cpus=0-3".into()];
        assert_eq!(shared_cpus(&hosts), None, "one task per host");
        assert_eq!(shared_cpus(&["a cpus=?".into(), "a cpus=?".into()]), None);
        assert_eq!(cpu_list("0-3,8"), Some(vec![0, 1, 2, 3, 8]));
    }

    #[test]
    fn four_hundred_thousand_tasks_are_checked_in_one_pass() {
        // 6 250 hosts of 64 tasks, each on a core of its own, but for two on the last host.
        let mut placed: Vec<String> =
            (0..400_000).map(|t| format!("node{:05} cpus={}", t / 64, t % 64)).collect();
        placed[399_999] = "node06249 cpus=0".into();
        let w = shared_cpus(&placed).unwrap();
        assert!(w.starts_with("2 of 400000 tasks (399936, 399999) share CPUs"), "{w}");
        placed[399_999] = "node06249 cpus=63".into();
        assert_eq!(shared_cpus(&placed), None);
    }
}
