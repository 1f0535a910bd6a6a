//! Suspects measured again before they are named, as ClusterKit retests its suspect pairs:
//! all at once in groups where no node is busy twice, those still bad split in halves and
//! measured again, down to each alone. A suspect is confirmed only when it is still bad
//! measured alone. A slow node is retested as a node: a few measurements of its links to
//! and from healthy nodes, not each of its 2 (N - 1) links. The whole retest has a budget.

use super::measure;
use super::report::{progress, Settings};
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use std::collections::{HashMap, VecDeque};
use std::time::Instant;

/// Measurements of a slow node in its retest, each with other healthy partners.
pub const NODE_TRIES: usize = 3;

/// What a suspect is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A link `(from, to)`, its bandwidth measured one way as a shift measures it.
    Bandwidth,
    /// A pair `(a, b)`, a < b, its latency measured by round trips.
    Latency,
}

impl Kind {
    /// The word for a suspect of this kind.
    fn word(self) -> &'static str {
        match self {
            Kind::Bandwidth => "link",
            Kind::Latency => "latency pair",
        }
    }
}

/// One measurement of a suspect.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Try {
    /// Suspects measured at the same time, this one included (1: alone).
    pub group: usize,
    /// MB/s, or usec.
    pub value: f64,
}

/// A suspect and what its retest measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Retested {
    /// Bandwidth or latency.
    pub kind: Kind,
    /// The link `(from, to)` or the pair `(a, b)`.
    pub link: (usize, usize),
    /// Its measurements in order; the last decides.
    pub tries: Vec<Try>,
    /// Still bad when measured alone, or `cut`.
    pub confirmed: bool,
    /// The budget was spent before it was measured alone: named from the single pass.
    pub cut: bool,
}

/// A slow node measured again as a node: in each try it sends to one healthy node and
/// receives from another at once (bandwidth), or exchanges round trips with one (latency).
#[derive(Debug, Clone, PartialEq)]
pub struct NodeRetested {
    /// Bandwidth or latency.
    pub kind: Kind,
    /// The node.
    pub node: usize,
    /// Per try: the partners (to, from) and the values (out, in); for latency, the
    /// partner twice and the pair's latency twice.
    pub tries: Vec<((usize, usize), [f64; 2])>,
    /// The median try still bad one way (out or in), or `cut`.
    pub confirmed: bool,
    /// The budget was spent before its last try: named from the single pass.
    pub cut: bool,
}

/// Measures the retest's groups (on node 0; [`OnNodes`] over MPI, a fake fabric in tests).
pub trait Probe {
    /// Measures `group` of `kind` at once: a value per member, in order (the receiver's
    /// MB/s of a link, the usec of a pair).
    fn measure(&mut self, kind: Kind, group: &[(usize, usize)], queued: usize) -> Vec<f64>;
    /// Seconds spent measuring so far.
    fn spent(&self) -> f64;
}

/// Whether the retest may measure once more: `budget` seconds (None: no limit) not spent.
fn within(probe: &dyn Probe, budget: Option<f64>) -> bool {
    budget.is_none_or(|b| probe.spent() < b)
}

/// `suspects` packed into groups that `kind` can measure at once, each group filled in
/// order from the suspects not yet placed: bandwidth, links that share neither sender nor
/// receiver (every node sends at most once and receives at most once, as in a shift);
/// latency, pairs that share no node.
pub fn groups(kind: Kind, suspects: &[(usize, usize)]) -> Vec<Vec<(usize, usize)>> {
    let n = suspects.iter().map(|&(a, b)| a.max(b) + 1).max().unwrap_or(0);
    let mut left = suspects.to_vec();
    let mut out = Vec::new();
    while !left.is_empty() {
        // Per node: sending, receiving (bandwidth), or busy in a pair (latency).
        let (mut sends, mut receives) = (vec![false; n], vec![false; n]);
        let (mut group, mut rest) = (Vec::new(), Vec::new());
        for (a, b) in left {
            let free = match kind {
                Kind::Bandwidth => !sends[a] && !receives[b],
                Kind::Latency => !sends[a] && !sends[b],
            };
            if free {
                group.push((a, b));
                match kind {
                    Kind::Bandwidth => (sends[a], receives[b]) = (true, true),
                    Kind::Latency => (sends[a], sends[b]) = (true, true),
                }
            } else {
                rest.push((a, b));
            }
        }
        out.push(group);
        left = rest;
    }
    out
}

