//! The map's settings, its nodes (one task per host, or every task), and its outputs: the matrices with
//! host names on both axes, the heatmaps and the outliers.

use super::links::{Matrix, Stored};
use super::map;
use paw_core::mpi::topology::{Color, SimpleCommunicator};
use paw_core::mpi::traits::*;
use paw_core::schema::{table, Unit, MIB_PER_S, NONE, USEC};
use paw_core::{Column, Error, Paw, Var};

/// MATRIX_SIZE.
pub const SIZE: Var = Var {
    name: "MATRIX_SIZE",
    default: "1048576",
    meaning: "bytes per message of the bandwidth map",
    accepts: paw_core::vars::Accepts::Bytes(1, 1 << 30),
};
/// MATRIX_WINDOW.
pub const WINDOW: Var = Var {
    name: "MATRIX_WINDOW",
    default: "8",
    meaning: "messages in flight per link and step",
    accepts: paw_core::vars::Accepts::Whole(1, 4096),
};
/// MATRIX_LAT_SIZE.
pub const LAT_SIZE: Var = Var {
    name: "MATRIX_LAT_SIZE",
    default: "8",
    meaning: "bytes per message of the latency map",
    accepts: paw_core::vars::Accepts::Bytes(0, 1 << 24),
};
/// MATRIX_LAT_ITERS.
pub const LAT_ITERS: Var = Var {
    name: "MATRIX_LAT_ITERS",
    default: "100",
    meaning: "round trips per latency sample",
    accepts: paw_core::vars::Accepts::Whole(1, 1_000_000),
};
/// MATRIX_SAMPLES.
pub const SAMPLES: Var = Var {
    name: "MATRIX_SAMPLES",
    default: "5",
    meaning: "samples per link; the median counts",
    accepts: paw_core::vars::Accepts::Whole(1, 1000),
};
/// MATRIX_SHIFTS: the quick map's shifts (0: all).
pub const SHIFTS: Var = Var {
    name: "MATRIX_SHIFTS",
    default: "0",
    meaning: "quick map: K shifts spread evenly over 1 .. N-1 and K latency rounds, each node's \
              links to K others each way (0: every shift, the whole map)",
    accepts: paw_core::vars::Accepts::Whole(0, 1_000_000),
};
/// MATRIX_PER_TASK: map every task instead of one per host.
pub const PER_TASK: Var = Var {
    name: "MATRIX_PER_TASK",
    default: "0",
    meaning: "1: every task is a node of the map (0: the first task of each host)",
    accepts: paw_core::vars::Accepts::Whole(0, 1),
};
/// MATRIX_LOW: the fraction of the median link below which a link is low, percent.
pub const LOW: Var = Var {
    name: "MATRIX_LOW",
    default: "80",
    meaning: "percent of the median link's bandwidth below which a link is low",
    accepts: paw_core::vars::Accepts::Whole(1, 99),
};

/// MATRIX_LAT_HIGH: the multiple of the median latency above which a pair is slow, percent.
pub const LAT_HIGH: Var = Var {
    name: "MATRIX_LAT_HIGH",
    default: "200",
    meaning: "percent of the median latency above which a pair's latency is high",
    accepts: paw_core::vars::Accepts::Whole(101, 100_000),
};
/// MATRIX_CLUSTERKIT: ClusterKit's criteria instead of the medians.
pub const CLUSTERKIT: Var = Var {
    name: "MATRIX_CLUSTERKIT",
    default: "0",
    meaning: "1: ClusterKit's criteria, bandwidth below 93 % of the best link, latency above \
              2.1 x the best (0: MATRIX_LOW and MATRIX_LAT_HIGH of the medians)",
    accepts: paw_core::vars::Accepts::Whole(0, 1),
};
/// MATRIX_RETEST: suspects measured again before they are named.
pub const RETEST: Var = Var {
    name: "MATRIX_RETEST",
    default: "1",
    meaning: "1: suspect pairs measured again, in halving groups down to alone, and named only \
              if still slow (0: named from the single pass)",
    accepts: paw_core::vars::Accepts::Whole(0, 1),
};

/// MATRIX_RETEST_BUDGET: the retest's time, percent of the map's own.
pub const RETEST_BUDGET: Var = Var {
    name: "MATRIX_RETEST_BUDGET",
    default: "100",
    meaning: "percent of the map's own time the retest may take; what is left when it is spent \
              is named from the single pass, marked so (0: no limit)",
    accepts: paw_core::vars::Accepts::Whole(0, 100_000),
};

