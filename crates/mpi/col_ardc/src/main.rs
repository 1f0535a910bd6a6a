//! col_ardc -- MPI_Allreduce (MPI_SUM over MPI_UINT8_T) of SIZE bytes (PAW 1.6 §7.1), timed
//! in IMB's loop by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Family, Paw, Spec, MB};
use paw_mpi::collective_files;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_ardc",
    "MPI_Allreduce (MPI_SUM over MPI_UINT8_T) of SIZE bytes (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Allreduce (MPI_SUM over MPI_UINT8_T)",
    "bytes of the vector reduced",
    "ardc"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let world = paw.world();
        let p = paw.size() as i32;
        let tasks = p as usize;
        let most = sizes.largest() as usize;
        let mut send = buffer(most);
        let mut recv = buffer(most);
        let call = |send: &[u8], recv: &mut [u8]| {
            world.all_reduce_into(send, recv, SystemOperation::sum())
        };

        let (mut bench, _) = paw_mpi::collective_bench(&paw)?;
        let (mut time, mut bw) =
            collective_files(&paw, &bench, "ardc", "bandwidth, SIZE / time per call", &[])?;
        let w = sizes.med as usize;
        call(&send[..w], &mut recv[..w]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let m = bench.measure(size, || call(&send[..n], &mut recv[..n]))?;
            let mut wrong = 0;
            if paw.checking() {
                check::fill_summand(&mut send[..n], paw.rank(), size, seq, tasks);
                call(&send[..n], &mut recv[..n]);
                wrong = check::differences(&recv[..n], &check::sum_of(0..p, tasks, size, seq));
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
