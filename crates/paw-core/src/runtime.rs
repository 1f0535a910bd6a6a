//! MPI as the process's runtime: the environment kept until `paw_core::main` returns, the
//! rank recorded, MPI_Abort for failures one rank saw, and a panic on any rank ending the job.

use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use paw_base::process::{self, say};

/// Keeps the MPI environment `main.rs` or a session started until `paw_core::main` returns,
/// records this process's rank, and makes a panic on any rank end the whole job.
pub(crate) fn adopt_mpi(name: &'static str, universe: Universe) -> SimpleCommunicator {
    let world = universe.world();
    if let Some(line) = split_step(world.size(), |v| std::env::var(v).ok()) {
        // Every task is alone in its world: the first says why for all, and all exit.
        if std::env::var("SLURM_PROCID").map_or(true, |p| p == "0") {
            say(&format!("{name}: error: {line}"));
        }
        drop(universe);
        std::process::exit(2);
    }
    let rank = world.rank();
    process::adopt(rank, abort_job, move |failed| {
        if failed {
            // Every rank returned the same error: hold them until rank 0 has printed it.
            universe.world().barrier();
        }
        drop(universe); // MPI_Finalize
    });
    install_abort_on_panic(name);
    world
}

/// Ends every rank with `code` through MPI_Abort while MPI is up; returns otherwise.
fn abort_job(code: i32) {
    if mpi::environment::is_initialized() && !mpi::environment::is_finalized() {
        // MPICH's launcher drops output its proxy has not yet forwarded when MPI_Abort ends
        // the job: give it the time to pass the last lines on.
        std::thread::sleep(std::time::Duration::from_millis(100));
        SimpleCommunicator::world().abort(code);
    }
}

/// Why a Slurm step of several tasks started this process in an MPI world of its own: srun's
/// MPI plugin is not the one the MPI library speaks, and each task initialised alone.
fn split_step(world_size: i32, var: impl Fn(&str) -> Option<String>) -> Option<String> {
    var("SLURM_STEP_ID")?;
    let tasks: i32 = var("SLURM_STEP_NUM_TASKS")?.parse().ok()?;
    (world_size == 1 && tasks > 1).then(|| {
        let plugin = var("SLURM_MPI_TYPE").unwrap_or_else(|| "the default".into());
        format!(
            "srun started {tasks} tasks but each is alone in its MPI world: srun's MPI plugin \
             ({plugin}) does not match this MPI library; accepted: --mpi=pmix for Open MPI, \
             --mpi=pmi2 for MPICH (or SLURM_MPI_TYPE)"
        )
    })
}

/// Makes a panic on any rank end the whole job instead of leaving the others waiting.
fn install_abort_on_panic(name: &'static str) {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        if mpi::environment::is_initialized() && !mpi::environment::is_finalized() {
            say(&format!(
                "{name}: rank {} panicked; calling MPI_Abort to end every rank",
                process::rank()
            ));
            process::abort(101);
        }
    }));
}

/// The MPI library's version string (first line), without a prefix.
pub fn mpi_library_version() -> String {
    let v = mpi::environment::library_version().unwrap_or_else(|_| "unknown".into());
    // The string may carry the C terminator.
    let v = v.replace('\0', "");
    v.lines().next().unwrap_or("unknown").trim().trim_end_matches(',').to_string()
}

/// Open MPI's MCA parameter files that exist, each as `path: name=value …` (none under
/// another MPI: they do not apply).
pub fn mca_files() -> Vec<String> {
    if !mpi_library_version().contains("Open MPI") {
        return Vec::new();
    }
    let mut files = vec![std::path::PathBuf::from("/etc/openmpi/openmpi-mca-params.conf")];
    if let Some(home) = std::env::var_os("HOME") {
        files.push(std::path::Path::new(&home).join(".openmpi/mca-params.conf"));
    }
    files
        .iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(file).ok()?;
            let params: Vec<String> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(|l| l.replace(' ', ""))
                .collect();
            (!params.is_empty()).then(|| format!("{}: {}", file.display(), params.join(" ")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::split_step;

    #[test]
    fn split_step_needs_a_step_of_several_tasks_in_a_world_of_one() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |v: &str| pairs.iter().find(|(k, _)| *k == v).map(|(_, x)| x.to_string())
        };
        let step = env(&[("SLURM_STEP_ID", "0"), ("SLURM_STEP_NUM_TASKS", "2")]);
        let line = split_step(1, step).unwrap();
        assert!(line.contains("srun started 2 tasks") && line.contains("--mpi=pmix"), "{line}");
        assert_eq!(split_step(2, step), None, "the tasks found each other");
        let one = env(&[("SLURM_STEP_ID", "0"), ("SLURM_STEP_NUM_TASKS", "1")]);
        assert_eq!(split_step(1, one), None, "a step of one task");
        let batch = env(&[("SLURM_NTASKS", "4")]);
        assert_eq!(split_step(1, batch), None, "a batch script's own process is no step");
    }
}
