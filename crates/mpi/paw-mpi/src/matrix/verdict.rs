//! The verdict on a map: the criteria, the single pass's outliers, the suspects retested,
//! and what is named, as lines (standard output, the bandwidth file's header) and JSON.

use super::map::{outliers, Outliers, Reference, Rule};
use super::report::{Maps, Nodes, Settings};
use super::retest::{self, Kind, Retested};
use paw_core::median;
use paw_core::mpi::traits::*;
use serde_json::{json, Value};

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

/// What a map's verdict holds.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The rules applied.
    pub criteria: Criteria,
    /// Bandwidth and latency outliers of the single pass.
    pub first: [Outliers; 2],
    /// Bandwidth and latency outliers named: the single pass's, confirmed by the retest.
    pub named: [Outliers; 2],
    /// The suspects' retests (none with MATRIX_RETEST=0).
    pub retested: Vec<Retested>,
    /// Whether suspects were retested.
    pub retest: bool,
}

impl Verdict {
    /// Judges bandwidth matrix `bw` and latency matrix `lat` (node 0's); with `retest`,
    /// the suspects (bad links and every link of a slow node; bad latency pairs and every
    /// pair of a node slow in latency) go to `measure` (see [`super::retest::retest`]) and
    /// only what it confirms is named.
    pub fn judge(
        criteria: Criteria,
        bw: &[Vec<f64>],
        lat: &[Vec<f64>],
        retest: bool,
        measure: impl FnOnce(&[Vec<(usize, usize)>; 2], &dyn Fn(Kind, f64) -> bool) -> Vec<Retested>,
    ) -> Verdict {
        let first = [outliers(bw, criteria.bw), outliers(lat, criteria.lat)];
        if !retest {
            let named = first.clone();
            return Verdict { criteria, first, named, retested: Vec::new(), retest };
        }
        let n = bw.len();
        let suspects = [suspects(n, &first[0], true), suspects(n, &first[1], false)];
        let retested = measure(&suspects, &|kind, v| criteria.still_bad(&first, kind, v));
        // The matrices with each suspect's last measurement.
        let (mut bw, mut lat) = (bw.to_vec(), lat.to_vec());
        for r in &retested {
            let ((a, b), v) = (r.link, r.tries.last().expect("a retested suspect").value);
            match r.kind {
                Kind::Bandwidth => bw[a][b] = v,
                Kind::Latency => (lat[a][b], lat[b][a]) = (v, v),
            }
        }
        let named = [(&bw, criteria.bw, 0), (&lat, criteria.lat, 1)].map(|(m, rule, k)| {
            let mut o = outliers(m, rule);
            o.nodes.retain(|h| first[k].nodes.contains(h));
            o.links.retain(|&(a, b)| {
                suspects[k].contains(&if k == 0 { (a, b) } else { r_pair(a, b) })
            });
            o
        });
        Verdict { criteria, first, named, retested, retest }
    }

    /// The verdict's lines for nodes `labels` and the map's matrices (first pass).
    pub fn lines(
        &self,
        labels: &[String],
        bw: &[Vec<f64>],
        lat: &[Vec<f64>],
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
        for r in &self.retested {
            let ((a, b), unit) = (r.link, if r.kind == Kind::Bandwidth { "MB/s" } else { "usec" });
            let (arrow, first) = match r.kind {
                Kind::Bandwidth => ("->", bw[a][b]),
                Kind::Latency => ("<->", lat[a][b]),
            };
            let tries: Vec<String> = r
                .tries
                .iter()
                .map(|t| match t.group {
                    1 => format!("alone {:.2}", t.value),
                    g => format!("in a group of {g} {:.2}", t.value),
                })
                .collect();
            lines.push(format!(
                "retested {} {arrow} {}: first pass {first:.2} {unit}; {} {unit}: {}",
                labels[a],
                labels[b],
                tries.join(", "),
                if r.confirmed { "confirmed" } else { "cleared" }
            ));
        }
        let others = |h: usize| (0..n).filter(move |&o| o != h);
        for &h in &b.nodes {
            let out: Vec<f64> = others(h).map(|j| bw[h][j]).collect();
            let inn: Vec<f64> = others(h).map(|i| bw[i][h]).collect();
            lines.push(format!(
                "slow node: {} (median out {:.2}, in {:.2} MB/s)",
                labels[h],
                median(&out),
                median(&inn)
            ));
        }
        for &(i, j) in &b.links {
            lines.push(format!(
                "slow link: {} -> {} ({:.2} MB/s, {:.0} % of the {word})",
                labels[i],
                labels[j],
                self.value(bw, Kind::Bandwidth, i, j),
                100.0 * self.value(bw, Kind::Bandwidth, i, j) / b.reference,
            ));
        }
        for &h in &l.nodes {
            let all: Vec<f64> = others(h).map(|j| lat[h][j]).collect();
            lines.push(format!(
                "slow latency node: {} (median {:.2} usec)",
                labels[h],
                median(&all)
            ));
        }
        for &(i, j) in l.links.iter().filter(|(i, j)| i < j) {
            let v = self.value(lat, Kind::Latency, i, j);
            lines.push(format!(
                "slow latency: {} <-> {} ({v:.2} usec, {:.1} x the {word})",
                labels[i],
                labels[j],
                v / l.reference,
            ));
        }
        if b.nodes.is_empty() && b.links.is_empty() && l.nodes.is_empty() && l.links.is_empty() {
            lines.push("no slow node or link: every link within the thresholds above".into());
        }
        lines
    }

