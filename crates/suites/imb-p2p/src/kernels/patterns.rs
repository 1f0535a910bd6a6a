//! Who exchanges with whom in IMB-P2P's patterns: pairs, the shared random draws of
//! Unirandom, Birandom and Corandom, and the periodic grids of the stencils.

/// Today's IMB-P2P pseudo-random generator, the same on every process: a 64-bit linear
/// congruential step, the value the low 32 bits of the state shifted right by 24.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lcg(u64);

impl Lcg {
    /// The next value.
    pub fn next(&mut self) -> u64 {
        self.0 =
            self.0.wrapping_mul(7_560_690_468_208_412_377).wrapping_add(4_343_336_064_253_945_357);
        (self.0 >> 24) & 0xffff_ffff
    }

    /// The next pair of distinct ranks among `n` (`n` >= 2): a, then b redrawn until it
    /// differs from a.
    pub fn pair(&mut self, n: usize) -> (usize, usize) {
        let a = (self.next() % n as u64) as usize;
        loop {
            let b = (self.next() % n as u64) as usize;
            if b != a {
                return (a, b);
            }
        }
    }

    /// Corandom's step: `ring` gets `ring.len()` swaps, ring[i] with ring[j], j drawn.
    pub fn shuffle(&mut self, ring: &mut [usize]) {
        let n = ring.len();
        for i in 0..n {
            let j = (self.next() % n as u64) as usize;
            ring.swap(i, j);
        }
    }
}

/// The partner of `rank` among `n` (even): the lower half pairs with the upper.
pub fn partner(rank: usize, n: usize) -> usize {
    (rank + n / 2) % n
}

/// Stencil2D's grid for `n` processes, (ly, lx): grow a square from 2 until it holds `n`;
/// if it holds more, shrink ly until it divides `n`. None unless both sides are 2 or more.
pub fn grid2(n: usize) -> Option<(usize, usize)> {
    let mut l = 2;
    while l * l < n {
        l += 1;
    }
    let mut ly = l;
    if ly * ly > n {
        while ly > 1 && !n.is_multiple_of(ly) {
            ly -= 1;
        }
    }
    let lx = n / ly.max(1);
    (lx >= 2 && ly >= 2 && lx * ly == n).then_some((ly, lx))
}

/// Stencil3D's grid for `n` processes, (lz, ly, lx), as today's IMB-P2P finds it: grow a
/// cube from 2 until it holds `n`; while it holds more, shrink lz to the next divisor of
/// `n` and take [`grid2`]'s rule for the rest, kept when its ly is at least lz. None
/// unless every side is 2 or more and they multiply to `n`.
pub fn grid3(n: usize) -> Option<(usize, usize, usize)> {
    let n = n as i64;
    let (mut lx, mut ly, mut lz) = (2i64, 2i64, 2i64);
    while lx * ly * lz < n {
        (lx, ly, lz) = (lx + 1, ly + 1, lz + 1);
    }
    while lx * ly * lz > n {
        lz -= 1;
        while lz > 1 && n % lz != 0 {
            lz -= 1;
        }
        let rest = if lz > 0 { n / lz } else { 0 };
        let mut l = 2;
        while l * l < rest {
            l += 1;
        }
        let (mut x, mut y) = (l, l);
        if x * y > rest {
            while y > 1 && rest % y != 0 {
                y -= 1;
            }
            x = rest / y;
        }
        if y >= lz {
            (lx, ly) = (x, y);
        }
    }
    let ok = lx >= 2 && ly >= 2 && lz >= 2 && lx * ly * lz == n;
    ok.then_some((lz as usize, ly as usize, lx as usize))
}

/// The neighbours of `rank` on the periodic grid `dims` (outermost first): for each
/// dimension from the innermost, the one before and the one after.
pub fn neighbours(rank: usize, dims: &[usize]) -> Vec<usize> {
    let mut coords = Vec::with_capacity(dims.len());
    let mut rest = rank;
    for &d in dims.iter().rev() {
        coords.push(rest % d);
        rest /= d;
    }
    // coords[0] is the innermost (x).
    let strides: Vec<usize> =
        (0..dims.len()).map(|k| dims.iter().rev().take(k).product::<usize>()).collect();
    let mut out = Vec::with_capacity(2 * dims.len());
    for (k, &d) in dims.iter().rev().enumerate() {
        let c = coords[k];
        let base = rank - c * strides[k];
        out.push(base + (c + d - 1) % d * strides[k]);
        out.push(base + (c + 1) % d * strides[k]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_distinct_pairs_the_same_everywhere() {
        let (mut a, mut b) = (Lcg::default(), Lcg::default());
        for _ in 0..1000 {
            let p = a.pair(5);
            assert_eq!(p, b.pair(5));
            assert!(p.0 != p.1 && p.0 < 5 && p.1 < 5);
        }
        let mut ring: Vec<usize> = (0..7).collect();
        Lcg::default().shuffle(&mut ring);
        let mut sorted = ring.clone();
        sorted.sort();
        assert_eq!(sorted, (0..7).collect::<Vec<_>>(), "a permutation");
    }

    #[test]
    fn grids_follow_the_rule() {
        assert_eq!(grid2(4), Some((2, 2)));
        assert_eq!(grid2(6), Some((3, 2)));
        assert_eq!(grid2(8), Some((2, 4)));
        assert_eq!(grid2(2), None);
        assert_eq!(grid2(3), None);
        assert_eq!(grid2(7), None);
        assert_eq!(grid3(8), Some((2, 2, 2)));
        assert_eq!(grid3(4), None);
        assert_eq!(grid3(12), Some((2, 3, 2)));
    }

    #[test]
    fn neighbours_wrap_around() {
        // 2 x 3 grid (ly 2, lx 3): rank 4 is x 1, y 1.
        assert_eq!(neighbours(4, &[2, 3]), [3, 5, 1, 1]);
        assert_eq!(neighbours(0, &[2, 3]), [2, 1, 3, 3]);
        assert_eq!(neighbours(0, &[2, 2, 2]), [1, 1, 2, 2, 4, 4]);
    }
}
