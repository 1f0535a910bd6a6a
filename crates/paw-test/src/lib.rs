//! paw-test: the harness every paw benchmark's tests use.
//!
//! [`Launch`] runs a built binary under `mpirun -np N` (or directly) with
//! `OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1` (without them Open MPI as root
//! runs nothing and still exits 0), `--oversubscribe` above two tasks, tiny sizes, a
//! temporary output directory and a hard timeout that kills the whole process tree.
//! Launches are serialised across test processes with a file lock. [`Dat`] parses the files
//! a run wrote; failures print the command, standard output and standard error.
#![warn(missing_docs)]

pub mod binaries;
pub mod browser;
pub mod cgroup;
pub mod cluster;
pub mod collective;
mod disk;
pub mod gpu;
pub mod imb;
mod launch;
pub mod p2p;
pub mod slurm;

pub use disk::SmallDisk;
pub use launch::{
    crowded, has_mpi4, help_variables, is_intel_mpi, is_open_mpi, launcher, launcher_is_graceful,
    srun_mpi_plugin, task_counts, variables_read, Interrupt, Launch, Outcome, DEFAULT_TIMEOUT,
    SMALL,
};
pub use paw_report::Dat;
