//! p2p_send_mt -- MPI_Send/MPI_Recv ping-pong between task pairs with MT_THREADS threads per
//! task at once (MPI_THREAD_MULTIPLE): the latency of one thread's messages and the message
//! rate of the pair (OSU 7.4's osu_latency_mt measure, on PAW's loop).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below.
use mpi_ext::threads::ThreadShared;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::mpi::Threading;
use paw_core::{
    buffer, check, vars, Check, Column, Combine, Error, Family, Paw, Policy, Ranks, Spec, Team,
    Timing, Var,
};
use paw_mpi::Second;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Barrier;
use std::time::Instant;

const MT_THREADS: Var = Var {
    name: "MT_THREADS",
    default: "2",
    meaning: "threads per task, each in its own ping-pong, 1 to 64",
};
const MT_ISOLATION: Var = Var {
    name: "MT_ISOLATION",
    default: "tags",
    meaning: "how the threads' messages are kept apart: tags (thread t sends on tags 2t and \
              2t+1 of one MPI_Comm_dup of MPI_COMM_WORLD) or comms (each thread its own \
              MPI_Comm_dup, tags 0 and 1)",
};

const SPEC: Spec = Spec {
    name: "p2p_send_mt",
    title: "MPI_Send/MPI_Recv ping-pong between task pairs, MT_THREADS threads per task at once (MPI_THREAD_MULTIPLE)",
    timed: "\
MPI_Init_thread asks for MPI_THREAD_MULTIPLE. Task i pairs with task i + n/2; each task \
runs MT_THREADS threads, thread t in a ping-pong with thread t of the partner task (tasks \
0..n/2-1 MPI_Send then MPI_Recv, the others MPI_Recv then MPI_Send), its messages kept apart \
by MT_ISOLATION. Per sample: NLOOP iterations; in an iteration every thread does ROUNDS \
ping-pongs of SIZE bytes, the threads released together and the iteration ending when the \
last is done (two thread barriers per iteration, inside the timing; their cost is in the \
header). ROUNDS is chosen per size so that what an iteration costs beyond its rounds \
weighs about 5% at most: doubled from 1 (at most 65536) until an iteration lasts 20 times \
the larger of the barriers' cost and a one-round iteration, on task 0. Sizes \
MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE, after one untimed ping-pong per thread at \
MED_P2P_SIZE.",
    reports: "\
one-way time = sample / (NLOOP x ROUNDS x 2), usec, {ranks}: the time per message of one \
thread while every thread of the pair does the same (compare MT_THREADS=1 with 2 for the \
cost of threads); message rate = MT_THREADS / one-way time, messages per second through a \
pair; ROUNDS in the time file's column.",
    ranks: Ranks::Even,
    combine: Combine::Min,
    vars: &[vars::P2P_SIZES, vars::MEASURE, vars::COMBINE, &[MT_THREADS, MT_ISOLATION], vars::CHECK],
    check: Check::Data(
        "one more ping-pong per thread of a pattern set by the sender's rank and thread, the \
         size and a sequence number; every thread compares each byte it got",
    ),
    files: "send_mt_time-np_NNNN.dat (usec; ROUNDS) and send_mt_rate-np_NNNN.dat (messages/s), \
            NNNN = tasks",
};

/// ROUNDS makes an iteration this many times what it costs beyond its rounds (at most
/// the thread barriers or a one-round iteration), so that this weighs about 5 % of it.
const SYNC_SHARE: f64 = 20.0;

/// The most rounds an iteration has.
const MAX_ROUNDS: u64 = 1 << 16;

/// What the threads do in the next iteration.
const RUN: usize = 0;
const CHECK: usize = 1;
const IDLE: usize = 2;
const STOP: usize = 3;

/// Instructions from thread 0 to the others, set before the start barrier.
struct Plan {
    job: AtomicUsize,
    size: AtomicUsize,
    rounds: AtomicU64,
    seq: AtomicU64,
    wrong: AtomicUsize,
    start: Barrier,
    end: Barrier,
}

