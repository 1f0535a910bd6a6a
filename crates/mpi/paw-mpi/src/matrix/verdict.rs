//! The verdict on a map: the criteria, the single pass's outliers, the suspects retested,
//! and what is named, as lines (standard output, the bandwidth file's header) and JSON.

use super::links::{each_link, Matrix};
use super::map::{outliers, Outliers, Reference, Rule};
use super::report::{Maps, Nodes, Settings};
use super::retest::{self, Kind, NodeRetested, OnNodes, Probe, Retested};
use paw_core::median;
use paw_core::mpi::traits::*;
use serde_json::{json, Value};
use std::collections::HashSet;

/// ClusterKit's bandwidth criterion: a link below this fraction of the best is bad.
const CLUSTERKIT_BW: f64 = 0.93;
/// ClusterKit's latency criterion: a pair above this multiple of the best is bad.
const CLUSTERKIT_LAT: f64 = 2.1;

/// The rules of both matrices.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Criteria {
    /// Bandwidth: paw's MATRIX_LOW % of the median link, or ClusterKit's 93 % of the best.
    pub bw: Rule,
    /// Latency: paw's MATRIX_LAT_HIGH % of the median, or ClusterKit's 2.1 x the best.
    pub lat: Rule,
    /// ClusterKit's criteria (MATRIX_CLUSTERKIT=1).
    pub clusterkit: bool,
}

impl Criteria {
    /// The criteria `s` selects.
    pub fn of(s: &Settings) -> Criteria {
        let rule =
            |higher_is_better, reference, factor| Rule { higher_is_better, reference, factor };
        if s.clusterkit {
            let bw = rule(true, Reference::Best, CLUSTERKIT_BW);
            let lat = rule(false, Reference::Best, CLUSTERKIT_LAT);
            Criteria { bw, lat, clusterkit: true }
        } else {
            let (bw, lat) =
                (rule(true, Reference::Median, s.low), rule(false, Reference::Median, s.lat_high));
            Criteria { bw, lat, clusterkit: false }
        }
    }

    /// A retest's `value` still bad against the single pass's thresholds.
    fn still_bad(&self, first: &[Outliers; 2], kind: Kind, value: f64) -> bool {
        match kind {
            Kind::Bandwidth => self.bw.bad(value, first[0].threshold),
            Kind::Latency => self.lat.bad(value, first[1].threshold),
        }
    }
}

/// The fewest nodes for which most links suspect means a uniformly slow or noisy map: with
/// fewer, one slow node's links are a quarter of them or more (half at 4 nodes).
pub const UNIFORM_FROM: usize = 8;

/// What a map's verdict holds.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The rules applied.
    pub criteria: Criteria,
    /// Bandwidth and latency outliers of the single pass.
    pub first: [Outliers; 2],
    /// Bandwidth and latency outliers named: the single pass's, confirmed by the retest.
    pub named: [Outliers; 2],
    /// The suspect links' and pairs' retests (none with MATRIX_RETEST=0).
    pub retested: Vec<Retested>,
    /// The slow nodes' retests as nodes.
    pub nodes_retested: Vec<NodeRetested>,
    /// Whether suspects were retested.
    pub retest: bool,
    /// Most links suspect: (suspect links, measured links); nothing retested or named.
    pub uniform: Option<(usize, usize)>,
    /// The retest's budget (None: no limit) and the seconds it spent.
    pub budget: (Option<f64>, f64),
}

/// Lines of one kind (retested links, slow nodes, slow links ...) the verdict prints at
/// most; the JSON file beside the matrices lists them all.
pub const LISTED: usize = 10;

/// Keeps [`LISTED`] of the lines from `start` on, and one line counting the rest and
/// `unkept`, those of the kind not held ([`super::map::KEPT_PER_NODE`]).
fn cap(lines: &mut Vec<String>, start: usize, unkept: usize, what: &str) {
    let more = lines.len().saturating_sub(start + LISTED) + unkept;
    if more > 0 {
        lines.truncate(start + LISTED);
        let json = if unkept > 0 { "the worst of them, 4 a node" } else { "them" };
        lines.push(format!(
            "and {more} more {what}, not listed here (the verdict's JSON file has {json})"
        ));
    }
}

