//! Suspects measured again before they are named, as ClusterKit retests its suspect pairs:
//! all at once in groups where no node is busy twice, those still bad split in halves and
//! measured again, down to each alone. A suspect is confirmed only when it is still bad
//! measured alone.

use super::measure;
use super::report::{progress, Settings};
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use std::collections::VecDeque;

/// What a suspect is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A link `(from, to)`, its bandwidth measured one way as a shift measures it.
    Bandwidth,
    /// A pair `(a, b)`, a < b, its latency measured by round trips.
    Latency,
}

impl Kind {
    /// Whether suspects `x` and `y` can be measured at the same time: bandwidth, when they
    /// share neither sender nor receiver (every node sends at most once and receives at
    /// most once, as in a shift); latency, when they share no node.
    fn fit(self, x: (usize, usize), y: (usize, usize)) -> bool {
        match self {
            Kind::Bandwidth => x.0 != y.0 && x.1 != y.1,
            Kind::Latency => x.0 != y.0 && x.0 != y.1 && x.1 != y.0 && x.1 != y.1,
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
    /// Still bad when measured alone.
    pub confirmed: bool,
}

/// `suspects` packed into groups that `kind` can measure at once, each group filled in
/// order from the suspects not yet placed.
pub fn groups(kind: Kind, suspects: &[(usize, usize)]) -> Vec<Vec<(usize, usize)>> {
    let mut left = suspects.to_vec();
    let mut out = Vec::new();
    while !left.is_empty() {
        let (mut group, mut rest) = (Vec::new(), Vec::new());
        for x in left {
            if group.iter().all(|&y| kind.fit(x, y)) {
                group.push(x);
            } else {
                rest.push(x);
            }
        }
        out.push(group);
        left = rest;
    }
    out
}

/// Retests `suspects` with `measure` (a group measured at once, a value per suspect in
/// order): groups first, those `still_bad` in a group of several split in halves and
/// measured again.
pub fn retest(
    kind: Kind,
    suspects: &[(usize, usize)],
    still_bad: impl Fn(f64) -> bool,
    mut measure: impl FnMut(&[(usize, usize)], usize) -> Vec<f64>,
) -> Vec<Retested> {
    let mut out: Vec<Retested> = suspects
        .iter()
        .map(|&link| Retested { kind, link, tries: Vec::new(), confirmed: false })
        .collect();
    let mut queue: VecDeque<Vec<(usize, usize)>> = groups(kind, suspects).into();
    while let Some(group) = queue.pop_front() {
        let values = measure(&group, queue.len());
        let mut again = Vec::new();
        for (&link, value) in group.iter().zip(values) {
            let bad = still_bad(value);
            let r = out.iter_mut().find(|r| r.link == link).expect("a suspect");
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

/// [`retest`] over the nodes (collective over them): node 0 holds `suspects` and decides,
/// announcing each group; every node takes its part of the group, or waits. Only node 0
/// returns the results.
pub fn on_nodes(
    comm: &SimpleCommunicator,
    s: &Settings,
    kind: Kind,
    suspects: &[(usize, usize)],
    still_bad: impl Fn(f64) -> bool,
) -> Vec<Retested> {
    let me = comm.rank() as usize;
    // This node's part of `group`; node 0 gets every node's figure.
    let measure_group = |group: &[(usize, usize)]| -> Vec<f64> {
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
    };
    if me != 0 {
        loop {
            let group = announce(comm, &[]);
            if group.is_empty() {
                return Vec::new();
            }
            measure_group(&group);
        }
    }
    let what = match kind {
        Kind::Bandwidth => "link",
        Kind::Latency => "latency pair",
    };
    let out = retest(kind, suspects, still_bad, |group, queued| {
        let at = format!("{} suspect {what}(s) at once, {queued} group(s) queued", group.len());
        progress(comm, format!("retest: {at}"));
        announce(comm, group);
        let all = measure_group(group);
        // The receiver's figure of a link; the first node's of a pair.
        group.iter().map(|&(a, b)| if kind == Kind::Bandwidth { all[b] } else { all[a] }).collect()
    });
    announce(comm, &[]);
    out
}

/// Node 0's `group` on every node (collective over the nodes; empty: the retest is over).
fn announce(comm: &SimpleCommunicator, group: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // Never empty: Open MPI refuses the broadcast of no bytes from an empty vector.
    let text: String = group.iter().map(|(a, b)| format!("{a} {b}\n")).collect();
    let shared = paw_core::broadcast_text(comm, 0, format!("group\n{text}").into_bytes());
    shared
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(a, b)| (a.parse().expect("node 0's node"), b.parse().expect("node 0's node")))
        .collect()
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

    /// A fake fabric: link (1, 3) slow; link (0, 1) slow only beside others (noise).
    fn fabric(group: &[(usize, usize)], _: usize) -> Vec<f64> {
        let slow = |&l: &(usize, usize)| l == (1, 3) || (l == (0, 1) && group.len() > 1);
        group.iter().map(|l| if slow(l) { 10.0 } else { 45.0 }).collect()
    }

    #[test]
    fn a_suspect_is_confirmed_only_alone_and_groups_halve() {
        let bad = |v: f64| v < 36.0;
        let out = retest(Kind::Bandwidth, &[(0, 1), (2, 3), (1, 3), (4, 5)], bad, fabric);
        let by = |l| out.iter().find(|r| r.link == l).unwrap();
        let sizes = |l| by(l).tries.iter().map(|t| t.group).collect::<Vec<_>>();
        // (0,1), (2,3), (4,5) together, then (1,3) (its sender busy in the first group).
        assert_eq!((sizes((2, 3)), by((2, 3)).confirmed), (vec![3], false));
        assert_eq!((sizes((0, 1)), by((0, 1)).confirmed), (vec![3, 1], false), "cleared alone");
        assert_eq!((sizes((1, 3)), by((1, 3)).confirmed), (vec![1], true));
        // Four still bad together: halves of 2, then each alone.
        let out = retest(Kind::Latency, &[(0, 1), (2, 3), (4, 5), (6, 7)], |_| true, fabric);
        for r in &out {
            assert_eq!(r.tries.iter().map(|t| t.group).collect::<Vec<_>>(), [4, 2, 1], "{r:?}");
            assert!(r.confirmed);
        }
    }
}
