//! rma's four tests, the windows' creation pair by pair, and the memory check of its
//! window and origin buffer.

use crate::{bandwidth, Active, Presta};
use paw_core::agree;
use paw_core::mpi::topology::{Color, SimpleCommunicator};
use paw_core::mpi::traits::*;

/// The terminal table's head.
pub const HEAD: &str =
    "Test           Processes  Message Size (bytes)   Ops/Epoch  Bandwidth (MB)  Op time (us)";

/// The four tests: name, file stem, put (else get), both directions.
pub const TESTS: [(&str, &str, bool, bool); 4] = [
    ("Unidir. Put", "unidir_put", true, false),
    ("Unidir. Get", "unidir_get", false, false),
    ("Bidir. Put", "bidir_put", true, true),
    ("Bidir. Get", "bidir_get", false, true),
];

/// Runs `create` (a window's creation on this pair's communicator) one pair after the
/// other: Open MPI 4.1 names the shared-memory segment of a window after its
/// communicator's context id, which the pairs' communicators share, so pairs on one host
/// creating windows at once collide.
pub fn in_turn<W>(a: &Active, pairs: usize, create: impl FnOnce() -> W) -> W {
    let mut create = Some(create);
    let mut made = None;
    for k in 0..pairs {
        if k == a.pair {
            made = create.take().map(|f| f());
        }
        a.comm.barrier();
    }
    made.expect("every active pair has its turn")
}

/// The bytes of the window (and of the origin buffer) at the largest size, if they fit
/// the memory available to each process of this host (agreed on every rank).
pub fn fits(p: &Presta) -> paw_core::Result<usize> {
    let (ops, stop) = (p.opts.ops, p.opts.stop);
    let local = p.world.split_shared(0).size() as u64;
    let span = ops.checked_mul(stop).filter(|&b| b <= isize::MAX as u64 / 2);
    let mine = match (span, paw_core::available_memory()) {
        (Some(b), Some(avail)) if 2 * b > avail / local => Err(format!(
            "-o {ops} x -e {stop}: the window and the origin buffer need {} MiB per process; \
             {} MiB are available to each of the {local} processes on this host",
            (2 * b) >> 20,
            (avail / local) >> 20
        )),
        (Some(b), _) => Ok(b as usize),
        (None, _) => {
            Err(format!("-o {ops} x -e {stop}: the window would exceed the address space"))
        }
    };
    agree(&p.world, mine)
}

/// The pair's own communicator, on which its window is created (collective over the
/// active processes).
pub fn pair_comm(a: &Active, world_rank: i32) -> Option<SimpleCommunicator> {
    a.comm.split_by_color_with_key(Color::with_value(a.pair as i32), world_rank)
}

/// Bandwidth (MB/s, all pairs; both directions count for Bidir.) and time per operation
/// (usec) of a sample of `t` seconds in which each working process made `transfers` puts
/// or gets of `size` bytes.
pub fn figures(count: usize, both: bool, transfers: u64, size: u64, t: f64) -> (f64, f64) {
    let pairs = (count / 2) as f64 * if both { 2.0 } else { 1.0 };
    (bandwidth(transfers as f64 * pairs, size, t), t / transfers as f64 * 1e6)
}

/// One line of the terminal table.
pub fn line(test: &str, count: usize, size: u64, ops: u64, bw: f64, op: f64) -> String {
    format!("{test:<14}{count:>10}{size:>22}{ops:>12}{bw:>16.3}{op:>14.3}")
}
