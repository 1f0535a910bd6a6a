//! A one-node Slurm cluster on this machine (`scripts/slurm-local`), brought up for a test
//! and taken down when dropped, also when the test fails.

use crate::binaries::workspace;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The directory and the link `scripts/slurm-local up` writes.
pub const DIR: &str = "/run/paw-slurm";
/// The configuration link that makes srun and sbatch find the cluster.
pub const LINK: &str = "/etc/slurm/slurm.conf";
/// The programs whose processes must not outlive the cluster.
const DAEMONS: &[&str] = &["munged", "slurmctld", "slurmd", "slurmstepd"];

/// A running local Slurm, owned by the test that brought it up.
#[derive(Debug)]
pub struct SlurmLocal {
    /// Processes of [`DAEMONS`] that ran before `up` (another munged, say).
    before: Vec<u32>,
    /// What `up` printed.
    pub up_output: String,
}

impl SlurmLocal {
    /// Brings the cluster up; says why it cannot when this is not root or this machine has
    /// a Slurm configuration of its own. Panics when `up` fails where it should work, or
    /// when the cluster is already up (a test must own it: its drop takes it down).
    pub fn up() -> Result<SlurmLocal, String> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Err("scripts/slurm-local needs root".into());
        }
        let link = Path::new(LINK);
        if link.exists() && !is_ours(link) {
            return Err(format!("this machine has its own Slurm configuration ({LINK})"));
        }
        assert!(
            !Path::new(DIR).exists(),
            "{DIR} exists: scripts/slurm-local is up already; take it down (scripts/slurm-local \
             down) for the tests, which bring up their own"
        );
        let before = daemons();
        let out = script(&["up"]);
        assert!(out.status.success(), "slurm-local up failed:\n{}", text(&out));
        Ok(SlurmLocal { before, up_output: text(&out) })
    }

    /// The processes of Slurm or munge started since `up`, as `pid name`.
    pub fn new_daemons(&self) -> Vec<String> {
        new_daemons(&self.before)
    }
}

impl Drop for SlurmLocal {
    fn drop(&mut self) {
        let out = script(&["down"]);
        if !out.status.success() {
            eprintln!("slurm-local down failed:\n{}", text(&out));
        }
    }
}

/// What `up` and `down` may leave behind, and must not: the directory, the link, daemons
/// not among `before`.
pub fn leftovers(before: &[u32]) -> Vec<String> {
    let mut left = new_daemons(before);
    for path in [DIR, LINK] {
        if Path::new(path).symlink_metadata().is_ok() {
            left.push(path.to_string());
        }
    }
    left
}

/// Runs `scripts/slurm-local ARGS`.
pub fn script(args: &[&str]) -> Output {
    Command::new(script_path())
        .args(args)
        .env_remove("SLURM_LOCAL_DIR")
        .output()
        .expect("run scripts/slurm-local")
}

/// The script.
pub fn script_path() -> PathBuf {
    workspace().join("scripts/slurm-local")
}

/// The pids of the processes of [`DAEMONS`] now running.
pub fn daemons() -> Vec<u32> {
    daemon_processes().into_iter().map(|(pid, _)| pid).collect()
}

fn new_daemons(before: &[u32]) -> Vec<String> {
    daemon_processes()
        .into_iter()
        .filter(|(pid, _)| !before.contains(pid))
        .map(|(pid, name)| format!("{pid} {name}"))
        .collect()
}

/// Live (not zombie) processes of [`DAEMONS`], as (pid, name).
fn daemon_processes() -> Vec<(u32, String)> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // pid (comm) state ...
            let (head, rest) = stat.rsplit_once(") ")?;
            let name = head.split_once(" (")?.1.to_string();
            let live = !rest.starts_with('Z');
            (live && DAEMONS.contains(&name.as_str())).then_some((pid, name))
        })
        .collect()
}

fn is_ours(link: &Path) -> bool {
    std::fs::read_link(link).is_ok_and(|t| t == Path::new(DIR).join("slurm.conf"))
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// `scontrol show job ID` on one line, as `Key=Value` pairs.
pub fn job_fields(id: &str) -> Vec<(String, String)> {
    let out = Command::new("scontrol").args(["-o", "show", "job", id]).output().expect("scontrol");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .filter_map(|kv| kv.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect()
}

/// The jobs Slurm still knows, as their ids, newest last.
pub fn job_ids() -> Vec<String> {
    let out = Command::new("scontrol").args(["-o", "show", "jobs"]).output().expect("scontrol");
    let mut ids: Vec<u64> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("JobId=")?.split_whitespace().next()?.parse().ok())
        .collect();
    ids.sort_unstable();
    ids.into_iter().map(|i| i.to_string()).collect()
}
