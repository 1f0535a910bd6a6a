//! col_agtr -- MPI_Allgather of SIZE bytes from every task to every task (PAW 1.6 §7.1),
//! timed in IMB's loop by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Family, Paw, Spec, MB};
use paw_mpi::collective_files;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_agtr",
    "MPI_Allgather of SIZE bytes from every task to every task (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Allgather",
    "bytes each task contributes (each receives SIZE x tasks)",
    "agtr"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let world = paw.world();
        let p = paw.size();
        let most = sizes.largest() as usize;
        let mut send = buffer(most);
        let mut recv = buffer(most * p);
        let call = |send: &[u8], recv: &mut [u8]| world.all_gather_into(send, recv);

        let (mut bench, _) = paw_mpi::collective_bench(&paw)?;
        let (mut time, mut bw) =
            collective_files(&paw, &bench, "agtr", "bandwidth, SIZE / time per call", &[])?;
        let w = sizes.med as usize;
        call(&send[..w], &mut recv[..w * p]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let m = bench.measure(size, || call(&send[..n], &mut recv[..n * p]))?;
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq);
                call(&send[..n], &mut recv[..n * p]);
                for (from, block) in recv[..n * p].chunks_exact(n).enumerate() {
                    wrong += check::mismatches(block, from as i32, size, seq);
                }
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