/// Retests `suspects` with `probe` (a group measured at once, a value per suspect in
/// order): groups first, those `still_bad` in a group of several split in halves and
/// measured again. Once `budget` seconds are spent, what is left is `cut`: named from
/// the single pass.
pub fn retest(
    kind: Kind,
    suspects: &[(usize, usize)],
    still_bad: impl Fn(f64) -> bool,
    probe: &mut dyn Probe,
    budget: Option<f64>,
) -> Vec<Retested> {
    let mut out: Vec<Retested> = suspects
        .iter()
        .map(|&link| Retested { kind, link, tries: Vec::new(), confirmed: true, cut: false })
        .collect();
    let index: HashMap<(usize, usize), usize> =
        suspects.iter().enumerate().map(|(k, &l)| (l, k)).collect();
    let mut queue: VecDeque<Vec<(usize, usize)>> = groups(kind, suspects).into();
    while let Some(group) = queue.pop_front() {
        if !within(probe, budget) {
            for link in queue.into_iter().chain([group]).flatten() {
                out[index[&link]].cut = true;
            }
            break;
        }
        let values = probe.measure(kind, &group, queue.len());
        let mut again = Vec::new();
        for (&link, value) in group.iter().zip(values) {
            let bad = still_bad(value);
            let r = &mut out[index[&link]];
            r.tries.push(Try { group: group.len(), value });
            if bad && group.len() > 1 {
                again.push(link);
            } else {
                r.confirmed = bad;
            }
        }
        let rest = again.split_off(again.len().div_ceil(2));
        queue.extend([again, rest].into_iter().filter(|g| !g.is_empty()));
    }
    out
}

/// Retests slow `node` as a node, [`NODE_TRIES`] times with partners from `healthy` (two
/// or more nodes, taken in turn from the first): bandwidth, its sends to one and its
/// receives from the next at once; latency, round trips with one. Confirmed when the
/// median try is still bad (out or in). Once `budget` seconds are spent it is `cut`.
pub fn node(
    kind: Kind,
    node: usize,
    healthy: &[usize],
    still_bad: impl Fn(f64) -> bool,
    probe: &mut dyn Probe,
    budget: Option<f64>,
) -> NodeRetested {
    let m = healthy.len();
    let mut tries = Vec::new();
    for k in 0..NODE_TRIES {
        if !within(probe, budget) {
            break;
        }
        let queued = NODE_TRIES - 1 - k;
        tries.push(match kind {
            Kind::Bandwidth => {
                let (to, from) = (healthy[2 * k % m], healthy[(2 * k + 1) % m]);
                let v = probe.measure(kind, &[(node, to), (from, node)], queued);
                ((to, from), [v[0], v[1]])
            }
            Kind::Latency => {
                let p = healthy[k % m];
                let v = probe.measure(kind, &[(node.min(p), node.max(p))], queued);
                ((p, p), [v[0], v[0]])
            }
        });
    }
    let median_bad =
        |w: usize| still_bad(paw_core::median(&tries.iter().map(|t| t.1[w]).collect::<Vec<_>>()));
    let cut = tries.len() < NODE_TRIES;
    let confirmed = cut || median_bad(0) || median_bad(1);
    NodeRetested { kind, node, tries, confirmed, cut }
}

/// The retest over MPI, on node 0: each group announced to every node, which takes its
/// part (the others run [`serve`]); [`OnNodes::finish`] ends the retest on every node.
pub struct OnNodes<'a> {
    comm: &'a SimpleCommunicator,
    s: &'a Settings,
    /// From the first measurement.
    start: Option<Instant>,
}

impl std::fmt::Debug for OnNodes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnNodes").field("spent", &self.spent()).finish()
    }
}

impl<'a> OnNodes<'a> {
    /// The retest's probe on node 0; its clock starts with the first measurement.
    pub fn new(comm: &'a SimpleCommunicator, s: &'a Settings) -> OnNodes<'a> {
        OnNodes { comm, s, start: None }
    }

    /// Ends the retest on every node.
    pub fn finish(self) {
        announce(self.comm, None);
    }
}

