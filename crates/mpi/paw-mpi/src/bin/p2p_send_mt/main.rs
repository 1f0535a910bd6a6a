//! p2p_send_mt -- MPI_Send/MPI_Recv ping-pong between task pairs with MT_THREADS threads per
//! task at once (MPI_THREAD_MULTIPLE): the latency of one thread's messages and the message
//! rate of the pair (OSU 7.4's osu_latency_mt measure, on PAW's loop).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below.
use paw_core::mpi::Threading;
use paw_core::{
    vars, Check, Combine, Extra, Files, Paw, Policy, Ranks, Second, Spec, SweepFiles, Team, Timing,
};
use paw_mpi::threads::{communicators, crowding, Lane, Plan, Stop, MT_ISOLATION, MT_THREADS};
use paw_mpi::Sweep;

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
    files: Files::Sweep(SweepFiles {
        stem: "send_mt",
        time: "one-way time",
        second: Second::Rate("message rate of a pair, MT_THREADS threads"),
        extra: Extra::Rounds,
    }),
    headlines: &[paw_core::headline::TIME, paw_core::headline::RATE],
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init_thread(&SPEC, Threading::Multiple)?;
        let sizes = Sweep::sizes(&paw)?;
        let threads = paw.knob(&MT_THREADS)? as usize;
        let (isolation, comms) = communicators(&paw, threads)?;
        let bench = paw.bench(Timing::Rounds { ops_per_round: 2.0 }, Policy::Calibrated)?;
        let (rank, pair, most, med) =
            (paw.rank(), paw.pair(), sizes.largest() as usize, sizes.med as usize);
        let plan = Plan::new(threads, med);
        // Every task yields if one is crowded: both sides of a ping-pong wait alike.
        let crowd = crowding(threads, paw.team().local_size());
        let yielding = !paw.all_ok(crowd.is_none());
        if let Some(line) = &crowd {
            paw_core::warn(line);
        }
        std::thread::scope(|scope| {
            for t in 1..threads {
                let (plan, mut lane) = (&plan, Lane::new(&comms, t, pair, most, yielding));
                scope.spawn(move || lane.serve(plan, rank, t, threads));
            }
            let _stop = Stop(&plan);
            let mut own = Lane::new(&comms, 0, pair, most, yielding);
            let sync = plan.idle_cost();
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
            let sweep = Sweep::with_bench(&paw, sizes, bench, &notes)?.scaled(threads as f64);
            plan.run(&mut own, med, 1);
            sweep.run_measured(
                &mut own,
                |own, bench, p| {
                    let rounds = bench.calibrate_rounds(sync, |r| plan.run(own, p.n, r));
                    bench.measure(p.size, || plan.run(own, p.n, rounds))
                },
                |own, p| plan.check(own, p.n, rank, threads, p.seq),
            )
        })
    })
}
