//! latency -- one-way MPI latency between exactly two tasks (PAW 1.6 §6).
//!
//! Timed: NLOOP round trips of a 1-byte message per sample (task 0: MPI_Send then MPI_Recv;
//! task 1: MPI_Recv then MPI_Send), NREPS samples, after a timed warm-up of NLOOP_MAX round
//! trips. Reported: one-way latency = sample / (2 x NLOOP), in usec; each repetition takes
//! the minimum over the two tasks (PAW §7).
//! Needs exactly 2 tasks. Env: NLOOP_MAX NLOOP_MIN NREPS PAW_OUTPUT_DIR.
//! Writes latency.dat: SIZE (1 byte) AVG MIN MAX STDDEV MEDIAN (usec) NLOOP NREPS.
use paw_core::mpi::traits::*;
use paw_core::{Axis, Combine, DatSpec, Paw, Policy, Ranks, Spec, Timing};

const SPEC: Spec = Spec {
    name: "latency",
    title: "one-way latency of a 1-byte MPI_Send/MPI_Recv round trip (PAW 1.6 section 6)",
    help: "\
Timed: NLOOP round trips of 1 byte (task 0 MPI_Send+MPI_Recv, task 1 MPI_Recv+MPI_Send)
per sample, NREPS samples. One-way latency = sample / (2 NLOOP), minimum over the tasks.
Needs exactly 2 MPI tasks:  mpirun -np 2 latency
Writes latency.dat: SIZE AVG MIN MAX STDDEV MEDIAN (usec) NLOOP NREPS.",
    ranks: Ranks::Exactly(2),
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let leader = paw.rank() == 0;
        let peer = paw.world().process_at_rank(1 - paw.rank());
        let send = [0x5au8; 1];
        let mut recv = [0u8; 1];

        let mut bench =
            paw.bench(Timing::Batch { ops_per_iter: 2.0 }, Combine::Min, Policy::Calibrated);
        let mut out = paw.dat(
            &bench,
            DatSpec {
                file: "latency.dat".into(),
                x: Axis::new("message size", "bytes"),
                y: Axis::new("one-way latency", "usec"),
                notes: vec![
                    "timed calls: task 0 MPI_Send, MPI_Recv; task 1 MPI_Recv, MPI_Send".into()
                ],
                echo: true,
                extra: vec![],
            },
        )?;
        let m = bench.measure(|| {
            if leader {
                peer.send(&send[..]);
                peer.receive_into(&mut recv[..]);
            } else {
                peer.receive_into(&mut recv[..]);
                peer.send(&send[..]);
            }
        });
        out.row(send.len(), &m.row(|t| t * 1e6));
        Ok(())
    })
}
