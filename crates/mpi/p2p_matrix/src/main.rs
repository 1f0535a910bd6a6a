//! p2p_matrix -- the fabric map: bandwidth and latency between every pair of hosts, by
//! mpiGraph's shifts, with the slow links and slow hosts named.
//!
//! What is timed and reported, the task counts, the variables read and the files written
//! are stated once, in SPEC below: `-h`, the output headers and doc/binaries.md are made
//! from it. `report` gathers the rows, writes the files and names the outliers.
mod map;
mod report;

use mpi_ext::batch::Batch;
use paw_core::mpi::traits::*;
use paw_core::{buffer, Check, Combine, Paw, Ranks, Spec, Var};
use paw_mpi::send_pingpong;
use report::{Nodes, LOW, PER_TASK};

const SIZE: Var = Var {
    name: "MATRIX_SIZE",
    default: "1048576",
    meaning: "bytes per message of the bandwidth map",
};
const WINDOW: Var =
    Var { name: "MATRIX_WINDOW", default: "8", meaning: "messages in flight per link and step" };
const LAT_SIZE: Var =
    Var { name: "MATRIX_LAT_SIZE", default: "8", meaning: "bytes per message of the latency map" };
const LAT_ITERS: Var =
    Var { name: "MATRIX_LAT_ITERS", default: "100", meaning: "round trips per latency sample" };
const SAMPLES: Var =
    Var { name: "MATRIX_SAMPLES", default: "5", meaning: "samples per link; the median counts" };

const SPEC: Spec = Spec {
    name: "p2p_matrix",
    title: "fabric map: bandwidth and latency between every pair of hosts (mpiGraph's shifts)",
    timed: "\
Nodes: the first task of each host (MATRIX_PER_TASK=1: every task), in rank order; the other \
tasks wait. Bandwidth by mpiGraph's shifts: in step k = 1 .. N-1 every node i posts \
MATRIX_WINDOW MPI_Isend of MATRIX_SIZE bytes to node i+k and as many MPI_Irecv from node i-k \
(mod N), all nodes at once; after one untimed step, a sample of link i-k -> i is the time from a barrier of the nodes \
to the completion of i's receives (MPI_Waitall). Latency: N-1 rounds of a round-robin \
tournament, each node meeting one other per round, the pairs of a round at once; a sample is \
MATRIX_LAT_ITERS round trips of MATRIX_LAT_SIZE bytes (MPI_Send, MPI_Recv) after a barrier, \
timed by both nodes of the pair, after one untimed sample. MATRIX_SAMPLES samples of each link.",
    reports: "\
per link the median over its samples: bandwidth = MATRIX_WINDOW x MATRIX_SIZE / time, MB/s \
(MB = 2^20 B); latency = time / (2 x MATRIX_LAT_ITERS), usec. Named: links below MATRIX_LOW \
percent of the median link's bandwidth, and (with 3 nodes or more) slow nodes, whose every \
outgoing or every incoming link is low; a link of a slow node is not named again.",
    ranks: Ranks::AtLeast(2),
    combine: Combine::Max,
    vars: &[&[PER_TASK, SIZE, WINDOW, LAT_SIZE, LAT_ITERS, SAMPLES, LOW]],
    check: Check::Never,
    files: "\
matrix_bw-np_NNNN.dat (MB/s) and matrix_lat-np_NNNN.dat (usec): a row per sending node, a \
column per receiving node, both named by host (host:rank with MATRIX_PER_TASK=1), with \
their .csv twins; heatmaps matrix_bw-np_NNNN.png and matrix_lat-np_NNNN.png (green: best \
link, red: worst, grey: the diagonal); the outliers in the bandwidth file's header and on \
standard output",
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let size = paw.bytes(&SIZE, 1..=1 << 30)? as usize;
        let window = paw.knob(&WINDOW, 1..=4096)? as usize;
        let lat_size = paw.bytes(&LAT_SIZE, 0..=1 << 24)? as usize;
        let iters = paw.knob(&LAT_ITERS, 1..=1_000_000)?;
        let samples = paw.knob(&SAMPLES, 1..=1000)?;
        let low = paw.knob(&LOW, 1..=100)? as f64 / 100.0;
        let nodes = Nodes::of(&paw)?;
        paw.fits_in_memory(
            ((window + 1) * size) as u128,
            "MATRIX_WINDOW x MATRIX_SIZE",
            "buffers",
        )?;
        let n = nodes.labels.len();
        let (mut bw, mut lat) = (vec![f64::NAN; n], vec![f64::NAN; n]);
        if let Some(comm) = &nodes.comm {
            let me = comm.rank() as usize;
            let send = buffer(size);
            let mut recv = buffer(window * size);
            let (mut sends, mut recvs) =
                (Batch::with_capacity(window), Batch::with_capacity(window));
            for k in 1..n {
                paw_core::watchdog::step(format!("bandwidth shift {k} of {}", n - 1));
                let (to, from) = ((me + k) % n, (me + n - k) % n);
                let (to_p, from_p) =
                    (comm.process_at_rank(to as i32), comm.process_at_rank(from as i32));
                // One untimed step first: it opens the connection of this pair.
                let times: Vec<f64> = (0..=samples)
                    .map(|_| {
                        comm.barrier();
                        let (start, mut received) = (paw_core::mpi::time(), 0.0);
                        sends.run(|s| {
                            (0..window).for_each(|_| s.isend(&to_p, &send[..], 0));
                            recvs.run(|r| {
                                recv.chunks_exact_mut(size).for_each(|b| r.irecv(&from_p, b, 0))
                            });
                            received = paw_core::mpi::time() - start;
                        });
                        received
                    })
                    .collect();
                bw[from] = (window * size) as f64 / map::median(&times[1..]) / paw_core::MB;
            }
            let (ping, mut pong) = (buffer(lat_size), buffer(lat_size));
            for (r, round) in map::rounds(n).iter().enumerate() {
                paw_core::watchdog::step(format!("latency round {} of {}", r + 1, n - 1));
                let pair = map::partner(round, me);
                let times: Vec<f64> = (0..=samples)
                    .map(|_| {
                        comm.barrier();
                        let start = paw_core::mpi::time();
                        if let Some((p, first)) = pair {
                            let partner = comm.process_at_rank(p as i32);
                            (0..iters)
                                .for_each(|_| send_pingpong(first, &partner, &ping, &mut pong));
                        }
                        paw_core::mpi::time() - start
                    })
                    .collect();
                if let Some((p, _)) = pair {
                    lat[p] = map::median(&times[1..]) / (2 * iters) as f64 * 1e6;
                }
            }
        }
        paw_core::waiting_barrier(paw.world());
        report::write(&paw, &nodes, &bw, &lat, low)
    })
}
