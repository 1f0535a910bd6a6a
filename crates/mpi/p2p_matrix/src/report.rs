//! The map's settings, its nodes (one task per host, or every task), and its outputs: the matrices with
//! host names on both axes, the heatmaps and the outliers.

use crate::map;
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
        let held = ((window + 1) * size) as u128;
        paw.fits_in_memory(held, "MATRIX_WINDOW x MATRIX_SIZE", "buffers")?;
        Ok(Settings { size, window, lat_size, iters, samples, low })
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

/// Gathers every node's row to node 0 (world rank 0: `bw[from]` is the bandwidth from node
/// `from` into the node, `lat[p]` its latency to node `p`), writes the matrices and
/// heatmaps and names the outliers, links below `low` of the median (collective over the
/// world; only rank 0 holds the matrices).
pub fn write(paw: &Paw, nodes: &Nodes, bw: &[f64], lat: &[f64], low: f64) -> paw_core::Result<()> {
    let (n, root) = (nodes.labels.len(), paw.rank() == 0);
    let mut rows =
        [vec![0.0; if root { n * n } else { 0 }], vec![0.0; if root { n * n } else { 0 }]];
    if let Some(comm) = &nodes.comm {
        let node0 = comm.process_at_rank(0);
        for (mine, all) in [bw, lat].into_iter().zip(&mut rows) {
            if root {
                node0.gather_into_root(mine, &mut all[..]);
            } else {
                node0.gather_into(mine);
            }
        }
    }
    // Node i's row starts at i x n; a bandwidth row is what node i received.
    let [bw_rows, lat_rows] = &rows;
    let matrix = |f: &dyn Fn(usize, usize) -> f64| -> Vec<Vec<f64>> {
        if root {
            (0..n).map(|i| (0..n).map(|j| f(i, j)).collect()).collect()
        } else {
            Vec::new()
        }
    };
    let bw = matrix(&|from, to| bw_rows[to * n + from]);
    let lat = matrix(&|a, b| lat_rows[a * n + b]);
    let verdict = if root { verdict(&nodes.labels, &bw, low) } else { Vec::new() };
    let table = |stem: &str, m: &[Vec<f64>], unit: Unit, what: &str, notes: &[String]| {
        let mut cols = vec![Column::new(table::HOST, NONE)];
        cols.extend(nodes.labels.iter().map(|l| Column::new(l.clone(), unit)));
        let label = unit.label;
        let mut all =
            vec![format!("{what} [{label}]: row = sending node, column = receiving node")];
        all.extend(notes.iter().cloned());
        let mut t = paw.table(&paw.np_file(stem, paw.size()), &all, &cols, false)?;
        for (i, row) in m.iter().enumerate() {
            let mut cells = vec![nodes.labels[i].clone()];
            cells.extend(row.iter().enumerate().map(|(j, v)| {
                if i == j {
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
    table("matrix_bw", &bw, MATRIX_MB, "bandwidth", &verdict)?;
    table("matrix_lat", &lat, USEC, "latency", &[])?;
    if root {
        println!("{}", verdict.join("\n"));
    }
    Ok(())
}

/// The matrix's bandwidth unit as its files have always named it: MB of 2^20 bytes
/// (`paw_core::MB`) per second, labelled `MB/s`, CSV suffix `MB_per_s`.
const MATRIX_MB: Unit = Unit { label: "MB/s", csv: "MB_per_s", ..MIB_PER_S };

/// The verdict lines of bandwidth matrix `bw`: the reference median, then each slow node
/// and slow link, or that there is none.
fn verdict(labels: &[String], bw: &[Vec<f64>], low: f64) -> Vec<String> {
    let n = labels.len();
    let found = map::outliers(bw, low);
    let mut lines = vec![format!(
        "median link {:.2} MB/s; low below {:.2} MB/s (MATRIX_LOW={:.0} %)",
        found.median,
        found.threshold,
        low * 100.0
    )];
    for &h in &found.nodes {
        let out: Vec<f64> = (0..n).filter(|&j| j != h).map(|j| bw[h][j]).collect();
        let inn: Vec<f64> = (0..n).filter(|&i| i != h).map(|i| bw[i][h]).collect();
        lines.push(format!(
            "slow node: {} (median out {:.2}, in {:.2} MB/s)",
            labels[h],
            paw_core::median(&out),
            paw_core::median(&inn)
        ));
    }
    for &(i, j) in &found.links {
        lines.push(format!(
            "slow link: {} -> {} ({:.2} MB/s, {:.0} % of the median)",
            labels[i],
            labels[j],
            bw[i][j],
            100.0 * bw[i][j] / found.median
        ));
    }
    if lines.len() == 1 {
        lines.push(format!(
            "no slow node or link: every link at least {:.0} % of the median",
            low * 100.0
        ));
    }
    lines
}
