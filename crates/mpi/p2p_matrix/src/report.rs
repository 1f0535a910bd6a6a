//! The map's nodes (one task per host, or every task), and its outputs: the matrices with
//! host names on both axes, the heatmaps and the outliers.

use crate::map;
use paw_core::mpi::topology::{Color, SimpleCommunicator};
use paw_core::mpi::traits::*;
use paw_core::{Column, Error, Paw, Var};

/// MATRIX_PER_TASK: map every task instead of one per host.
pub const PER_TASK: Var = Var {
    name: "MATRIX_PER_TASK",
    default: "0",
    meaning: "1: every task is a node of the map (0: the first task of each host)",
};
/// MATRIX_LOW: the fraction of the median link below which a link is low, percent.
pub const LOW: Var = Var {
    name: "MATRIX_LOW",
    default: "80",
    meaning: "percent of the median link's bandwidth below which a link is low",
};

/// The nodes of the map.
pub struct Nodes {
    /// A name per node, in node order: its host (host:rank with MATRIX_PER_TASK=1).
    pub labels: Vec<String>,
    /// The world rank of each node.
    pub ranks: Vec<usize>,
    /// The nodes' communicator, on the nodes only (node i is its rank i).
    pub comm: Option<SimpleCommunicator>,
}

impl std::fmt::Debug for Nodes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nodes").field("labels", &self.labels).field("ranks", &self.ranks).finish()
    }
}

impl Nodes {
    /// The nodes of this run (collective): rank 0, which holds every task's placement,
    /// chooses them and every rank learns its choice. Fewer than 2 is bad input.
    pub fn of(paw: &Paw) -> paw_core::Result<Nodes> {
        let per_task = paw.knob(&PER_TASK, 0..=1)? == 1;
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
        Ok(Nodes { labels, ranks, comm })
    }
}

/// Gathers every node's row (`bw[from]`: the bandwidth from node `from` into this node;
/// `lat[p]`: this node's latency to node `p`), writes the matrices and heatmaps and names
/// the outliers, links below `low` of the median (collective over the world).
pub fn write(paw: &Paw, nodes: &Nodes, bw: &[f64], lat: &[f64], low: f64) -> paw_core::Result<()> {
    let n = nodes.labels.len();
    let gather = |row: &[f64]| {
        let mut all = vec![0.0; n * paw.size()];
        paw.world().all_gather_into(row, &mut all[..]);
        all
    };
    let (bw_all, lat_all) = (gather(bw), gather(lat));
    // Node i's row of the gathered values is at its world rank.
    let at = |all: &[f64], i: usize, j: usize| all[nodes.ranks[i] * n + j];
    let bw: Vec<Vec<f64>> =
        (0..n).map(|from| (0..n).map(|to| at(&bw_all, to, from)).collect()).collect();
    let lat: Vec<Vec<f64>> = (0..n).map(|a| (0..n).map(|b| at(&lat_all, a, b)).collect()).collect();
    let found = map::outliers(&bw, low);
    let mut verdict = Vec::new();
    for &h in &found.nodes {
        let out: Vec<f64> = (0..n).filter(|&j| j != h).map(|j| bw[h][j]).collect();
        let inn: Vec<f64> = (0..n).filter(|&i| i != h).map(|i| bw[i][h]).collect();
        verdict.push(format!(
            "slow node: {} (median out {:.2}, in {:.2} MB/s)",
            nodes.labels[h],
            map::median(&out),
            map::median(&inn)
        ));
    }
    for &(i, j) in &found.links {
        verdict.push(format!(
            "slow link: {} -> {} ({:.2} MB/s, {:.0} % of the median)",
            nodes.labels[i],
            nodes.labels[j],
            bw[i][j],
            100.0 * bw[i][j] / found.median
        ));
    }
    if verdict.is_empty() {
        verdict.push(format!(
            "no slow node or link: every link at least {:.0} % of the median",
            low * 100.0
        ));
    }
    verdict.insert(
        0,
        format!(
            "median link {:.2} MB/s; low below {:.2} MB/s (MATRIX_LOW={:.0} %)",
            found.median,
            found.threshold,
            low * 100.0
        ),
    );
    let table = |stem: &str, m: &[Vec<f64>], unit: &'static str, what: &str, notes: &[String]| {
        let mut cols = vec![Column::new("HOST", "")];
        cols.extend(nodes.labels.iter().map(|l| Column::new(l.clone(), unit)));
        let mut all = vec![format!("{what} [{unit}]: row = sending node, column = receiving node")];
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
        let png = map::heatmap(m, unit == "MB/s");
        paw.write_file(&paw.np_file(stem, paw.size()).replace(".dat", ".png"), &png)
    };
    table("matrix_bw", &bw, "MB/s", "bandwidth", &verdict)?;
    table("matrix_lat", &lat, "usec", "latency", &[])?;
    if paw.rank() == 0 {
        println!("{}", verdict.join("\n"));
    }
    Ok(())
}
