//! A matrix of links read in passes over its rows, and the exact statistics the judgement
//! needs from it in memory that grows with the nodes, not the links: medians by a
//! histogram of the values and a second pass over the bins that hold the middle ones.

use std::collections::HashMap;
use std::os::unix::fs::FileExt;

/// A map's matrix as the judgement reads it: `m[from][to]`, NaN on the diagonal and where
/// a quick map did not measure. Read row by row, so that it need not be held whole.
pub trait Matrix {
    /// Its nodes.
    fn n(&self) -> usize;
    /// The link from node `i` to node `j`.
    fn get(&self, i: usize, j: usize) -> f64;
    /// Row `i` (the links from node `i`) into `out`, `n` values.
    fn row(&self, i: usize, out: &mut [f64]) {
        out.iter_mut().enumerate().for_each(|(j, v)| *v = self.get(i, j));
    }
}

impl Matrix for Vec<Vec<f64>> {
    fn n(&self) -> usize {
        self.len()
    }
    fn get(&self, i: usize, j: usize) -> f64 {
        self[i][j]
    }
    fn row(&self, i: usize, out: &mut [f64]) {
        out.copy_from_slice(&self[i]);
    }
}

/// A matrix kept in a file rather than in memory (node 0's maps: 16 N^2 bytes, 1.6 GB at
/// 10 000 nodes), read a row at a time: rows of `n` values, native byte order.
#[derive(Debug, Default)]
pub struct Stored {
    n: usize,
    file: Option<std::fs::File>,
}

impl Stored {
    /// An `n` x `n` matrix in `file` (empty), its rows written with `put`.
    pub fn new(file: std::fs::File, n: usize) -> Stored {
        Stored { n, file: Some(file) }
    }

    /// Writes row `i`.
    pub fn put(&self, i: usize, row: &[f64]) -> std::io::Result<()> {
        let bytes: Vec<u8> = row.iter().flat_map(|v| v.to_ne_bytes()).collect();
        self.file().write_all_at(&bytes, (i * self.n * 8) as u64)
    }

    fn file(&self) -> &std::fs::File {
        self.file.as_ref().expect("a stored matrix has its file")
    }
}

impl Matrix for Stored {
    fn n(&self) -> usize {
        self.n
    }
    fn get(&self, i: usize, j: usize) -> f64 {
        let mut b = [0u8; 8];
        self.file()
            .read_exact_at(&mut b, ((i * self.n + j) * 8) as u64)
            .unwrap_or_else(|e| panic!("reading the map's scratch file back: {e}"));
        f64::from_ne_bytes(b)
    }
    fn row(&self, i: usize, out: &mut [f64]) {
        let mut bytes = vec![0u8; self.n * 8];
        self.file()
            .read_exact_at(&mut bytes, (i * self.n * 8) as u64)
            .unwrap_or_else(|e| panic!("reading the map's scratch file back: {e}"));
        for (v, b) in out.iter_mut().zip(bytes.chunks_exact(8)) {
            *v = f64::from_ne_bytes(b.try_into().expect("8 bytes"));
        }
    }
}

/// Calls `f(i, j, value)` for every measured link of `m` (off the diagonal, finite).
pub fn each_link(m: &dyn Matrix, mut f: impl FnMut(usize, usize, f64)) {
    let n = m.n();
    let mut row = vec![f64::NAN; n];
    for i in 0..n {
        m.row(i, &mut row);
        for (j, &v) in row.iter().enumerate() {
            if j != i && v.is_finite() {
                f(i, j, v);
            }
        }
    }
}

/// Histogram bins per octave: a bin spans 0.008 % of its values, so that the bins around
/// the median of 10^8 links hold about 10^5 of them.
const PER_OCTAVE: f64 = 8192.0;
/// Octaves below 1 that have bins of their own (values smaller share the first).
const BELOW_ONE: f64 = 40.0;
/// Bins in all: 2^-40 to 2^88 (8 MB of counts).
const BINS: usize = 128 * 8192;

