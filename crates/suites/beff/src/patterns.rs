//! The communication patterns (paper §4): six ring patterns and the random patterns, which
//! make b_eff, and the additional patterns reported beside it.

/// Which average a pattern belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One of the six ring patterns (averaged).
    Ring,
    /// A ring over all processes in random order (averaged).
    Random,
    /// Reported, not averaged.
    Extra,
}

impl Kind {
    /// The word the protocol uses.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Ring => "ring",
            Kind::Random => "random",
            Kind::Extra => "extra",
        }
    }
}

/// One exchange of a process: the rank it sends to and the rank it receives from at the
/// same time (`None`: no partner on that side).
pub type Exchange = (Option<usize>, Option<usize>);

/// A pattern: what every process sends and receives in one step.
#[derive(Debug, Clone, PartialEq)]
pub struct Pattern {
    /// Name in the protocol and the `.dat` columns, e.g. `ring2-2*4&-1`.
    pub name: String,
    /// Which average it belongs to.
    pub kind: Kind,
    /// Per rank, its exchanges in order.
    pub exchanges: Vec<Vec<Exchange>>,
    /// A ping-pong between ranks 0 and 1 (one blocking send and receive each way per
    /// step) instead of exchanges by the three methods.
    pub ping_pong: bool,
}

impl Pattern {
    /// A pattern from every rank's exchanges, made as b_eff 3.6 makes them: where the two
    /// exchanges of a pair (the send one way, then the other) go to the same process -- a
    /// ring of two, or a cyclic direction of extent 2 -- the second is dropped, so each
    /// message between two neighbours is sent once per step.
    pub fn new(
        name: String,
        kind: Kind,
        exchanges: Vec<Vec<Exchange>>,
        ping_pong: bool,
    ) -> Pattern {
        let exchanges = exchanges
            .into_iter()
            .map(|mine| {
                mine.chunks(2)
                    .flat_map(|pair| match pair {
                        [a, b] if a.0.is_some() && a.0 == b.0 => vec![*a],
                        _ => pair.to_vec(),
                    })
                    .collect()
            })
            .collect();
        Pattern { name, kind, exchanges, ping_pong }
    }

    /// Exchanges (MPI_Sendrecv calls) of `rank` in one step.
    pub fn calls(&self, rank: usize) -> usize {
        self.exchanges[rank].len()
    }

    /// The messages of one step that b_eff 3.6 credits to the pattern (its all_msg_cnt, as
    /// rank 0 holds it): for a ring or random pattern 2P, less P where rank 0's second
    /// exchange was dropped (a ring of two), so P x rank 0's exchanges; else the messages
    /// actually sent. With mixed ring sizes (P = 7: rings of two and three) that is fewer
    /// than are sent, and 3.6's figure is what paw reports.
    pub fn credited(&self) -> usize {
        match self.kind {
            Kind::Ring | Kind::Random => self.exchanges.len() * self.calls(0),
            Kind::Extra => self.messages(),
        }
    }

    /// Messages sent by all processes together in one step.
    pub fn messages(&self) -> usize {
        self.exchanges.iter().flatten().filter(|(to, _)| to.is_some()).count()
    }

    /// Whether `-pattern NAME` selects this pattern: NAME is its name or the part of its
    /// name before a '-' (`ring1`, `cart2d`, `cart2d-dim0`).
    pub fn is_named(&self, name: &str) -> bool {
        self.name == name || self.name.strip_prefix(name).is_some_and(|rest| rest.starts_with('-'))
    }

    /// Every process of each ring sends to its left and right neighbour and receives
    /// from both: first to the left (receiving from the right), then to the right.
    fn of_rings(name: String, kind: Kind, p: usize, rings: &[Vec<usize>]) -> Pattern {
        let mut exchanges = vec![Vec::new(); p];
        for ring in rings {
            let s = ring.len();
            for (j, &me) in ring.iter().enumerate() {
                let (left, right) = (ring[(j + s - 1) % s], ring[(j + 1) % s]);
                exchanges[me] = vec![(Some(left), Some(right)), (Some(right), Some(left))];
            }
        }
        Pattern::new(name, kind, exchanges, false)
    }
}