/// One thread's side of the ping-pongs: its communicator, tags and buffers.
struct Lane<'c> {
    comm: &'c ThreadShared<SimpleCommunicator>,
    tags: (i32, i32),
    partner: i32,
    leader: bool,
    send: Vec<u8>,
    recv: Vec<u8>,
}

impl Lane<'_> {
    fn pingpong(&mut self, n: usize) {
        let p = self.comm.get().process_at_rank(self.partner);
        if self.leader {
            p.send_with_tag(&self.send[..n], self.tags.0);
            p.receive_into_with_tag(&mut self.recv[..n], self.tags.1);
        } else {
            p.receive_into_with_tag(&mut self.recv[..n], self.tags.0);
            p.send_with_tag(&self.send[..n], self.tags.1);
        }
    }

    /// One more ping-pong of patterns naming the sender's rank and thread `t`: wrong bytes.
    fn check(&mut self, n: usize, rank: i32, t: usize, threads: usize, seq: u64) -> usize {
        let id = |r: i32| r * threads as i32 + t as i32;
        check::fill(&mut self.send[..n], id(rank), n as u64, seq);
        self.pingpong(n);
        check::mismatches(&self.recv[..n], id(self.partner), n as u64, seq)
    }

    /// Follows the plan until told to stop (threads other than 0).
    fn serve(&mut self, plan: &Plan, rank: i32, t: usize, threads: usize) {
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
    fn iteration(&self, job: usize, own: impl FnOnce()) {
        self.job.store(job, Ordering::Release);
        self.start.wait();
        own();
        self.end.wait();
    }
}

/// Releases the other threads for good when thread 0 leaves, also on an error.
struct Stop<'p>(&'p Plan);

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        self.0.job.store(STOP, Ordering::Release);
        self.0.start.wait();
    }
}

