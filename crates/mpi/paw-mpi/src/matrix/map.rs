//! The map's arithmetic, without MPI: who meets whom, medians, the outliers, the heatmap.

use super::links::{each_link, median_where, Around, Matrix};
use paw_core::median;

/// The rounds of a round-robin tournament over `n` nodes (the circle method): in a round
/// each node meets at most one other, and over the rounds every pair meets exactly once.
/// Pairs are `(low, high)`; with an odd `n` one node sits out each round.
pub fn rounds(n: usize) -> Vec<Vec<(usize, usize)>> {
    let m = n + n % 2;
    let mut ring: Vec<usize> = (0..m).collect();
    let mut out = Vec::new();
    for _ in 0..m.saturating_sub(1) {
        let round = (0..m / 2)
            .map(|i| (ring[i], ring[m - 1 - i]))
            .filter(|&(a, b)| a < n && b < n)
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        out.push(round);
        ring[1..].rotate_right(1);
    }
    out
}

/// `k` of `m` steps spread evenly from the first to the last (all of them when `k` is 0
/// or at least `m`): the quick map's shifts and rounds, as indexes.
pub fn spread(m: usize, k: usize) -> Vec<usize> {
    if k == 0 || k >= m {
        return (0..m).collect();
    }
    if k == 1 {
        return vec![0];
    }
    let mut out: Vec<usize> = (0..k).map(|j| (j * (m - 1) + (k - 1) / 2) / (k - 1)).collect();
    out.dedup();
    out
}

/// `me`'s partner in `round` and whether `me` sends first (the lower of the two).
pub fn partner(round: &[(usize, usize)], me: usize) -> Option<(usize, bool)> {
    round.iter().find_map(|&(a, b)| match me {
        _ if me == a => Some((b, true)),
        _ if me == b => Some((a, false)),
        _ => None,
    })
}

/// Which statistic of the links a rule measures against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reference {
    /// The median link (paw's rule).
    Median,
    /// The best link: the highest bandwidth, the lowest latency (ClusterKit's).
    Best,
}

/// How one matrix's links are judged: a link is bad below (bandwidth) or above (latency)
/// `factor` x the `reference` of the links.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    /// True for bandwidth (low is bad), false for latency (high is bad).
    pub higher_is_better: bool,
    /// The statistic the threshold is a multiple of.
    pub reference: Reference,
    /// The multiple: below 1 for bandwidth, above 1 for latency.
    pub factor: f64,
}

impl Rule {
    /// The reference value of `values` (NaN when there is none).
    pub fn reference_of(&self, values: &[f64]) -> f64 {
        let finite = values.iter().copied().filter(|v| v.is_finite());
        match (self.reference, self.higher_is_better) {
            (Reference::Median, _) => median(values),
            (Reference::Best, true) => finite.fold(f64::NAN, f64::max),
            (Reference::Best, false) => finite.fold(f64::NAN, f64::min),
        }
    }

    /// Whether `v` is bad against `threshold`.
    pub fn bad(&self, v: f64, threshold: f64) -> bool {
        if self.higher_is_better {
            v < threshold
        } else {
            v > threshold
        }
    }
}

/// What a matrix shows as bad under a [`Rule`].
#[derive(Debug, Clone, PartialEq)]
pub struct Outliers {
    /// The rule's reference over the links that touch no slow node (every link when all
    /// nodes are slow or none is left).
    pub reference: f64,
    /// A link beyond this is bad: the rule's factor x the reference.
    pub threshold: f64,
    /// Nodes whose every outgoing or every incoming link is bad against the reference of
    /// the links that do not touch them: a slow node rather than a slow link (only with 3
    /// nodes or more: with 2, a node cannot be told from its link).
    pub nodes: Vec<usize>,
    /// Bad links `(from, to)` that touch no slow node: the worst [`KEPT_PER_NODE`] x N of
    /// them, in row order.
    pub links: Vec<(usize, usize)>,
    /// Bad links beyond those kept in `links`.
    pub not_kept: usize,
}

/// Bad links an [`Outliers`] keeps per node of the map, the worst: a noisy map of N nodes
/// costs O(N) memory on node 0, not a pair per bad link (up to N^2); the rest are counted.
pub const KEPT_PER_NODE: usize = 4;