/// The ring sizes of the six ring patterns at `p` processes: for nominal sizes 2, 4, 8,
/// max(16, P/4), max(32, P/2) and P, each at most P, nrings = max(1, min(int(P/m + 0.4),
/// P/2)) rings of P/nrings processes or one more; the larger rings come first when the
/// base size is odd, last when it is even.
pub fn ring_sizes(p: usize) -> [Vec<usize>; 6] {
    let nominal = [2, 4, 8, (p / 4).max(16), (p / 2).max(32), p];
    nominal.map(|m| {
        let m = m.min(p);
        let nrings = ((p as f64 / m as f64 + 0.4) as usize).min(p / 2).max(1);
        let (base, extra) = (p / nrings, p % nrings);
        let larger = std::iter::repeat_n(base + 1, extra);
        let smaller = std::iter::repeat_n(base, nrings - extra);
        if base % 2 == 1 {
            larger.chain(smaller).collect()
        } else {
            smaller.chain(larger).collect()
        }
    })
}

/// b_eff 3.6's label of a ring pattern: `N*S` with N rings, the first of S processes, then
/// `fix` when all rings are alike, `&+1` when the later rings have one more process, `&-1`
/// when they have one less.
pub fn ring_label(sizes: &[usize]) -> String {
    let Some(&first) = sizes.first() else { return String::new() };
    let suffix = match sizes.iter().find(|&&s| s != first) {
        None => "fix",
        Some(&other) if other > first => "&+1",
        Some(_) => "&-1",
    };
    format!("{}*{first}{suffix}", sizes.len())
}

/// The six ring patterns: rings of consecutive ranks, sized by [`ring_sizes`].
pub fn ring_patterns(p: usize) -> Vec<Pattern> {
    ring_sizes(p)
        .iter()
        .enumerate()
        .map(|(i, sizes)| {
            let mut next = 0;
            let rings: Vec<Vec<usize>> = sizes
                .iter()
                .map(|&s| {
                    next += s;
                    (next - s..next).collect()
                })
                .collect();
            let name = format!("ring{}-{}", i + 1, ring_label(sizes));
            Pattern::of_rings(name, Kind::Ring, p, &rings)
        })
        .collect()
}

/// `count` random orders of the ranks 0..p drawn from `seed` (each a permutation).
pub fn permutations(p: usize, count: usize, seed: u64) -> Vec<Vec<usize>> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..count)
        .map(|_| {
            let mut order: Vec<usize> = (0..p).collect();
            rng.shuffle(&mut order);
            order
        })
        .collect()
}

/// Random pattern `k` (from 1): one ring of all processes in the order `order`.
pub fn random_pattern(k: usize, order: &[usize]) -> Pattern {
    let name = format!("random{k:02}");
    Pattern::of_rings(name, Kind::Random, order.len(), &[order.to_vec()])
}

/// The additional patterns: worst-case cycle, best and worst bi-section, the 2-D and 3-D
/// Cartesian partitions `dims2` and `dims3` (MPI_Dims_create) per direction and in all
/// directions, cyclic and acyclic, and the ping-pong between ranks 0 and 1. Patterns
/// without any message at this process count (a direction of extent 1) are left out.
pub fn extra_patterns(p: usize, dims2: &[usize], dims3: &[usize]) -> Vec<Pattern> {
    let mut out = Vec::new();
    let cycle: Vec<usize> =
        (0..p).map(|i| if i % 2 == 0 { i / 2 } else { p - 1 - i / 2 }).collect();
    out.push(Pattern::of_rings("cycle-worst".into(), Kind::Extra, p, &[cycle]));
    let even = p - p % 2;
    let best: Vec<Vec<usize>> = (0..even / 2).map(|k| vec![2 * k, 2 * k + 1]).collect();
    out.push(Pattern::of_rings("bisect-best".into(), Kind::Extra, p, &best));
    let worst: Vec<Vec<usize>> = (0..even / 2).map(|k| vec![k, even - 1 - k]).collect();
    out.push(Pattern::of_rings("bisect-worst".into(), Kind::Extra, p, &worst));
    for dims in [dims2, dims3] {
        for cyclic in [true, false] {
            let n = dims.len();
            let directions: Vec<Vec<usize>> =
                (0..n).map(|d| vec![d]).chain(std::iter::once((0..n).collect())).collect();
            for dirs in directions {
                let which = if dirs.len() == 1 { format!("dim{}", dirs[0]) } else { "all".into() };
                let name =
                    format!("cart{n}d-{which}-{}", if cyclic { "cyclic" } else { "acyclic" });
                let exchanges = (0..p).map(|r| cartesian(dims, r, &dirs, cyclic)).collect();
                let pattern = Pattern::new(name, Kind::Extra, exchanges, false);
                if pattern.messages() > 0 {
                    out.push(pattern);
                }
            }
        }
    }
    let mut exchanges = vec![Vec::new(); p];
    exchanges[0] = vec![(Some(1), Some(1))];
    exchanges[1] = vec![(Some(0), Some(0))];
    out.push(Pattern::new("pingpong".into(), Kind::Extra, exchanges, true));
    out
}

