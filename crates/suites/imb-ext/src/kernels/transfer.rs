//! Unidir_Put, Unidir_Get, Bidir_Put, Bidir_Get (guide §4.2.3.1-4, MPI_BYTE) and
//! Accumulate (§4.2.3.5: MPI_FLOAT, MPI_SUM, root 0).
//!
//! When a benchmark starts on a process count, outside the timing (§5.2.3.1), it gets one
//! window and one origin buffer, as long as the longest span any of its lengths and modes
//! needs; both serve every length and mode, and the N_WARMUP runs warm them. A timing is
//! N_BARR barriers, then M transfers of X bytes, t = Δt / M (§5.2.8.2):
//! - aggregate (§4.2.2.2): transfer i between offset i X of the origin buffer and offset
//!   i X of the target's window (disjoint sections), then one MPI_Win_fence;
//! - non-aggregate (§4.2.3, M = 1 per sample): every transfer between offset 0 of both,
//!   the window's first X bytes, each followed by its MPI_Win_fence;
//! - with `-off_cache` (today's IMB), in both modes transfer i between offset (i mod k) d
//!   of both, d and k as IMB-MPI1's.
//!
//! Get lands in a [`Landing`]: with `-off_cache` two gets of one epoch can share memory.

use super::Kernel;
use mpi_ext::rma::{Landing, Window};
use mpi_ext::Plain;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{defects, sent_bytes, sums, test_corruption, touched, Buffer, Expect};
use paw_imb::placement::{OffCache, Spread};
use paw_imb::settings::MESSAGE_PASSING;
use paw_imb::{Ctx, Mode, Options, ProcessTimes, Run};

/// Message buffers as paw places them (page-aligned), apart from IMB's float [`Buffer`]s.
type Pages<T> = paw_core::Buffer<T>;

/// The one-sided call of a transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Put,
    Get,
    Accumulate,
}

/// A one-sided transfer benchmark on one group: its window and origin buffer, of
/// elements `T` (bytes for Put and Get, floats for Accumulate).
pub struct Transfer<'a, T: Plain + paw_core::buffer::Element> {
    ctx: Ctx<'a>,
    kernel: Kernel,
    window: Window<T>,
    /// What Put and Accumulate send.
    origin: Pages<T>,
    /// Where Get's data lands.
    landing: Landing<T>,
    /// `-off_cache`.
    off_cache: Option<OffCache>,
}

/// Bytes of window (and origin buffer) that a benchmark needs on `lengths` on `q`
/// processes: the aggregate span M X of the longest (the non-aggregate span X is never
/// longer), or with `-off_cache` the span of its repetitions' offsets if longer.
pub fn span(o: &Options, lengths: &[usize], q: usize) -> usize {
    let each = |x: usize| {
        let moved = o.spreads((x, 0), o.most_repetitions(x, q)).0.bytes(x);
        moved.max(x * o.repetitions(Mode::Aggregate, x, q))
    };
    lengths.iter().map(|&x| each(x)).max().unwrap_or(0)
}

impl<'a, T: Plain + Default + paw_core::buffer::Element> Transfer<'a, T> {
    /// Creates the window over `window` (group by group, see [`Ctx::in_turn`]) beside the
    /// origin buffer `origin` (Get: where its data lands).
    pub fn new(
        ctx: Ctx<'a>,
        kernel: Kernel,
        window: Pages<T>,
        origin: Pages<T>,
        o: &Options,
    ) -> Self {
        let window = ctx.in_turn(|| Window::create(ctx.comm, window));
        let (origin, landing) = match kernel {
            Kernel::Get { .. } => (Pages::default(), Landing::new(origin)),
            _ => (origin, Landing::new(Pages::default())),
        };
        Transfer { ctx, kernel, window, origin, landing, off_cache: o.off_cache }
    }

    /// Where transfer i of `reps` of `n` elements starts in both buffers ([`placement`]).
    fn place(&self, mode: Mode, n: usize, reps: usize) -> Spread {
        placement(self.off_cache, size_of::<T>(), mode, n, reps)
    }

    /// The guide's placement ([`placement`] without `-off_cache`).
    fn guide(mode: Mode, n: usize, reps: usize) -> Spread {
        placement(None, size_of::<T>(), mode, n, reps)
    }

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

