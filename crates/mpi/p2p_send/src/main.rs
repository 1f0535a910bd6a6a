//! p2p_send -- MPI_Send/MPI_Recv ping-pong between task pairs (PAW 1.6 §7.4.2).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{vars, Check, Combine, Extra, Files, Paw, Ranks, Second, Spec, SweepFiles, Timing};
use paw_mpi::{send_pingpong, Sweep, PAIR_CHECK};

const SPEC: Spec = Spec {
    name: "p2p_send",
    title: "MPI_Send/MPI_Recv ping-pong between task pairs (PAW 1.6 section 7.4.2)",
    timed: "\
Task i pairs with task i + n/2 (PAW Fig. 7.1). Per sample: NLOOP ping-pongs of SIZE \
bytes; tasks 0..n/2-1 run MPI_Send, MPI_Recv, tasks n/2..n-1 MPI_Recv, MPI_Send (PAW \
Table 7.5). Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE, after one untimed ping-pong \
at MED_P2P_SIZE.",
    reports: "\
one-way time = sample / (2 NLOOP), usec, {ranks} (PAW section 7); bandwidth \
per pair = SIZE / one-way time, MB/s (MB = 2^20 B).",
    ranks: Ranks::Even,
    combine: Combine::Min,
    vars: &[vars::P2P_SIZES, vars::MEASURE, vars::COMBINE, vars::TAIL, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: Files::Sweep(SweepFiles {
        stem: "send",
        time: "one-way time",
        second: Second::Bandwidth("bandwidth per pair"),
        extra: Extra::Plain,
    }),
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sweep = Sweep::new(&paw, Timing::Batch { ops_per_iter: 2.0 })?;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        sweep.run_pair(true, |send, recv| send_pingpong(pair.leader, &partner, send, recv))
    })
}
