//! Window (guide §4.2.3.6): MPI_Win_create of X bytes, MPI_Win_fence, a negligible action
//! (one byte put into the right neighbour's window), MPI_Win_fence, MPI_Win_free, timed
//! together; t = Δt per repetition. Times only.

use paw_core::mpi::traits::*;
use paw_imb::buffers::{sent_bytes, test_corruption, touched};
use paw_imb::settings::MESSAGE_PASSING;
use paw_imb::{Ctx, Mode, ProcessTimes, Run};

/// The Window benchmark on one group.
pub struct Lifecycle<'a> {
    /// The group.
    pub ctx: Ctx<'a>,
}

impl Lifecycle<'_> {
    /// One window's life over `memory`; returns the byte that arrived at 0.
    fn once(&self, memory: &mut [u8]) -> u8 {
        let (_, right) = self.ctx.chain();
        let byte = sent_bytes(self.ctx.rank, 0, 1)[0];
        mpi_ext::rma::window_lifecycle(self.ctx.comm, memory, byte, right)
    }
}

impl Run for Lifecycle<'_> {
    fn measure(&mut self, _: Mode, x: usize, reps: usize) -> Result<ProcessTimes, String> {
        let mut memory = touched(0u8, x);
        for _ in 0..MESSAGE_PASSING.n_barr {
            self.ctx.comm.barrier();
        }
        let start = paw_core::mpi::time();
        for _ in 0..reps {
            self.once(&mut memory);
        }
        let t = (paw_core::mpi::time() - start) / reps as f64 * 1e6;
        Ok(ProcessTimes { t, ..Default::default() })
    }

    /// The left neighbour's byte must have arrived.
    fn check(&mut self, _: Mode, x: usize, _: usize) -> Result<u64, String> {
        if x == 0 {
            return Ok(0);
        }
        let (left, _) = self.ctx.chain();
        let expect = sent_bytes(left as usize, 0, 1)[0];
        let mut memory = vec![!expect; x];
        let mut got = self.once(&mut memory);
        if test_corruption(self.ctx.rank) {
            got ^= 1;
        }
        Ok((got != expect) as u64)
    }
}
