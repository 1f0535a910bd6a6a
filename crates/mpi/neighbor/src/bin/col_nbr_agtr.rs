//! col_nbr_agtr -- MPI_Neighbor_allgather of SIZE bytes on a Cartesian grid of tasks,
//! timed in IMB's loop by default (OSU 7.4's osu_neighbor_allgather, on PAW's loop).
//!
//! What is timed and reported, the variables read, the data check and the files written
//! are stated once, in SPEC below (paw_mpi::collective_spec!).
use mpi_ext::topology::neighbor_allgather;
use paw_core::{buffer, check, Family, Paw, Spec, MB};
use paw_mpi::collective_files;
use paw_mpi::neighbor::{Grid, NBR};

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_nbr_agtr",
    "MPI_Neighbor_allgather of SIZE bytes on a Cartesian grid of tasks (IMB's loop)",
    "MPI_Neighbor_allgather on the grid of NBR_DIMS dimensions from MPI_Dims_create",
    "bytes each task sends to each neighbour (it receives SIZE x 2 NBR_DIMS)",
    "nbr_agtr",
    NBR
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let grid = Grid::new(&paw)?;
        let k = grid.blocks();
        let most = sizes.largest() as usize;
        let mut send = buffer(most);
        let mut recv = buffer(most * k);
        let call = |send: &[u8], recv: &mut [u8]| neighbor_allgather(&grid.comm, send, recv);

        let (mut bench, _) = paw_mpi::collective_bench(&paw)?;
        let label = "bandwidth, SIZE x 2 NBR_DIMS / time per call (a task's blocks received)";
        let (mut time, mut bw) =
            collective_files(&paw, &bench, "nbr_agtr", label, &[&grid.describe()])?;
        let w = sizes.med as usize;
        call(&send[..w], &mut recv[..w * k]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let m = bench.measure(size, || call(&send[..n], &mut recv[..n * k]))?;
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq);
                grid.clear(&mut recv[..n * k], size, seq);
                call(&send[..n], &mut recv[..n * k]);
                wrong = grid.wrong(&recv[..n * k], size, seq, |rank, _| rank);
            }
            let verdict = paw.verdict(wrong);
            let bytes = (size as usize * k) as f64;
            time.row_with(
                size,
                &m.row(|t| t * 1e6).verdict(verdict),
                &paw_mpi::spread_and_tail(&m),
            );
            bw.row(size, &m.row(|t| bytes / t / MB).verdict(verdict));
        }
        paw.checks_passed()
    })
}
