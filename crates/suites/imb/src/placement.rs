//! Where each repetition's buffers start: `-off_cache` moves them past the last-level cache
//! (today's IMB's rule, IMB_mem_manager.c).

/// `-off_cache size[,line]`: the last-level cache the buffers are moved past (today's IMB,
/// IMB_mem_manager.c).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OffCache {
    /// Cache size, MiB (`-1`: 8).
    pub size_mib: f64,
    /// Cache line, bytes (64 unless given).
    pub line: usize,
}

/// Where each repetition's buffer starts under `-off_cache`: repetition i at (i mod cycle)
/// x offset bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spread {
    /// Bytes between two repetitions' buffers.
    pub offset: usize,
    /// Repetitions before the first buffer is used again.
    pub cycle: usize,
}

impl Spread {
    /// No spread: every repetition at the start of the buffer.
    pub const NONE: Spread = Spread { offset: 0, cycle: 1 };

    /// Where repetition `i` starts, bytes.
    pub fn at(&self, i: usize) -> usize {
        i % self.cycle * self.offset
    }

    /// The same spread counted in elements of `size` bytes (offsets are whole lines, and
    /// lines multiples of the element).
    pub fn in_elements(self, size: usize) -> Spread {
        Spread { offset: self.offset / size, cycle: self.cycle }
    }

    /// Bytes a buffer of `len` bytes per repetition needs.
    pub fn bytes(&self, len: usize) -> usize {
        len.max(self.cycle * self.offset)
    }
}

impl OffCache {
    /// IMB's defaults (IMB_mem_info.h: CACHE_SIZE 8 MiB, CACHE_LINE_SIZE 64 bytes).
    pub const DEFAULT: OffCache = OffCache { size_mib: 8.0, line: 64 };

    /// Intel's rule for `len` bytes per repetition and `reps` repetitions: the offset is
    /// `len` rounded up to whole lines plus one line; the cycle min(reps, (2 x cache + offset
    /// - 1) / offset), so that the buffers cycled through span twice the cache.
    pub fn spread(&self, len: usize, reps: usize) -> Spread {
        if self.size_mib <= 0.0 {
            return Spread::NONE;
        }
        let offset = (len.div_ceil(self.line) + 1) * self.line;
        let span = 2.0 * self.size_mib * (1u64 << 20) as f64;
        let cycle = ((span + offset as f64 - 1.0) / offset as f64) as usize;
        Spread { offset, cycle: cycle.min(reps).max(1) }
    }
}