    /// Link or pair (i, j)'s judged value: its retest's last measurement, else the map's.
    fn value(&self, m: &[Vec<f64>], kind: Kind, i: usize, j: usize) -> f64 {
        let link = if kind == Kind::Bandwidth { (i, j) } else { r_pair(i, j) };
        let last = self.retested.iter().find(|r| r.kind == kind && r.link == link);
        last.and_then(|r| r.tries.last()).map_or(m[i][j], |t| t.value)
    }

    /// The verdict as JSON, beside the matrices.
    pub fn json(&self, labels: &[String], bw: &[Vec<f64>], lat: &[Vec<f64>]) -> Value {
        let [b, l] = &self.named;
        let name = |i: &usize| labels[*i].clone();
        let links = |o: &Outliers, m: &[Vec<f64>], k: usize| -> Vec<Value> {
            o.links
                .iter()
                .filter(|(i, j)| k == 0 || i < j)
                .map(|&(i, j)| {
                    let kind = if k == 0 { Kind::Bandwidth } else { Kind::Latency };
                    json!({"from": labels[i], "to": labels[j], "value": self.value(m, kind, i, j), "first_pass": m[i][j]})
                })
                .collect()
        };
        json!({
            "criteria": if self.criteria.clusterkit { "clusterkit" } else { "paw" },
            "retest": self.retest,
            "bandwidth": {"unit": "MB/s", "reference": b.reference, "threshold": b.threshold,
                          "slow_nodes": b.nodes.iter().map(name).collect::<Vec<_>>(),
                          "slow_links": links(b, bw, 0)},
            "latency": {"unit": "usec", "reference": l.reference, "threshold": l.threshold,
                        "slow_nodes": l.nodes.iter().map(name).collect::<Vec<_>>(),
                        "slow_pairs": links(l, lat, 1)},
            "first_pass": {"bandwidth": {"slow_nodes": self.first[0].nodes.iter().map(name).collect::<Vec<_>>(),
                                         "slow_links": self.first[0].links.iter().map(|&(i, j)| [name(&i), name(&j)]).collect::<Vec<_>>()},
                           "latency": {"slow_nodes": self.first[1].nodes.iter().map(name).collect::<Vec<_>>(),
                                       "slow_pairs": self.first[1].links.iter().filter(|(i, j)| i < j).map(|&(i, j)| [name(&i), name(&j)]).collect::<Vec<_>>()}},
            "retested": self.retested.iter().map(|r| json!({
                "what": if r.kind == Kind::Bandwidth { "bandwidth" } else { "latency" },
                "nodes": [name(&r.link.0), name(&r.link.1)],
                "confirmed": r.confirmed,
                "tries": r.tries.iter().map(|t| json!({"group": t.group, "value": t.value})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }
}

/// The verdict's lines and JSON on node 0, empty elsewhere (collective over the nodes:
/// the retest).
pub fn reach(nodes: &Nodes, s: &Settings, maps: &Maps) -> (Vec<String>, Vec<u8>) {
    let Some(comm) = &nodes.comm else { return Default::default() };
    if comm.rank() != 0 {
        if s.retest {
            retest::on_nodes(comm, s, Kind::Bandwidth, &[], |_| false);
            retest::on_nodes(comm, s, Kind::Latency, &[], |_| false);
        }
        return Default::default();
    }
    let v = Verdict::judge(Criteria::of(s), &maps.bw, &maps.lat, s.retest, |[bw, lat], bad| {
        let mut all = retest::on_nodes(comm, s, Kind::Bandwidth, bw, |v| bad(Kind::Bandwidth, v));
        all.extend(retest::on_nodes(comm, s, Kind::Latency, lat, |v| bad(Kind::Latency, v)));
        all
    });
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
    use super::retest::retest;
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
            clusterkit,
        }
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
        let v = Verdict::judge(Criteria::of(&s), &bw, &lat, true, |[b, l], bad| {
            let host2: Vec<(usize, usize)> =
                [(0, 2), (1, 2), (2, 0), (2, 1), (2, 3), (3, 2)].into();
            assert_eq!(
                b,
                &[vec![(0, 1)], host2]
                    .concat()
                    .into_iter()
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect::<Vec<_>>()
            );
            assert_eq!(l, &[(1, 3)]);
            let fabric =
                |g: &[(usize, usize)], _: usize| g.iter().map(|&(i, j)| truth(i, j)).collect();
            let mut all = retest(Kind::Bandwidth, b, |v| bad(Kind::Bandwidth, v), fabric);
            all.extend(retest(
                Kind::Latency,
                l,
                |v| bad(Kind::Latency, v),
                |g, _| vec![88.0; g.len()],
            ));
            all
        });
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
        let cleared =
            "retested h1 -> h2: first pass 20.00 MB/s; in a group of 3 45.00 MB/s: cleared";
        assert!(lines.iter().any(|l| l == cleared), "{lines:#?}");
        let j = v.json(&labels, &bw, &lat);
        assert_eq!(j["bandwidth"]["slow_nodes"], json!(["h3"]));
        assert_eq!(j["first_pass"]["bandwidth"]["slow_links"], json!([["h1", "h2"]]));
        assert_eq!(j["latency"]["slow_pairs"][0]["value"], json!(88.0));
        let ck =
            Verdict::judge(Criteria::of(&settings(true)), &bw, &lat, false, |_, _| unreachable!());
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
        let single = Verdict::judge(Criteria::of(&s), &bw, &lat, false, |_, _| unreachable!());
        let lines = single.lines(&labels, &bw, &lat, &s);
        assert!(
            lines.iter().any(|l| l.starts_with("slow link: h1 -> h2 (20.00 MB/s")),
            "{lines:#?}"
        );
    }
}