/// The outliers of matrix `m` under `rule`. A node is judged against the links that do
/// not touch it, so that its own bad links (2 of 3 at three nodes) do not move its
/// reference; the other links against the links away from every slow node. Read in
/// passes over `m`'s rows, in memory that grows with the nodes ([`super::links`]).
pub fn outliers(m: &dyn Matrix, rule: Rule) -> Outliers {
    let n = m.n();
    let better = |a: f64, b: f64| if rule.higher_is_better { a.max(b) } else { a.min(b) };
    // Per node its best link out and in; the best links overall, enough that one not
    // touching any given node is among them (a node touches 2 (n - 1)).
    let (mut out, mut inn) = (vec![f64::NAN; n], vec![f64::NAN; n]);
    let mut top: Vec<(f64, usize, usize)> = Vec::new();
    let keep = 2 * n;
    each_link(m, |i, j, v| {
        (out[i], inn[j]) = (better(out[i], v), better(inn[j], v));
        if rule.reference == Reference::Best {
            top.push((v, i, j));
            if top.len() >= 2 * keep {
                best_first(&mut top, rule);
                top.truncate(keep);
            }
        }
    });
    best_first(&mut top, rule);
    top.truncate(keep);
    let around = (rule.reference == Reference::Median).then(|| Around::of(m));
    let reference_away = |h: usize| match &around {
        Some(a) => a.median_away_from(h),
        None => top.iter().find(|&&(_, i, j)| i != h && j != h).map_or(f64::NAN, |t| t.0),
    };
    let nodes: Vec<usize> = if n < 3 {
        Vec::new()
    } else {
        (0..n)
            .filter(|&h| {
                let limit = rule.factor * reference_away(h);
                [out[h], inn[h]].iter().any(|&best| best.is_finite() && rule.bad(best, limit))
            })
            .collect()
    };
    let slow: Vec<bool> = (0..n).map(|h| nodes.contains(&h)).collect();
    let away = |i: usize, j: usize| !slow[i] && !slow[j];
    let reference = {
        let r = match rule.reference {
            Reference::Median => median_where(m, away),
            Reference::Best => best_where(m, rule, away),
        };
        // Every link touches a slow node: the reference of all of them.
        match (r.is_nan(), rule.reference) {
            (false, _) => r,
            (true, Reference::Median) => median_where(m, |_, _| true),
            (true, Reference::Best) => best_where(m, rule, |_, _| true),
        }
    };
    let threshold = rule.factor * reference;
    // The worst bad links, a bounded buffer pruned as it fills; all of them counted.
    let (kept, mut bad, mut worst) = (KEPT_PER_NODE * n, 0, Vec::new());
    let prune = |links: &mut Vec<(f64, usize, usize)>| {
        best_first(links, rule);
        links.reverse();
        links.truncate(kept);
    };
    each_link(m, |i, j, v| {
        if rule.bad(v, threshold) && away(i, j) {
            bad += 1;
            worst.push((v, i, j));
            if worst.len() >= 2 * kept {
                prune(&mut worst);
            }
        }
    });
    prune(&mut worst);
    let mut links: Vec<(usize, usize)> = worst.iter().map(|&(_, i, j)| (i, j)).collect();
    links.sort_unstable();
    Outliers { reference, threshold, nodes, not_kept: bad - links.len(), links }
}

