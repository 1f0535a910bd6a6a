//! col_rsb -- MPI_Reduce_scatter_block (MPI_SUM over MPI_UINT8_T): every task's vector of
//! SIZE x tasks bytes reduced, block r of the sum delivered to task r; timed in IMB's loop
//! by default (IMB 2021's Reduce_scatter_block, OSU 7.4's osu_reduce_scatter_block).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below (paw_mpi::collective_spec!): `-h`, the
//! output headers and doc/binaries.md are made from it.
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Spec};

const SPEC: Spec = paw_mpi::collective_spec!(
    "col_rsb",
    "MPI_Reduce_scatter_block (MPI_SUM over MPI_UINT8_T), SIZE bytes to each task (IMB's loop)",
    "MPI_Reduce_scatter_block (MPI_SUM over MPI_UINT8_T)",
    "bytes of the reduced vector each task receives (each contributes SIZE x tasks)",
    "rsb"
);

fn main() -> std::process::ExitCode {
    paw_mpi::collective_main(&SPEC, |paw, sweep, _| {
        let most = sweep.largest();
        let (p, tasks, me) = (paw.size() as i32, paw.size(), paw.rank() as usize);
        let call = |send: &[u8], recv: &mut [u8]| {
            paw.world().reduce_scatter_block_into(send, recv, SystemOperation::sum())
        };
        sweep.run(
            &mut (buffer(most * tasks), buffer(most)),
            |(send, recv), n| call(&send[..n * tasks], &mut recv[..n]),
            |(send, recv), c| {
                // The whole vector is one summand pattern; task r gets block r of the sum.
                let total = c.size * tasks as u64;
                check::fill_summand(&mut send[..c.n * tasks], paw.rank(), total, c.seq, tasks);
                call(&send[..c.n * tasks], &mut recv[..c.n]);
                let sum = check::sum_of(0..p, tasks, total, c.seq);
                check::differences(&recv[..c.n], &sum[me * c.n..(me + 1) * c.n])
            },
        )
    })
}
