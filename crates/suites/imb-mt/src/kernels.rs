//! IMB-MT's ten benchmarks (today's IMB, src_cpp/MT/MT_benchmark.cpp): each thread runs
//! its kernel on its own communicator, a duplicate of MPI_COMM_WORLD. Point-to-point
//! kernels are timed as a whole loop after an untimed warm-up loop and a barrier; the
//! collectives time every iteration alone, drop the first `warmup`, and call the barrier
//! five times after each (BarrierMT: none).

use mpi_ext::batch::Batch;
use mpi_ext::Plain;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::point_to_point::send_receive_into;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;

/// The element type of `-datatype`: int or char.
pub trait Elem: Plain + Default + PartialEq + Send + Sync + std::fmt::Debug {
    /// Bytes of one element.
    const SIZE: usize;
    /// `v` as this type (wrapping, as C's conversion).
    fn of(v: i64) -> Self;
    /// The value as a wide integer.
    fn wide(self) -> i64;
}

/// [`Elem`] for the integer types `$t`.
macro_rules! elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            const SIZE: usize = size_of::<$t>();
            fn of(v: i64) -> $t {
                v as $t
            }
            fn wide(self) -> i64 {
                self as i64
            }
        }
    )*};
}
elem!(i32, i8);

/// How the benchmarks are timed and reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A loop timed as a whole, after a warm-up loop and a barrier.
    PointToPoint,
    /// Every iteration timed alone, five barriers after each.
    Collective,
    /// BarrierMT: every iteration timed alone, nothing after.
    Barrier,
}

/// One of IMB-MT's benchmarks.
#[derive(Debug, Clone, Copy)]
pub struct Benchmark {
    /// Intel's name.
    pub name: &'static str,
    /// How it is timed.
    pub kind: Kind,
    /// The reported times are divided by this (2: PingPong's and BiBand's round trip).
    pub divide: f64,
    /// Mbytes/sec = bytes x this / t_max (SendRecv 2, Exchange 4); 0: no such column.
    pub bandwidth: f64,
    /// A window of messages per iteration (UniBand, BiBand): t_avg, cumulative Mbytes/sec
    /// and Msg/sec columns.
    pub window: bool,
    /// The receive buffer holds two messages (Exchange).
    pub two_in: bool,
}

const fn bench(name: &'static str, kind: Kind, divide: f64, bandwidth: f64) -> Benchmark {
    Benchmark { name, kind, divide, bandwidth, window: false, two_in: false }
}

/// Every benchmark, in Intel's order (all run by default).
pub const BENCHMARKS: &[Benchmark] = &[
    bench("PingPongMT", Kind::PointToPoint, 2.0, 1.0),
    bench("PingPingMT", Kind::PointToPoint, 1.0, 1.0),
    bench("SendRecvMT", Kind::PointToPoint, 1.0, 2.0),
    Benchmark { two_in: true, ..bench("ExchangeMT", Kind::PointToPoint, 1.0, 4.0) },
    Benchmark { window: true, ..bench("UniBandMT", Kind::PointToPoint, 1.0, 1.0) },
    Benchmark { window: true, ..bench("BiBandMT", Kind::PointToPoint, 2.0, 1.0) },
    bench("BarrierMT", Kind::Barrier, 1.0, 0.0),
    bench("BcastMT", Kind::Collective, 1.0, 0.0),
    bench("ReduceMT", Kind::Collective, 1.0, 0.0),
    bench("AllReduceMT", Kind::Collective, 1.0, 0.0),
];

/// The pairing of the point-to-point kernels (`-stride`; 0: half the processes): this
/// process's group, or `None` where it takes no part (Intel's set_stride).
pub fn group(rank: usize, size: usize, stride: usize) -> Option<(usize, usize)> {
    let stride = if stride == 0 { size / 2 } else { stride };
    if stride == 0 || stride > size / 2 {
        return None;
    }
    let group = rank / stride;
    if group / 2 == size / (2 * stride) && !size.is_multiple_of(2 * stride) {
        return None;
    }
    Some((group, stride))
}

/// The paired point-to-point patterns.
#[derive(Debug, Clone, Copy)]
enum Pair {
    PingPong,
    PingPing,
    UniBand,
    BiBand,
}

/// One thread's communicator and buffers.
pub struct Lane<'c, T: Elem> {
    /// Its duplicate of MPI_COMM_WORLD.
    pub comm: &'c SimpleCommunicator,
    /// What it sends.
    pub input: Vec<T>,
    /// Where messages arrive (twice `count` for Exchange).
    pub out: Vec<T>,
    /// Requests of a window.
    pub batch: Batch,
    /// One byte for the windows' acknowledgements.
    pub ack: [u8; 1],
}

impl<T: Elem> std::fmt::Debug for Lane<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lane(rank {}, {} elements)", self.comm.rank(), self.input.len())
    }
}