/// The map's settings (collective: read on rank 0 and shared).
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// MATRIX_SIZE, bytes.
    pub size: usize,
    /// MATRIX_WINDOW, messages.
    pub window: usize,
    /// MATRIX_LAT_SIZE, bytes.
    pub lat_size: usize,
    /// MATRIX_LAT_ITERS, round trips.
    pub iters: u64,
    /// MATRIX_SAMPLES.
    pub samples: u64,
    /// MATRIX_LOW as a fraction.
    pub low: f64,
    /// MATRIX_SHIFTS (0: all).
    pub shifts: usize,
    /// MATRIX_LAT_HIGH as a multiple.
    pub lat_high: f64,
    /// MATRIX_RETEST=1.
    pub retest: bool,
    /// MATRIX_RETEST_BUDGET, percent of the map's time (0: no limit).
    pub retest_budget: u64,
    /// MATRIX_CLUSTERKIT=1.
    pub clusterkit: bool,
}

impl Settings {
    /// Reads every setting (a bad one is an error on every rank) and checks that the
    /// buffers fit in memory.
    pub fn read(paw: &Paw) -> paw_core::Result<Settings> {
        let size = paw.bytes(&SIZE)? as usize;
        let window = paw.knob(&WINDOW)? as usize;
        let lat_size = paw.bytes(&LAT_SIZE)? as usize;
        let iters = paw.knob(&LAT_ITERS)?;
        let samples = paw.knob(&SAMPLES)?;
        let low = paw.knob(&LOW)? as f64 / 100.0;
        let lat_high = paw.knob(&LAT_HIGH)? as f64 / 100.0;
        let shifts = paw.knob(&SHIFTS)? as usize;
        let retest = paw.knob(&RETEST)? == 1;
        let retest_budget = paw.knob(&RETEST_BUDGET)?;
        let clusterkit = paw.knob(&CLUSTERKIT)? == 1;
        let held = ((window + 1) * size) as u128;
        paw.fits_in_memory(held, "MATRIX_WINDOW x MATRIX_SIZE", "buffers")?;
        Ok(Settings {
            size,
            window,
            lat_size,
            iters,
            samples,
            low,
            shifts,
            lat_high,
            retest,
            retest_budget,
            clusterkit,
        })
    }
}

/// The nodes of the map.
pub struct Nodes {
    /// A name per node, in node order: its host (host:rank with MATRIX_PER_TASK=1).
    pub labels: Vec<String>,
    /// The nodes' communicator, on the nodes only (node i is its rank i).
    pub comm: Option<SimpleCommunicator>,
}

impl std::fmt::Debug for Nodes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nodes").field("labels", &self.labels).finish()
    }
}

impl Nodes {
    /// The nodes of this run (collective): rank 0, which holds every task's placement,
    /// chooses them and every rank learns its choice. Fewer than 2 is bad input.
    pub fn of(paw: &Paw) -> paw_core::Result<Nodes> {
        let per_task = paw.knob(&PER_TASK)? == 1;
        // Rank 0's choice, a line `rank label` per node.
        let mut chosen = String::new();
        if paw.rank() == 0 {
            let placement = &paw.info().placement;
            let hosts: Vec<&str> =
                placement.iter().map(|p| p.split_whitespace().next().unwrap_or("?")).collect();
            for r in (0..hosts.len()).filter(|&r| per_task || !hosts[..r].contains(&hosts[r])) {
                let label = if per_task { format!("{}:{r}", hosts[r]) } else { hosts[r].into() };
                chosen += &format!("{r} {label}\n");
            }
        }
        let chosen = paw_core::broadcast_text(paw.world(), 0, chosen.into_bytes());
        let (ranks, labels): (Vec<usize>, Vec<String>) = chosen
            .lines()
            .filter_map(|l| l.split_once(' '))
            .map(|(r, label)| (r.parse::<usize>().expect("a rank from rank 0"), label.to_string()))
            .unzip();
        if ranks.len() < 2 {
            return Err(Error::input(format!(
                "p2p_matrix maps the links between hosts, and this run's {} tasks are all on \
                 host {}; start one task on each of 2 or more hosts (mpirun --map-by node, \
                 srun --ntasks-per-node=1), or set MATRIX_PER_TASK=1 for a map of the tasks",
                paw.size(),
                labels.first().map_or("?", String::as_str)
            )));
        }
        let me = paw.rank() as usize;
        let colour = if ranks.contains(&me) { Color::with_value(0) } else { Color::undefined() };
        let comm = paw.world().split_by_color_with_key(colour, me as i32);
        Ok(Nodes { labels, comm })
    }
}

/// A step of the map: the watchdog's label, and a line on standard error from node 0,
/// `p2p_matrix: [seconds since the first step] step`.
pub fn progress(comm: &SimpleCommunicator, step: String) {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let since = START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64();
    if comm.rank() == 0 {
        eprintln!("p2p_matrix: [{since:.1} s] {step}");
    }
    paw_core::watchdog::step(step);
}

