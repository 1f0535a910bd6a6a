//! The neighbourhood collectives (col_nbr_agtr, col_nbr_a2a): the Cartesian grid of tasks
//! from MPI_Dims_create, each task's neighbours, the data check's expectation of every
//! received block, and the test itself ([`main`]); a main is one line,
//! [`nbr_main!`](crate::nbr_main).

use crate::Sweep;
use mpi_ext::topology::{dims_create, neighbor_allgather, neighbor_alltoall};
use paw_core::mpi::topology::CartesianCommunicator;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Spec};
use paw_core::{Error, Paw, Var};

/// NBR_DIMS: dimensions of the grid.
pub const NBR_DIMS: Var = Var {
    name: "NBR_DIMS",
    default: "2",
    meaning: "dimensions of the Cartesian grid of tasks (MPI_Dims_create)",
    accepts: paw_core::vars::Accepts::Whole(1, 6),
};

/// NBR_PERIODIC: whether the grid wraps around.
pub const NBR_PERIODIC: Var = Var {
    name: "NBR_PERIODIC",
    default: "1",
    meaning: "1: every dimension wraps around (a torus); 0: none does, and tasks at an edge \
              have fewer neighbours",
    accepts: paw_core::vars::Accepts::Whole(0, 1),
};

/// A neighbourhood collective's SPEC and `main`: `nbr_main!(alltoall|allgather, name, file
/// stem)`.
#[macro_export]
macro_rules! nbr_main {
    ($op:ident, $name:literal, $stem:literal) => {
        $crate::spec_main!(
            $crate::collective_spec!($name,
                concat!("MPI_Neighbor_", $crate::nbr_main!(@call $op), " of SIZE bytes",
                    $crate::nbr_main!(@per $op), " on a Cartesian grid of tasks (IMB's loop)"),
                concat!("MPI_Neighbor_", $crate::nbr_main!(@call $op),
                    " on the grid of NBR_DIMS dimensions from MPI_Dims_create"),
                concat!("bytes each task sends to each neighbour ", $crate::nbr_main!(@size $op)),
                $stem,
                bandwidth = "bandwidth, SIZE x 2 NBR_DIMS / time per call (a task's blocks received)",
                $crate::neighbor::NBR),
            |spec| $crate::neighbor::main(spec, $crate::nbr_main!(@op $op))
        );
    };
    (@op alltoall) => { $crate::neighbor::Op::Alltoall };
    (@op allgather) => { $crate::neighbor::Op::Allgather };
    (@call alltoall) => { "alltoall" };
    (@call allgather) => { "allgather" };
    (@per alltoall) => { " per neighbour" };
    (@per allgather) => { "" };
    (@size alltoall) => { "(2 NBR_DIMS blocks each way)" };
    (@size allgather) => { "(it receives SIZE x 2 NBR_DIMS)" };
}

/// A neighbourhood collective's operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// MPI_Neighbor_alltoall: a block of SIZE bytes to each neighbour, one from each.
    Alltoall,
    /// MPI_Neighbor_allgather: SIZE bytes to every neighbour, a block from each.
    Allgather,
}

/// Runs the test `spec` describes with `op`, timed as [`Sweep::collective`]'s tests are;
/// with PAW_CHECK=1 one more call whose every received block [`Grid::wrong`] judges.
pub fn main(spec: &'static Spec, op: Op) -> std::process::ExitCode {
    paw_core::main(spec.name, || {
        let paw = Paw::init(spec)?;
        let sizes = Sweep::sizes(&paw)?;
        let grid = Grid::new(&paw)?;
        let k = grid.blocks();
        let (bench, _) = crate::collective::collective_bench(&paw)?;
        let sweep = Sweep::with_bench(&paw, sizes, bench, &[&grid.describe()])?.scaled(k as f64);
        // Send blocks: one per neighbour for an alltoall, one for an allgather.
        let sent_blocks = if op == Op::Alltoall { k } else { 1 };
        let most = sweep.largest();
        let call = |send: &[u8], recv: &mut [u8], n| match op {
            Op::Alltoall => neighbor_alltoall(&grid.comm, send, recv, n),
            Op::Allgather => neighbor_allgather(&grid.comm, send, recv),
        };
        // Block j of an alltoall's task r carries pattern r x blocks + j: the check names
        // both ends; an allgather's one block carries r.
        let sent = |rank: i32, j: usize| match op {
            Op::Alltoall => rank * k as i32 + j as i32,
            Op::Allgather => rank,
        };
        sweep.run(
            &mut (buffer(most * sent_blocks), buffer(most * k)),
            |(send, recv), n| call(&send[..n * sent_blocks], &mut recv[..n * k], n),
            |(send, recv), c| {
                for (j, block) in send[..c.n * sent_blocks].chunks_exact_mut(c.n).enumerate() {
                    check::fill(block, sent(paw.rank(), j), c.size, c.seq);
                }
                grid.clear(&mut recv[..c.n * k], c.size, c.seq);
                call(&send[..c.n * sent_blocks], &mut recv[..c.n * k], c.n);
                grid.wrong(&recv[..c.n * k], c.size, c.seq, sent)
            },
        )
    })
}

/// The variables only the neighbourhood collectives read.
pub const NBR: &[Var] = &[NBR_DIMS, NBR_PERIODIC];

/// The pattern id of a block that must not have been written (a missing neighbour's).
const UNTOUCHED: i32 = i32::MAX;

