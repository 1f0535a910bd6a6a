//! What b_eff_io writes and how it checks what it reads: one write buffer per chunk size,
//! each chunk filled before each pattern with paw-core's check pattern of (rank, chunk
//! size, pattern and writing access), and one read buffer.

use crate::plan::{Pattern, MB};
use paw_core::check;

/// The write buffers and the read buffer of one process.
#[derive(Debug)]
pub struct Buffers {
    write: Vec<(usize, paw_core::Buffer)>,
    read: paw_core::Buffer,
}

/// The chunk size whose data a pattern writes (the fill pattern writes 1 MB chunks' data).
fn chunk(p: &Pattern) -> usize {
    if p.fill {
        MB
    } else {
        p.l
    }
}

/// Per chunk size the longest memory chunk of the patterns that use it.
fn sizes(table: &[Pattern]) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = Vec::new();
    for p in table {
        let (l, len) = (chunk(p), p.big_l.max(chunk(p)));
        match v.iter_mut().find(|(x, _)| *x == l) {
            Some((_, n)) => *n = (*n).max(len),
            None => v.push((l, len)),
        }
    }
    v
}

impl Buffers {
    /// Buffers for the patterns of `table` (the fill pattern at most one 1 MB chunk); see
    /// [`Buffers::prepare`] for their data.
    pub fn new(table: &[Pattern]) -> Buffers {
        let write: Vec<(usize, paw_core::Buffer)> =
            sizes(table).into_iter().map(|(l, len)| (l, paw_core::buffer(len))).collect();
        let longest = write.iter().map(|(_, b)| b.len()).max().unwrap_or(MB);
        Buffers { write, read: paw_core::buffer(longest) }
    }

    /// The bytes [`Buffers::new`] allocates for `table`.
    pub fn bytes(table: &[Pattern]) -> u64 {
        let s = sizes(table);
        let longest = s.iter().map(|&(_, n)| n).max().unwrap_or(MB);
        (s.iter().map(|&(_, n)| n).sum::<usize>() + longest) as u64
    }

    /// Fills the write buffer `p` uses with the data of `(rank, chunk size, seq)` in every
    /// chunk (outside the timing): each pattern and writing access writes its own data, so
    /// the read check tells a rewrite from the write before it and one pattern from another.
    pub fn prepare(&mut self, p: &Pattern, rank: i32, seq: u64) {
        let l = chunk(p);
        let (_, b) = self.write.iter_mut().find(|(x, _)| *x == l).expect("a buffer per chunk size");
        for c in b.chunks_mut(l) {
            check::fill(c, rank, l as u64, seq);
        }
    }

    /// For one call of `p` moving `len` bytes (L, or the fill's bytes): what it writes,
    /// the chunk size its check compares by, and the read buffer.
    pub fn split(&mut self, p: &Pattern, len: usize) -> (&[u8], usize, &mut [u8]) {
        let l = chunk(p);
        let (_, b) = self.write.iter().find(|(x, _)| *x == l).expect("a buffer per chunk size");
        (&b[..len], if p.fill { len.max(1) } else { l }, &mut self.read[..len])
    }
}

/// The chunks of `got` that differ from `want` (chunks of `l` bytes): in any byte with
/// `every_byte`, else in the first or last 8 bytes (paw-core's comparison, so its test hook
/// reaches it). Returns the defective chunks and the first one's index.
pub fn defects(got: &[u8], want: &[u8], l: usize, every_byte: bool) -> (u64, Option<usize>) {
    let (mut bad, mut first) = (0, None);
    for (k, (w, g)) in want.chunks(l).zip(got.chunks(l)).enumerate() {
        let differ = if every_byte {
            check::differences(g, w)
        } else {
            let n = 8.min(w.len());
            let e = w.len() - n;
            check::differences(&g[..n], &w[..n]) + check::differences(&g[e..], &w[e..])
        };
        if differ > 0 {
            bad += 1;
            first.get_or_insert(k);
        }
    }
    (bad, first)
}