/// The map on node 0, kept in scratch files beside the results: `bw` MB/s, row = sending
/// node, and `lat` usec, row `a` as node `a` measured it (empty on the other ranks).
#[derive(Debug, Default)]
pub struct Maps {
    /// Bandwidth, row = sending node.
    pub bw: Stored,
    /// One-way latency as node `a` measured it to `b`.
    pub lat: Stored,
}

/// Brings every node's rows to node 0 (world rank 0), one node at a time, into its scratch
/// files: node 0's memory holds a row, never the matrix (collective over the nodes). A
/// node's `bw` is what it received from each node, `lat` its latency to each.
pub fn gather(paw: &Paw, nodes: &Nodes, bw: &[f64], lat: &[f64]) -> paw_core::Result<Maps> {
    // Made on world rank 0, which is node 0; every rank leaves if they cannot be.
    let files = [paw.scratch("the bandwidth map")?, paw.scratch("the latency map")?];
    let Some(comm) = &nodes.comm else { return Ok(Maps::default()) };
    let n = nodes.labels.len();
    let node0 = comm.process_at_rank(0);
    // Each node's received bandwidths go back to their senders: a sending row per node.
    let mut sent = vec![0.0; n];
    comm.all_to_all_into(bw, &mut sent[..]);
    let mut turn = [0u8; 1];
    if comm.rank() != 0 {
        // One node's rows at a time: node 0 asks for them.
        node0.receive_into(&mut turn[..]);
        node0.send(&sent[..]);
        node0.send(lat);
        return Ok(Maps::default());
    }
    let [bw_file, lat_file] = files.map(|f| f.expect("node 0's scratch files"));
    let maps = Maps { bw: Stored::new(bw_file, n), lat: Stored::new(lat_file, n) };
    // The other nodes wait for node 0's turns: a full disk ends the job, not node 0 alone.
    let put = |m: &Stored, i: usize, row: &[f64]| {
        m.put(i, row).unwrap_or_else(|e| {
            let dir = paw.output_dir().display();
            paw_core::process::fatal(&format!("writing a scratch file of the map in {dir}: {e}"))
        })
    };
    put(&maps.bw, 0, &sent);
    put(&maps.lat, 0, lat);
    let mut row = vec![0.0; n];
    for i in 1..n {
        let node = comm.process_at_rank(i as i32);
        node.send(&turn[..]);
        node.receive_into(&mut row[..]);
        put(&maps.bw, i, &row);
        node.receive_into(&mut row[..]);
        put(&maps.lat, i, &row);
    }
    Ok(maps)
}

/// Writes the matrices, heatmaps and the verdict (`lines` and `json`, rank 0's) (collective
/// over the world; only rank 0 holds the matrices).
pub fn write(
    paw: &Paw,
    nodes: &Nodes,
    maps: &Maps,
    lines: &[String],
    json: &[u8],
) -> paw_core::Result<()> {
    let root = paw.rank() == 0;
    let table = |stem: &str, m: &Stored, unit: Unit, what: &str, notes: &[String]| {
        let mut cols = vec![Column::new(table::HOST, NONE)];
        cols.extend(nodes.labels.iter().map(|l| Column::new(l.clone(), unit)));
        let label = unit.label;
        let mut all =
            vec![format!("{what} [{label}]: row = sending node, column = receiving node")];
        all.extend(notes.iter().cloned());
        let mut t = paw.table(&paw.np_file(stem, paw.size()), &all, &cols, false)?;
        let mut row = vec![0.0; m.n()];
        for i in 0..m.n() {
            m.row(i, &mut row);
            let mut cells = vec![nodes.labels[i].clone()];
            cells.extend(row.iter().enumerate().map(|(j, v)| {
                // The diagonal, and links a quick map did not measure.
                if i == j || !v.is_finite() {
                    "-".to_string()
                } else {
                    format!("{v:.3}")
                }
            }));
            t.row(&cells);
        }
        let png = if root { map::heatmap(m, unit == MATRIX_MB) } else { Vec::new() };
        paw.write_file(&paw.np_file(stem, paw.size()).replace(".dat", ".png"), &png)
    };
    table("matrix_bw", &maps.bw, MATRIX_MB, "bandwidth", lines)?;
    table("matrix_lat", &maps.lat, USEC, "latency", &[])?;
    paw.write_file(&paw.np_file("matrix_verdict", paw.size()).replace(".dat", ".json"), json)?;
    if root {
        println!("{}", lines.join("\n"));
    }
    Ok(())
}

/// The matrix's bandwidth unit as its files have always named it: MB of 2^20 bytes
/// (`paw_core::MB`) per second, labelled `MB/s`, CSV suffix `MB_per_s`.
const MATRIX_MB: Unit = Unit { label: "MB/s", csv: "MB_per_s", ..MIB_PER_S };
