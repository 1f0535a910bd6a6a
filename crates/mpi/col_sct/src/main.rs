//! col_sct -- MPI_Scatter of SIZE bytes from task 0 to every task, timed call by call (PAW 1.6
//! §7.1).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Combine, Family, Paw, Policy, Spec, Timing, MB};
use paw_mpi::collective_files;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_sct",
    "MPI_Scatter of SIZE bytes from task 0 to every task, timed call by call (PAW 1.6 section 7.1)",
    "MPI_Scatter from task 0",
    "bytes task 0 sends to each task",
    "sct"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let world = paw.world();
        let root = world.process_at_rank(0);
        let is_root = paw.rank() == 0;
        let p = paw.size();
        let most = sizes.largest() as usize;
        let mut send = buffer(if is_root { most * p } else { 0 });
        let mut recv = buffer(most);
        let call = |send: &[u8], recv: &mut [u8]| {
            if is_root {
                root.scatter_into_root(send, recv)
            } else {
                root.scatter_into(recv)
            }
        };
        let from = |n: usize| if is_root { n * p } else { 0 };

        let mut bench = paw.bench(Timing::PerCall, Combine::Max, Policy::Calibrated)?;
        let (mut time, mut bw) =
            collective_files(&paw, &bench, "sct", "bandwidth, SIZE / time per call", &[])?;
        let w = sizes.med as usize;
        call(&send[..from(w)], &mut recv[..w]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let m = bench.measure(size, || call(&send[..from(n)], &mut recv[..n]))?;
            let mut wrong = 0;
            if paw.checking() {
                // Block j is task j's: its pattern names the receiver.
                for (to, block) in send[..from(n)].chunks_exact_mut(n).enumerate() {
                    check::fill(block, to as i32, size, seq);
                }
                call(&send[..from(n)], &mut recv[..n]);
                wrong = check::mismatches(&recv[..n], paw.rank(), size, seq);
            }
            let verdict = paw.verdict(wrong);
            time.row_with(size, &m.row(|t| t * 1e6).verdict(verdict), &m.spread(|t| t * 1e6));
            bw.row(size, &m.row(|t| size as f64 / t / MB).verdict(verdict));
        }
        paw.checks_passed()
    })
}
