//! The benchmarks of IMB-P2P, listed in [`BENCHMARKS`] in today's IMB's order. Every
//! process takes part; per length each times its own loop of n iterations of the pattern
//! ([`P2p::measure`]); the driver's statistics give t (mean), Mbytes/sec and Msg/sec
//! (slowest process).

mod patterns;

use mpi_ext::batch::Batch;
use patterns::{grid2, grid3, neighbours, partner, Lcg};
use paw_core::mpi::point_to_point::send_receive_replace_into;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{defects, sent_bytes, test_corruption, Buffer, Expect};
use paw_imb::{
    settings, Class, Ctx, Edition, Gen, General, Mode, Options, ProcessTimes, Run, Started, Suite,
    Table,
};
use std::hint::black_box;
use std::time::Duration;

/// What a benchmark does per iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Rank r < N/2 sends to r + N/2 and receives back; the upper half answers.
    PingPong,
    /// Every rank posts a receive from its partner, sends to it, waits.
    PingPing,
    /// A ring: MPI_Sendrecv_replace to the next rank from the previous one.
    SendRecvReplace,
    /// N steps; in each, a drawn rank a sends to a drawn rank b.
    Unirandom,
    /// N steps; in each, drawn ranks a and b exchange.
    Birandom,
    /// The shared ring is shuffled; every rank receives from its predecessor and sends
    /// to its successor.
    Corandom,
    /// Periodic 2-D grid: receives from and sends to the 4 neighbours, then one Waitall.
    Stencil2D,
    /// Periodic 3-D grid, 6 neighbours.
    Stencil3D,
}

/// A benchmark of IMB-P2P.
pub type Benchmark = paw_imb::Benchmark<Pattern>;

const fn bench(name: &'static str, n_msg: usize, kernel: Pattern) -> Benchmark {
    let class = Class::Everyone { half: matches!(kernel, Pattern::PingPong) };
    Benchmark::new(name, class, n_msg, kernel).holding(match kernel {
        Pattern::Stencil2D => |_, x, _| (x, 4 * x),
        Pattern::Stencil3D => |_, x, _| (x, 6 * x),
        _ => |_, x, _| (x, x),
    })
}

/// Every benchmark, in today's IMB-P2P's order; `n_msg` is messages per process and
/// iteration as it counts them (half the sends and receives a process makes).
pub const BENCHMARKS: &[Benchmark] = &[
    bench("PingPong", 1, Pattern::PingPong),
    bench("PingPing", 1, Pattern::PingPing),
    bench("Unirandom", 1, Pattern::Unirandom),
    bench("Birandom", 2, Pattern::Birandom),
    bench("Corandom", 1, Pattern::Corandom),
    bench("Stencil2D", 4, Pattern::Stencil2D),
    bench("Stencil3D", 6, Pattern::Stencil3D),
    bench("SendRecv_Replace", 1, Pattern::SendRecvReplace),
];

/// Whether `b` runs on `n` processes (pairs need an even count, the stencils a grid with
/// every side 2 or more, the others 2 processes or more), and the stencils' grid for the
/// `# Benchmarking` line, `(ly x lx)` or `(lz x ly x lx)`.
pub fn shape(b: &Benchmark, n: usize) -> Option<String> {
    match b.kernel {
        Pattern::PingPong | Pattern::PingPing => (n >= 2 && n.is_multiple_of(2)).then(String::new),
        Pattern::Stencil2D => grid2(n).map(|(ly, lx)| format!(" ({ly} x {lx})")),
        Pattern::Stencil3D => grid3(n).map(|(lz, ly, lx)| format!(" ({lz} x {ly} x {lx})")),
        _ => (n >= 2).then(String::new),
    }
}

/// One benchmark on all processes.
pub struct P2p<'a> {
    b: &'static Benchmark,
    ctx: Ctx<'a>,
    send: Buffer,
    recv: Buffer,
    batch: Batch,
    /// The stencil's neighbours (x-1, x+1, y-1, y+1[, z-1, z+1]).
    around: Vec<usize>,
    /// Corandom's shared ring.
    ring: Vec<usize>,
    lcg: Lcg,
    pause: Duration,
    msgwr: bool,
    msgrd: bool,
    /// The own data's byte at each 64-byte line (what `-msgwr` stores).
    marks: Vec<u8>,
}

/// The suite's `start`: buffers for the largest length.
pub fn start<'a>(b: &'static Benchmark, ctx: Ctx<'a>, o: &Options) -> Started<'a> {
    let largest = o.lengths.for_benchmark(b.unit).into_iter().max().unwrap_or(0);
    let (send, recv) = (b.memory)(ctx.q, largest, 1);
    let around = match b.kernel {
        Pattern::Stencil2D => grid2(ctx.q).map(|(ly, lx)| neighbours(ctx.rank, &[ly, lx])),
        Pattern::Stencil3D => grid3(ctx.q).map(|(lz, ly, lx)| neighbours(ctx.rank, &[lz, ly, lx])),
        _ => None,
    };
    let own = Buffer::filled(send, ctx.rank);
    let marks = own.bytes(send).iter().step_by(64).copied().collect();
    Ok(Box::new(P2p {
        b,
        ctx,
        send: own,
        recv: Buffer::filled(recv, ctx.rank),
        batch: Batch::with_capacity(12),
        around: around.unwrap_or_default(),
        ring: (0..ctx.q).collect(),
        lcg: Lcg::default(),
        pause: Duration::from_micros(o.pause_us),
        msgwr: o.msgwr,
        msgrd: o.msgrd,
        marks,
    }))
}

