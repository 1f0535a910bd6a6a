//! p2p_multitask -- point-to-point bandwidth of many task pairs at once, at one message
//! size (PAW 1.6 §7.7.3, timed calls of Table 7.4).
//!
//! Task i pairs with task i + n/2 (PAW Fig. 7.1). Timed: NLOOP ping-pongs per sample; the
//! first half runs MPI_Isend, MPI_Wait, MPI_Irecv, MPI_Wait, the second half MPI_Irecv,
//! MPI_Wait, MPI_Isend, MPI_Wait, with MAX_P2P_SIZE bytes each way. NREPS samples.
//! Reported: one-way time = sample / (2 x NLOOP), maximum over tasks (the slowest pair
//! bounds the whole exchange), and the aggregate bandwidth of all n/2 pairs:
//! n/2 x MAX_P2P_SIZE / one-way time, in MB/s (MB = 2^20 B).
//! Needs an even number of tasks. Env: MAX_P2P_SIZE NLOOP_MAX NLOOP_MIN NREPS PAW_OUTPUT_DIR.
//! Writes multitask_time-np_NNNN.dat (usec) and multitask_bw-np_NNNN.dat (MB/s).
use paw_core::mpi::request;
use paw_core::mpi::traits::*;
use paw_core::{Axis, Combine, DatSpec, Family, Paw, Policy, Ranks, Spec, Timing, MB};

const SPEC: Spec = Spec {
    name: "p2p_multitask",
    title: "aggregate MPI_Isend/MPI_Irecv ping-pong bandwidth of n/2 task pairs (PAW 1.6 section 7.7.3)",
    help: "\
Task i pairs with task i+n/2. Timed per sample: NLOOP ping-pongs of MAX_P2P_SIZE bytes
(first half: Isend, Wait, Irecv, Wait; second half: Irecv, Wait, Isend, Wait).
One-way time = sample / (2 NLOOP), maximum over tasks; aggregate bandwidth =
n/2 x MAX_P2P_SIZE / one-way time in MB/s (MB = 2^20 B).
Needs an even number of MPI tasks:  mpirun -np 4 p2p_multitask
Env: MAX_P2P_SIZE (bytes, default 1000000).
Writes multitask_time-np_NNNN.dat (usec) and multitask_bw-np_NNNN.dat (MB/s).",
    ranks: Ranks::Even,
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let size = paw.sizes(Family::P2p)?.max as usize;
        let pairs = (paw.size() / 2) as f64;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        let send = vec![0xa5u8; size];
        let mut recv = vec![0u8; size];

        let mut bench = paw.bench(
            Timing::Batch { ops_per_iter: 2.0 },
            Combine::Max,
            Policy::Calibrated,
        );
        let timed = "timed calls: tasks 0..n/2-1 MPI_Isend, MPI_Wait, MPI_Irecv, MPI_Wait; \
                     tasks n/2..n-1 MPI_Irecv, MPI_Wait, MPI_Isend, MPI_Wait (PAW Table 7.4)";
        let mut time_out = paw.dat(
            &bench,
            DatSpec {
                file: paw.np_file("multitask_time"),
                x: Axis::new("message size", "bytes"),
                y: Axis::new("one-way time per message", "usec"),
                notes: vec![timed.into()],
                echo: true,
            },
        )?;
        let mut bw_out = paw.dat(
            &bench,
            DatSpec {
                file: paw.np_file("multitask_bw"),
                x: Axis::new("message size", "bytes"),
                y: Axis::new("aggregate bandwidth of n/2 pairs", "MB/s (MB = 2^20 B)"),
                notes: vec![timed.into(), "bandwidth = n/2 x SIZE / one-way time".into()],
                echo: false,
            },
        )?;

        let m = bench.measure(|| {
            request::scope(|scope| {
                if pair.leader {
                    partner.immediate_send(scope, &send[..]).wait();
                    partner.immediate_receive_into(scope, &mut recv[..]).wait();
                } else {
                    partner.immediate_receive_into(scope, &mut recv[..]).wait();
                    partner.immediate_send(scope, &send[..]).wait();
                }
            })
        });
        time_out.row(size, &m.row(|t| t * 1e6));
        bw_out.row(size, &m.row(|t| pairs * size as f64 / t / MB));
        Ok(())
    })
}
