//! Process topology helpers rsmpi lacks.

use mpi::ffi;
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
