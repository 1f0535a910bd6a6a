//! p2p_matrix -- the fabric map: bandwidth and latency between every pair of hosts, with
//! the slow links and hosts named. What it times, reports, reads and writes: SPEC below
//! (`-h`, headers, doc/binaries.md); `report` writes the files and names the outliers.
mod map;
mod report;

use mpi_ext::batch::Batch;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::{buffer, Check, Combine, Files, Paw, Ranks, Spec};
use paw_mpi::send_pingpong;
use report::{Nodes, Settings, LAT_ITERS, LAT_SIZE, LOW, PER_TASK, SAMPLES, SIZE, WINDOW};

const SPEC: Spec = Spec {
    name: "p2p_matrix",
    title: "fabric map: bandwidth and latency between every pair of hosts (mpiGraph's shifts)",
    timed: "\
Nodes: the first task of each host (start tasks on 2 or more hosts, or set \
MATRIX_PER_TASK=1: every task a node); the others wait. \
Bandwidth by mpiGraph's shifts: in step k = 1 .. N-1 every node i posts MATRIX_WINDOW \
MPI_Isend of MATRIX_SIZE bytes to node i+k and as many MPI_Irecv from node i-k (mod N), all \
at once; a sample of link i-k -> i runs from a barrier of the nodes to the end of i's \
receives (MPI_Waitall). Latency: the rounds of a round-robin tournament (N-1, N rounded up \
to even), the pairs of a round at once; a sample is MATRIX_LAT_ITERS round trips of MATRIX_LAT_SIZE bytes (MPI_Send, \
MPI_Recv) after a barrier, timed by both nodes. MATRIX_SAMPLES samples, after an untimed one.",
    reports: "\
per link the median sample: bandwidth = MATRIX_WINDOW x MATRIX_SIZE / time, MB/s (MB = \
2^20 B); latency = time / (2 x MATRIX_LAT_ITERS), usec. Named: links below MATRIX_LOW % of \
the median link's bandwidth, and (with 3 nodes or more) slow nodes, whose every outgoing or \
every incoming link is low (their links are not named again).",
    ranks: Ranks::AtLeast(2),
    combine: Combine::Max,
    vars: &[&[PER_TASK, SIZE, WINDOW, LAT_SIZE, LAT_ITERS, SAMPLES, LOW]],
    check: Check::Never,
    files: Files::Text("\
matrix_bw-np_NNNN.dat (MB/s), matrix_lat-np_NNNN.dat (usec) and .csv twins: a row per \
sending node, a column per receiving node, named by host (host:rank with MATRIX_PER_TASK=1); \
heatmaps matrix_bw-np_NNNN.png, matrix_lat-np_NNNN.png (green best, red worst); the \
outliers on standard output and in the bandwidth file's header"),
};

/// The median over `samples` of `run`'s time (it gets the start, returns its time), each
/// run after a barrier of the nodes, after one untimed run (which opens the connections).
fn median_time(comm: &SimpleCommunicator, samples: u64, mut run: impl FnMut(f64) -> f64) -> f64 {
    let times: Vec<f64> = (0..=samples)
        .map(|_| {
            comm.barrier();
            run(paw_core::mpi::time())
        })
        .collect();
    paw_core::median(&times[1..])
}

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let Settings { size, window, lat_size, iters, samples, low } = Settings::read(&paw)?;
        let nodes = Nodes::of(&paw)?;
        let n = nodes.labels.len();
        let (mut bw, mut lat) = (vec![f64::NAN; n], vec![f64::NAN; n]);
        if let Some(comm) = &nodes.comm {
            let me = comm.rank() as usize;
            let (send, mut recv) = (buffer(size), buffer(window * size));
            let (mut sends, mut recvs) =
                (Batch::with_capacity(window), Batch::with_capacity(window));
            for k in 1..n {
                paw_core::watchdog::step(format!("bandwidth shift {k} of {}", n - 1));
                let from = (me + n - k) % n;
                let to_p = comm.process_at_rank(((me + k) % n) as i32);
                let from_p = comm.process_at_rank(from as i32);
                // The receives' time: the closure's value before the sends are waited for.
                let t = median_time(comm, samples, |start| {
                    sends.run(|s| {
                        (0..window).for_each(|_| s.isend(&to_p, &send[..], 0));
                        let slots = recv.chunks_exact_mut(size);
                        recvs.run(|r| slots.for_each(|b| r.irecv(&from_p, b, 0)));
                        paw_core::mpi::time() - start
                    })
                });
                bw[from] = (window * size) as f64 / t / paw_core::MB;
            }
            let (ping, mut pong) = (buffer(lat_size), buffer(lat_size));
            let rounds = map::rounds(n);
            for (r, round) in rounds.iter().enumerate() {
                paw_core::watchdog::step(format!("latency round {} of {}", r + 1, rounds.len()));
                let pair = map::partner(round, me);
                let t = median_time(comm, samples, |start| {
                    if let Some((p, first)) = pair {
                        let partner = comm.process_at_rank(p as i32);
                        (0..iters).for_each(|_| send_pingpong(first, &partner, &ping, &mut pong));
                    }
                    paw_core::mpi::time() - start
                });
                if let Some((p, _)) = pair {
                    lat[p] = t / (2 * iters) as f64 * 1e6;
                }
            }
        }
        paw_core::waiting_barrier(paw.world());
        report::write(&paw, &nodes, &bw, &lat, low)
    })
}
