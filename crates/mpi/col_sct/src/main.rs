//! col_sct -- MPI_Scatter of SIZE bytes from a root task to every task (PAW 1.6 §7.1),
//! timed in IMB's loop by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Family, Paw, Spec, MB};
use paw_mpi::collective_files;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_sct",
    "MPI_Scatter of SIZE bytes from a root task to every task (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Scatter from a root task",
    "bytes the root sends to each task",
    "sct"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let world = paw.world();
        let p = paw.size();
        let most = sizes.largest() as usize;
        // Every task is a root in turn (collective_bench), so every task has the root's buffer.
        let mut send = buffer(most * p);
        let mut recv = buffer(most);
        let call = |root: i32, send: &[u8], recv: &mut [u8]| {
            if paw.rank() == root {
                world.process_at_rank(root).scatter_into_root(send, recv)
            } else {
                world.process_at_rank(root).scatter_into(recv)
            }
        };
        let from = |n: usize| n * p;

        let (mut bench, mut roots) = paw_mpi::collective_bench(&paw)?;
        let (mut time, mut bw) =
            collective_files(&paw, &bench, "sct", "bandwidth, SIZE / time per call", &[])?;
        let w = sizes.med as usize;
        call(0, &send[..from(w)], &mut recv[..w]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let m = bench.measure(size, || call(roots.take(), &send[..from(n)], &mut recv[..n]))?;
            let mut wrong = 0;
            if paw.checking() {
                // Block j is task j's: its pattern names the receiver.
                for (to, block) in send[..from(n)].chunks_exact_mut(n).enumerate() {
                    check::fill(block, to as i32, size, seq);
                }
                call(0, &send[..from(n)], &mut recv[..n]);
                wrong = check::mismatches(&recv[..n], paw.rank(), size, seq);
            }
            let verdict = paw.verdict(wrong);
            time.row_with(
                size,
                &m.row(|t| t * 1e6).verdict(verdict),
                &paw_mpi::spread_and_tail(&m),
            );
            bw.row(size, &m.row(|t| size as f64 / t / MB).verdict(verdict));
        }
        paw.checks_passed()
    })
}