impl Verdict {
    /// Judges bandwidth matrix `bw` and latency matrix `lat` (node 0's). With a `retest`
    /// probe and its budget (seconds), the suspects are measured again and only what stays
    /// bad is named: each slow node as a node ([`retest::node`], with 2 or more healthy
    /// nodes to measure it against; else its every link), the bad links and pairs in
    /// halving groups ([`retest::retest`]). When most links are suspects (with
    /// [`UNIFORM_FROM`] nodes or more)
    /// nothing is retested or named: the map is uniformly slow or noisy.
    pub fn judge(
        criteria: Criteria,
        bw: &dyn Matrix,
        lat: &dyn Matrix,
        retest: Option<(&mut dyn Probe, Option<f64>)>,
    ) -> Verdict {
        let first = [outliers(bw, criteria.bw), outliers(lat, criteria.lat)];
        let mut v = Verdict {
            criteria,
            named: first.clone(),
            first,
            retested: Vec::new(),
            nodes_retested: Vec::new(),
            retest: retest.is_some(),
            uniform: None,
            budget: (None, 0.0),
        };
        let n = bw.n();
        let first = &v.first;
        // The measured links that are suspects: on a slow node, or bad.
        let mut slow = vec![false; n];
        first[0].nodes.iter().for_each(|&h| slow[h] = true);
        let (mut measured, mut suspect) = (0, 0);
        each_link(bw, |i, j, x| {
            measured += 1;
            suspect += usize::from(slow[i] || slow[j] || criteria.bw.bad(x, first[0].threshold));
        });
        if n >= UNIFORM_FROM && 2 * suspect > measured {
            v.uniform = Some((suspect, measured));
            v.named = first.clone().map(|o| Outliers {
                nodes: Vec::new(),
                links: Vec::new(),
                not_kept: 0,
                ..o
            });
            return v;
        }
        let Some((probe, budget)) = retest else { return v };
        let first = &v.first;
        v.budget = (budget, 0.0);
        let kinds = [Kind::Bandwidth, Kind::Latency];
        let still_bad = |kind: Kind, x: f64| criteria.still_bad(first, kind, x);
        // Bad links and pairs; a slow node's links too where it cannot be retested as a node.
        let mut links = [
            first[0].links.clone(),
            suspects(n, &Outliers { nodes: Vec::new(), ..first[1].clone() }, false),
        ];
        for (k, kind) in kinds.into_iter().enumerate() {
            let o = &first[k];
            // The partners: nodes not slow, first those that touch no bad link.
            let mut touched = vec![false; n];
            o.links.iter().for_each(|&(a, b)| (touched[a], touched[b]) = (true, true));
            let mut healthy: Vec<usize> = (0..n).filter(|h| !o.nodes.contains(h)).collect();
            healthy.sort_by_key(|&h| touched[h]);
            for &h in &o.nodes {
                if healthy.len() >= 2 {
                    let r = retest::node(kind, h, &healthy, |x| still_bad(kind, x), probe, budget);
                    v.nodes_retested.push(r);
                } else {
                    let alone = Outliers { nodes: vec![h], links: Vec::new(), ..o.clone() };
                    links[k].extend(suspects(n, &alone, k == 0));
                }
            }
            links[k].sort_unstable();
            links[k].dedup();
            v.retested.extend(retest::retest(
                kind,
                &links[k],
                |x| still_bad(kind, x),
                probe,
                budget,
            ));
        }
        v.budget = (budget, probe.spent());
        let kept: HashSet<(Kind, (usize, usize))> =
            v.retested.iter().filter(|r| r.confirmed).map(|r| (r.kind, r.link)).collect();
        let confirmed = |kind: Kind, link: (usize, usize)| {
            let link = if kind == Kind::Bandwidth { link } else { r_pair(link.0, link.1) };
            kept.contains(&(kind, link))
        };
        for (k, kind) in kinds.into_iter().enumerate() {
            let o = &v.first[k];
            let nodes = o.nodes.iter().copied().filter(|&h| {
                match v.nodes_retested.iter().find(|r| r.kind == kind && r.node == h) {
                    Some(r) => r.confirmed,
                    // Retested link by link: every link out, or every link in, still bad.
                    None => {
                        let others = || (0..n).filter(move |&x| x != h);
                        others().all(|x| confirmed(kind, (h, x)))
                            || others().all(|x| confirmed(kind, (x, h)))
                    }
                }
            });
            let named = Outliers {
                nodes: nodes.collect(),
                links: o.links.iter().copied().filter(|&l| confirmed(kind, l)).collect(),
                ..o.clone()
            };
            v.named[k] = named;
        }
        v
    }