/// The warning when the threads of this host's tasks outnumber its cores (task 0's view):
/// a thread waiting in MPI polls, and each message then also waits for the scheduler, as do
/// the threads woken at every iteration's barriers.
fn crowding(threads: usize, local_tasks: usize) -> Option<String> {
    let mine = paw_core::cores();
    let online = paw_core::online_cores();
    let wanted = threads * local_tasks;
    (threads > mine || wanted > online).then(|| {
        format!(
            "cores: {threads} threads x {local_tasks} tasks on this host want {wanted} cores; \
             task 0 may run on {mine} of the host's {online}: threads wait for the scheduler, \
             and the times include it (give each thread a core)"
        )
    })
}

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init_thread(&SPEC, Threading::Multiple)?;
        let sizes = paw.sizes(Family::P2p)?;
        let threads = paw.knob(&MT_THREADS, 1..=64)? as usize;
        let isolation = paw.text(&MT_ISOLATION).unwrap_or_else(|| MT_ISOLATION.default.into());
        if isolation != "tags" && isolation != "comms" {
            return Err(Error::input(format!(
                "MT_ISOLATION={isolation:?}; accepted: tags or comms"
            )));
        }
        let mut bench = paw.bench(Timing::Rounds { ops_per_round: 2.0 }, Policy::Calibrated)?;
        let granted = paw.granted().unwrap_or(Threading::Single);
        if granted != Threading::Multiple {
            return Err(Error::unavailable(format!(
                "MPI granted {granted:?}, not the MPI_THREAD_MULTIPLE that p2p_send_mt needs \
                 for threads calling MPI at once; accepted: an MPI library built with thread \
                 support"
            )));
        }
        let count = if isolation == "comms" { threads } else { 1 };
        let comms: Vec<ThreadShared<SimpleCommunicator>> = (0..count)
            .map(|_| ThreadShared::new(paw.world().duplicate(), granted).expect("granted"))
            .collect();
        let pair = paw.pair();
        let most = sizes.max.max(sizes.med) as usize;
        let lane = |t: usize| Lane {
            comm: &comms[t % count],
            tags: if count == 1 { (2 * t as i32, 2 * t as i32 + 1) } else { (0, 1) },
            partner: pair.partner,
            leader: pair.leader,
            send: buffer(most),
            recv: buffer(most),
        };
        let plan = Plan {
            job: AtomicUsize::new(IDLE),
            size: AtomicUsize::new(sizes.med as usize),
            rounds: AtomicU64::new(1),
            seq: AtomicU64::new(0),
            wrong: AtomicUsize::new(0),
            start: Barrier::new(threads),
            end: Barrier::new(threads),
        };
        let (rank, team) = (paw.rank(), paw.team());
        let crowd = crowding(threads, team.local_size());
        if let Some(line) = &crowd {
            paw_core::warn(line);
        }
        std::thread::scope(|scope| {
            for t in 1..threads {
                let (plan, mut lane) = (&plan, lane(t));
                scope.spawn(move || lane.serve(plan, rank, t, threads));
            }
            let _stop = Stop(&plan);
            let mut own = lane(0);
            // The barriers' cost: 1000 idle iterations.
            let started = Instant::now();
            for _ in 0..1000 {
                plan.iteration(IDLE, || {});
            }
            let sync = started.elapsed().as_secs_f64() / 1000.0;
            let notes = [
                format!(
                    "threads: MT_THREADS={threads} per task, messages kept apart by \
                     MT_ISOLATION={isolation}; thread barriers: {:.3} usec per iteration on \
                     task 0 (1000 idle iterations), inside the timing",
                    sync * 1e6
                ),
                "ROUNDS: ping-pongs of every thread per iteration".to_string(),
                crowd.unwrap_or_else(|| "cores: every thread of a task has one".to_string()),
            ];
            let notes: Vec<&str> = notes.iter().map(String::as_str).collect();
            let (mut time, mut rate) = paw_mpi::time_and_second_with(
                &paw,
                &bench,
                "send_mt",
                "one-way time",
                Second::Rate("message rate of a pair, MT_THREADS threads"),
                &notes,
                vec![Column::fixed("ROUNDS", "")],
            )?;
            plan.size.store(sizes.med as usize, Ordering::Release);
            plan.iteration(RUN, || own.pingpong(sizes.med as usize));
            for (seq, size) in sizes.sweep().into_iter().enumerate() {
                let n = size as usize;
                plan.size.store(n, Ordering::Release);
                // ROUNDS doubles from 1 until an iteration lasts SYNC_SHARE times the larger
                // of the idle barriers and a one-round iteration on task 0: what an iteration
                // costs beyond its rounds (barriers, threads waking) then weighs little.
                let mut rounds = 1;
                let mut overhead = sync;
                loop {
                    plan.rounds.store(rounds, Ordering::Release);
                    let t0 = team.now();
                    plan.iteration(RUN, || (0..rounds).for_each(|_| own.pingpong(n)));
                    let t = team.now() - t0;
                    if rounds == 1 {
                        overhead = overhead.max(t);
                    }
                    let long = t >= SYNC_SHARE * overhead || rounds >= MAX_ROUNDS;
                    if team.share_u64(long as u64) == 1 {
                        break;
                    }
                    rounds *= 2;
                }
                bench.set_rounds(rounds);
                let m = bench.measure(size, || {
                    plan.iteration(RUN, || {
                        for _ in 0..rounds {
                            own.pingpong(n);
                        }
                    })
                })?;
                let mut wrong = 0;
                if paw.checking() {
                    plan.seq.store(seq as u64, Ordering::Release);
                    plan.wrong.store(0, Ordering::Release);
                    plan.iteration(CHECK, || {
                        wrong = own.check(n, rank, 0, threads, seq as u64);
                    });
                    wrong += plan.wrong.load(Ordering::Acquire);
                }
                let verdict = paw.verdict(wrong);
                time.row_with(size, &m.row(|t| t * 1e6).verdict(verdict), &[rounds as f64]);
                rate.row(size, &m.row(|t| threads as f64 / t).verdict(verdict));
            }
            paw.checks_passed()
        })
    })
}
