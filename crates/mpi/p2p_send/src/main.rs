//! p2p_send -- MPI_Send/MPI_Recv ping-pong between task pairs (PAW 1.6 §7.4.2).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use paw_core::check;
use paw_core::mpi::traits::*;
use paw_core::{buffer, vars, Check, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{send_pingpong, time_and_second, Second, PAIR_CHECK};

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
    files: "\
send_time-np_NNNN.dat (usec) and send_bw-np_NNNN.dat (MB/s), NNNN = tasks",
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::P2p)?;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        let mut send = buffer(sizes.max.max(sizes.med) as usize);
        let mut recv = buffer(send.len());

        let mut bench = paw.bench(Timing::Batch { ops_per_iter: 2.0 }, Policy::Calibrated)?;
        let (mut time, mut bw) = time_and_second(
            &paw,
            &bench,
            "send",
            "one-way time",
            Second::Bandwidth("bandwidth per pair"),
            &[],
        )?;
        let warm = sizes.med as usize;
        send_pingpong(pair.leader, &partner, &send[..warm], &mut recv[..warm]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let n = size as usize;
            let m = bench.measure(size, || {
                send_pingpong(pair.leader, &partner, &send[..n], &mut recv[..n])
            })?;
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq as u64);
                send_pingpong(pair.leader, &partner, &send[..n], &mut recv[..n]);
                wrong = check::mismatches(&recv[..n], pair.partner, size, seq as u64);
            }
            let verdict = paw.verdict(wrong);
            time.row_with(size, &m.row(|t| t * 1e6).verdict(verdict), &m.tail(|t| t * 1e6));
            bw.row(size, &m.row(|t| size as f64 / t / MB).verdict(verdict));
        }
        paw.checks_passed()
    })
}
