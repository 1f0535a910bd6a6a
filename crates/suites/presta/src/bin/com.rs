//! com -- PRESTA 1.2's pairwise bandwidth test: unidirectional (MPI_Send/MPI_Recv), then
//! bidirectional (MPI_Sendrecv), for every process count and message size.
//!
//! What it times and reports, its options and files: the `Binary` below (`-h`).

use paw_core::dat::np_file;
use paw_core::mpi::point_to_point::send_receive_into;
use paw_core::mpi::traits::*;
use paw_presta::options::Takes;
use paw_presta::{bandwidth, timing, Binary, Presta};
use std::process::ExitCode;

const COM: Binary = Binary {
    name: "com",
    title: "MPI interprocess communication bandwidth benchmark (PRESTA 1.2 com)",
    takes: Takes { sizes: true, epochs: false },
    timed: "one sample per process count and size: `-o` operations between two clock reads \
            after a warm-up message and two butterfly barriers, ended by a butterfly barrier \
            unless -n; the slowest active process's time T counts. Unidirectional: the pair's \
            first process sends `-o` messages (MPI_Send), its partner receives them \
            (MPI_Recv). Bidirectional: both run `-o` MPI_Sendrecv.",
    reported: "MB = 10^6 B: unidirectional bandwidth = ops x processes/2 x size / T, op time = \
               T / ops / 2; bidirectional bandwidth = ops x processes x size / T, op time = \
               T / ops; per process count and size, on standard output and in the files.",
    files: "in PAW_OUTPUT_DIR (default: the current directory): com_unidirectional_bw-np_NNNN.dat \
            and com_bidirectional_bw-np_NNNN.dat (MB/s against size, a column per process \
            count) with their .csv, and the run record com-np_NNNN.json.",
};

fn main() -> ExitCode {
    paw_core::main(COM.name, || {
        let Some(p) = Presta::start(COM)? else {
            return Ok(());
        };
        let sizes = p.opts.sizes();
        let ops = p.opts.ops;
        p.print_header(&[]);
        let send = paw_core::buffer(p.opts.stop as usize);
        let mut recv = paw_core::buffer(p.opts.stop as usize);
        let mut shortest = f64::INFINITY;
        let mut best = (0.0, 0);
        if p.root() {
            println!(
                "\n{:<16}{:>10}{:>22}{:>16}{:>14}",
                "Test", "Processes", "Message Size (bytes)", "Bandwidth (MB)", "Op time (us)"
            );
        }
        for bidirectional in [false, true] {
            let test = if bidirectional { "Bidirectional" } else { "Unidirectional" };
            let mut table = vec![vec![0.0; p.opts.counts.len()]; sizes.len()];
            for (c, &count) in p.opts.counts.iter().enumerate() {
                let active = p.activate(count);
                for (s, &size) in sizes.iter().enumerate() {
                    let Some(a) = &active else { continue };
                    let n = size as usize;
                    let partner = p.world.process_at_rank(a.partner);
                    let (msg, buf) = (&send[..n], &mut recv[..n]);
                    paw_core::watchdog::step(format!("{test} at {count} processes, {size} bytes"));
                    let t = timing::sample(&a.comm, p.opts.no_barrier, ops, || {
                        if bidirectional {
                            send_receive_into(msg, &partner, buf, &partner);
                        } else if a.first {
                            partner.send(msg);
                        } else {
                            partner.receive_into(buf);
                        }
                    });
                    shortest = shortest.min(t);
                    let pairs = (count / 2) as f64;
                    let (bw, op) = if bidirectional {
                        (bandwidth(ops as f64 * 2.0 * pairs, size, t), t / ops as f64)
                    } else {
                        (bandwidth(ops as f64 * pairs, size, t), t / ops as f64 / 2.0)
                    };
                    table[s][c] = bw;
                    if !bidirectional && bw > best.0 {
                        best = (bw, size);
                    }
                    if p.root() {
                        println!("{test:<16}{count:>10}{size:>22}{bw:>16.3}{:>14.3}", op * 1e6);
                    }
                }
                p.done();
            }
            let file = np_file(&format!("com_{}_bw", test.to_lowercase()), p.world.size() as usize);
            let y = format!("{} bandwidth of all pairs", test.to_lowercase());
            p.size_table(&file, &y, paw_core::schema::MB_PER_S, &sizes, &table)?;
        }
        let closing = p.closing(shortest);
        if p.root() {
            println!(
                "\nMax Unidirectional Bandwidth : {:.3} MB/s for message size {} bytes",
                best.0, best.1
            );
            println!("{closing}");
        }
        Ok(())
    })
}