impl Probe for OnNodes<'_> {
    fn measure(&mut self, kind: Kind, group: &[(usize, usize)], queued: usize) -> Vec<f64> {
        assert!(!group.is_empty(), "an empty group would end the retest on the other nodes");
        self.start.get_or_insert_with(Instant::now);
        let at = format!("{} suspect {}(s) at once, {queued} queued", group.len(), kind.word());
        progress(self.comm, format!("retest: {at}"));
        announce(self.comm, Some((kind, group)));
        let all = measure_group(self.comm, self.s, kind, group);
        // The receiver's figure of a link; the first node's of a pair.
        group.iter().map(|&(a, b)| if kind == Kind::Bandwidth { all[b] } else { all[a] }).collect()
    }

    fn spent(&self) -> f64 {
        self.start.map_or(0.0, |t| t.elapsed().as_secs_f64())
    }
}

/// A node other than 0 during the retest: takes its part of each group node 0 announces,
/// until the end (collective over the nodes).
pub fn serve(comm: &SimpleCommunicator, s: &Settings) {
    while let Some((kind, group)) = announce(comm, None) {
        measure_group(comm, s, kind, &group);
    }
}

/// This node's part of `group`; node 0 gets every node's figure (collective).
fn measure_group(
    comm: &SimpleCommunicator,
    s: &Settings,
    kind: Kind,
    group: &[(usize, usize)],
) -> Vec<f64> {
    let me = comm.rank() as usize;
    let mine = match kind {
        Kind::Bandwidth => {
            let to = group.iter().find(|l| l.0 == me).map(|l| l.1);
            let from = group.iter().find(|l| l.1 == me).map(|l| l.0);
            measure::link(comm, s, to, from)
        }
        Kind::Latency => {
            let partner = group.iter().find_map(|&(a, b)| match me {
                _ if me == a => Some(b),
                _ if me == b => Some(a),
                _ => None,
            });
            measure::pair_latency(comm, s, partner)
        }
    };
    let node0 = comm.process_at_rank(0);
    if me == 0 {
        let mut all = vec![0.0; comm.size() as usize];
        node0.gather_into_root(&mine, &mut all[..]);
        all
    } else {
        node0.gather_into(&mine);
        Vec::new()
    }
}