/// `links` sorted best first under `rule`.
fn best_first(links: &mut [(f64, usize, usize)], rule: Rule) {
    if rule.higher_is_better {
        links.sort_by(|a, b| b.0.total_cmp(&a.0));
    } else {
        links.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
}

/// The best measured link of `m` for which `keep(i, j)` under `rule` (NaN: none).
fn best_where(m: &dyn Matrix, rule: Rule, keep: impl Fn(usize, usize) -> bool) -> f64 {
    let mut best = f64::NAN;
    each_link(m, |i, j, v| {
        if keep(i, j) {
            best = if rule.higher_is_better { best.max(v) } else { best.min(v) };
        }
    });
    best
}

/// Pixels per cell of a heatmap `k` cells wide: 24, smaller for large maps (at least 2).
fn cell(k: usize) -> usize {
    (768 / k.max(1)).clamp(2, 24)
}

/// Nodes per cell of an `n`-node heatmap: 1 up to 384 nodes; beyond, blocks of nodes, so
/// that the image stays within 768 pixels a side (10 000 nodes would need 20 000).
fn block(n: usize) -> usize {
    n.div_ceil(384).max(1)
}

/// A heatmap of `m` as PNG bytes, a square cell per entry (row: from, column: to): green
/// for the best value, through yellow, to red for the worst (`higher_is_better` says which
/// end is best: bandwidth, or latency); the diagonal grey. Beyond 384 nodes a cell is a
/// block of nodes, coloured by its worst link, so that one slow link still shows.
pub fn heatmap(m: &dyn Matrix, higher_is_better: bool) -> Vec<u8> {
    let n = m.n();
    let b = block(n);
    let k = n.div_ceil(b);
    let c = cell(k);
    let side = k * c;
    let measured = |v: f64| v.is_finite() && v > 0.0;
    let mut best = if higher_is_better { 0.0 } else { f64::INFINITY };
    each_link(m, |_, _, v| {
        if measured(v) {
            best = if higher_is_better { v.max(best) } else { v.min(best) };
        }
    });
    // 1: as good as the best link, 0: nothing; per block the worst, NaN if none measured.
    let quality = |v: f64| if higher_is_better { v / best } else { best / v }.clamp(0.0, 1.0);
    let mut worst = vec![f64::NAN; k * k];
    each_link(m, |i, j, v| {
        if measured(v) {
            let w = &mut worst[i / b * k + j / b];
            *w = w.min(quality(v));
        }
    });
    let colour = |bi: usize, bj: usize| -> [u8; 3] {
        let worst = worst[bi * k + bj];
        if worst.is_nan() {
            return [160, 160, 160];
        }
        let (r, g) = if worst < 0.5 { (1.0, 2.0 * worst) } else { (2.0 * (1.0 - worst), 1.0) };
        [(r * 220.0) as u8, (g * 200.0) as u8, 40]
    };
    let mut pixels = Vec::with_capacity(side * side * 3);
    for y in 0..side {
        for x in 0..side {
            let edge = x % c == c - 1 || y % c == c - 1;
            pixels.extend(if edge && c > 4 { [255, 255, 255] } else { colour(y / c, x / c) });
        }
    }
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, side as u32, side as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    // Writing to memory fails only on a wrong image size, which `pixels` cannot have.
    let mut writer = encoder.write_header().expect("PNG header in memory");
    writer.write_image_data(&pixels).expect("PNG data in memory");
    drop(writer);
    png
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_meets_once_and_nobody_twice_in_a_round() {
        for n in 2..=9 {
            let mut met = std::collections::BTreeSet::new();
            for round in rounds(n) {
                let mut busy = std::collections::BTreeSet::new();
                for &(a, b) in &round {
                    assert!(a < b && b < n);
                    assert!(busy.insert(a) && busy.insert(b), "n {n}: {round:?}");
                    assert!(met.insert((a, b)), "n {n}: {a}-{b} twice");
                    assert_eq!(partner(&round, a), Some((b, true)));
                    assert_eq!(partner(&round, b), Some((a, false)));
                }
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "n {n}");
        }
    }

    fn map(n: usize, f: impl Fn(usize, usize) -> f64) -> Vec<Vec<f64>> {
        (0..n).map(|i| (0..n).map(|j| if i == j { f64::NAN } else { f(i, j) }).collect()).collect()
    }

    const PAW: Rule = Rule { higher_is_better: true, reference: Reference::Median, factor: 0.8 };

    #[test]
    fn a_slow_node_is_named_and_not_its_links() {
        let bw = map(4, |i, j| if i == 2 || j == 2 { 11.0 } else { 45.0 });
        let o = outliers(&bw, PAW);
        assert_eq!(o.nodes, [2]);
        assert!(o.links.is_empty(), "{o:?}");
    }

    #[test]
    fn a_slow_node_is_named_among_three() {
        let bw = map(3, |i, j| if i == 1 || j == 1 { 11.0 } else { 45.0 });
        let o = outliers(&bw, PAW);
        assert_eq!((o.nodes.as_slice(), o.links.len(), o.reference), (&[1][..], 0, 45.0), "{o:?}");
        let half = map(4, |i, j| if i == 0 || j == 0 { 40.0 } else { 45.0 });
        assert!(outliers(&half, PAW).nodes.is_empty(), "40 of 45 is not low");
    }

    #[test]
    fn a_slow_link_is_named_and_no_node() {
        let bw = map(4, |i, j| if (i, j) == (1, 3) { 20.0 } else { 45.0 + (i + j) as f64 });
        let o = outliers(&bw, PAW);
        assert!(o.nodes.is_empty(), "{o:?}");
        assert_eq!(o.links, [(1, 3)]);
        let even = outliers(&map(5, |i, j| 45.0 + (i * j % 3) as f64), PAW);
        assert!(even.nodes.is_empty() && even.links.is_empty(), "{even:?}");
    }

    #[test]
    fn clusterkit_judges_against_the_best_link_and_latency_too() {
        let ck = Rule { higher_is_better: true, reference: Reference::Best, factor: 0.93 };
        // 44 against a best of 48: below 93 % (44.64), though 98 % of the median.
        let bw = map(4, |i, j| if (i, j) == (0, 1) { 44.0 } else { 45.0 + ((i + j) % 4) as f64 });
        assert_eq!(outliers(&bw, ck).links, [(0, 1)]);
        assert!(outliers(&bw, PAW).links.is_empty());
        let lat_ck = Rule { higher_is_better: false, reference: Reference::Best, factor: 2.1 };
        let lat = map(4, |i, j| if i == 3 || j == 3 { 30.0 } else { 10.0 + (i + j) as f64 });
        let o = outliers(&lat, lat_ck);
        assert_eq!((o.nodes.as_slice(), o.reference, o.links.len()), (&[3][..], 11.0, 0), "{o:?}");
        let lat_paw = Rule { higher_is_better: false, reference: Reference::Median, factor: 2.0 };
        let one = map(4, |i, j| if (i.min(j), i.max(j)) == (1, 2) { 50.0 } else { 12.0 });
        assert_eq!(outliers(&one, lat_paw).links, [(1, 2), (2, 1)]);
    }

    #[test]
    fn a_quick_map_spreads_its_steps_and_judges_what_it_measured() {
        assert_eq!(spread(15, 4), [0, 5, 9, 14]);
        assert_eq!(spread(15, 0), (0..15).collect::<Vec<_>>());
        assert_eq!(spread(3, 5), [0, 1, 2]);
        assert_eq!(spread(9, 1), [0]);
        // Shift 1 and 3 of 5 nodes measured: node 2 slow in every measured link.
        let bw = map(5, |i, j| match (j + 5 - i) % 5 {
            1 | 3 if i == 2 || j == 2 => 11.0,
            1 | 3 => 45.0,
            _ => f64::NAN,
        });
        let o = outliers(&bw, PAW);
        assert_eq!((o.nodes.as_slice(), o.links.len(), o.reference), (&[2][..], 0, 45.0), "{o:?}");
    }

    #[test]
    fn a_large_map_draws_blocks_of_nodes_by_their_worst_link() {
        assert_eq!((block(384), block(385), block(10_000)), (1, 2, 27));
        let n = 1000;
        let bw = map(n, |i, j| if (i, j) == (500, 7) { 5.0 } else { 45.0 });
        let png = heatmap(&bw, true);
        let side = u32::from_be_bytes(png[16..20].try_into().unwrap()) as usize;
        // 3 nodes a cell, 334 cells of 2 pixels.
        assert_eq!(side, 668);
        let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut pixels).unwrap();
        let at = |y: usize, x: usize| &pixels[(y * side + x) * 3..][..3];
        // Link 500 -> 7 is in the cell of block row 166, column 2.
        assert_eq!(at(166 * 2, 2 * 2), [220, 44, 40], "5 of 45: red");
        assert_eq!(at(100 * 2, 2 * 2), [0, 200, 40], "a healthy block is green");
    }

    #[test]
    fn medians_and_a_heatmap_of_the_right_size() {
        let png = heatmap(&map(3, |i, j| (i + j) as f64), true);
        assert_eq!(&png[1..4], b"PNG");
        // IHDR: width and height, big-endian, after the signature and the chunk head.
        assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 3 * 24);
        assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 3 * 24);
    }
}
