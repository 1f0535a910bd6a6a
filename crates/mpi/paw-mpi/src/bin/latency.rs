//! latency -- one-way latency of a 1-byte MPI_Send/MPI_Recv round trip (PAW 1.6 §6).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use paw_core::check;
use paw_core::mpi::traits::*;
use paw_core::schema::{BYTES, USEC};
use paw_core::{vars, Axis, Check, Combine, DatSpec, Files, Paw, Policy, Ranks, Spec, Timing};
use paw_mpi::memory::Memory;
use paw_mpi::{send_pingpong, PAIR_CHECK};

const SPEC: Spec = Spec {
    name: "latency",
    title: "one-way latency of a 1-byte MPI_Send/MPI_Recv round trip (PAW 1.6 section 6)",
    timed: "\
Per sample: NLOOP round trips of a 1-byte message; task 0 runs MPI_Send then MPI_Recv, \
task 1 MPI_Recv then MPI_Send (PAW section 6).",
    reports: "\
one-way latency = sample / (2 NLOOP), usec, {ranks} (PAW section \
7).",
    ranks: Ranks::Exactly(2),
    combine: Combine::Min,
    vars: &[vars::MEASURE, vars::COMBINE, vars::TAIL, vars::BUFFER, vars::CHECK],
    check: Check::Data(PAIR_CHECK),
    files: Files::Text("latency.dat (usec)"),
    headlines: &[paw_core::Headline::new(
        "latency",
        "one-way latency at {x} B",
        paw_core::Pick::First,
        paw_core::schema::sweep::MEDIAN,
    )],
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let leader = paw.rank() == 0;
        let peer = paw.world().process_at_rank(1 - paw.rank());
        let memory = Memory::new(&paw)?;
        let (mut send, mut recv) = (memory.alloc(1)?, memory.alloc(1)?);

        let mut bench = paw.bench(Timing::Batch { ops_per_iter: 2.0 }, Policy::Calibrated)?;
        let mut out = paw.dat(
            &bench,
            DatSpec {
                file: "latency.dat".into(),
                x: Axis::new("message size", BYTES),
                y: Axis::new("one-way latency", USEC),
                notes: memory.notes(),
                echo: true,
                extra: bench.tail_columns(),
            },
        )?;
        let (s, mut r) = (send.at(1), recv.at_mut(1));
        let m = bench.measure(1, || send_pingpong(leader, &peer, &s, &mut r))?;
        let mut wrong = 0;
        if paw.checking() {
            send.write(1, |s| check::fill(s, paw.rank(), 1, 0));
            send_pingpong(leader, &peer, &send.at(1), &mut recv.at_mut(1));
            wrong = check::mismatches(&recv.read(1), 1 - paw.rank(), 1, 0);
        }
        let row = m.row(|t| t * 1e6).verdict(paw.verdict(wrong));
        out.row_with(1, &row, &m.tail(|t| t * 1e6));
        paw.checks_passed()
    })
}