/// The Cartesian communicator and this task's neighbours.
pub struct Grid {
    /// The communicator with the Cartesian topology (ranks as in the world: no reordering).
    pub comm: CartesianCommunicator,
    /// Tasks per dimension.
    pub dims: Vec<usize>,
    /// Whether the dimensions wrap around.
    pub periodic: bool,
    /// Per dimension the neighbour at -1, then the one at +1 (MPI's order); `None` at a
    /// non-periodic edge.
    pub neighbours: Vec<Option<i32>>,
}

impl std::fmt::Debug for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grid")
            .field("dims", &self.dims)
            .field("periodic", &self.periodic)
            .field("neighbours", &self.neighbours)
            .finish_non_exhaustive()
    }
}

impl Grid {
    /// Reads NBR_DIMS and NBR_PERIODIC and builds the grid (collective).
    pub fn new(paw: &Paw) -> paw_core::Result<Grid> {
        let ndims = paw.knob(&NBR_DIMS)? as usize;
        let periodic = paw.knob(&NBR_PERIODIC)? == 1;
        let dims = dims_create(paw.size(), ndims);
        let counts: Vec<i32> = dims.iter().map(|&d| d as i32).collect();
        let comm = paw
            .world()
            .create_cartesian_communicator(&counts, &vec![periodic; ndims], false)
            .ok_or_else(|| Error::input("MPI_Cart_create left this task out of the grid"))?;
        let mut neighbours = Vec::with_capacity(2 * ndims);
        for d in 0..ndims {
            let (below, above) = comm.shift(d as i32, 1);
            neighbours.extend([below, above]);
        }
        Ok(Grid { comm, dims, periodic, neighbours })
    }

    /// Blocks per call: 2 per dimension.
    pub fn blocks(&self) -> usize {
        self.neighbours.len()
    }

    /// The header line describing the grid.
    pub fn describe(&self) -> String {
        let dims: Vec<String> = self.dims.iter().map(usize::to_string).collect();
        format!(
            "grid: {} tasks per dimension (MPI_Dims_create, NBR_DIMS={}), {}; {} neighbour \
             blocks per task, per dimension the one at -1 then +1 (MPI's order)",
            dims.join(" x "),
            self.dims.len(),
            if self.periodic {
                "every dimension wraps around (NBR_PERIODIC=1)"
            } else {
                "no dimension wraps around (NBR_PERIODIC=0): a neighbour beyond an edge is \
                 MPI_PROC_NULL, its block untouched"
            },
            self.blocks()
        )
    }

    /// Before the check: every receive block set to the pattern a missing neighbour's block
    /// must keep.
    pub fn clear(&self, recv: &mut [u8], size: u64, seq: u64) {
        let n = recv.len() / self.blocks();
        for block in recv.chunks_exact_mut(n) {
            check::fill(block, UNTOUCHED, size, seq);
        }
    }

    /// Wrong bytes in the received blocks. `sent(rank, k)` is the pattern id of what `rank`
    /// sends in its block k; see [`accepted`] for what each block must hold.
    pub fn wrong(
        &self,
        recv: &[u8],
        size: u64,
        seq: u64,
        sent: impl Fn(i32, usize) -> i32,
    ) -> usize {
        let n = recv.len() / self.blocks();
        let ids = accepted(&self.neighbours, sent);
        let mismatches = |block: &[u8], id: i32| check::mismatches(block, id, size, seq);
        let blocks = recv.chunks_exact(n).zip(&ids);
        blocks.map(|(block, ids)| ids.iter().map(|&id| mismatches(block, id)).min().unwrap()).sum()
    }
}

/// The pattern ids block k of the receive buffer may hold, for every k. Block k comes from
/// neighbour k, which sent it toward this task: its block k ^ 1 (the neighbour at -1 sent
/// it toward +1). Where one task is this task's neighbour more than once (2 or fewer tasks
/// along a wrapping dimension: both sides, and possibly in several dimensions) MPI does not
/// say which of the blocks it sent here lands where: any of them is accepted. A missing
/// neighbour's block must be untouched.
pub fn accepted(neighbours: &[Option<i32>], sent: impl Fn(i32, usize) -> i32) -> Vec<Vec<i32>> {
    let ids = |k: usize| match neighbours[k] {
        None => vec![UNTOUCHED],
        Some(from) => {
            // Its block j ^ 1 went to its neighbour there, this task, for every j it is at.
            let at = (0..neighbours.len()).filter(|&j| neighbours[j] == Some(from));
            at.map(|j| sent(from, j ^ 1)).collect()
        }
    };
    (0..neighbours.len()).map(ids).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_block_holds_what_its_neighbour_sent_toward_this_task() {
        // Rank 1 of a 4 x 3 torus at (0, 1): -1/+1 in dim 0 are ranks 9 and 4, in dim 1
        // ranks 0 and 2; a task's block j is id 10 x rank + j.
        let sent = |rank: i32, j: usize| 10 * rank + j as i32;
        let got = accepted(&[Some(9), Some(4), Some(0), Some(2)], sent);
        assert_eq!(got, [vec![91], vec![40], vec![3], vec![22]]);
        // Two tasks around a ring: both blocks of the one neighbour are accepted.
        assert_eq!(accepted(&[Some(0), Some(0)], sent), [vec![1, 0], vec![1, 0]]);
        // Task 3 of 2 x 1 x 1: task 1 on both sides in dimension 0, itself in the others.
        let got = accepted(&[Some(1), Some(1), Some(3), Some(3), Some(3), Some(3)], sent);
        assert_eq!(got[0], [11, 10]);
        assert_eq!(got[5], [33, 32, 35, 34]);
        // At a non-periodic edge the block must be untouched.
        assert_eq!(accepted(&[None, Some(2)], sent), [vec![UNTOUCHED], vec![20]]);
    }
}