/// What a kernel needs besides its lane.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    /// Elements per message.
    pub count: usize,
    /// `-stride`.
    pub stride: usize,
    /// `-window_size`.
    pub window: usize,
    /// The barrier of `-barrier` (every thread calls it).
    pub barrier: &'a dyn Fn(),
    /// The threads of this process meet (an OpenMP barrier in Intel's; nothing with one
    /// thread).
    pub meet: &'a dyn Fn(),
}

impl<T: Elem> Lane<'_, T> {
    /// Buffers for `count` elements.
    pub fn new(
        comm: &SimpleCommunicator,
        count: usize,
        two_in: bool,
        window: usize,
    ) -> Lane<'_, T> {
        Lane {
            comm,
            input: vec![T::default(); count],
            out: vec![T::default(); if two_in { 2 * count } else { count }],
            batch: Batch::with_capacity(2 * window),
            ack: [0],
        }
    }

    /// `b` with `repeat` timed iterations after `warmup` untimed ones: the seconds of the
    /// timed ones, or `None` where this process takes no part.
    pub fn measure(&mut self, b: &Benchmark, r: &Run, warmup: usize, repeat: usize) -> Option<f64> {
        match b.kind {
            Kind::PointToPoint => {
                self.pattern(b, r, warmup)?;
                (r.barrier)();
                let start = paw_core::mpi::time();
                self.pattern(b, r, repeat)?;
                Some(paw_core::mpi::time() - start)
            }
            Kind::Collective | Kind::Barrier => {
                let mut sum = 0.0;
                for i in 0..warmup + repeat {
                    let start = paw_core::mpi::time();
                    self.collective(b, r);
                    let t = paw_core::mpi::time() - start;
                    if i >= warmup {
                        sum += t;
                    }
                    if b.kind == Kind::Collective {
                        (0..5).for_each(|_| (r.barrier)());
                    }
                }
                Some(sum)
            }
        }
    }

    /// `repeat` iterations of a point-to-point pattern; `None` where this process takes
    /// no part.
    fn pattern(&mut self, b: &Benchmark, r: &Run, repeat: usize) -> Option<()> {
        let (rank, size) = (self.comm.rank() as usize, self.comm.size() as usize);
        let n = r.count;
        let (send, out) = (&self.input[..n], &mut self.out[..]);
        match b.name {
            "PingPongMT" | "PingPingMT" | "UniBandMT" | "BiBandMT" => {
                let (g, stride) = group(rank, size, r.stride)?;
                let first = g % 2 == 0;
                let partner = if first { rank + stride } else { rank - stride };
                let p = self.comm.process_at_rank(partner as i32);
                // The pattern is chosen once, not by name inside the timed loop.
                let pattern = match b.name {
                    "PingPongMT" => Pair::PingPong,
                    "PingPingMT" => Pair::PingPing,
                    "UniBandMT" => Pair::UniBand,
                    _ => Pair::BiBand,
                };
                for _ in 0..repeat {
                    match (pattern, first) {
                        (Pair::PingPong, true) => {
                            p.send(send);
                            p.receive_into(&mut out[..n]);
                        }
                        (Pair::PingPong, false) => {
                            p.receive_into(&mut out[..n]);
                            p.send(send);
                        }
                        (Pair::PingPing, _) => {
                            let recv = &mut out[..n];
                            self.batch.run(|post| {
                                post.isend(&p, send, 0);
                                post.irecv(&p, recv, 0);
                            });
                        }
                        (Pair::UniBand, true) => {
                            self.batch
                                .run(|post| (0..r.window).for_each(|_| post.isend(&p, send, 0)));
                            p.receive_into(&mut self.ack[..]);
                        }
                        (Pair::UniBand, false) => {
                            let recv = &mut out[..n];
                            self.batch.run(|post| post.irecv_window(&p, recv, r.window, 0));
                            p.send(&self.ack[..]);
                        }
                        _ => {
                            let recv = &mut out[..n];
                            self.batch.run(|post| {
                                post.irecv_window(&p, recv, r.window, 0);
                                (0..r.window).for_each(|_| post.isend(&p, send, 0));
                            });
                            if first {
                                p.receive_into(&mut self.ack[..]);
                            } else {
                                p.send(&self.ack[..]);
                            }
                        }
                    }
                }
            }
            "SendRecvMT" => {
                let stride = group(rank, size, r.stride).map_or(size / 2, |(_, s)| s);
                let to = self.comm.process_at_rank(((rank + stride) % size) as i32);
                let from = self.comm.process_at_rank(((rank + size - stride) % size) as i32);
                for _ in 0..repeat {
                    send_receive_into(send, &to, &mut out[..n], &from);
                }
            }
            _ => {
                // ExchangeMT: to both neighbours at `stride`, from both into two halves.
                let stride = group(rank, size, r.stride).map_or(size / 2, |(_, s)| s);
                let left = self.comm.process_at_rank(((rank + size - stride) % size) as i32);
                let right = self.comm.process_at_rank(((rank + stride) % size) as i32);
                let (from_left, from_right) = out.split_at_mut(n);
                for _ in 0..repeat {
                    self.batch.run(|post| {
                        post.isend(&left, send, 0);
                        post.isend(&right, send, 0);
                        left.receive_into(&mut from_left[..]);
                        right.receive_into(&mut from_right[..n]);
                    });
                }
            }
        }
        Some(())
    }

    /// One iteration of a collective (root 0).
    fn collective(&mut self, b: &Benchmark, r: &Run) {
        let n = r.count;
        let root = self.comm.process_at_rank(0);
        let is_root = self.comm.rank() == 0;
        match b.name {
            "BarrierMT" => {
                (r.meet)();
                self.comm.barrier();
            }
            "BcastMT" if is_root => root.broadcast_into(&mut self.input[..n]),
            "BcastMT" => root.broadcast_into(&mut self.out[..n]),
            "ReduceMT" if is_root => {
                root.reduce_into_root(&self.input[..n], &mut self.out[..n], SystemOperation::sum())
            }
            "ReduceMT" => root.reduce_into(&self.input[..n], SystemOperation::sum()),
            _ => self.comm.all_reduce_into(
                &self.input[..n],
                &mut self.out[..n],
                SystemOperation::sum(),
            ),
        }
    }

    /// `-check`: one more untimed iteration from Intel's values (element i of rank r's
    /// input is (r + 1) i, its output -1): the elements that then differ from what the
    /// benchmark must deliver (`None` where this process takes no part).
    pub fn check(&mut self, b: &Benchmark, r: &Run) -> Option<usize> {
        let (rank, size) = (self.comm.rank() as usize, self.comm.size() as usize);
        let n = r.count;
        let value = |from: usize, i: usize| T::of(((from + 1) * i) as i64);
        for (i, v) in self.input.iter_mut().enumerate() {
            *v = value(rank, i);
        }
        self.out.iter_mut().for_each(|v| *v = T::of(-1));
        let expect: Vec<(usize, T)> = match b.kind {
            Kind::PointToPoint => {
                self.pattern(b, r, 1)?;
                let (stride, first) = match group(rank, size, r.stride) {
                    Some((g, s)) => (s, g % 2 == 0),
                    None => (size / 2, true),
                };
                let partner = if first { rank + stride } else { rank.wrapping_sub(stride) };
                let left = (rank + size - stride) % size;
                let right = (rank + stride) % size;
                match b.name {
                    "UniBandMT" if first => Vec::new(),
                    "SendRecvMT" => (0..n).map(|i| (i, value(left, i))).collect(),
                    "ExchangeMT" => (0..n)
                        .map(|i| (i, value(left, i)))
                        .chain((0..n).map(|i| (n + i, value(right, i))))
                        .collect(),
                    _ => (0..n).map(|i| (i, value(partner, i))).collect(),
                }
            }
            Kind::Barrier => {
                self.collective(b, r);
                Vec::new()
            }
            Kind::Collective => {
                self.collective(b, r);
                let sum = |i: usize| {
                    (0..size)
                        .fold(T::of(0), |acc: T, from| T::of(acc.wide() + value(from, i).wide()))
                };
                match b.name {
                    "BcastMT" if rank == 0 => Vec::new(),
                    "BcastMT" => (0..n).map(|i| (i, value(0, i))).collect(),
                    "ReduceMT" if rank != 0 => Vec::new(),
                    _ => (0..n).map(|i| (i, sum(i))).collect(),
                }
            }
        };
        if paw_imb::buffers::test_corruption(rank) && !expect.is_empty() {
            let i = expect[0].0;
            self.out[i] = T::of(self.out[i].wide() + 1);
        }
        let input_kept = (0..n).all(|i| self.input[i] == value(rank, i));
        let wrong = expect.iter().filter(|(i, v)| self.out[*i] != *v).count();
        Some(wrong + usize::from(!input_kept))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_follow_intels_stride_rule() {
        assert_eq!(group(0, 2, 0), Some((0, 1)));
        assert_eq!(group(1, 2, 0), Some((1, 1)));
        assert_eq!(group(0, 1, 0), None, "one process: no pair");
        // Four processes, stride 1: 0-1 and 2-3.
        assert_eq!(group(2, 4, 1), Some((2, 1)));
        // Five processes, stride 2: 0,1 with 2,3; 4 has no partner.
        assert_eq!(group(4, 5, 2), None);
        assert_eq!(group(3, 5, 2), Some((1, 2)));
        assert_eq!(group(0, 4, 3), None, "stride beyond half");
    }
}