/// `-msgwr`: a store to one byte of every 64-byte line, without reading the line: the byte
/// the process's own data holds there (`marks`, one per line), so `-check` still compares
/// the data. (A read before the store tripled the time per message at 4-64 KiB on shared
/// memory, against IMB's store of a counter.)
fn write_lines(buf: &mut [u8], marks: &[u8], on: bool) {
    if on {
        for (i, &m) in (0..buf.len()).step_by(64).zip(marks) {
            buf[i] = m;
        }
    }
}

/// `-msgrd`: a read of one byte of every 64-byte line.
fn read_lines(buf: &[u8], on: bool) {
    if on {
        let mut sum = 0u8;
        for i in (0..buf.len()).step_by(64) {
            sum ^= buf[i];
        }
        black_box(sum);
    }
}

impl P2p<'_> {
    /// Today's IMB-P2P barrier: zero-byte MPI_Sendrecv to rank + 2^k from rank - 2^k.
    fn barrier(&self) {
        paw_imb::sendrecv_barrier(self.ctx.comm);
    }

    /// `reps` iterations from the start of the draws and an identity ring.
    fn run(&mut self, x: usize, reps: usize) {
        self.lcg = Lcg::default();
        self.ring.iter_mut().enumerate().for_each(|(i, r)| *r = i);
        for _ in 0..reps {
            self.iteration(x);
        }
    }

    fn iteration(&mut self, x: usize) {
        let (comm, n, me) = (self.ctx.comm, self.ctx.q, self.ctx.rank);
        let (wr, rd, marks) = (self.msgwr, self.msgrd, &self.marks);
        let at = |r: usize| comm.process_at_rank(r as i32);
        match self.b.kernel {
            Pattern::PingPong => {
                let other = at(partner(me, n));
                if me < n / 2 {
                    write_lines(self.send.bytes_mut(x), marks, wr);
                    other.send(self.send.bytes(x));
                    other.receive_into(self.recv.bytes_mut(x));
                    read_lines(self.recv.bytes(x), rd);
                } else {
                    other.receive_into(self.recv.bytes_mut(x));
                    read_lines(self.recv.bytes(x), rd);
                    write_lines(self.send.bytes_mut(x), marks, wr);
                    other.send(self.send.bytes(x));
                }
            }
            Pattern::PingPing => self.exchange(partner(me, n), partner(me, n), x),
            Pattern::SendRecvReplace => {
                let buf = self.recv.bytes_mut(x);
                write_lines(buf, marks, wr);
                send_receive_replace_into(buf, &at((me + 1) % n), &at((me + n - 1) % n));
                read_lines(buf, rd);
            }
            Pattern::Unirandom => {
                for _ in 0..n {
                    let (a, b) = self.lcg.pair(n);
                    if me == a {
                        write_lines(self.send.bytes_mut(x), marks, wr);
                        at(b).send(self.send.bytes(x));
                    } else if me == b {
                        at(a).receive_into(self.recv.bytes_mut(x));
                        read_lines(self.recv.bytes(x), rd);
                    }
                }
            }
            Pattern::Birandom => {
                for _ in 0..n {
                    let (a, b) = self.lcg.pair(n);
                    if me == a || me == b {
                        let other = if me == a { b } else { a };
                        self.exchange(other, other, x);
                    }
                }
            }
            Pattern::Corandom => {
                self.lcg.shuffle(&mut self.ring);
                let p = self.ring.iter().position(|&r| r == me).expect("every rank is in the ring");
                let (from, to) = (self.ring[(p + n - 1) % n], self.ring[(p + 1) % n]);
                self.exchange(from, to, x);
            }
            Pattern::Stencil2D | Pattern::Stencil3D => {
                write_lines(self.send.bytes_mut(x), marks, wr);
                let k = self.around.len();
                let (send, recv) = (self.send.bytes(x), self.recv.bytes_mut(k * x));
                let around = &self.around;
                self.batch.run(|b| {
                    let mut rest = recv;
                    for &r in around {
                        let (slot, tail) = std::mem::take(&mut rest).split_at_mut(x);
                        rest = tail;
                        b.irecv(&at(r), slot, 0);
                    }
                    for &r in around {
                        b.isend(&at(r), send, 0);
                    }
                });
                read_lines(self.recv.bytes(k * x), rd);
            }
        }
    }

    /// MPI_Irecv from `from`, MPI_Send to `to`, MPI_Wait.
    fn exchange(&mut self, from: usize, to: usize, x: usize) {
        let comm = self.ctx.comm;
        write_lines(self.send.bytes_mut(x), &self.marks, self.msgwr);
        let (send, recv) = (self.send.bytes(x), self.recv.bytes_mut(x));
        self.batch.run(|b| {
            b.irecv(&comm.process_at_rank(from as i32), recv, 0);
            comm.process_at_rank(to as i32).send(send);
        });
        read_lines(self.recv.bytes(x), self.msgrd);
    }

    /// What the receive buffer holds after one iteration from the start.
    fn expected(&self, x: usize) -> Expect {
        let (n, me) = (self.ctx.q, self.ctx.rank);
        let from = |r: usize| Expect::Bytes(sent_bytes(r, 0, x));
        match self.b.kernel {
            Pattern::PingPong | Pattern::PingPing => from(partner(me, n)),
            Pattern::SendRecvReplace => from((me + n - 1) % n),
            Pattern::Unirandom | Pattern::Birandom => {
                let mut lcg = Lcg::default();
                let mut last = None;
                for _ in 0..n {
                    let (a, b) = lcg.pair(n);
                    if me == b {
                        last = Some(a);
                    } else if me == a && self.b.kernel == Pattern::Birandom {
                        last = Some(b);
                    }
                }
                last.map(from).unwrap_or(Expect::Nothing)
            }
            Pattern::Corandom => {
                let mut ring: Vec<usize> = (0..n).collect();
                Lcg::default().shuffle(&mut ring);
                let p = ring.iter().position(|&r| r == me).expect("in the ring");
                from(ring[(p + n - 1) % n])
            }
            Pattern::Stencil2D | Pattern::Stencil3D => {
                Expect::Bytes(self.around.iter().flat_map(|&r| sent_bytes(r, 0, x)).collect())
            }
        }
    }
}

