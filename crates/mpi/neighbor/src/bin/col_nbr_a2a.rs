//! col_nbr_a2a -- MPI_Neighbor_alltoall of SIZE bytes per neighbour on a Cartesian grid of
//! tasks, timed in IMB's loop by default (OSU 7.4's osu_neighbor_alltoall, on PAW's loop).
//!
//! What is timed and reported, the variables read, the data check and the files written
//! are stated once, in SPEC below (paw_mpi::collective_spec!).
use mpi_ext::topology::neighbor_alltoall;
use paw_core::{buffer, check, Paw, Spec};
use paw_mpi::neighbor::{Grid, NBR};
use paw_mpi::Sweep;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_nbr_a2a",
    "MPI_Neighbor_alltoall of SIZE bytes per neighbour on a Cartesian grid of tasks (IMB's loop)",
    "MPI_Neighbor_alltoall on the grid of NBR_DIMS dimensions from MPI_Dims_create",
    "bytes each task sends to each neighbour (2 NBR_DIMS blocks each way)",
    "nbr_a2a",
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
        let most = sweep.largest() * k;
        let call = |send: &[u8], recv: &mut [u8], n| neighbor_alltoall(&grid.comm, send, recv, n);
        // Block j of task r carries pattern r x blocks + j: the check names both ends.
        let sent = |rank: i32, j: usize| rank * k as i32 + j as i32;
        sweep.run(
            &mut (buffer(most), buffer(most)),
            |(send, recv), n| call(&send[..n * k], &mut recv[..n * k], n),
            |(send, recv), c| {
                for (j, block) in send[..c.n * k].chunks_exact_mut(c.n).enumerate() {
                    check::fill(block, sent(paw.rank(), j), c.size, c.seq);
                }
                grid.clear(&mut recv[..c.n * k], c.size, c.seq);
                call(&send[..c.n * k], &mut recv[..c.n * k], c.n);
                grid.wrong(&recv[..c.n * k], c.size, c.seq, sent)
            },
        )
    })
}
