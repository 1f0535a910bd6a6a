//! col_agtrv -- MPI_Allgatherv of SIZE bytes from every task to every task, all counts equal
//! (IMB 2021's Allgatherv, OSU 7.4's osu_allgatherv), timed in IMB's loop by default.
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::datatype::PartitionMut;
use paw_core::mpi::traits::*;
use paw_core::mpi::Count;
use paw_core::{check, Spec};
use paw_mpi::{Bytes, BytesMut};
use std::cell::RefCell;

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_agtrv",
    "MPI_Allgatherv of SIZE bytes from every task to every task, equal counts (IMB's loop)",
    "MPI_Allgatherv (every count SIZE, block i at i x SIZE)",
    "bytes each task contributes (each receives SIZE x tasks)",
    "agtrv",
    ::paw_core::vars::BUFFER
);

fn main() -> std::process::ExitCode {
    paw_mpi::collective_main(&SPEC, |paw, sweep, _| {
        let most = sweep.largest();
        let p = paw.size();
        // Counts and displacements made once per size, outside the timed calls (as IMB).
        let layout = RefCell::new((usize::MAX, Vec::new(), Vec::new()));
        let call = |send: Bytes, mut recv: BytesMut, n: usize| {
            let mut l = layout.borrow_mut();
            if l.0 != n {
                *l = (n, vec![n as Count; p], (0..p).map(|i| (i * n) as Count).collect());
            }
            let mut part = PartitionMut::new(&mut recv, &l.1[..], &l.2[..]);
            paw.world().all_gather_varcount_into(&send, &mut part)
        };
        let mut buffers = (sweep.memory().alloc(most)?, sweep.memory().alloc(most * p)?);
        sweep.run(
            &mut buffers,
            |(send, recv), n| call(send.at(n), recv.at_mut(n * p), n),
            |(send, recv), c| {
                send.write(c.n, |s| check::fill(s, paw.rank(), c.size, c.seq));
                call(send.at(c.n), recv.at_mut(c.n * p), c.n);
                check::blocks(&recv.read(c.n * p), c.n, |from| from as i32, c.size, c.seq)
            },
        )
    })
}
