//! One step of a pattern by each of the three methods (paper §4), its timing, and the
//! data check. Messages are sent from and received into one send and one receive buffer
//! used cyclically, as b_eff 3.6 does (see [`Cursor`]).

use crate::patterns::{Exchange, Pattern};
use crate::plan;
use mpi_ext::batch::Batch;
use paw_core::check;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::datatype::{Partition, PartitionMut};
use paw_core::mpi::point_to_point::send_receive_into;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;

/// How the messages of a step are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// One MPI_Sendrecv per exchange, one after the other.
    Sendrecv,
    /// One MPI_Alltoallv over all processes, zero counts to non-partners.
    Alltoallv,
    /// MPI_Irecv for every receive, MPI_Isend for every send, one MPI_Waitall.
    Nonblocking,
}

/// The three methods, in the protocol's order.
pub const METHODS: [Method; 3] = [Method::Sendrecv, Method::Alltoallv, Method::Nonblocking];

impl Method {
    /// The name in the protocol.
    pub fn name(self) -> &'static str {
        match self {
            Method::Sendrecv => "Sendrecv",
            Method::Alltoallv => "Alltoallv",
            Method::Nonblocking => "Irecv_Isend_Waitall",
        }
    }
}

/// The name of the ping-pong's only method.
pub const PING_PONG: &str = "Send_Recv";

/// Most exchanges of one process in one step (the 3-D Cartesian pattern in all
/// directions: two per direction).
pub const MAX_EXCHANGES: usize = 6;

/// The buffers hold this many messages of Lmax (each padded by 16 bytes), as b_eff 3.6's.
pub const BUFFER_MESSAGES: usize = 6;

/// The running offset into the cyclic buffers (b_eff 3.6): each message starts at the
/// offset, which then advances by the length rounded up to 8 bytes and wraps to 0 when the
/// next message would not fit. It starts at 0 once per run and is kept across steps,
/// loops, patterns, methods and lengths, so a long message never comes from the cache the
/// previous step warmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    at: usize,
    len: usize,
}

impl Cursor {
    /// A cursor over buffers of `len` bytes.
    pub fn new(len: usize) -> Cursor {
        Cursor { at: 0, len }
    }

    /// The offset of the next message of `bytes`, advancing past it.
    pub fn next(&mut self, bytes: usize) -> usize {
        let padded = bytes.div_ceil(8) * 8;
        if self.at + padded > self.len {
            self.at = 0;
        }
        let here = self.at;
        self.at += padded;
        here
    }

    /// The offsets of the `n` messages of `bytes` of one step. Where the step's messages
    /// would wrap onto one another (only possible above two messages a step, in the
    /// additional Cartesian patterns), the step starts at offset 0 instead, so the
    /// messages of a step never overlap.
    pub fn step(&mut self, n: usize, bytes: usize, at: &mut [usize; MAX_EXCHANGES]) {
        let before = *self;
        for slot in at.iter_mut().take(n) {
            *slot = self.next(bytes);
        }
        let wrapped = at[..n].windows(2).position(|w| w[1] < w[0]);
        if let Some(k) = wrapped {
            let lowest_before_wrap = at[..=k].iter().min().copied().unwrap_or(0);
            if at[n - 1] + bytes > lowest_before_wrap {
                *self = Cursor { at: 0, len: before.len };
                for slot in at.iter_mut().take(n) {
                    *slot = self.next(bytes);
                }
            }
        }
    }
}

/// This process's buffers and its part of the current pattern at the current length.
pub struct Exchanger<'w> {
    world: &'w SimpleCommunicator,
    me: usize,
    send: paw_core::Buffer,
    recv: paw_core::Buffer,
    cursor: Cursor,
    /// Offsets of the current step's messages, in exchange order.
    at: [usize; MAX_EXCHANGES],
    batch: Batch,
    len: usize,
    mine: Vec<Exchange>,
    ping_pong: bool,
    counts: Counts,
}

impl std::fmt::Debug for Exchanger<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Exchanger(rank {}, length {}, {:?})", self.me, self.len, self.mine)
    }
}

/// MPI_Alltoallv's counts and displacements (bytes), one per rank.
#[derive(Debug, Default)]
struct Counts {
    send: Vec<i32>,
    send_at: Vec<i32>,
    recv: Vec<i32>,
    recv_at: Vec<i32>,
}

/// One measurement: the loops timed, this process's time and the slowest one's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timed {
    /// Steps between the two clock reads.
    pub loops: usize,
    /// This process's time, seconds (0 when it takes no part in the pattern).
    pub mine: f64,
    /// The maximum over the processes taking part in the pattern, seconds.
    pub slowest: f64,
    /// The pattern's bandwidth by b_eff 3.6's rule, MB/s ([`plan::pattern_bandwidth`]).
    pub mb_per_s: f64,
}

