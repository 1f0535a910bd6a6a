//! The threads of p2p_send_mt: thread 0 runs the benchmark and tells the others, through a
//! [`Plan`], what each iteration does; every thread has its own [`Lane`] of ping-pongs.

use mpi_ext::threads::ThreadShared;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::mpi::Threading;
use paw_core::{buffer, check, Error, Pair, Paw, Var};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Barrier;

/// Threads per task.
pub const MT_THREADS: Var = Var {
    name: "MT_THREADS",
    default: "2",
    meaning: "threads per task, each in its own ping-pong",
    accepts: paw_core::vars::Accepts::Whole(1, 64),
};
/// How the threads' messages are kept apart.
pub const MT_ISOLATION: Var = Var {
    name: "MT_ISOLATION",
    default: "tags",
    meaning: "how the threads' messages are kept apart: tags (thread t sends on tags 2t and \
              2t+1 of one MPI_Comm_dup of MPI_COMM_WORLD) or comms (each thread its own \
              MPI_Comm_dup, tags 0 and 1)",
    accepts: paw_core::vars::Accepts::Said,
};

/// MT_ISOLATION and the communicators it asks for (collective): one MPI_Comm_dup of
/// MPI_COMM_WORLD shared by the `threads` threads (tags), or one each (comms). Refused
/// where MPI did not grant MPI_THREAD_MULTIPLE.
pub fn communicators(
    paw: &Paw,
    threads: usize,
) -> paw_core::Result<(String, Vec<ThreadShared<SimpleCommunicator>>)> {
    let isolation = paw.text(&MT_ISOLATION).unwrap_or_else(|| MT_ISOLATION.default.into());
    if isolation != "tags" && isolation != "comms" {
        return Err(Error::input(format!("MT_ISOLATION={isolation:?}; accepted: tags or comms")));
    }
    let granted = paw.granted().unwrap_or(Threading::Single);
    if granted != Threading::Multiple {
        return Err(Error::unavailable(format!(
            "MPI granted {granted:?}, not the MPI_THREAD_MULTIPLE that p2p_send_mt needs for \
             threads calling MPI at once; accepted: an MPI library built with thread support"
        )));
    }
    let count = if isolation == "comms" { threads } else { 1 };
    let comms = (0..count)
        .map(|_| ThreadShared::new(paw.world().duplicate(), granted).expect("granted"))
        .collect();
    Ok((isolation, comms))
}

/// What the threads do in the next iteration ([`Plan::job`]): the timed ping-pongs.
pub const RUN: usize = 0;
/// One more ping-pong of patterns, checked.
pub const CHECK: usize = 1;
/// Nothing: thread 0 measures alone.
pub const IDLE: usize = 2;
/// Leave.
pub const STOP: usize = 3;

/// Instructions from thread 0 to the others, set before the start barrier.
#[derive(Debug)]
pub struct Plan {
    /// [`RUN`], [`CHECK`], [`IDLE`] or [`STOP`].
    pub job: AtomicUsize,
    /// The message size, bytes.
    pub size: AtomicUsize,
    /// Ping-pongs per thread in this iteration.
    pub rounds: AtomicU64,
    /// The check's sequence number.
    pub seq: AtomicU64,
    /// Wrong bytes the threads' checks found.
    pub wrong: AtomicUsize,
    /// Every thread waits here before the iteration.
    pub start: Barrier,
    /// And here after it.
    pub end: Barrier,
}

/// One thread's side of the ping-pongs: its communicator, tags and buffers.
pub struct Lane<'c> {
    /// The communicator it uses (its own, or one shared by all threads).
    pub comm: &'c ThreadShared<SimpleCommunicator>,
    /// The tags of its sends and of its receives.
    pub tags: (i32, i32),
    /// The partner task's rank.
    pub partner: i32,
    /// It sends first.
    pub leader: bool,
    /// Its send buffer.
    pub send: paw_core::Buffer,
    /// Its receive buffer.
    pub recv: paw_core::Buffer,
    /// The threads outnumber the cores: each wait yields the core between polls.
    pub yielding: bool,
}

impl std::fmt::Debug for Lane<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lane(partner {}, tags {:?}, {} bytes)", self.partner, self.tags, self.send.len())
    }
}

impl Lane<'_> {
    /// One ping-pong of `n` bytes with its partner.
    pub fn pingpong(&mut self, n: usize) {
        if self.yielding {
            return self.yielding_pingpong(n);
        }
        let p = self.comm.get().process_at_rank(self.partner);
        if self.leader {
            p.send_with_tag(&self.send[..n], self.tags.0);
            p.receive_into_with_tag(&mut self.recv[..n], self.tags.1);
        } else {
            p.receive_into_with_tag(&mut self.recv[..n], self.tags.0);
            p.send_with_tag(&self.send[..n], self.tags.1);
        }
    }

    /// The ping-pong with MPI_Isend/MPI_Irecv, each completed by MPI_Test polled with a
    /// sched_yield between: a library that busy-polls in MPI_Recv would otherwise hold the
    /// core that the thread it waits for needs.
    fn yielding_pingpong(&mut self, n: usize) {
        let comm = self.comm.get();
        let p = comm.process_at_rank(self.partner);
        let (send, recv) = (&self.send[..n], &mut self.recv[..n]);
        paw_core::mpi::request::scope(|scope| {
            if self.leader {
                wait_yielding(p.immediate_send_with_tag(scope, send, self.tags.0));
                wait_yielding(p.immediate_receive_into_with_tag(scope, recv, self.tags.1));
            } else {
                wait_yielding(p.immediate_receive_into_with_tag(scope, recv, self.tags.0));
                wait_yielding(p.immediate_send_with_tag(scope, send, self.tags.1));
            }
        });
    }

    /// One more ping-pong of patterns naming the sender's rank and thread `t`: wrong bytes.
    pub fn check(&mut self, n: usize, rank: i32, t: usize, threads: usize, seq: u64) -> usize {
        let id = |r: i32| r * threads as i32 + t as i32;
        check::fill(&mut self.send[..n], id(rank), n as u64, seq);
        self.pingpong(n);
        check::mismatches(&self.recv[..n], id(self.partner), n as u64, seq)
    }

    /// Follows the plan until told to stop (threads other than 0).
    pub fn serve(&mut self, plan: &Plan, rank: i32, t: usize, threads: usize) {
        loop {
            plan.start.wait();
            let n = plan.size.load(Ordering::Acquire);
            match plan.job.load(Ordering::Acquire) {
                STOP => return,
                RUN => {
                    for _ in 0..plan.rounds.load(Ordering::Acquire) {
                        self.pingpong(n);
                    }
                }
                CHECK => {
                    let seq = plan.seq.load(Ordering::Acquire);
                    plan.wrong.fetch_add(self.check(n, rank, t, threads, seq), Ordering::AcqRel);
                }
                _ => {}
            }
            plan.end.wait();
        }
    }
}

