//! What b_eff_io writes and how it checks what it reads: one write buffer per chunk size,
//! each chunk filled with paw-core's check pattern of (rank, chunk size), and one read
//! buffer.

use crate::plan::{Pattern, MB};
use paw_core::check;

/// The write buffers and the read buffer of one process.
#[derive(Debug)]
pub struct Buffers {
    write: Vec<(usize, Vec<u8>)>,
    read: Vec<u8>,
}

/// The chunk size whose data a pattern writes (the fill pattern writes 1 MB chunks' data).
fn chunk(p: &Pattern) -> usize {
    if p.fill {
        MB
    } else {
        p.l
    }
}

impl Buffers {
    /// Buffers for the patterns of `table` (the fill pattern at most one 1 MB chunk) of
    /// process `rank`.
    pub fn new(table: &[Pattern], rank: i32) -> Buffers {
        let mut write: Vec<(usize, Vec<u8>)> = Vec::new();
        for p in table {
            let (l, len) = (chunk(p), p.big_l.max(chunk(p)));
            match write.iter_mut().find(|(x, _)| *x == l) {
                Some((_, b)) if b.len() >= len => {}
                Some((_, b)) => b.resize(len, 0),
                None => write.push((l, vec![0; len])),
            }
        }
        for (l, b) in &mut write {
            for c in b.chunks_mut(*l) {
                check::fill(c, rank, *l as u64, 0);
            }
        }
        let longest = write.iter().map(|(_, b)| b.len()).max().unwrap_or(MB);
        Buffers { write, read: vec![0; longest] }
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
