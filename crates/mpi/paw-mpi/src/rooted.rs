//! The rooted collectives that move one block per task (col_gtr, col_sct: MPI_Gather to,
//! MPI_Scatter from a root task), timed in IMB's loop by default ([`crate::collective_spec!`]).
//! A main is one line, [`rooted_main!`](crate::rooted_main), which makes its Spec and calls
//! [`main`].

use crate::Sweep;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Paw, Spec};

/// Which way the blocks go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    /// Every task's SIZE bytes to the root (MPI_Gather).
    Gather,
    /// SIZE bytes from the root to every task (MPI_Scatter).
    Scatter,
}

/// A rooted collective's SPEC and `main`: `rooted_main!(gather|scatter, name, file stem)`.
#[macro_export]
macro_rules! rooted_main {
    ($way:ident, $name:literal, $stem:literal) => {
        $crate::spec_main!(
            $crate::collective_spec!($name,
                concat!($crate::rooted_main!(@call $way), " of SIZE bytes ",
                    $crate::rooted_main!(@route $way), " (PAW 1.6 section 7.1, IMB's loop)"),
                $crate::rooted_main!(@names $way), $crate::rooted_main!(@size $way), $stem),
            |spec| $crate::rooted::main(spec, $crate::rooted_main!(@way $way))
        );
    };
    (@way gather) => { $crate::rooted::Way::Gather };
    (@way scatter) => { $crate::rooted::Way::Scatter };
    (@call gather) => { "MPI_Gather" };
    (@call scatter) => { "MPI_Scatter" };
    (@route gather) => { "from every task to a root task" };
    (@route scatter) => { "from a root task to every task" };
    (@names gather) => { "MPI_Gather to a root task" };
    (@names scatter) => { "MPI_Scatter from a root task" };
    (@size gather) => { "bytes each task sends to the root" };
    (@size scatter) => { "bytes the root sends to each task" };
}

/// Runs the test `spec` describes; with PAW_CHECK=1 one more call from root 0, each block
/// compared where it landed.
pub fn main(spec: &'static Spec, way: Way) -> std::process::ExitCode {
    paw_core::main(spec.name, || {
        let paw = Paw::init(spec)?;
        let (sweep, roots) = Sweep::collective(&paw, &[])?;
        let (most, p, me) = (sweep.largest(), paw.size(), paw.rank());
        // The root's side holds a block per task: the receive buffer of a gather, the send
        // buffer of a scatter. Every task is a root in turn, so every task has it.
        let (send_len, recv_len) = match way {
            Way::Gather => (1, p),
            Way::Scatter => (p, 1),
        };
        let call = |root: i32, send: &[u8], recv: &mut [u8]| {
            let at = paw.world().process_at_rank(root);
            match (way, me == root) {
                (Way::Gather, true) => at.gather_into_root(send, recv),
                (Way::Gather, false) => at.gather_into(send),
                (Way::Scatter, true) => at.scatter_into_root(send, recv),
                (Way::Scatter, false) => at.scatter_into(recv),
            }
        };
        sweep.run(
            &mut (buffer(most * send_len), buffer(most * recv_len), roots),
            |(send, recv, roots), n| {
                call(roots.take(), &send[..n * send_len], &mut recv[..n * recv_len])
            },
            |(send, recv, _), c| {
                let (send, recv) = (&mut send[..c.n * send_len], &mut recv[..c.n * recv_len]);
                match way {
                    Way::Gather => check::fill(send, me, c.size, c.seq),
                    // Block j is task j's: its pattern names the receiver.
                    Way::Scatter => {
                        for (to, block) in send.chunks_exact_mut(c.n).enumerate() {
                            check::fill(block, to as i32, c.size, c.seq);
                        }
                    }
                }
                call(0, send, recv);
                match (way, me) {
                    (Way::Gather, 0) => check::blocks(recv, c.n, |from| from as i32, c.size, c.seq),
                    (Way::Gather, _) => 0,
                    (Way::Scatter, _) => check::mismatches(recv, me, c.size, c.seq),
                }
            },
        )
    })
}
