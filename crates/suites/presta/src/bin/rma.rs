//! rma -- PRESTA 1.2's one-sided test: MPI_Put and MPI_Get, unidirectional and
//! bidirectional, in MPI_Win_fence epochs on a window of each pair.
//!
//! What it times and reports, its options and files: the `Binary` below (`-h`).

use mpi_ext::rma::Window;
use paw_core::dat::np_file;
use paw_core::mpi::traits::*;
use paw_presta::options::Takes;
use paw_presta::{rma, timing, Binary, Presta};
use std::process::ExitCode;

const RMA: Binary = Binary {
    name: "rma",
    title: "MPI interprocess communication benchmark for one-sided operations (PRESTA 1.2 rma)",
    takes: Takes { sizes: true, epochs: true },
    timed: "one sample per test, process count and size: `-c` epochs between two clock reads \
            after a warm-up epoch and two butterfly barriers, ended by a butterfly barrier \
            unless -n; the slowest active process's time T counts. An epoch: MPI_Win_fence, \
            `-o` puts (gets) of the message size to (from) consecutive offsets of the partner's \
            window, MPI_Win_fence; the pair's first process only (Unidir.) or both (Bidir.). \
            Untimed: the window of -o x size bytes per process, created on the pair's \
            communicator for each size.",
    reported: "MB = 10^6 B: bandwidth = ops x epochs x size x (pairs, or 2 x pairs for Bidir.) / \
               T; op time = T / (ops x epochs); per test, process count and size.",
    files: "in PAW_OUTPUT_DIR (default: the current directory): rma_<test>_bw-np_NNNN.dat (MB/s \
            against size, a column per process count) with their .csv, and the run record \
            rma-np_NNNN.json.",
};

fn main() -> ExitCode {
    paw_core::main(RMA.name, || {
        let Some(p) = Presta::start(RMA)? else {
            return Ok(());
        };
        let sizes = p.opts.sizes();
        let (ops, epochs) = (p.opts.ops, p.opts.epochs);
        let span = rma::fits(&p)?;
        p.print_header(&[format!(
            "window and origin buffer: {span} bytes each per process at the largest size"
        )]);
        let mut origin = paw_core::buffer(span);
        let mut shortest = f64::INFINITY;
        if p.root() {
            println!("\n{}", rma::HEAD);
        }
        for (test, stem, put, both) in rma::TESTS {
            let mut table = vec![vec![0.0; p.opts.counts.len()]; sizes.len()];
            for (c, &count) in p.opts.counts.iter().enumerate() {
                let active = p.activate(count);
                let pair_comm = active.as_ref().and_then(|a| rma::pair_comm(a, p.world.rank()));
                if let (Some(a), Some(pc)) = (&active, &pair_comm) {
                    let target = 1 - pc.rank();
                    let works = both || a.first;
                    for (s, &size) in sizes.iter().enumerate() {
                        let n = size as usize;
                        let whole = n * ops as usize;
                        let win = rma::in_turn(a, count / 2, || {
                            Window::create(pc, paw_core::buffer(whole))
                        });
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
                        let (bw, op) = rma::figures(count, both, ops * epochs, size, t);
                        table[s][c] = bw;
                        if p.root() {
                            println!("{}", rma::line(test, count, size, ops, bw, op));
                        }
                    }
                }
                p.done();
            }
            let file = np_file(&format!("rma_{stem}_bw"), p.world.size() as usize);
            let title = format!("{test} bandwidth of all pairs");
            p.size_table(&file, &title, paw_core::schema::MB_PER_S, &sizes, &table)?;
        }
        let closing = p.closing(shortest);
        if p.root() {
            println!("\n{closing}");
        }
        Ok(())
    })
}
