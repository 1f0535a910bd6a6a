//! rma -- PRESTA 1.2's one-sided test: MPI_Put and MPI_Get, unidirectional and
//! bidirectional, in MPI_Win_fence epochs on a window of each pair.
//!
//! Timed (one sample per test, count and size, see paw_presta::timing::sample): `-c`
//! epochs between two clock reads after a warm-up epoch and two butterfly barriers, ended
//! by a butterfly barrier unless `-n`; the slowest active process's time T counts. An
//! epoch: MPI_Win_fence, `-o` puts (gets) of the message size to (from) consecutive offsets
//! of the partner's window, MPI_Win_fence; the pair's first process only (Unidir.) or both
//! (Bidir.). Untimed: the window of -o x size bytes per process, created on the pair's
//! communicator for each size.
//!
//! Reported (MB = 10^6 B): bandwidth = ops x epochs x size x (pairs, or 2 x pairs for
//! Bidir.) / T; op time = T / (ops x epochs). Options: paw_presta::options (`-h`). Files:
//! rma_<test>_bw-np_NNNN.dat (MB/s against size, a column per process count) with their
//! .csv, and the run record.

use mpi_ext::rma::Window;
use paw_core::agree;
use paw_core::mpi::topology::Color;
use paw_core::mpi::traits::*;
use paw_presta::options::Takes;
use paw_presta::{bandwidth, timing, Active, Binary, Presta};
use std::process::ExitCode;

const RMA: Binary = Binary {
    name: "rma",
    what: "MPI interprocess communication benchmark for one-sided operations (PRESTA 1.2 rma)",
    takes: Takes { sizes: true, epochs: true },
};

/// The four tests: name, file stem, put (else get), both directions.
const TESTS: [(&str, &str, bool, bool); 4] = [
    ("Unidir. Put", "unidir_put", true, false),
    ("Unidir. Get", "unidir_get", false, false),
    ("Bidir. Put", "bidir_put", true, true),
    ("Bidir. Get", "bidir_get", false, true),
];

fn main() -> ExitCode {
    paw_core::main(RMA.name, || {
        let Some(p) = Presta::start(RMA)? else {
            return Ok(());
        };
        let sizes = p.opts.sizes();
        let (ops, epochs) = (p.opts.ops, p.opts.epochs);
        let span = fits(&p)?;
        p.print_header(&[format!(
            "window and origin buffer: {span} bytes each per process at the largest size"
        )]);
        let mut origin = paw_core::buffer(span);
        let mut shortest = f64::INFINITY;
        if p.root() {
            println!(
                "\n{:<14}{:>10}{:>22}{:>12}{:>16}{:>14}",
                "Test",
                "Processes",
                "Message Size (bytes)",
                "Ops/Epoch",
                "Bandwidth (MB)",
                "Op time (us)"
            );
        }
        for (test, stem, put, both) in TESTS {
            let mut table = vec![vec![0.0; p.opts.counts.len()]; sizes.len()];
            for (c, &count) in p.opts.counts.iter().enumerate() {
                let active = p.activate(count);
                let pair_comm = active.as_ref().and_then(|a| {
                    a.comm.split_by_color_with_key(Color::with_value(a.pair as i32), p.world.rank())
                });
                if let (Some(a), Some(pc)) = (&active, &pair_comm) {
                    let target = 1 - pc.rank();
                    let works = both || a.first;
                    for (s, &size) in sizes.iter().enumerate() {
                        let n = size as usize;
                        let whole = n * ops as usize;
                        let win =
                            in_turn(a, count / 2, || Window::create(pc, paw_core::buffer(whole)));
                        let origin = &mut origin[..whole];
                        paw_core::watchdog::step(format!(
                            "{test} at {count} processes, {size} bytes"
                        ));
                        let t = timing::sample(&a.comm, p.opts.no_barrier, epochs, || {
                            win.fenced(|e| {
                                if !works {
                                    return;
                                }
                                for (i, slot) in origin.chunks_mut(n).enumerate() {
                                    if put {
                                        e.put(slot, target, i * n);
                                    } else {
                                        e.get(slot, target, i * n);
                                    }
                                }
                            })
                        });
                        drop(win);
                        shortest = shortest.min(t);
                        let pairs = (count / 2) as f64 * if both { 2.0 } else { 1.0 };
                        let bw = bandwidth((ops * epochs) as f64 * pairs, size, t);
                        let op = t / (ops * epochs) as f64 * 1e6;
                        table[s][c] = bw;
                        if p.root() {
                            println!(
                                "{test:<14}{count:>10}{size:>22}{ops:>12}{bw:>16.3}{op:>14.3}"
                            );
                        }
                    }
                }
                p.done();
            }
            let file = format!("rma_{stem}_bw-np_{:04}.dat", p.world.size());
            p.size_table(
                &file,
                &format!("{test} bandwidth of all pairs"),
                "MB/s (MB = 10^6 B)",
                &sizes,
                &table,
            )?;
        }
        let closing = p.closing(shortest);
        if p.root() {
            println!("\n{closing}");
        }
        Ok(())
    })
}

/// Runs `create` (a window's creation on this pair's communicator) one pair after the
/// other: Open MPI 4.1 names the shared-memory segment of a window after its
/// communicator's context id, which the pairs' communicators share, so pairs on one host
/// creating windows at once collide.
fn in_turn<W>(a: &Active, pairs: usize, create: impl FnOnce() -> W) -> W {
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
fn fits(p: &Presta) -> paw_core::Result<usize> {
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
