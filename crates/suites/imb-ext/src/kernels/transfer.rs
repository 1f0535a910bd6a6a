//! Unidir_Put, Unidir_Get, Bidir_Put, Bidir_Get (guide §4.2.3.1-4, MPI_BYTE) and
//! Accumulate (§4.2.3.5: MPI_FLOAT, MPI_SUM, root 0).
//!
//! For each length and mode a window of M X bytes is created and opened with
//! MPI_Win_fence outside the timing (§5.2.3.1), and primed with one untimed transfer
//! epoch (a new window's first access is slow); then N_BARR barriers and the timed
//! transfers: transfer i moves X bytes between offset i X of the origin buffer and offset
//! i X of the target's window (disjoint sections), followed by one MPI_Win_fence
//! (aggregate) or each followed by its own (non-aggregate); t = Δt / M (§5.2.8.2).

use super::Kernel;
use mpi_ext::rma::Window;
use mpi_ext::Plain;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{defects, sent_bytes, sums, test_corruption, touched, Buffer, Expect};
use paw_imb::settings::{FLOAT, MESSAGE_PASSING};
use paw_imb::{Ctx, Mode, ProcessTimes, Run};

/// A one-sided transfer benchmark on one group.
pub struct Transfer<'a> {
    /// The group.
    pub ctx: Ctx<'a>,
    /// Put, Get or Accumulate.
    pub kernel: Kernel,
}

/// The one-sided call of a transfer.
#[derive(Debug, Clone, Copy)]
enum Op {
    Put,
    Get,
    Accumulate,
}

/// What one epoch left behind: this rank's window and origin buffer.
struct After<T> {
    seconds: f64,
    window: Vec<T>,
    origin: Vec<T>,
}

impl Transfer<'_> {
    fn op(&self) -> Op {
        match self.kernel {
            Kernel::Put { .. } => Op::Put,
            Kernel::Get { .. } => Op::Get,
            _ => Op::Accumulate,
        }
    }

    /// The rank this process transfers to or from, if it is an origin.
    fn target(&self) -> Option<i32> {
        let other = 1 - self.ctx.rank as i32;
        match self.kernel {
            Kernel::Put { bidir } | Kernel::Get { bidir } => {
                (bidir || self.ctx.rank == 0).then_some(other)
            }
            _ => Some(0),
        }
    }

    /// The origin rank whose transfers land in (Put, Accumulate) or leave from (Get) this
    /// rank's window, for Put and Get.
    fn partner(&self) -> Option<usize> {
        let other = 1 - self.ctx.rank;
        match self.kernel {
            Kernel::Put { bidir } | Kernel::Get { bidir } => (bidir || other == 0).then_some(other),
            _ => None,
        }
    }

    /// `reps` transfers of `x` bytes in `mode` from the given starting window and origin.
    fn bytes(
        &self,
        mode: Mode,
        x: usize,
        reps: usize,
        window: Vec<u8>,
        origin: Vec<u8>,
    ) -> After<u8> {
        epoch(&self.ctx, self.op(), self.target(), mode, x, reps, window, origin)
    }

    /// `reps` accumulates of `x / 4` floats in `mode`.
    fn floats(&self, mode: Mode, x: usize, reps: usize, window: Vec<f32>) -> After<f32> {
        let origin = Buffer::filled(reps * x, self.ctx.rank).floats(reps * (x / FLOAT)).to_vec();
        epoch(&self.ctx, Op::Accumulate, self.target(), mode, x / FLOAT, reps, window, origin)
    }
}

