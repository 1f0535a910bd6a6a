//! A fabric map of 10 000 nodes, generated rather than measured, stored a row at a time as
//! node 0 stores what the nodes send it, judged by p2p_matrix's own verdict (single pass
//! and retest) and drawn: one slow node and one slow link among 10^8 noisy links are
//! named, and nothing else, in memory that grows with the nodes.

use paw_mpi::matrix::links::{Matrix, Stored};
use paw_mpi::matrix::map::heatmap;
use paw_mpi::matrix::report::Settings;
use paw_mpi::matrix::retest::{Kind, Probe};
use paw_mpi::matrix::verdict::{Criteria, Verdict};

/// A map whose links are `base` within 4 % of noise, node `slow` at a quarter and link
/// `link` at half of that (bandwidth), or node `slow` at 4 x (latency).
struct Synthetic {
    n: usize,
    base: f64,
    slow: usize,
    link: Option<(usize, usize)>,
    bandwidth: bool,
}

impl Matrix for Synthetic {
    fn n(&self) -> usize {
        self.n
    }
    fn get(&self, i: usize, j: usize) -> f64 {
        if i == j {
            return f64::NAN;
        }
        // splitmix64 of the link: noise in -4 % .. +4 %.
        let mut z = (i * self.n + j) as u64 ^ if self.bandwidth { 0 } else { 0x9e37_79b9 };
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let v = self.base * (1.0 + 0.08 * ((z >> 11) as f64 / (1u64 << 53) as f64 - 0.5));
        let slowed = i == self.slow || j == self.slow;
        match (self.bandwidth, slowed, self.link == Some((i, j))) {
            (true, true, _) => v / 4.0,
            (true, false, true) => v / 2.0,
            (false, true, _) => v * 4.0,
            _ => v,
        }
    }
}

/// The retest on the same fabric: a measurement is the generated value.
struct Again<'a>(&'a Synthetic, &'a Synthetic, usize);

impl Probe for Again<'_> {
    fn measure(&mut self, kind: Kind, group: &[(usize, usize)], _: usize) -> Vec<f64> {
        self.2 += 1;
        let m = if kind == Kind::Bandwidth { self.0 } else { self.1 };
        group.iter().map(|&(i, j)| m.get(i, j)).collect()
    }
    fn spent(&self) -> f64 {
        self.2 as f64
    }
}

#[test]
#[ignore = "long: make test-long"]
fn ten_thousand_nodes_are_judged_naming_the_slow_node_and_link_alone() {
    const N: usize = 10_000;
    let (slow, link) = (6_007, (3, 4_711));
    let bw = Synthetic { n: N, base: 22_000.0, slow, link: Some(link), bandwidth: true };
    let lat = Synthetic { n: N, base: 1.5, slow, link: None, bandwidth: false };
    let s = Settings {
        size: 1 << 20,
        window: 8,
        lat_size: 8,
        iters: 100,
        samples: 5,
        shifts: 0,
        low: 0.8,
        lat_high: 2.0,
        retest: true,
        retest_budget: 100,
        clusterkit: false,
    };
    let start = std::time::Instant::now();
    // Node 0's scratch files, a row at a time (800 MB each).
    let stored = |m: &Synthetic| {
        let file = Stored::new(tempfile::tempfile().expect("a scratch file"), N);
        let mut row = vec![0.0; N];
        for i in 0..N {
            m.row(i, &mut row);
            file.put(i, &row).expect("a row written");
        }
        file
    };
    let (bw_rows, lat_rows) = (stored(&bw), stored(&lat));
    let written = start.elapsed().as_secs_f64();
    let mut probe = Again(&bw, &lat, 0);
    let v = Verdict::judge(Criteria::of(&s), &bw_rows, &lat_rows, Some((&mut probe, None)));
    let labels: Vec<String> = (0..N).map(|i| format!("node{i:05}")).collect();
    let lines = v.lines(&labels, &bw_rows, &lat_rows, &s);
    let judged = start.elapsed().as_secs_f64() - written;
    let pngs = [heatmap(&bw_rows, true), heatmap(&lat_rows, false)];
    let drawn = start.elapsed().as_secs_f64() - written - judged;
    let peak = paw_core::meta::peak_memory().expect("VmHWM in /proc/self/status");
    eprintln!(
        "measured: {N} nodes stored in {written:.1} s, judged in {judged:.1} s, drawn in \
         {drawn:.1} s ({} and {} B of PNG), peak memory {:.0} MB, {} retest measurements\n{}",
        pngs[0].len(),
        pngs[1].len(),
        peak as f64 / (1 << 20) as f64,
        probe.2,
        lines.join("\n")
    );
    assert!(pngs.iter().all(|p| p.starts_with(b"\x89PNG")));
    let named: Vec<&String> = lines.iter().filter(|l| l.starts_with("slow ")).collect();
    assert_eq!(named.len(), 3, "{lines:#?}");
    assert!(named[0].starts_with("slow node: node06007 ("), "{lines:#?}");
    assert!(named[1].starts_with("slow link: node00003 -> node04711 ("), "{lines:#?}");
    assert!(named[2].starts_with("slow latency node: node06007 ("), "{lines:#?}");
    // The two slow nodes (bandwidth, latency) in 3 measurements each, the link in one.
    assert_eq!(probe.2, 7, "{lines:#?}");
    // The matrices alone would be 2 x 800 MB held; stored and read in rows, far less.
    assert!(peak < 256 << 20, "peak memory {peak} B");
}
