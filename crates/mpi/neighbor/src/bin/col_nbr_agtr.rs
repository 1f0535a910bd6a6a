//! col_nbr_agtr -- MPI_Neighbor_allgather of SIZE bytes on a Cartesian grid of tasks,
//! timed in IMB's loop by default (OSU 7.4's osu_neighbor_allgather, on PAW's loop).
//!
//! What is timed and reported, the variables read, the data check and the files written
//! are stated once, in SPEC below (paw_mpi::collective_spec!).
use mpi_ext::topology::neighbor_allgather;
use paw_core::{buffer, check, Paw, Spec};
use paw_mpi::neighbor::{Grid, NBR};
use paw_mpi::Sweep;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_nbr_agtr",
    "MPI_Neighbor_allgather of SIZE bytes on a Cartesian grid of tasks (IMB's loop)",
    "MPI_Neighbor_allgather on the grid of NBR_DIMS dimensions from MPI_Dims_create",
    "bytes each task sends to each neighbour (it receives SIZE x 2 NBR_DIMS)",
    "nbr_agtr",
    bandwidth = "bandwidth, SIZE x 2 NBR_DIMS / time per call (a task's blocks received)",
    NBR
);

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = Sweep::sizes(&paw)?;
        let grid = Grid::new(&paw)?;
        let k = grid.blocks();
        let (bench, _) = paw_mpi::collective_bench(&paw)?;
        let sweep = Sweep::with_bench(&paw, sizes, bench, &[&grid.describe()])?.scaled(k as f64);
        let most = sweep.largest();
        let call = |send: &[u8], recv: &mut [u8]| neighbor_allgather(&grid.comm, send, recv);
        sweep.run(
            &mut (buffer(most), buffer(most * k)),
            |(send, recv), n| call(&send[..n], &mut recv[..n * k]),
            |(send, recv), c| {
                check::fill(&mut send[..c.n], paw.rank(), c.size, c.seq);
                grid.clear(&mut recv[..c.n * k], c.size, c.seq);
                call(&send[..c.n], &mut recv[..c.n * k]);
                grid.wrong(&recv[..c.n * k], c.size, c.seq, |rank, _| rank)
            },
        )
    })
}
