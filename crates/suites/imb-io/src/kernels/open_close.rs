//! Open_Close (guide §4.2.4.10): MPI_File_open and MPI_File_close of a file all active
//! processes share, with a negligible action in between (MPI_File_set_view of bytes);
//! t = Δt per repetition. Times only, no length.

use mpi_ext::io::{File, Mode as Amode};
use paw_core::mpi::traits::*;
use paw_imb::settings::IO;
use paw_imb::{Ctx, Mode, ProcessTimes, Run};
use std::path::PathBuf;

/// The Open_Close benchmark on one group.
pub struct OpenClose<'a> {
    ctx: Ctx<'a>,
    path: PathBuf,
}

impl<'a> OpenClose<'a> {
    /// The benchmark on `ctx`, opening `path` (registered for removal by the caller).
    pub fn new(ctx: Ctx<'a>, path: PathBuf) -> OpenClose<'a> {
        OpenClose { ctx, path }
    }

    fn cycle(&self) -> Result<(), String> {
        let f = paw_core::scratch::creating(|| {
            File::open(self.ctx.comm, &self.path, Amode::CREATE | Amode::RDWR)
        })
        .map_err(|e| e.to_string())?;
        f.set_block_view(0, 1, 1).map_err(|e| e.to_string())?;
        f.close().map_err(|e| e.to_string())
    }
}

impl Run for OpenClose<'_> {
    fn measure(&mut self, _: Mode, _: usize, reps: usize) -> Result<ProcessTimes, String> {
        for _ in 0..IO.n_barr {
            self.ctx.comm.barrier();
        }
        let start = paw_core::mpi::time();
        for _ in 0..reps {
            self.cycle()?;
        }
        let t = (paw_core::mpi::time() - start) / reps as f64 * 1e6;
        Ok(ProcessTimes { t, ..Default::default() })
    }

    /// No data moves: nothing to compare.
    fn check(&mut self, _: Mode, _: usize, _: usize) -> Result<u64, String> {
        Ok(0)
    }
}

impl Drop for OpenClose<'_> {
    fn drop(&mut self) {
        if self.ctx.rank == 0 {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