    /// The verdict's lines for nodes `labels` and the map's matrices (first pass).
    pub fn lines(
        &self,
        labels: &[String],
        bw: &dyn Matrix,
        lat: &dyn Matrix,
        s: &Settings,
    ) -> Vec<String> {
        let n = labels.len();
        let [b, l] = &self.named;
        let word = if self.criteria.clusterkit { "best" } else { "median" };
        let rule = |paw: String, ck: String| if self.criteria.clusterkit { ck } else { paw };
        let mut lines = vec![
            format!(
                "{word} link {:.2} MB/s; low below {:.2} MB/s ({})",
                b.reference,
                b.threshold,
                rule(
                    format!("MATRIX_LOW={:.0} %", s.low * 100.0),
                    format!("ClusterKit: {:.0} % of the best", CLUSTERKIT_BW * 100.0)
                )
            ),
            format!(
                "{word} latency {:.2} usec; high above {:.2} usec ({})",
                l.reference,
                l.threshold,
                rule(
                    format!("MATRIX_LAT_HIGH={:.0} %", s.lat_high * 100.0),
                    format!("ClusterKit: {CLUSTERKIT_LAT} x the best")
                )
            ),
        ];
        if !self.retest {
            lines.push("single pass: suspects named without a retest (MATRIX_RETEST=0)".into());
        }
        if let Some((suspect, measured)) = self.uniform {
            lines.push(format!(
                "uniformly slow or noisy: {suspect} of {measured} links are suspects (below \
                 {:.2} MB/s or on a slow node), so no node or link is named alone and none is \
                 retested: the fabric, or the machine its tasks share, is slow or noisy as a \
                 whole (an idle machine, or more MATRIX_SAMPLES, tells which)",
                b.threshold
            ));
            return lines;
        }
        let cut = self.retested.iter().filter(|r| r.cut).count()
            + self.nodes_retested.iter().filter(|r| r.cut).count();
        if let (Some(budget), spent) = self.budget {
            if cut > 0 {
                lines.push(format!(
                    "retest budget spent: {spent:.1} s of {budget:.1} s (MATRIX_RETEST_BUDGET={} % \
                     of the map's time); {cut} suspect(s) named from the single pass",
                    s.retest_budget
                ));
            }
        }
        for r in &self.nodes_retested {
            let (h, unit) =
                (&labels[r.node], if r.kind == Kind::Bandwidth { "MB/s" } else { "usec" });
            let verdict = match (r.cut, r.confirmed) {
                (true, _) => "not retested fully (budget spent)",
                (false, true) => "confirmed",
                (false, false) => "cleared",
            };
            let values = |w: usize| {
                r.tries.iter().map(|t| format!("{:.2}", t.1[w])).collect::<Vec<_>>().join(", ")
            };
            let names = |w: usize| {
                r.tries
                    .iter()
                    .map(|t| labels[if w == 0 { t.0 .0 } else { t.0 .1 }].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            lines.push(match (r.tries.is_empty(), r.kind) {
                (true, _) => format!("node {h}: {verdict}"),
                (false, Kind::Bandwidth) => format!(
                    "retested node {h}: out {} {unit} (to {}), in {} {unit} (from {}): {verdict}",
                    values(0),
                    names(0),
                    values(1),
                    names(1)
                ),
                (false, Kind::Latency) => {
                    format!(
                        "retested latency node {h}: {} {unit} (with {}): {verdict}",
                        values(0),
                        names(0)
                    )
                }
            });
        }
        let start = lines.len();
        for r in &self.retested {
            let ((a, b), unit) = (r.link, if r.kind == Kind::Bandwidth { "MB/s" } else { "usec" });
            let (arrow, first) = match r.kind {
                Kind::Bandwidth => ("->", bw.get(a, b)),
                Kind::Latency => ("<->", lat.get(a, b)),
            };
            let tries: Vec<String> = r
                .tries
                .iter()
                .map(|t| match t.group {
                    1 => format!("alone {:.2}", t.value),
                    g => format!("in a group of {g} {:.2}", t.value),
                })
                .collect();
            let verdict = match (r.cut, r.confirmed) {
                (true, _) => "not retested alone (budget spent)",
                (false, true) => "confirmed",
                (false, false) => "cleared",
            };
            if r.tries.is_empty() {
                lines.push(format!(
                    "{} {arrow} {}: first pass {first:.2} {unit}: {verdict}",
                    labels[a], labels[b]
                ));
                continue;
            }
            lines.push(format!(
                "retested {} {arrow} {}: first pass {first:.2} {unit}; {} {unit}: {verdict}",
                labels[a],
                labels[b],
                tries.join(", "),
            ));
        }
        cap(&mut lines, start, 0, "retested links and pairs");
        let others = |h: usize| (0..n).filter(move |&o| o != h);
        let start = lines.len();
        for &h in &b.nodes {
            let out: Vec<f64> = others(h).map(|j| bw.get(h, j)).collect();
            let inn: Vec<f64> = others(h).map(|i| bw.get(i, h)).collect();
            lines.push(format!(
                "slow node: {} (median out {:.2}, in {:.2} MB/s)",
                labels[h],
                median(&out),
                median(&inn)
            ));
        }
        cap(&mut lines, start, 0, "slow nodes");
        let start = lines.len();
        for &(i, j) in &b.links {
            lines.push(format!(
                "slow link: {} -> {} ({:.2} MB/s, {:.0} % of the {word})",
                labels[i],
                labels[j],
                self.value(bw, Kind::Bandwidth, i, j),
                100.0 * self.value(bw, Kind::Bandwidth, i, j) / b.reference,
            ));
        }
        cap(&mut lines, start, b.not_kept, "slow links");
        let start = lines.len();
        for &h in &l.nodes {
            let all: Vec<f64> = others(h).map(|j| lat.get(h, j)).collect();
            lines.push(format!(
                "slow latency node: {} (median {:.2} usec)",
                labels[h],
                median(&all)
            ));
        }
        cap(&mut lines, start, 0, "slow latency nodes");
        let start = lines.len();
        for &(i, j) in l.links.iter().filter(|(i, j)| i < j) {
            let v = self.value(lat, Kind::Latency, i, j);
            lines.push(format!(
                "slow latency: {} <-> {} ({v:.2} usec, {:.1} x the {word})",
                labels[i],
                labels[j],
                v / l.reference,
            ));
        }
        // A pair's two directions are kept apart; roughly half of those not kept are pairs.
        cap(&mut lines, start, l.not_kept.div_ceil(2), "slow latency pairs");
        if b.nodes.is_empty() && b.links.is_empty() && l.nodes.is_empty() && l.links.is_empty() {
            lines.push("no slow node or link: every link within the thresholds above".into());
        }
        lines
    }

    /// Link or pair (i, j)'s judged value: its retest's last measurement, else the map's.
    fn value(&self, m: &dyn Matrix, kind: Kind, i: usize, j: usize) -> f64 {
        let link = if kind == Kind::Bandwidth { (i, j) } else { r_pair(i, j) };
        let last = self.retested.iter().find(|r| r.kind == kind && r.link == link);
        last.and_then(|r| r.tries.last()).map_or(m.get(i, j), |t| t.value)
    }

    /// The verdict as JSON, beside the matrices.
    pub fn json(&self, labels: &[String], bw: &dyn Matrix, lat: &dyn Matrix) -> Value {
        let [b, l] = &self.named;
        let name = |i: &usize| labels[*i].clone();
        let links = |o: &Outliers, m: &dyn Matrix, k: usize| -> Vec<Value> {
            o.links
                .iter()
                .filter(|(i, j)| k == 0 || i < j)
                .map(|&(i, j)| {
                    let kind = if k == 0 { Kind::Bandwidth } else { Kind::Latency };
                    json!({"from": labels[i], "to": labels[j], "value": self.value(m, kind, i, j), "first_pass": m.get(i, j)})
                })
                .collect()
        };
        json!({
            "criteria": if self.criteria.clusterkit { "clusterkit" } else { "paw" },
            "retest": self.retest,
            "bandwidth": {"unit": "MB/s", "reference": b.reference, "threshold": b.threshold,
                          "slow_nodes": b.nodes.iter().map(name).collect::<Vec<_>>(),
                          "slow_links": links(b, bw, 0), "slow_links_not_named": b.not_kept},
            "latency": {"unit": "usec", "reference": l.reference, "threshold": l.threshold,
                        "slow_nodes": l.nodes.iter().map(name).collect::<Vec<_>>(),
                        "slow_pairs": links(l, lat, 1), "slow_one_way_not_named": l.not_kept},
            "first_pass": {"bandwidth": {"slow_nodes": self.first[0].nodes.iter().map(name).collect::<Vec<_>>(),
                                         "slow_links": self.first[0].links.iter().map(|&(i, j)| [name(&i), name(&j)]).collect::<Vec<_>>()},
                           "latency": {"slow_nodes": self.first[1].nodes.iter().map(name).collect::<Vec<_>>(),
                                       "slow_pairs": self.first[1].links.iter().filter(|(i, j)| i < j).map(|&(i, j)| [name(&i), name(&j)]).collect::<Vec<_>>()}},
            "uniform": self.uniform.map(|(suspect, measured)| json!({"suspect_links": suspect, "measured_links": measured})),
            "retest_budget_s": self.budget.0,
            "retest_s": self.budget.1,
            "retested_nodes": self.nodes_retested.iter().map(|r| json!({
                "what": if r.kind == Kind::Bandwidth { "bandwidth" } else { "latency" },
                "node": name(&r.node),
                "confirmed": r.confirmed,
                "cut": r.cut,
                "tries": r.tries.iter().map(|&((to, from), [out, inn])| json!({"to": name(&to), "from": name(&from), "out": out, "in": inn})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "retested": self.retested.iter().map(|r| json!({
                "what": if r.kind == Kind::Bandwidth { "bandwidth" } else { "latency" },
                "nodes": [name(&r.link.0), name(&r.link.1)],
                "confirmed": r.confirmed,
                "cut": r.cut,
                "tries": r.tries.iter().map(|t| json!({"group": t.group, "value": t.value})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }
}

/// The verdict's lines and JSON on node 0, empty elsewhere (collective over the nodes:
/// the retest, whose budget is MATRIX_RETEST_BUDGET % of `map_seconds`, the map's time).
pub fn reach(nodes: &Nodes, s: &Settings, maps: &Maps, map_seconds: f64) -> (Vec<String>, Vec<u8>) {
    let Some(comm) = &nodes.comm else { return Default::default() };
    if comm.rank() != 0 {
        if s.retest {
            retest::serve(comm, s);
        }
        return Default::default();
    }
    let criteria = Criteria::of(s);
    let v = if s.retest {
        let budget = (s.retest_budget > 0).then(|| s.retest_budget as f64 / 100.0 * map_seconds);
        let mut probe = OnNodes::new(comm, s);
        let v = Verdict::judge(criteria, &maps.bw, &maps.lat, Some((&mut probe, budget)));
        probe.finish();
        v
    } else {
        Verdict::judge(criteria, &maps.bw, &maps.lat, None)
    };
    let json = v.json(&nodes.labels, &maps.bw, &maps.lat);
    let json = serde_json::to_vec_pretty(&json).expect("JSON of numbers and names");
    (v.lines(&nodes.labels, &maps.bw, &maps.lat, s), json)
}

/// The unordered pair of nodes i and j.
fn r_pair(i: usize, j: usize) -> (usize, usize) {
    (i.min(j), i.max(j))
}

/// The single pass's suspects in `o`: its bad links and every link of a slow node, both
/// ways (`directed`: bandwidth), or as unordered pairs `(low, high)` (latency).
pub fn suspects(n: usize, o: &Outliers, directed: bool) -> Vec<(usize, usize)> {
    let mut links: Vec<(usize, usize)> = o.links.clone();
    for &h in &o.nodes {
        links.extend((0..n).filter(|&x| x != h).flat_map(|x| [(h, x), (x, h)]));
    }
    let mut out: Vec<(usize, usize)> =
        links.into_iter().map(|(i, j)| if directed { (i, j) } else { r_pair(i, j) }).collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(n: usize, f: impl Fn(usize, usize) -> f64) -> Vec<Vec<f64>> {
        (0..n).map(|i| (0..n).map(|j| if i == j { f64::NAN } else { f(i, j) }).collect()).collect()
    }

    fn settings(clusterkit: bool) -> Settings {
        Settings {
            size: 1,
            window: 1,
            lat_size: 8,
            iters: 1,
            samples: 1,
            shifts: 0,
            low: 0.8,
            lat_high: 2.0,
            retest: true,
            retest_budget: 100,
            clusterkit,
        }
    }

    /// A fake fabric: each measurement a second, a value per member from `bw` or `lat`.
    struct Fabric<B: Fn(usize, usize) -> f64, L: Fn(usize, usize) -> f64> {
        bw: B,
        lat: L,
        measured: Vec<(Kind, Vec<(usize, usize)>)>,
    }

    impl<B: Fn(usize, usize) -> f64, L: Fn(usize, usize) -> f64> Probe for Fabric<B, L> {
        fn measure(&mut self, kind: Kind, group: &[(usize, usize)], _: usize) -> Vec<f64> {
            self.measured.push((kind, group.to_vec()));
            let f: &dyn Fn(usize, usize) -> f64 =
                if kind == Kind::Bandwidth { &self.bw } else { &self.lat };
            group.iter().map(|&(i, j)| f(i, j)).collect()
        }
        fn spent(&self) -> f64 {
            self.measured.len() as f64
        }
    }

    /// 30 nodes, a third of the links at half the rate (not most: no "uniformly" line), the
    /// single pass: 4 x 30 of the worst kept, 10 lines naming them, the rest counted.
    #[test]
    fn many_slow_links_are_kept_and_listed_within_bounds() {
        let n = 30;
        let slow = |i: usize, j: usize| (i + 2 * j).is_multiple_of(3);
        // Each slow link a little slower than the last, so that the worst are known.
        let bw = map(n, |i, j| if slow(i, j) { 20.0 - (i * n + j) as f64 / 1000.0 } else { 45.0 });
        let lat = map(n, |_, _| 20.0);
        let s = Settings { retest: false, ..settings(false) };
        let v = Verdict::judge(Criteria::of(&s), &bw, &lat, None);
        let bad =
            (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).filter(|&(i, j)| i != j && slow(i, j));
        let bad: Vec<(usize, usize)> = bad.collect();
        let o = &v.named[0];
        assert!(v.uniform.is_none() && o.nodes.is_empty(), "{v:?}");
        assert_eq!((o.links.len(), o.not_kept), (4 * n, bad.len() - 4 * n));
        // The kept are the worst: the last in row order, listed in row order.
        assert_eq!(o.links, bad[bad.len() - 4 * n..]);
        let labels: Vec<String> = (0..n).map(|i| format!("h{i}")).collect();
        let lines = v.lines(&labels, &bw, &lat, &s);
        let named = lines.iter().filter(|l| l.starts_with("slow link: ")).count();
        assert_eq!(named, LISTED, "{lines:#?}");
        let more = format!("and {} more slow links, not listed here", bad.len() - LISTED);
        assert!(lines.iter().any(|l| l.starts_with(&more)), "{lines:#?}");
    }

    /// Host 2 slow; link 0 -> 1 slow in the single pass only (noise); every latency 20
    /// but pair (1, 3) at 90 usec, alone too.
    #[test]
    fn noise_is_cleared_and_what_stays_slow_is_named() {
        let truth = |i: usize, j: usize| if i == 2 || j == 2 { 11.0 } else { 45.0 };
        let bw = map(4, |i, j| if (i, j) == (0, 1) { 20.0 } else { truth(i, j) });
        let lat = map(4, |i, j| if r_pair(i, j) == (1, 3) { 90.0 } else { 20.0 });
        let s = settings(false);
        let labels: Vec<String> = (1..=4).map(|i| format!("h{i}")).collect();
        let mut fabric = Fabric { bw: truth, lat: |_, _| 88.0, measured: Vec::new() };
        let v = Verdict::judge(Criteria::of(&s), &bw, &lat, Some((&mut fabric, None)));
        let links = |k: Kind| -> Vec<(usize, usize)> {
            v.retested.iter().filter(|r| r.kind == k).map(|r| r.link).collect()
        };
        assert_eq!(links(Kind::Bandwidth), [(0, 1)]);
        assert_eq!(links(Kind::Latency), [(1, 3)]);
        let node = &v.nodes_retested[..];
        assert!(node.len() == 1 && node[0].node == 2 && node[0].confirmed, "{node:?}");
        // Partners: first host 4, which touches no bad link.
        assert_eq!(node[0].tries.iter().map(|t| t.0).collect::<Vec<_>>(), [(3, 0), (1, 3), (0, 1)]);
        assert_eq!(v.first[0].links, [(0, 1)]);
        assert_eq!((v.named[0].nodes.as_slice(), v.named[0].links.len()), (&[2][..], 0), "{v:?}");
        assert_eq!(v.named[1].links, [(1, 3), (3, 1)]);
        let lines = v.lines(&labels, &bw, &lat, &s);
        let named: Vec<&String> = lines.iter().filter(|l| l.starts_with("slow ")).collect();
        assert_eq!(named.len(), 2, "{lines:#?}");
        assert!(named[0].starts_with("slow node: h3 ("), "{lines:#?}");
        assert!(
            named[1].starts_with("slow latency: h2 <-> h4 (88.00 usec, 4.4 x the median)"),
            "{lines:#?}"
        );
        let cleared = "retested h1 -> h2: first pass 20.00 MB/s; alone 45.00 MB/s: cleared";
        assert!(lines.iter().any(|l| l == cleared), "{lines:#?}");
        let j = v.json(&labels, &bw, &lat);
        assert_eq!(j["bandwidth"]["slow_nodes"], json!(["h3"]));
        assert_eq!(j["first_pass"]["bandwidth"]["slow_links"], json!([["h1", "h2"]]));
        assert_eq!(j["latency"]["slow_pairs"][0]["value"], json!(88.0));
        let ck = Verdict::judge(Criteria::of(&settings(true)), &bw, &lat, None);
        let lines = ck.lines(&labels, &bw, &lat, &settings(true));
        assert_eq!(
            lines[0],
            "best link 45.00 MB/s; low below 41.85 MB/s (ClusterKit: 93 % of the best)"
        );
        assert_eq!(
            lines[1],
            "best latency 20.00 usec; high above 42.00 usec (ClusterKit: 2.1 x the best)"
        );
        // Without the retest the noise is named.
        let single = Verdict::judge(Criteria::of(&s), &bw, &lat, None);
        let lines = single.lines(&labels, &bw, &lat, &s);
        assert!(
            lines.iter().any(|l| l.starts_with("slow link: h1 -> h2 (20.00 MB/s")),
            "{lines:#?}"
        );
    }

    /// 16 nodes, node 6 slow both ways and link 2 -> 11 slow: the node in 3 measurements,
    /// not its 30 links; the link alone.
    #[test]
    fn a_slow_node_costs_three_measurements_and_a_slow_link_one() {
        let truth = |i: usize, j: usize| match (i, j) {
            (6, _) | (_, 6) => 3.0,
            (2, 11) => 3.0,
            _ => 11.4,
        };
        let bw = map(16, truth);
        let lat = map(16, |_, _| 20.0);
        let s = settings(false);
        let labels: Vec<String> = (1..=16).map(|i| format!("h{i}")).collect();
        let mut fabric = Fabric { bw: truth, lat: |_, _| 20.0, measured: Vec::new() };
        let v = Verdict::judge(Criteria::of(&s), &bw, &lat, Some((&mut fabric, Some(100.0))));
        assert_eq!(fabric.measured.len(), retest::NODE_TRIES + 1, "{:?}", fabric.measured);
        assert_eq!(
            (v.named[0].nodes.as_slice(), v.named[0].links.as_slice()),
            (&[6][..], &[(2, 11)][..])
        );
        let lines = v.lines(&labels, &bw, &lat, &s);
        let named: Vec<&String> = lines.iter().filter(|l| l.starts_with("slow ")).collect();
        assert_eq!(named.len(), 2, "{lines:#?}");
        let node =
            lines.iter().find(|l| l.starts_with("retested node h7: out 3.00, 3.00, 3.00 MB/s"));
        assert!(node.is_some_and(|l| l.ends_with(": confirmed")), "{lines:#?}");
        // Out of budget after the node: the link is named from the single pass, marked so.
        let mut fabric = Fabric { bw: truth, lat: |_, _| 20.0, measured: Vec::new() };
        let v = Verdict::judge(Criteria::of(&s), &bw, &lat, Some((&mut fabric, Some(3.0))));
        assert_eq!(v.named[0].links, [(2, 11)]);
        let lines = v.lines(&labels, &bw, &lat, &s);
        assert!(
            lines.iter().any(|l| l.starts_with("retest budget spent: 3.0 s of 3.0 s")),
            "{lines:#?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l == "h3 -> h12: first pass 3.00 MB/s: not retested alone (budget spent)"),
            "{lines:#?}"
        );
    }

    /// Half the nodes slow to send: most links suspect, nothing retested or named.
    #[test]
    fn a_map_mostly_suspect_is_called_uniformly_slow() {
        let bw = map(8, |i, _| if i >= 4 { 5.0 } else { 45.0 });
        let lat = map(8, |_, _| 20.0);
        let s = settings(false);
        let mut fabric = Fabric { bw: |_, _| 45.0, lat: |_, _| 20.0, measured: Vec::new() };
        let v = Verdict::judge(Criteria::of(&s), &bw, &lat, Some((&mut fabric, None)));
        let Some((suspect, measured)) = v.uniform else { panic!("{v:?}") };
        assert_eq!((suspect, measured), (44, 56));
        assert!(fabric.measured.is_empty());
        let labels: Vec<String> = (1..=8).map(|i| format!("h{i}")).collect();
        let lines = v.lines(&labels, &bw, &lat, &s);
        assert!(
            lines.last().is_some_and(|l| l.starts_with("uniformly slow or noisy: ")),
            "{lines:#?}"
        );
        assert!(!lines.iter().any(|l| l.starts_with("slow ")), "{lines:#?}");
    }
}