impl Plan {
    /// Thread 0's side of one iteration: sets the job, releases the others, does its own
    /// part, waits for them.
    pub fn iteration(&self, job: usize, own: impl FnOnce()) {
        self.job.store(job, Ordering::Release);
        self.start.wait();
        own();
        self.end.wait();
    }
}

/// Completes `request`, yielding the core between tests.
fn wait_yielding<'a, S: paw_core::mpi::request::Scope<'a>>(
    mut request: paw_core::mpi::request::Request<'a, [u8], S>,
) {
    loop {
        match request.test() {
            Ok(_) => return,
            Err(pending) => request = pending,
        }
        std::thread::yield_now();
    }
}

/// Releases the other threads for good when thread 0 leaves, also on an error.
#[derive(Debug)]
pub struct Stop<'p>(pub &'p Plan);

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        self.0.job.store(STOP, Ordering::Release);
        self.0.start.wait();
    }
}

/// The warning when the threads of this host's tasks outnumber its cores (task 0's view):
/// a thread waiting in MPI polls, and each message then also waits for the scheduler, as do
/// the threads woken at every iteration's barriers.
pub fn crowding(threads: usize, local_tasks: usize) -> Option<String> {
    let mine = paw_core::cores();
    let online = paw_core::online_cores();
    let wanted = threads * local_tasks;
    (threads > mine || wanted > online).then(|| {
        format!(
            "cores: {threads} threads x {local_tasks} tasks on this host want {wanted} cores; \
             task 0 may run on {mine} of the host's {online}: each MPI wait is MPI_Isend or \
             MPI_Irecv completed by MPI_Test with a sched_yield between polls (a library that \
             busy-polls would hold the core its partner thread needs), and the times include \
             the scheduler's delays (give each thread a core for MPI_Send/MPI_Recv)"
        )
    })
}

impl Plan {
    /// The plan of `threads` threads, idle, at `size` bytes and one round.
    pub fn new(threads: usize, size: usize) -> Plan {
        Plan {
            job: AtomicUsize::new(IDLE),
            size: AtomicUsize::new(size),
            rounds: AtomicU64::new(1),
            seq: AtomicU64::new(0),
            wrong: AtomicUsize::new(0),
            start: Barrier::new(threads),
            end: Barrier::new(threads),
        }
    }

    /// What the thread barriers of one iteration cost, seconds: 1000 idle iterations.
    pub fn idle_cost(&self) -> f64 {
        let started = std::time::Instant::now();
        for _ in 0..1000 {
            self.iteration(IDLE, || {});
        }
        started.elapsed().as_secs_f64() / 1000.0
    }

    /// One iteration of `rounds` ping-pongs of `n` bytes on every thread.
    pub fn run(&self, own: &mut Lane<'_>, n: usize, rounds: u64) {
        self.size.store(n, Ordering::Release);
        self.rounds.store(rounds, Ordering::Release);
        self.iteration(RUN, || (0..rounds).for_each(|_| own.pingpong(n)));
    }

    /// The data check of every thread at `n` bytes: the wrong bytes of this task.
    pub fn check(
        &self,
        own: &mut Lane<'_>,
        n: usize,
        rank: i32,
        threads: usize,
        seq: u64,
    ) -> usize {
        self.size.store(n, Ordering::Release);
        self.seq.store(seq, Ordering::Release);
        self.wrong.store(0, Ordering::Release);
        let mut wrong = 0;
        self.iteration(CHECK, || wrong = own.check(n, rank, 0, threads, seq));
        wrong + self.wrong.load(Ordering::Acquire)
    }
}

impl<'c> Lane<'c> {
    /// Thread `t`'s lane: its communicator of `comms` (one shared: tags 2t and 2t+1; one
    /// each: tags 0 and 1) and buffers of `most` bytes; `yielding` where threads outnumber
    /// cores.
    pub fn new(
        comms: &'c [ThreadShared<SimpleCommunicator>],
        t: usize,
        pair: Pair,
        most: usize,
        yielding: bool,
    ) -> Lane<'c> {
        let count = comms.len();
        Lane {
            comm: &comms[t % count],
            tags: if count == 1 { (2 * t as i32, 2 * t as i32 + 1) } else { (0, 1) },
            partner: pair.partner,
            leader: pair.leader,
            send: buffer(most),
            recv: buffer(most),
            yielding,
        }
    }
}