/// Node 0's group and its kind on every node (collective over the nodes; None from node
/// 0: the retest is over). Only node 0's argument counts.
fn announce(
    comm: &SimpleCommunicator,
    group: Option<(Kind, &[(usize, usize)])>,
) -> Option<(Kind, Vec<(usize, usize)>)> {
    // Never empty: Open MPI refuses the broadcast of no bytes from an empty vector.
    let text = match group {
        Some((kind, g)) => {
            let word = if kind == Kind::Bandwidth { "bw" } else { "lat" };
            g.iter().map(|(a, b)| format!("{word} {a} {b}\n")).collect()
        }
        None => "end\n".to_string(),
    };
    let shared = paw_core::broadcast_text(comm, 0, text.into_bytes());
    let mut kind = None;
    let group = shared
        .lines()
        .filter_map(|l| {
            let [word, a, b] = l.split(' ').collect::<Vec<_>>()[..] else { return None };
            kind = Some(if word == "bw" { Kind::Bandwidth } else { Kind::Latency });
            let node = |w: &str| w.parse::<usize>().expect("node 0's node");
            Some((node(a), node(b)))
        })
        .collect();
    kind.map(|k| (k, group))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_keep_every_node_to_one_send_one_receive_or_one_pair() {
        // A slow node's links: its sends apart, each beside one of its receives.
        let node = [(2, 0), (2, 1), (0, 2), (1, 2)];
        assert_eq!(groups(Kind::Bandwidth, &node), [vec![(2, 0), (0, 2)], vec![(2, 1), (1, 2)]]);
        let pairs = [(0, 1), (2, 3), (1, 2)];
        assert_eq!(groups(Kind::Latency, &pairs), [vec![(0, 1), (2, 3)], vec![(1, 2)]]);
        assert!(groups(Kind::Latency, &[]).is_empty());
    }

    /// A fake fabric: link (1, 3) slow; link (0, 1) slow only beside others (noise); each
    /// measurement a second.
    pub struct Fabric<F: Fn(&[Link]) -> Vec<f64>>(pub F, pub usize);

    type Link = (usize, usize);

    impl<F: Fn(&[Link]) -> Vec<f64>> Probe for Fabric<F> {
        fn measure(&mut self, _: Kind, group: &[(usize, usize)], _: usize) -> Vec<f64> {
            self.1 += 1;
            (self.0)(group)
        }
        fn spent(&self) -> f64 {
            self.1 as f64
        }
    }

    fn fabric() -> Fabric<impl Fn(&[Link]) -> Vec<f64>> {
        Fabric(
            |group: &[Link]| {
                let slow = |&l: &Link| l == (1, 3) || (l == (0, 1) && group.len() > 1);
                group.iter().map(|l| if slow(l) { 10.0 } else { 45.0 }).collect()
            },
            0,
        )
    }

    #[test]
    fn a_suspect_is_confirmed_only_alone_and_groups_halve() {
        let bad = |v: f64| v < 36.0;
        let out =
            retest(Kind::Bandwidth, &[(0, 1), (2, 3), (1, 3), (4, 5)], bad, &mut fabric(), None);
        let by = |l| out.iter().find(|r| r.link == l).unwrap();
        let sizes = |l| by(l).tries.iter().map(|t| t.group).collect::<Vec<_>>();
        // (0,1), (2,3), (4,5) together, then (1,3) (its sender busy in the first group).
        assert_eq!((sizes((2, 3)), by((2, 3)).confirmed), (vec![3], false));
        assert_eq!((sizes((0, 1)), by((0, 1)).confirmed), (vec![3, 1], false), "cleared alone");
        assert_eq!((sizes((1, 3)), by((1, 3)).confirmed), (vec![1], true));
        // Four still bad together: halves of 2, then each alone.
        let four = [(0, 1), (2, 3), (4, 5), (6, 7)];
        let out = retest(Kind::Latency, &four, |_| true, &mut fabric(), None);
        for r in &out {
            assert_eq!(r.tries.iter().map(|t| t.group).collect::<Vec<_>>(), [4, 2, 1], "{r:?}");
            assert!(r.confirmed);
        }
        // A budget of 2 measurements: the group of 4 and one half; the other half is left
        // confirmed, unmeasured alone.
        let out = retest(Kind::Latency, &four, |_| true, &mut fabric(), Some(2.0));
        let tries: Vec<usize> = out.iter().map(|r| r.tries.len()).collect();
        assert_eq!(tries, [2, 2, 1, 1]);
        assert!(out.iter().all(|r| r.confirmed && r.cut));
    }

    #[test]
    fn a_slow_node_is_retested_as_a_node_in_three_measurements() {
        // Node 4 slow both ways; the healthy 0, 1, 2.
        let slow4 = |g: &[(usize, usize)]| {
            g.iter().map(|&(a, b)| if a == 4 || b == 4 { 11.0 } else { 45.0 }).collect()
        };
        let mut probe = Fabric(slow4, 0);
        let r = node(Kind::Bandwidth, 4, &[0, 1, 2], |v| v < 36.0, &mut probe, None);
        assert_eq!(probe.1, NODE_TRIES);
        assert!(r.confirmed, "{r:?}");
        // Partners differ from try to try, and never the node itself.
        let partners: Vec<(usize, usize)> = r.tries.iter().map(|t| t.0).collect();
        assert_eq!(partners, [(0, 1), (2, 0), (1, 2)]);
        // Slow only in the first pass: cleared.
        let r = node(Kind::Latency, 4, &[0, 1], |v| v > 50.0, &mut fabric(), None);
        assert!(!r.confirmed && !r.cut && r.tries.len() == NODE_TRIES, "{r:?}");
        assert_eq!(r.tries.iter().map(|t| t.0).collect::<Vec<_>>(), [(0, 0), (1, 1), (0, 0)]);
        // No budget left: named from the single pass, unmeasured.
        let mut spent = Fabric(slow4, 10);
        let r = node(Kind::Bandwidth, 4, &[0, 1], |v| v < 36.0, &mut spent, Some(5.0));
        assert!(r.confirmed && r.cut && r.tries.is_empty());
    }
}
