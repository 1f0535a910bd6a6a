//! p2p_multitask -- aggregate MPI_Isend/MPI_Irecv ping-pong bandwidth of n/2 task pairs (PAW 1.6
//! §7.7.3).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{vars, Check, Combine, Paw, Ranks, SizeRange, Spec, Timing};
use paw_mpi::{isend_pingpong, Sweep, PAIR_CHECK};

const SPEC: Spec = Spec {
    name: "p2p_multitask",
    title: "aggregate MPI_Isend/MPI_Irecv ping-pong bandwidth of n/2 task pairs (PAW 1.6 section 7.7.3)",
    timed: "\
Task i pairs with task i + n/2 (PAW Fig. 7.1). Per sample: NLOOP ping-pongs of \
MAX_P2P_SIZE bytes between every pair at once; tasks 0..n/2-1 run MPI_Isend, MPI_Wait, \
MPI_Irecv, MPI_Wait, tasks n/2..n-1 MPI_Irecv, MPI_Wait, MPI_Isend, MPI_Wait (PAW \
Table 7.4, section 7.7.3).",
    reports: "\
one-way time = sample / (2 NLOOP), usec, {ranks} (the slowest pair bounds \
the whole exchange); aggregate bandwidth of the n/2 pairs = n/2 x MAX_P2P_SIZE / \
one-way time, MB/s (MB = 2^20 B).",
    ranks: Ranks::Even,
    combine: Combine::Max,
    vars: &[&[vars::MAX_P2P_SIZE], vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: paw_mpi::pair_files("multitask", "one-way time per message", "aggregate bandwidth of n/2 pairs"),
    headlines: &[paw_core::headline::BANDWIDTH],
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let size = paw.bytes(&vars::MAX_P2P_SIZE)?;
        let only = SizeRange { min: size, med: size, max: size };
        let timing = Timing::Batch { ops_per_iter: 2.0 };
        let sweep = Sweep::start(&paw, only, timing, &[])?.scaled((paw.size() / 2) as f64);
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        sweep.run_pair(true, |send, mut recv| {
            isend_pingpong(pair.leader, &partner, &send, &mut recv)
        })
    })
}
