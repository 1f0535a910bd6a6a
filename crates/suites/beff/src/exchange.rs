//! One step of a pattern by each of the three methods (paper §4), its timing, and the
//! data check.

use crate::patterns::{Exchange, Pattern};
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

/// This process's buffers and its part of the current pattern at the current length.
pub struct Exchanger<'w> {
    world: &'w SimpleCommunicator,
    me: usize,
    send: Vec<u8>,
    recv: Vec<u8>,
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

impl<'w> Exchanger<'w> {
    /// Buffers for up to `slots` messages of `lmax` bytes each way, every page written.
    pub fn new(world: &'w SimpleCommunicator, slots: usize, lmax: usize) -> Exchanger<'w> {
        Exchanger {
            world,
            me: world.rank() as usize,
            send: paw_core::buffer(slots * lmax),
            recv: paw_core::buffer(slots * lmax),
            batch: Batch::with_capacity(2 * slots),
            len: 0,
            mine: Vec::new(),
            ping_pong: false,
            counts: Counts::default(),
        }
    }

    /// Sets up `pattern` at message length `len` (outside the timing).
    pub fn prepare(&mut self, pattern: &Pattern, len: usize) {
        let p = self.world.size() as usize;
        self.len = len;
        self.mine = pattern.exchanges[self.me].clone();
        self.ping_pong = pattern.ping_pong;
        let (mut send, mut recv) = (vec![0i32; p], vec![0i32; p]);
        for &(to, from) in &self.mine {
            if let Some(t) = to {
                send[t] += len as i32;
            }
            if let Some(f) = from {
                recv[f] += len as i32;
            }
        }
        let offsets = |c: &[i32]| -> Vec<i32> {
            c.iter()
                .scan(0, |at, &n| {
                    let here = *at;
                    *at += n;
                    Some(here)
                })
                .collect()
        };
        self.counts = Counts { send_at: offsets(&send), recv_at: offsets(&recv), send, recv };
    }

    /// Runs `loops` steps by `method` between two MPI_Wtime reads, after a barrier;
    /// returns the maximum over all processes of the time taken, seconds (collective).
    pub fn time(&mut self, method: Method, loops: usize) -> f64 {
        self.world.barrier();
        let start = paw_core::mpi::time();
        for _ in 0..loops {
            self.step(method);
        }
        let mine = paw_core::mpi::time() - start;
        let mut slowest = 0.0;
        self.world.all_reduce_into(&mine, &mut slowest, SystemOperation::max());
        slowest
    }

    /// One step of the pattern.
    fn step(&mut self, method: Method) {
        let len = self.len;
        let world = self.world;
        if self.ping_pong {
            let (msg, buf) = (&self.send[..len], &mut self.recv[..len]);
            match self.me {
                0 => {
                    world.process_at_rank(1).send(msg);
                    world.process_at_rank(1).receive_into(buf);
                }
                1 => {
                    world.process_at_rank(0).receive_into(buf);
                    world.process_at_rank(0).send(msg);
                }
                _ => {}
            }
            return;
        }
        match method {
            Method::Sendrecv => {
                let slots = self.send.chunks(len).zip(self.recv.chunks_mut(len));
                for (&(to, from), (msg, buf)) in self.mine.iter().zip(slots) {
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
                let c = &self.counts;
                let total_send = c.send.iter().sum::<i32>() as usize;
                let total_recv = c.recv.iter().sum::<i32>() as usize;
                let send = Partition::new(&self.send[..total_send], &c.send[..], &c.send_at[..]);
                let mut recv =
                    PartitionMut::new(&mut self.recv[..total_recv], &c.recv[..], &c.recv_at[..]);
                world.all_to_all_varcount_into(&send, &mut recv);
            }
            Method::Nonblocking => {
                nonblocking(&mut self.batch, world, &self.mine, len, &self.send, &mut self.recv)
            }
        }
    }

    /// Data check, before a measurement: fills the send slots with this rank's pattern for
    /// `seq` and the receive slots with the complement of what must arrive.
    pub fn arm_check(&mut self, method: Method, seq: u64) {
        let len = self.len;
        for slot in self.send.chunks_mut(len).take(self.mine.len()) {
            check::fill(slot, self.me as i32, len as u64, seq);
        }
        let senders = self.senders(method);
        for (slot, from) in self.recv.chunks_mut(len).zip(senders) {
            if let Some(f) = from {
                check::fill(slot, f as i32, len as u64, seq);
                slot.iter_mut().for_each(|b| *b = !*b);
            }
        }
    }

    /// Data check, after a measurement: the bytes of the receive slots that differ from
    /// their senders' patterns.
    pub fn defects(&self, method: Method, seq: u64) -> usize {
        let len = self.len;
        self.recv
            .chunks(len)
            .zip(self.senders(method))
            .filter_map(|(slot, from)| {
                from.map(|f| check::mismatches(slot, f as i32, len as u64, seq))
            })
            .sum()
    }

    /// Who fills each receive slot: the exchanges' partners in order, or for MPI_Alltoallv
    /// (which places blocks by rank) the partners sorted by rank.
    fn senders(&self, method: Method) -> Vec<Option<usize>> {
        let mut from: Vec<Option<usize>> = self.mine.iter().map(|e| e.1).collect();
        if method == Method::Alltoallv && !self.ping_pong {
            from.retain(Option::is_some);
            from.sort();
        }
        from
    }
}

/// Every receive posted, then every send, completed by one MPI_Waitall.
fn nonblocking(
    batch: &mut Batch,
    world: &SimpleCommunicator,
    mine: &[Exchange],
    len: usize,
    send: &[u8],
    recv: &mut [u8],
) {
    batch.run(|b| {
        for (&(_, from), buf) in mine.iter().zip(recv.chunks_mut(len)) {
            if let Some(f) = from {
                b.irecv(&world.process_at_rank(f as i32), buf, 0);
            }
        }
        for (&(to, _), msg) in mine.iter().zip(send.chunks(len)) {
            if let Some(t) = to {
                b.isend(&world.process_at_rank(t as i32), msg, 0);
            }
        }
    })
}