    /// One fence epoch: N_BARR barriers, then `reps` transfers of `n` elements in `mode`,
    /// transfer i at `place.at(i)` of both buffers, timed with their completion; seconds
    /// per transfer.
    fn epoch(&mut self, mode: Mode, n: usize, reps: usize, place: Spread) -> f64 {
        let (op, target) = (self.op(), self.target());
        let Transfer { ctx, window, origin, landing, .. } = self;
        let sum = SystemOperation::sum;
        window.fenced(|e| {
            for _ in 0..MESSAGE_PASSING.n_barr {
                ctx.comm.barrier();
            }
            let start = paw_core::mpi::time();
            let post = |t, at: usize| match op {
                Op::Put => e.put(&origin[at..at + n], t, at),
                Op::Get => e.get_landing(landing, at, n, t, at),
                Op::Accumulate => e.accumulate(&origin[at..at + n], t, at, sum()),
            };
            match (mode, target) {
                (Mode::NonAggregate, Some(t)) => {
                    for i in 0..reps {
                        post(t, place.at(i));
                        e.fence();
                    }
                }
                // A process that only exposes its window takes part in every fence.
                (Mode::NonAggregate, None) => (0..reps).for_each(|_| e.fence()),
                (_, Some(t)) => {
                    (0..reps).for_each(|i| post(t, place.at(i)));
                    e.fence();
                }
                (_, None) => e.fence(),
            }
            (paw_core::mpi::time() - start) / reps as f64
        })
    }

    /// Elements of `T` in `x` bytes.
    fn elements(x: usize) -> usize {
        x / size_of::<T>()
    }

    /// Elements a timing in `mode` reaches in the window and origin buffer.
    fn reach(mode: Mode, n: usize, reps: usize) -> usize {
        if mode == Mode::NonAggregate {
            n
        } else {
            reps * n
        }
    }
}

/// Where transfer i of `reps` transfers of `n` elements of `size` bytes starts in the
/// origin buffer and the window, in elements: with `-off_cache` its offsets (in both modes,
/// as today's IMB); else the guide's, aggregate i n (disjoint sections), non-aggregate 0.
fn placement(
    off_cache: Option<OffCache>,
    size: usize,
    mode: Mode,
    n: usize,
    reps: usize,
) -> Spread {
    match (off_cache, mode) {
        (Some(c), _) => c.spread(n * size, reps).in_elements(size),
        (None, Mode::NonAggregate) => Spread::NONE,
        (None, _) => Spread { offset: n, cycle: reps.max(1) },
    }
}

/// The `-check` of a transfer benchmark, which depends on what its elements are.
trait Verify {
    /// One more run at length `x` in `mode`, untimed: the wrong elements it delivered.
    fn verify(&mut self, mode: Mode, x: usize, reps: usize) -> u64;
}

impl<T: Plain + Default + paw_core::buffer::Element> Run for Transfer<'_, T>
where
    Self: Verify,
{
    fn warm_up(&mut self, x: usize, n: usize) -> Result<(), String> {
        for _ in 0..n {
            self.epoch(Mode::Aggregate, Self::elements(x), 1, Spread::NONE);
        }
        Ok(())
    }

    fn measure(&mut self, mode: Mode, x: usize, reps: usize) -> Result<ProcessTimes, String> {
        let n = Self::elements(x);
        let seconds = self.epoch(mode, n, reps, self.place(mode, n, reps));
        Ok(ProcessTimes { t: seconds * 1e6, ..Default::default() })
    }

    fn check(&mut self, mode: Mode, x: usize, reps: usize) -> Result<u64, String> {
        Ok(self.verify(mode, x, reps))
    }
}

/// Put and Get move bytes.
impl Verify for Transfer<'_, u8> {
    /// Put: the target's window must then hold the origin's buffer bytes; Get: the
    /// origin's buffer the target's window bytes. What should arrive is first set to its
    /// complement.
    fn verify(&mut self, mode: Mode, x: usize, reps: usize) -> u64 {
        let reach = Self::reach(mode, x, reps);
        let rank = self.ctx.rank;
        let complement = |b: &[u8]| b.iter().map(|v| !v).collect::<Vec<u8>>();
        let (sender, at_target) = match self.op() {
            // The origin whose puts land in this rank's window.
            Op::Put => (self.partner_puts().then(|| 1 - rank), true),
            _ => (self.target().map(|t| t as usize), false),
        };
        let expect = sender.map(|s| sent_bytes(s, 0, reach)).unwrap_or_default();
        if at_target {
            self.window.store(0, &complement(&expect));
        } else {
            self.landing.contents()[..expect.len()].copy_from_slice(&complement(&expect));
        }
        self.epoch(mode, x, reps, Self::guide(mode, x, reps));
        let mut got = if at_target {
            let mut w = vec![0; expect.len()];
            self.window.load(0, &mut w);
            Buffer::from_bytes(&w)
        } else {
            Buffer::from_bytes(&self.landing.contents()[..expect.len()])
        };
        if !expect.is_empty() && test_corruption(rank) {
            got.bytes_mut(1)[0] ^= 1;
        }
        defects(&Expect::Bytes(expect), &got) as u64
    }
}