/// The exchanges of rank `r` on the grid `dims` (row-major, as MPI_Cart_create without
/// reordering) along `dirs`: per direction, send to the lower neighbour while receiving
/// from the upper, then the reverse. A neighbour that is the rank itself (extent 1) or
/// outside an acyclic grid is `None`.
fn cartesian(dims: &[usize], r: usize, dirs: &[usize], cyclic: bool) -> Vec<Exchange> {
    let n = dims.len();
    let mut coords = vec![0; n];
    let mut rest = r;
    for d in (0..n).rev() {
        coords[d] = rest % dims[d];
        rest /= dims[d];
    }
    let rank_of = |c: &[usize]| c.iter().zip(dims).fold(0, |acc, (&x, &e)| acc * e + x);
    let neighbour = |d: usize, up: bool| -> Option<usize> {
        let e = dims[d];
        if e == 1 {
            return None;
        }
        let x = coords[d];
        let y = match (up, cyclic) {
            (true, _) if x + 1 < e => x + 1,
            (true, true) => 0,
            (false, _) if x > 0 => x - 1,
            (false, true) => e - 1,
            _ => return None,
        };
        let mut c = coords.clone();
        c[d] = y;
        Some(rank_of(&c))
    };
    let mut out = Vec::new();
    for &d in dirs {
        let (lower, upper) = (neighbour(d, false), neighbour(d, true));
        out.push((lower, upper));
        out.push((upper, lower));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(p: usize) -> Vec<String> {
        ring_sizes(p).iter().map(|s| ring_label(s)).collect()
    }

    #[test]
    fn ring_sizes_follow_the_worked_examples() {
        assert_eq!(labels(4), ["2*2fix", "1*4fix", "1*4fix", "1*4fix", "1*4fix", "1*4fix"]);
        assert_eq!(labels(7), ["3*2&+1", "2*4&-1", "1*7fix", "1*7fix", "1*7fix", "1*7fix"]);
        // 14: rings of 4, 5, 5 (3.6 says &+1, one larger, whatever their number).
        assert_eq!(labels(14)[1], "3*4&+1");
        assert_eq!(ring_sizes(7)[0], [2, 2, 3]);
        assert_eq!(ring_sizes(7)[1], [4, 3]);
        assert_eq!(labels(8), ["4*2fix", "2*4fix", "1*8fix", "1*8fix", "1*8fix", "1*8fix"]);
        assert_eq!(labels(16), ["8*2fix", "4*4fix", "2*8fix", "1*16fix", "1*16fix", "1*16fix"]);
        assert_eq!(labels(2), ["1*2fix"; 6]);
        assert_eq!(labels(3), ["1*3fix"; 6]);
        assert_eq!(labels(5), ["2*2&+1", "1*5fix", "1*5fix", "1*5fix", "1*5fix", "1*5fix"]);
        for p in 2..=16 {
            for sizes in ring_sizes(p) {
                assert_eq!(sizes.iter().sum::<usize>(), p, "P = {p}: {sizes:?}");
                assert!(sizes.iter().all(|&s| s >= 2), "P = {p}: {sizes:?}");
                let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(hi - lo <= 1, "P = {p}: {sizes:?}");
            }
            assert_eq!(ring_sizes(p)[5], [p], "the last pattern is one ring of all");
        }
    }

    #[test]
    fn every_process_of_a_ring_pattern_talks_to_both_neighbours() {
        for p in 2..=16 {
            for pat in ring_patterns(p) {
                for (me, ex) in pat.exchanges.iter().enumerate() {
                    match ex[..] {
                        // A ring of two: one exchange with the other process.
                        [(Some(o), Some(o2))] => {
                            assert_eq!(o, o2);
                            assert_eq!(pat.exchanges[o], [(Some(me), Some(me))], "{}", pat.name);
                        }
                        [(l, r), (r2, l2)] => {
                            assert_eq!((l, r), (l2, r2));
                            assert_ne!(l, r);
                            // My left neighbour's right neighbour is me.
                            assert_eq!(pat.exchanges[l.unwrap()][1].0, Some(me), "{}", pat.name);
                        }
                        _ => panic!("{}: {ex:?}", pat.name),
                    }
                }
            }
        }
        // P = 2: every ring is of two, P messages a step (3.6's count), not 2P.
        assert!(ring_patterns(2).iter().all(|p| p.messages() == 2 && p.calls(0) == 1));
        assert!(ring_patterns(8)
            .iter()
            .all(|p| p.messages() == if p.name.starts_with("ring1") { 8 } else { 16 }));
        let p7 = &ring_patterns(7)[0];
        assert_eq!(p7.name, "ring1-3*2&+1");
        assert_eq!(p7.exchanges[4], [(Some(6), Some(5)), (Some(5), Some(6))]);
        assert_eq!(p7.exchanges[0], [(Some(1), Some(1))]);
        // Two rings of two and one of three: 2 + 2 + 6 messages, of which 3.6 credits 7
        // (2P less P for rank 0's dropped exchange).
        assert_eq!(p7.messages(), 10);
        assert_eq!((p7.calls(0), p7.calls(4)), (1, 2));
        assert_eq!(p7.credited(), 7);
        assert!(ring_patterns(8).iter().all(|p| p.credited() == p.messages()));
        assert!(ring_patterns(2).iter().all(|p| p.credited() == 2));
    }

    #[test]
    fn random_orders_are_permutations_repeatable_by_seed() {
        let a = permutations(13, 30, 42);
        assert_eq!(a, permutations(13, 30, 42));
        assert_ne!(a, permutations(13, 30, 43));
        for order in &a {
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(sorted, (0..13).collect::<Vec<_>>());
        }
        assert!(a.windows(2).any(|w| w[0] != w[1]), "the orders differ");
        let pat = random_pattern(3, &a[0]);
        assert_eq!((pat.name.as_str(), pat.messages()), ("random03", 26));
    }

    #[test]
    fn additional_patterns() {
        let ex = extra_patterns(4, &[2, 2], &[2, 2, 1]);
        let names: Vec<&str> = ex.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "cycle-worst",
                "bisect-best",
                "bisect-worst",
                "cart2d-dim0-cyclic",
                "cart2d-dim1-cyclic",
                "cart2d-all-cyclic",
                "cart2d-dim0-acyclic",
                "cart2d-dim1-acyclic",
                "cart2d-all-acyclic",
                "cart3d-dim0-cyclic",
                "cart3d-dim1-cyclic",
                "cart3d-all-cyclic",
                "cart3d-dim0-acyclic",
                "cart3d-dim1-acyclic",
                "cart3d-all-acyclic",
                "pingpong",
            ]
        );
        // Worst-case cycle order 0, 3, 1, 2: rank 0's neighbours are 2 and 3.
        assert_eq!(ex[0].exchanges[0], [(Some(2), Some(3)), (Some(3), Some(2))]);
        assert_eq!(ex[1].exchanges[2][0], (Some(3), Some(3)));
        assert_eq!(ex[2].exchanges[1][0], (Some(2), Some(2)));
        // 5 processes: rank 4 sits out the bi-sections.
        let ex5 = extra_patterns(5, &[5, 1], &[5, 1, 1]);
        assert!(ex5[2].exchanges[4].is_empty());
        assert_eq!(ex5[2].messages(), 4, "two pairs, one message each way");
        assert!(!ex5.iter().any(|p| p.name.contains("dim1")), "extent 1: no messages");
        // Acyclic 1-D grid of 5: the ends have one neighbour.
        let line = ex5.iter().find(|p| p.name == "cart2d-dim0-acyclic").unwrap();
        assert_eq!(line.exchanges[0], [(None, Some(1)), (Some(1), None)]);
        assert_eq!(line.messages(), 8);
        let ring = ex5.iter().find(|p| p.name == "cart2d-dim0-cyclic").unwrap();
        assert_eq!(ring.exchanges[0], [(Some(4), Some(1)), (Some(1), Some(4))]);
        // 3-D all directions on 2x2x2: six exchanges, rank 0's neighbours 4, 2, 1.
        let ex8 = extra_patterns(8, &[4, 2], &[2, 2, 2]);
        let all = ex8.iter().find(|p| p.name == "cart3d-all-cyclic").unwrap();
        let to: Vec<usize> = all.exchanges[0].iter().map(|e| e.0.unwrap()).collect();
        assert_eq!(to, [4, 2, 1], "extent 2 in each direction: one exchange each");
        assert_eq!(ex8.last().unwrap().messages(), 2);
    }
}