impl<'w> Exchanger<'w> {
    /// The cyclic buffers for messages up to `lmax` bytes, every page written.
    pub fn new(world: &'w SimpleCommunicator, lmax: usize) -> Exchanger<'w> {
        let len = BUFFER_MESSAGES * (lmax + 16);
        Exchanger {
            world,
            me: world.rank() as usize,
            send: paw_core::buffer(len),
            recv: paw_core::buffer(len),
            cursor: Cursor::new(len),
            at: [0; MAX_EXCHANGES],
            batch: Batch::with_capacity(2 * MAX_EXCHANGES),
            len: 0,
            mine: Vec::new(),
            ping_pong: false,
            counts: Counts::default(),
        }
    }

    /// The communicator the patterns run on.
    pub fn world(&self) -> &'w SimpleCommunicator {
        self.world
    }

    /// Sets up `pattern` at message length `len` (outside the timing).
    pub fn prepare(&mut self, pattern: &Pattern, len: usize) {
        let p = self.world.size() as usize;
        self.len = len;
        self.mine = pattern.exchanges[self.me].clone();
        assert!(self.mine.len() <= MAX_EXCHANGES, "{}: too many exchanges", pattern.name);
        self.ping_pong = pattern.ping_pong;
        let (mut send, mut recv) = (vec![0i32; p], vec![0i32; p]);
        for &(to, from) in &self.mine {
            if let Some(t) = to {
                send[t] = len as i32;
            }
            if let Some(f) = from {
                recv[f] = len as i32;
            }
        }
        self.counts = Counts { send_at: vec![0; p], recv_at: vec![0; p], send, recv };
    }

    /// Runs `loops` steps by `method` between two MPI_Wtime reads, after a barrier and,
    /// when `warm_up`, one untimed step (collective). Each process times its own loop.
    pub fn time(
        &mut self,
        method: Method,
        loops: usize,
        warm_up: bool,
        pattern: &Pattern,
    ) -> Timed {
        self.world.barrier();
        if warm_up {
            self.step(method);
        }
        let start = paw_core::mpi::time();
        for _ in 0..loops {
            self.step(method);
        }
        let mine = paw_core::mpi::time() - start;
        // Processes outside the pattern (which still call MPI_Alltoallv) do not count.
        let counted = if self.mine.is_empty() { 0.0 } else { mine };
        let mut slowest = 0.0;
        self.world.all_reduce_into(&counted, &mut slowest, SystemOperation::max());
        let own = plan::own_bandwidth(self.len, loops, self.mine.len(), mine);
        let mut least = 0.0;
        self.world.all_reduce_into(&own, &mut least, SystemOperation::min());
        let mb_per_s = plan::pattern_bandwidth(least, pattern.credited(), pattern.calls(0));
        Timed { loops, mine, slowest, mb_per_s }
    }

    /// One step of the pattern: its messages placed by the cursor, then sent.
    fn step(&mut self, method: Method) {
        let n = self.messages_of_step();
        self.cursor.step(n, self.len, &mut self.at);
        self.send_placed(method);
    }

    /// Sends and receives the step's messages at the offsets in `self.at`.
    fn send_placed(&mut self, method: Method) {
        let (len, world, at) = (self.len, self.world, &self.at);
        if self.ping_pong {
            // A ping from rank 0 to rank 1 at the first offset, the pong back at the second.
            let (ping, pong) = (at[0]..at[0] + len, at[1]..at[1] + len);
            match self.me {
                0 => {
                    world.process_at_rank(1).send(&self.send[ping]);
                    world.process_at_rank(1).receive_into(&mut self.recv[pong]);
                }
                1 => {
                    world.process_at_rank(0).receive_into(&mut self.recv[ping]);
                    world.process_at_rank(0).send(&self.send[pong]);
                }
                _ => {}
            }
            return;
        }
        match method {
            Method::Sendrecv => {
                for (&(to, from), &a) in self.mine.iter().zip(at) {
                    let (msg, buf) = (&self.send[a..a + len], &mut self.recv[a..a + len]);
                    match (to, from) {
                        (Some(t), Some(f)) => {
                            let (t, f) =
                                (world.process_at_rank(t as i32), world.process_at_rank(f as i32));
                            send_receive_into(msg, &t, buf, &f);
                        }
                        (Some(t), None) => world.process_at_rank(t as i32).send(msg),
                        (None, Some(f)) => {
                            world.process_at_rank(f as i32).receive_into(buf);
                        }
                        (None, None) => {}
                    }
                }
            }
            Method::Alltoallv => {
                let c = &mut self.counts;
                for (&(to, from), &a) in self.mine.iter().zip(at) {
                    if let Some(t) = to {
                        c.send_at[t] = a as i32;
                    }
                    if let Some(f) = from {
                        c.recv_at[f] = a as i32;
                    }
                }
                let send = Partition::new(&self.send[..], &c.send[..], &c.send_at[..]);
                let mut recv = PartitionMut::new(&mut self.recv[..], &c.recv[..], &c.recv_at[..]);
                world.all_to_all_varcount_into(&send, &mut recv);
            }
            Method::Nonblocking => nonblocking(
                &mut self.batch,
                world,
                &self.mine,
                &at[..self.mine.len()],
                len,
                &self.send,
                &mut self.recv,
            ),
        }
    }

