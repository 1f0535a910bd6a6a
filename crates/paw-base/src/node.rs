//! The node session: a single process without MPI (BLAS, STREAM, GPU), timed with a
//! monotonic clock; and what node tests need to know about the machine.

use crate::error::Result;
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
            Args::Unknown(arg) => return Err(spec.unknown_arg(&arg)),
            Args::Run => {}
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
        Session::new(Solo::new(), spec, info)
    }
}

/// The machine's cores (what the scheduler lets this process use).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
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
            let (Ok(level), Some(bytes)) = (level.trim().parse::<u32>(), parse_size(size.trim()))
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

/// Parses sysfs cache sizes such as `491520K` or `32M`.
fn parse_size(s: &str) -> Option<u64> {
    let (digits, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = digits.parse().ok()?;
    match unit {
        "" => Some(n),
        "K" => Some(n << 10),
        "M" => Some(n << 20),
        "G" => Some(n << 30),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_sizes() {
        assert_eq!(parse_size("491520K"), Some(491520 * 1024));
        assert_eq!(parse_size("32M"), Some(32 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("x"), None);
    }
}