impl Run for P2p<'_> {
    /// Per length, as today's IMB-P2P: pause, barrier, warm-up (n/10 iterations, 1 when
    /// that is 0 and n > 1), barrier (none for SendRecv_Replace), the timed n iterations,
    /// pause, barrier.
    fn measure(&mut self, _: Mode, x: usize, reps: usize) -> Result<ProcessTimes, String> {
        std::thread::sleep(self.pause);
        self.barrier();
        let warm = if reps / 10 == 0 && reps > 1 { 1 } else { reps / 10 };
        self.run(x, warm);
        if self.b.kernel != Pattern::SendRecvReplace {
            self.barrier();
        }
        let start = paw_core::mpi::time();
        self.run(x, reps);
        let seconds = paw_core::mpi::time() - start;
        std::thread::sleep(self.pause);
        self.barrier();
        Ok(ProcessTimes { t: seconds / reps.max(1) as f64 * 1e6, ..Default::default() })
    }

    /// One iteration into a poisoned receive buffer (SendRecv_Replace's starts from the
    /// process's own bytes), compared with what the pattern sends there.
    fn check(&mut self, _: Mode, x: usize, _: usize) -> Result<u64, String> {
        let expect = self.expected(x);
        self.recv.poison_against(&expect);
        if self.b.kernel == Pattern::SendRecvReplace {
            let own = self.send.bytes(x).to_vec();
            self.recv.bytes_mut(x).copy_from_slice(&own);
        }
        self.barrier();
        self.run(x, 1);
        self.barrier();
        if x > 0 && test_corruption(self.ctx.rank) && expect != Expect::Nothing {
            self.recv.bytes_mut(1)[0] ^= 1;
        }
        Ok(defects(&expect, &self.recv) as u64)
    }
}

/// The suite: today's IMB-P2P's repetition rule (at most 100 000 iterations, 800 MiB a
/// length), its own warm-up and barriers inside the kernels.
pub static SUITE: Suite<Pattern> = Suite {
    table: Table {
        name: "IMB-P2P",
        what: "IMB-P2P part",
        edition: Edition::V2021,
        timed: "per benchmark and length, every process: -pause, a barrier (zero-byte MPI_Sendrecv \
                to rank + 2^k from rank - 2^k), n/10 untimed iterations, a barrier (not for \
                SendRecv_Replace), then MPI_Wtime around its own n iterations of the pattern, \
                with -msgwr and -msgrd touching the buffers inside them, -pause, a barrier.",
        reported: "per length the iterations n; with each process's time T per iteration and \
                   the messages M a pattern moves per iteration over all processes (each \
                   process's sends and receives, halved): t[usec] = mean T x processes / M \
                   (PingPong: half of it, the one-way time); Msg/sec = M / the slowest T; \
                   Mbytes/sec = Msg/sec x X.",
        settings: settings::Settings {
            msgs_per_sample: 100_000,
            overall_vol: 800 << 20,
            n_warmup: 0,
            own_warm_up: Some(
                "n/10 iterations untimed at every length (1 where that is 0 and n > 1); a barrier of \
                 zero-byte MPI_Sendrecv (to rank + 2^k from rank - 2^k) before the warm-up, after it \
                 (not for SendRecv_Replace) and after each timing",
            ),
            ..settings::MESSAGE_PASSING
        },
        benchmarks: BENCHMARKS,
        windows: false,
        io: false,
        general: General::of(&[Gen::AllocMem]),
        inert: General::NONE,
        refuse_unrunnable: false,
        shape,
    },
    prologue: |_, _| Ok(String::new()),
    start,

};
