//! p2p_matrix -- the fabric map: bandwidth and latency between every pair of hosts, with
//! the slow links and hosts named. What it times, reports, reads and writes: SPEC below
//! (`-h`, headers, doc/binaries.md); `measure` times the links, `verdict` judges them,
//! `retest` measures the suspects again, `report` writes the files.
use paw_core::{Check, Combine, Files, Paw, Ranks, Spec};
use paw_mpi::matrix::{measure, report, verdict};
use report::{Nodes, Settings, CLUSTERKIT, LAT_HIGH, LAT_ITERS, LAT_SIZE, LOW, PER_TASK};
use report::{RETEST, RETEST_BUDGET, SAMPLES, SHIFTS, SIZE, WINDOW};

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
MPI_Recv) after a barrier, timed by both nodes. MATRIX_SAMPLES samples, after an untimed one. \
Quick map (MATRIX_SHIFTS=K): K shifts and K rounds spread evenly; the others' links stay \
unmeasured (`-`) and judgement uses the measured ones.",
    reports: "\
per link the median sample: bandwidth = MATRIX_WINDOW x MATRIX_SIZE / time, MB/s (MB = \
2^20 B); latency = time / (2 x MATRIX_LAT_ITERS), usec. Suspects: links below MATRIX_LOW % \
of the median link's bandwidth, pairs above MATRIX_LAT_HIGH % of the median latency \
(MATRIX_CLUSTERKIT=1: below 93 % of the best bandwidth, above 2.1 x the best latency), and \
(with 3 nodes or more) slow nodes, whose every outgoing or every incoming link is a suspect. \
Retest (MATRIX_RETEST=1): a slow node measured again as a node, 3 times its sends to one \
healthy node and its receives from another at once (latency: round trips with one), named \
if the median is still slow; the suspect links and pairs measured again as a shift measures \
them, in groups with no node twice, those still slow split in halves down to alone, named \
only if still slow alone; all judged against the single pass's thresholds. The retest stops \
after MATRIX_RETEST_BUDGET % of the map's time (what is left is named from the single pass, \
marked so). With 8 nodes or more and most links suspect, nothing is retested or named: one \
line says the map is uniformly slow or noisy.",
    ranks: Ranks::AtLeast(2),
    combine: Combine::Max,
    vars: &[&[PER_TASK, SIZE, WINDOW, LAT_SIZE, LAT_ITERS, SAMPLES, SHIFTS, LOW, LAT_HIGH, CLUSTERKIT, RETEST, RETEST_BUDGET]],
    check: Check::Never,
    files: Files::Text("\
matrix_bw-np_NNNN.dat (MB/s), matrix_lat-np_NNNN.dat (usec) and .csv twins: a row per \
sending node, a column per receiving node, named by host (host:rank with MATRIX_PER_TASK=1); \
heatmaps matrix_bw-np_NNNN.png, matrix_lat-np_NNNN.png (green best, red worst); the \
verdict on standard output, in the bandwidth file's header and as matrix_verdict-np_NNNN.json; \
progress on standard error"),
    headlines: &paw_mpi::matrix::HEADLINES,
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let settings = Settings::read(&paw)?;
        let nodes = Nodes::of(&paw)?;
        let n = nodes.labels.len();
        let (mut bw, mut lat) = (vec![f64::NAN; n], vec![f64::NAN; n]);
        let start = std::time::Instant::now();
        if let Some(comm) = &nodes.comm {
            measure::bandwidth(comm, &settings, &mut bw);
            measure::latency(comm, &settings, &mut lat);
        }
        let map_seconds = start.elapsed().as_secs_f64();
        let maps = report::gather(&paw, &nodes, &bw, &lat)?;
        let (lines, json) = verdict::reach(&nodes, &settings, &maps, map_seconds);
        paw_core::waiting_barrier(paw.world());
        report::write(&paw, &nodes, &maps, &lines, &json)
    })
}