/// The bin of `v`: monotone in `v`, so that a bin's values lie between its neighbours'.
fn bin(v: f64) -> usize {
    if v <= 0.0 {
        return 0;
    }
    ((v.log2() + BELOW_ONE) * PER_OCTAVE).clamp(0.0, (BINS - 1) as f64) as usize
}

/// The bins holding ranks `lo..=hi` of values counted in `hist`, and how many values lie
/// below the first of them.
fn bins_of(hist: &[u64], lo: u64, hi: u64) -> (usize, usize, u64) {
    let (mut seen, mut first, mut below) = (0, None, 0);
    for (b, &c) in hist.iter().enumerate() {
        if first.is_none() && seen + c > lo {
            first = Some(b);
            below = seen;
        }
        seen += c;
        if seen > hi {
            return (first.unwrap_or(b), b, below);
        }
    }
    (first.unwrap_or(BINS - 1), BINS - 1, below)
}

/// Distinct values, sorted, each with the count of values up to it.
#[derive(Debug, Default, Clone)]
struct Cumulative(Vec<(f64, u64)>);

impl Cumulative {
    fn of(counts: HashMap<u64, u64>) -> Cumulative {
        let mut v: Vec<(f64, u64)> =
            counts.into_iter().map(|(b, c)| (f64::from_bits(b), c)).collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut sum = 0;
        v.iter_mut().for_each(|(_, c)| {
            sum += *c;
            *c = sum
        });
        Cumulative(v)
    }

    /// How many values are at most `x`.
    fn up_to(&self, x: f64) -> u64 {
        let k = self.0.partition_point(|(v, _)| *v <= x);
        if k == 0 {
            0
        } else {
            self.0[k - 1].1
        }
    }

    /// The value of rank `p` (from 0) of these values less `less` (a part of them).
    fn select(&self, p: u64, less: &Cumulative) -> f64 {
        let k = self.0.partition_point(|&(v, c)| c - less.up_to(v) <= p);
        self.0.get(k).map_or(f64::NAN, |(v, _)| *v)
    }
}

/// The median of the measured links of `m` for which `keep(i, j)`, exactly, in two passes.
pub fn median_where(m: &dyn Matrix, keep: impl Fn(usize, usize) -> bool) -> f64 {
    let mut hist = vec![0u64; BINS];
    let mut total: u64 = 0;
    each_link(m, |i, j, v| {
        if keep(i, j) {
            hist[bin(v)] += 1;
            total += 1;
        }
    });
    if total == 0 {
        return f64::NAN;
    }
    let (first, last, below) = bins_of(&hist, (total - 1) / 2, total / 2);
    let mut counts = HashMap::new();
    each_link(m, |i, j, v| {
        if keep(i, j) && (first..=last).contains(&bin(v)) {
            *counts.entry(v.to_bits()).or_insert(0) += 1;
        }
    });
    let middle = Cumulative::of(counts);
    let none = Cumulative::default();
    let at = |rank: u64| middle.select(rank - below, &none);
    (at((total - 1) / 2) + at(total / 2)) / 2.0
}

/// The links' values around their median, exactly, and what each node's links take away
/// from them: the median of the links that do not touch a node, for every node, in two
/// passes. Removing a node's 2 (N - 1) links moves the median by at most N - 1 ranks, so
/// the values within N + 2 ranks of it are kept.
#[derive(Debug)]
pub struct Around {
    /// Measured links.
    total: u64,
    /// Links below the kept values.
    below: u64,
    /// The kept values.
    middle: Cumulative,
    /// Per node: its measured links, those below the kept values, its kept values.
    nodes: Vec<(u64, u64, Cumulative)>,
}

