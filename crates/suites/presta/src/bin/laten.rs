//! laten -- PRESTA 1.2's latency test: a 0-byte MPI_Send/MPI_Recv ping-pong between the
//! processes of each pair, for every process count.
//!
//! What it times and reports, its options and files: the `Binary` below (`-h`).

use paw_core::dat::np_file;
use paw_core::mpi::traits::*;
use paw_core::schema::{table, NONE, USEC};
use paw_core::Column;
use paw_presta::options::Takes;
use paw_presta::{timing, Binary, Presta};
use std::process::ExitCode;

const LATEN: Binary = Binary {
    name: "laten",
    title: "MPI interprocess communication latency benchmark (PRESTA 1.2 laten)",
    takes: Takes { sizes: false, epochs: false },
    timed: "one sample per process count: `-o` 0-byte round trips (the pair's first process \
            MPI_Send then MPI_Recv, its partner the reverse) between two clock reads after a \
            warm-up round trip and two butterfly barriers, ended by a butterfly barrier unless \
            -n; the slowest active process's time T counts.",
    reported: "Max Latency = T / ops / 2, usec, per process count.",
    files: "in PAW_OUTPUT_DIR (default: the current directory): laten-np_NNNN.dat and .csv \
            (PROCESSES, LATENCY in usec) and the run record laten-np_NNNN.json.",
};

fn main() -> ExitCode {
    paw_core::main(LATEN.name, || {
        let Some(p) = Presta::start(LATEN)? else {
            return Ok(());
        };
        let ops = p.opts.ops;
        p.print_header(&[]);
        let columns = [Column::new(table::PROCESSES, NONE), Column::new(table::LATENCY, USEC)];
        let notes = ["LATENCY: slowest pair's time per 0-byte round trip / 2, usec".to_string()];
        let file = np_file("laten", p.world.size() as usize);
        let mut table = p.table(&file, &notes, &columns)?;
        if p.root() {
            println!("\nMPI Bidirectional latency test (Send/Recv)");
            println!("{:>10}{:>20}", "Processes", "Max Latency (us)");
        }
        let (none, mut got): ([u8; 0], [u8; 0]) = ([], []);
        let mut shortest = f64::INFINITY;
        for &count in &p.opts.counts {
            if let Some(a) = p.activate(count) {
                paw_core::watchdog::step(format!("latency at {count} processes"));
                let partner = p.world.process_at_rank(a.partner);
                let t = timing::sample(&a.comm, p.opts.no_barrier, ops, || {
                    if a.first {
                        partner.send(&none[..]);
                        partner.receive_into(&mut got[..]);
                    } else {
                        partner.receive_into(&mut got[..]);
                        partner.send(&none[..]);
                    }
                });
                shortest = shortest.min(t);
                let latency = t / ops as f64 / 2.0 * 1e6;
                if p.root() {
                    println!("{count:>10}{latency:>20.3}");
                }
                table.row(&[count.to_string(), format!("{latency:.6}")]);
            }
            p.done();
        }
        let closing = p.closing(shortest);
        if p.root() {
            println!("\n{closing}");
        }
        Ok(())
    })
}
