//! Process topology helpers rsmpi lacks: MPI_Dims_create and the neighbourhood
//! collectives.

use crate::Plain;
use mpi::ffi;
use mpi::traits::Communicator;
use std::os::raw::c_int;

/// MPI_Dims_create: a balanced split of `nodes` processes into `ndims` dimensions, largest
/// first (MPI 3.1 §7.5.2). Panics if `nodes` < 1.
pub fn dims_create(nodes: usize, ndims: usize) -> Vec<usize> {
    assert!(nodes >= 1, "at least one process");
    let mut dims = vec![0 as c_int; ndims];
    // SAFETY: `dims` holds `ndims` zero entries (all free), which MPI overwrites.
    unsafe { ffi::MPI_Dims_create(crate::count(nodes), crate::count(ndims), dims.as_mut_ptr()) };
    dims.into_iter().map(|d| d as usize).collect()
}

/// MPI_Neighbor_allgather over `comm`'s process topology: `send` goes to every outgoing
/// neighbour, and block k of `recv` (`send.len()` elements each) receives from incoming
/// neighbour k. On a Cartesian communicator the neighbours are, per dimension, the one at
/// -1 then the one at +1; the block of a missing neighbour (MPI_PROC_NULL) is left as it
/// was.
///
/// Panics unless `recv` holds one block per incoming neighbour. Collective over `comm`.
pub fn neighbor_allgather<T: Plain, C: Communicator>(comm: &C, send: &[T], recv: &mut [T]) {
    let (sources, _) = degrees(comm);
    assert_eq!(recv.len(), send.len() * sources, "one block of recv per incoming neighbour");
    let n = crate::count(send.len());
    // SAFETY: MPI reads `n` elements of `send` and writes `sources` blocks of `n` into
    // `recv`, which the assertion above sized; T is Plain and its datatype matches its
    // layout; the call is blocking, so the borrows cover MPI's use of the buffers.
    unsafe {
        ffi::MPI_Neighbor_allgather(
            send.as_ptr().cast(),
            n,
            crate::datatype::<T>(),
            recv.as_mut_ptr().cast(),
            n,
            crate::datatype::<T>(),
            comm.as_raw(),
        );
    }
}

/// MPI_Neighbor_alltoall over `comm`'s process topology: block k of `send` goes to outgoing
/// neighbour k, block k of `recv` comes from incoming neighbour k; blocks are `block`
/// elements (neighbour order as in [`neighbor_allgather`]).
///
/// Panics unless `send` and `recv` hold one block per neighbour. Collective over `comm`.
pub fn neighbor_alltoall<T: Plain, C: Communicator>(
    comm: &C,
    send: &[T],
    recv: &mut [T],
    block: usize,
) {
    let (sources, destinations) = degrees(comm);
    assert_eq!(send.len(), block * destinations, "one block of send per outgoing neighbour");
    assert_eq!(recv.len(), block * sources, "one block of recv per incoming neighbour");
    let n = crate::count(block);
    // SAFETY: as in `neighbor_allgather`: both buffers were sized above for the counts MPI
    // reads and writes, and the call is blocking.
    unsafe {
        ffi::MPI_Neighbor_alltoall(
            send.as_ptr().cast(),
            n,
            crate::datatype::<T>(),
            recv.as_mut_ptr().cast(),
            n,
            crate::datatype::<T>(),
            comm.as_raw(),
        );
    }
}

/// Incoming and outgoing neighbours of this process in `comm`'s topology: 2 per dimension
/// of a Cartesian communicator, the graph's degrees otherwise.
fn degrees<C: Communicator>(comm: &C) -> (usize, usize) {
    let mut kind: c_int = 0;
    // SAFETY: `kind` is a valid out-parameter.
    unsafe { ffi::MPI_Topo_test(comm.as_raw(), &mut kind) };
    // SAFETY: reading extern static constants MPI initialises at load.
    let (cart, dist) = unsafe { (ffi::RSMPI_CART, ffi::RSMPI_DIST_GRAPH) };
    if kind == cart {
        let mut ndims: c_int = 0;
        // SAFETY: `ndims` is a valid out-parameter of a Cartesian communicator.
        unsafe { ffi::MPI_Cartdim_get(comm.as_raw(), &mut ndims) };
        let n = 2 * ndims as usize;
        (n, n)
    } else if kind == dist {
        let (mut ins, mut outs, mut weighted): (c_int, c_int, c_int) = (0, 0, 0);
        // SAFETY: three valid out-parameters of a distributed-graph communicator.
        unsafe {
            ffi::MPI_Dist_graph_neighbors_count(comm.as_raw(), &mut ins, &mut outs, &mut weighted)
        };
        (ins as usize, outs as usize)
    } else {
        panic!("neighbourhood collectives need a Cartesian or distributed-graph communicator");
    }
}