impl Transfer<'_, u8> {
    /// Whether the other rank puts into this rank's window (Bidir_Put, or rank 1 of
    /// Unidir_Put).
    fn partner_puts(&self) -> bool {
        matches!(self.kernel, Kernel::Put { bidir: true }) || self.ctx.rank == 1
    }
}

/// Accumulate adds floats.
impl Verify for Transfer<'_, f32> {
    /// Root 0's window, zeroed first, must hold the sums over the processes (each of the
    /// `reps` sums in aggregate mode; `reps` times the sum in non-aggregate mode, where
    /// every accumulate lands on the same elements).
    fn verify(&mut self, mode: Mode, x: usize, reps: usize) -> u64 {
        let n = Self::elements(x);
        let reach = Self::reach(mode, n, reps);
        let root = self.ctx.rank == 0;
        if root {
            self.window.store(0, &vec![0.0; reach]);
        }
        self.epoch(mode, n, reps, Self::guide(mode, n, reps));
        if !root {
            return 0;
        }
        let mut got = vec![0.0; reach];
        self.window.load(0, &mut got);
        let mut got = Buffer::from_floats(got);
        if reach > 0 && test_corruption(0) {
            got.bytes_mut(1)[0] ^= 1;
        }
        let expect = match (mode, sums(self.ctx.q, 0, reach)) {
            (Mode::NonAggregate, Expect::Sums { values, terms, elem }) => Expect::Sums {
                values: values.iter().map(|v| v * reps as f64).collect(),
                terms: terms * reps,
                elem,
            },
            (_, expect) => expect,
        };
        defects(&expect, &got) as u64
    }
}

/// The window and origin buffer of `bytes` bytes for `kernel` on rank `rank`: Put's
/// origin and Get's window hold the rank's buffer values, what receives is zeroed.
pub fn bytes_for(kernel: Kernel, rank: usize, bytes: usize) -> (Pages<u8>, Pages<u8>) {
    let own = Pages::from_slice(Buffer::filled(bytes, rank).bytes(bytes));
    match kernel {
        Kernel::Get { .. } => (own, touched(0, bytes)),
        _ => (touched(0, bytes), own),
    }
}

/// Accumulate's window (zeroed) and origin buffer (the rank's buffer values) of `bytes`.
pub fn floats_for(rank: usize, bytes: usize) -> (Pages<f32>, Pages<f32>) {
    let n = bytes / size_of::<f32>();
    (touched(0.0, n), Pages::from_slice(Buffer::filled(bytes, rank).floats(n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfers_go_where_the_guide_or_off_cache_puts_them() {
        let guide = |mode| placement(None, 1, mode, 1000, 10);
        assert_eq!(guide(Mode::Aggregate).at(3), 3000, "disjoint sections");
        assert_eq!(guide(Mode::NonAggregate).at(3), 0, "the window's start");
        let cache = Some(OffCache::DEFAULT);
        // 1 MiB: d = 1 MiB + one 64-byte line, k = min(10, (16 MiB + d - 1) / d) = 10.
        let big = placement(cache, 1, Mode::NonAggregate, 1 << 20, 10);
        assert_eq!((big.at(1), big.at(9), big.at(10)), (1_048_640, 9 * 1_048_640, 0));
        // Floats: offsets in elements, 4 KiB + 64 bytes apart; k = 4 at 4 MiB.
        let floats = placement(cache, 4, Mode::Aggregate, 1024, 1000);
        assert_eq!(floats.at(1), 4160 / 4);
        assert_eq!(placement(cache, 4, Mode::Aggregate, 1 << 20, 1000).cycle, 4);
    }
}