impl Around {
    /// The values of `m` around their median, and each node's part of them.
    pub fn of(m: &dyn Matrix) -> Around {
        let n = m.n();
        let mut hist = vec![0u64; BINS];
        let mut per = vec![0u64; n];
        let mut total: u64 = 0;
        each_link(m, |i, j, v| {
            hist[bin(v)] += 1;
            (per[i], per[j], total) = (per[i] + 1, per[j] + 1, total + 1);
        });
        let margin: u64 = n as u64 + 2;
        let (lo, hi) =
            ((total / 2).saturating_sub(margin), (total / 2 + margin).min(total.saturating_sub(1)));
        let (first, last, below) = bins_of(&hist, lo, hi);
        drop(hist);
        let mut middle = HashMap::new();
        let mut mine: Vec<HashMap<u64, u64>> = vec![HashMap::new(); n];
        let mut under = vec![0u64; n];
        each_link(m, |i, j, v| {
            let b = bin(v);
            if b < first {
                (under[i], under[j]) = (under[i] + 1, under[j] + 1);
            } else if b <= last {
                *middle.entry(v.to_bits()).or_insert(0) += 1;
                for h in [i, j] {
                    *mine[h].entry(v.to_bits()).or_insert(0) += 1;
                }
            }
        });
        let nodes = mine
            .into_iter()
            .zip(per)
            .zip(under)
            .map(|((c, p), u)| (p, u, Cumulative::of(c)))
            .collect();
        Around { total, below, middle: Cumulative::of(middle), nodes }
    }

    /// The median of the links that do not touch node `h` (NaN when none is left).
    pub fn median_away_from(&self, h: usize) -> f64 {
        let (count, under, mine) = &self.nodes[h];
        let left = self.total - count;
        if left == 0 {
            return f64::NAN;
        }
        let below = self.below - under;
        let at = |rank: u64| match rank.checked_sub(below) {
            Some(p) => self.middle.select(p, mine),
            None => f64::NAN,
        };
        (at((left - 1) / 2) + at(left / 2)) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A matrix of pseudo-random links, some tied, some unmeasured.
    fn noisy(n: usize) -> Vec<Vec<f64>> {
        let mut x = 12345u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| match next() % 10 {
                        _ if i == j => f64::NAN,
                        0 => f64::NAN,
                        1..=3 => 45.0,
                        _ => 20.0 + (next() % 1000) as f64 / 37.0,
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn medians_away_from_each_node_are_exact() {
        for n in [2, 3, 5, 17, 60] {
            let m = noisy(n);
            let around = Around::of(&m);
            for h in 0..n {
                let away: Vec<f64> = (0..n)
                    .flat_map(|i| (0..n).map(move |j| (i, j)))
                    .filter(|&(i, j)| i != j && i != h && j != h)
                    .map(|(i, j)| m[i][j])
                    .collect();
                let want = paw_core::median(&away);
                let got = around.median_away_from(h);
                assert!(
                    want == got || (want.is_nan() && got.is_nan()),
                    "n {n} h {h}: {got} against {want}"
                );
                let keep = |i: usize, j: usize| i != h && j != h;
                let two = median_where(&m, keep);
                assert!(
                    want == two || (want.is_nan() && two.is_nan()),
                    "n {n} h {h}: {two} against {want}"
                );
            }
            let all: Vec<f64> = m.iter().flatten().copied().collect();
            assert_eq!(median_where(&m, |_, _| true), paw_core::median(&all), "n {n}");
        }
    }

    #[test]
    fn a_stored_matrix_reads_back_as_written() {
        let m = noisy(23);
        let stored = Stored::new(tempfile::tempfile().unwrap(), 23);
        // Rows out of order, as nodes may answer.
        for i in (0..23).rev() {
            stored.put(i, &m[i]).unwrap();
        }
        let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        let mut row = vec![0.0; 23];
        for (i, want) in m.iter().enumerate() {
            stored.row(i, &mut row);
            assert!(row.iter().zip(want).all(|(&a, &b)| same(a, b)), "row {i}");
            assert!((0..23).all(|j| same(stored.get(i, j), want[j])), "row {i}");
        }
        let around = (Around::of(&m), Around::of(&stored));
        assert!((0..23).all(|h| same(around.0.median_away_from(h), around.1.median_away_from(h))));
    }
}