    /// The data check, outside the timing: one more step with every message filled with
    /// its sender's pattern for `seq` (the receive places with the complement of what must
    /// arrive); returns the bytes received that differ from it (collective).
    pub fn checked_step(&mut self, method: Method, seq: u64) -> usize {
        let len = self.len;
        let n = self.messages_of_step();
        self.cursor.step(n, len, &mut self.at);
        let senders = self.senders();
        for (k, &a) in self.at[..n].iter().enumerate() {
            if self.sends(k) {
                check::fill(&mut self.send[a..a + len], self.me as i32, len as u64, seq);
            }
            if let Some(f) = senders[k] {
                let slot = &mut self.recv[a..a + len];
                check::fill(slot, f as i32, len as u64, seq);
                slot.iter_mut().for_each(|b| *b = !*b);
            }
        }
        self.send_placed(method);
        (0..n)
            .filter_map(|k| {
                let a = self.at[k];
                senders[k]
                    .map(|f| check::mismatches(&self.recv[a..a + len], f as i32, len as u64, seq))
            })
            .sum()
    }

    /// The messages of one step at this process (its cursor moves by as many): its
    /// exchanges, or the ping-pong's two on ranks 0 and 1 (none on the others).
    fn messages_of_step(&self) -> usize {
        match (self.ping_pong, self.me) {
            (true, 0 | 1) => 2,
            (true, _) => 0,
            (false, _) => self.mine.len(),
        }
    }

    /// Whether this process sends the step's message `k`.
    fn sends(&self, k: usize) -> bool {
        if self.ping_pong {
            (self.me == 0 && k == 0) || (self.me == 1 && k == 1)
        } else {
            self.mine[k].0.is_some()
        }
    }

    /// Who sends what arrives at each of the step's receive places.
    fn senders(&self) -> Vec<Option<usize>> {
        if self.ping_pong {
            return match self.me {
                0 => vec![None, Some(1)],
                1 => vec![Some(0), None],
                _ => vec![None, None],
            };
        }
        self.mine.iter().map(|e| e.1).collect()
    }
}

/// Every receive posted (into disjoint places of `recv`, taken in address order), then
/// every send, completed by one MPI_Waitall. Exchange k uses tag k, as b_eff 3.6 does.
fn nonblocking(
    batch: &mut Batch,
    world: &SimpleCommunicator,
    mine: &[Exchange],
    at: &[usize],
    len: usize,
    send: &[u8],
    recv: &mut [u8],
) {
    batch.run(|b| {
        let mut order = [0usize; MAX_EXCHANGES];
        for (k, slot) in order.iter_mut().enumerate().take(at.len()) {
            *slot = k;
        }
        let order = &mut order[..at.len()];
        order.sort_unstable_by_key(|&k| at[k]);
        let (mut rest, mut base) = (recv, 0);
        for &k in order.iter() {
            let (_, tail) = rest.split_at_mut(at[k] - base);
            let (buf, tail) = tail.split_at_mut(len);
            rest = tail;
            base = at[k] + len;
            if let Some(f) = mine[k].1 {
                b.irecv(&world.process_at_rank(f as i32), buf, k as i32);
            }
        }
        for (k, (&(to, _), &a)) in mine.iter().zip(at).enumerate() {
            if let Some(t) = to {
                b.isend(&world.process_at_rank(t as i32), &send[a..a + len], k as i32);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_advances_by_padded_lengths_and_wraps() {
        let lmax = 1000;
        let mut c = Cursor::new(BUFFER_MESSAGES * (lmax + 16));
        assert_eq!([c.next(1), c.next(1), c.next(9), c.next(8)], [0, 8, 16, 32]);
        let mut c = Cursor::new(BUFFER_MESSAGES * (lmax + 16));
        let offsets: Vec<usize> = (0..8).map(|_| c.next(lmax)).collect();
        assert_eq!(offsets, [0, 1000, 2000, 3000, 4000, 5000, 0, 1000]);
        // Two messages a step never overlap, wherever the cursor stands.
        for start in (0..6096).step_by(8) {
            for bytes in [1, 999, 1000] {
                let mut c = Cursor { at: start, len: 6096 };
                let mut at = [0; MAX_EXCHANGES];
                let before = c;
                c.step(2, bytes, &mut at);
                let mut plain = before;
                assert_eq!([at[0], at[1]], [plain.next(bytes), plain.next(bytes)], "as 3.6");
                assert!(at[0] + bytes <= at[1] || at[1] + bytes <= at[0]);
            }
        }
        // Six messages that wrap past the step's first ones are left as they fall...
        let mut c = Cursor { at: 2000, len: 6096 };
        let mut at = [0; MAX_EXCHANGES];
        c.step(6, 1000, &mut at);
        assert_eq!(at, [2000, 3000, 4000, 5000, 0, 1000]);
        // ...but where they would wrap onto them (Lmax 1001: 6 x 1008 padded bytes in
        // 6 x 1017), the step starts at 0.
        let mut c = Cursor { at: 96, len: BUFFER_MESSAGES * (1001 + 16) };
        c.step(6, 1001, &mut at);
        assert_eq!(at, [0, 1008, 2016, 3024, 4032, 5040]);
    }
}