impl Run for Transfer<'_> {
    fn warm_up(&mut self, x: usize, n: usize) -> Result<(), String> {
        for _ in 0..n {
            self.measure(Mode::Aggregate, x, 1)?;
        }
        Ok(())
    }

    fn measure(&mut self, mode: Mode, x: usize, reps: usize) -> Result<ProcessTimes, String> {
        let n = reps * x;
        let own = || Buffer::filled(n, self.ctx.rank).bytes(n).to_vec();
        let seconds = match self.op() {
            Op::Put => self.bytes(mode, x, reps, touched(0, n), own()).seconds,
            Op::Get => self.bytes(mode, x, reps, own(), touched(0, n)).seconds,
            Op::Accumulate => self.floats(mode, x, reps, touched(0.0, reps * (x / FLOAT))).seconds,
        };
        Ok(ProcessTimes { t: seconds * 1e6, ..Default::default() })
    }

    /// Put: the target's window must hold the origin's buffer values; Get: the origin's
    /// buffer the target's window values; Accumulate: root 0's window the sums over the
    /// processes. What should arrive starts out as its complement (zero for sums).
    fn check(&mut self, mode: Mode, x: usize, reps: usize) -> Result<u64, String> {
        let n = reps * x;
        let rank = self.ctx.rank;
        let own = || Buffer::filled(n, rank).bytes(n).to_vec();
        let complement = |b: &[u8]| b.iter().map(|v| !v).collect::<Vec<u8>>();
        let (expect, mut got) = match (self.op(), self.partner()) {
            (Op::Put, partner) => {
                let expect = partner.map(|p| sent_bytes(p, 0, n)).unwrap_or_default();
                let window = if expect.is_empty() { vec![0; n] } else { complement(&expect) };
                let after = self.bytes(mode, x, reps, window, own());
                (Expect::Bytes(expect.clone()), Buffer::from_bytes(&after.window[..expect.len()]))
            }
            (Op::Get, _) => {
                let from = self.target().map(|t| t as usize);
                let expect = from.map(|t| sent_bytes(t, 0, n)).unwrap_or_default();
                let origin = if expect.is_empty() { vec![0; n] } else { complement(&expect) };
                let after = self.bytes(mode, x, reps, own(), origin);
                (Expect::Bytes(expect.clone()), Buffer::from_bytes(&after.origin[..expect.len()]))
            }
            (Op::Accumulate, _) => {
                let l = reps * (x / FLOAT);
                let after = self.floats(mode, x, reps, vec![0.0; l]);
                let expect = if rank == 0 { sums(self.ctx.q, 0, l) } else { Expect::Nothing };
                (expect, Buffer::from_floats(after.window))
            }
        };
        if x > 0 && test_corruption(rank) && !got.is_empty() {
            got.bytes_mut(1)[0] ^= 1;
        }
        Ok(defects(&expect, &got) as u64)
    }
}

/// One fence epoch over a window made of `window`: N_BARR barriers, then `reps` transfers
/// of `n` elements (transfer i between origin offset i n and target offset i n), timed
/// with their completion. Returns seconds per transfer and what window and origin hold.
#[allow(clippy::too_many_arguments)]
fn epoch<T: Plain + Default>(
    ctx: &Ctx,
    op: Op,
    target: Option<i32>,
    mode: Mode,
    n: usize,
    reps: usize,
    window: Vec<T>,
    mut origin: Vec<T>,
) -> After<T> {
    let len = window.len();
    let win = ctx.in_turn(|| Window::create(ctx.comm, window));
    let seconds = {
        let mut chunks: Vec<&mut [T]> = match n {
            0 => (0..reps).map(|_| <&mut [T]>::default()).collect(),
            _ => origin.chunks_mut(n).take(reps).collect(),
        };
        if target.is_none() {
            chunks.clear();
        }
        // The first transfer, one of `n` elements (zeros, which leave sums as they are),
        // and a scratch buffer for a first get.
        let first: Vec<T> = touched(T::default(), n);
        let mut scratch: Vec<T> = touched(T::default(), if matches!(op, Op::Get) { n } else { 0 });
        win.fenced(|e| {
            // Untimed: the first access to a new window costs far more than the others
            // (0.6 ms more at 4 MiB with Open MPI 4.1 here); N_WARMUP hides that for
            // IMB's one window, and a window per length needs it per length.
            if let Some(t) = target {
                match op {
                    Op::Put => e.put(&first, t, 0),
                    Op::Get => e.get(&mut scratch, t, 0),
                    Op::Accumulate => e.accumulate(&first, t, 0, SystemOperation::sum()),
                }
            }
            e.fence();
            for _ in 0..MESSAGE_PASSING.n_barr {
                ctx.comm.barrier();
            }
            let start = paw_core::mpi::time();
            let t = target.unwrap_or(0);
            for (i, chunk) in chunks.into_iter().enumerate() {
                match op {
                    Op::Put => e.put(chunk, t, i * n),
                    Op::Get => e.get(chunk, t, i * n),
                    Op::Accumulate => e.accumulate(chunk, t, i * n, SystemOperation::sum()),
                }
                if mode == Mode::NonAggregate {
                    e.fence();
                }
            }
            if target.is_none() && mode == Mode::NonAggregate {
                // A passive target takes part in every transfer's fence.
                for _ in 0..reps {
                    e.fence();
                }
            }
            if mode != Mode::NonAggregate {
                e.fence();
            }
            (paw_core::mpi::time() - start) / reps as f64
        })
    };
    let mut after = vec![T::default(); len];
    win.load(0, &mut after);
    After { seconds, window: after, origin }
}
