//! col_bct -- MPI_Bcast of SIZE bytes from a root task (PAW 1.6 §7.1), timed in IMB's loop
//! by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Family, Paw, Spec, MB};
use paw_mpi::collective_files;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_bct",
    "MPI_Bcast of SIZE bytes from a root task (PAW 1.6 section 7.1, IMB's loop)",
    "MPI_Bcast from a root task",
    "bytes broadcast",
    "bct"
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let world = paw.world();
        let mut data = buffer(sizes.largest() as usize);
        let call = |root: i32, data: &mut [u8]| world.process_at_rank(root).broadcast_into(data);

        let (mut bench, mut roots) = paw_mpi::collective_bench(&paw)?;
        let (mut time, mut bw) =
            collective_files(&paw, &bench, "bct", "bandwidth, SIZE / time per call", &[])?;
        call(0, &mut data[..sizes.med as usize]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let m = bench.measure(size, || call(roots.take(), &mut data[..n]))?;
            let mut wrong = 0;
            if paw.checking() {
                if paw.rank() == 0 {
                    check::fill(&mut data[..n], 0, size, seq);
                }
                call(0, &mut data[..n]);
                wrong = check::mismatches(&data[..n], 0, size, seq);
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
