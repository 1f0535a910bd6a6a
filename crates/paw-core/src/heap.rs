//! Where the MPI programs' own allocations come from: the small ones from mimalloc, the
//! large ones (message buffers) from the C library's malloc.
//!
//! The MPI library allocates at every call of some operations: Open MPI's non-blocking
//! collectives build a schedule with malloc and grow it with realloc. In the C library's
//! heap those requests meet the holes the program's own short-lived allocations left
//! (strings, small vectors). A C benchmark makes few such allocations; a Rust program makes
//! many, and a hole of the schedule's size with its neighbour in use keeps every later
//! realloc from growing in place: each call then moves its schedule. In paw's IMB-NBC on
//! Open MPI 4.1, 18 % of rank 0's reallocs moved (254 855 of 1 390 997) against 0.03 % in
//! Intel's, and its small Ialltoall read 4-14 % slower (doc/imb-nbc.md). Small allocations
//! from an allocator of their own leave the C library's heap to the MPI library, as in a C
//! program; large ones stay where they were, so message buffers are placed as before.

use std::alloc::{GlobalAlloc, Layout, System};

/// The allocator of every program built on paw-core.
#[global_allocator]
static HEAP: Heap = Heap;

/// Allocations of this many bytes and more come from the C library's malloc.
pub const LARGE: usize = 64 << 10;

/// The alignment of every small block at least: the C library's malloc gives 16 bytes on
/// x86-64, and MPI libraries count on it (MPICH 4.0 puts a window's bytes at its base
/// rounded down to 16: a 1-byte window 8 bytes into a line received its put 8 bytes
/// before its start). mimalloc aligns blocks of under 16 bytes to 8 only.
pub const SMALL_ALIGN: usize = 16;

/// Small allocations from mimalloc, large ones from the system allocator (the C
/// library's malloc).
#[derive(Debug)]
pub struct Heap;

/// mimalloc with every block aligned to [`SMALL_ALIGN`] at least.
struct Small;

impl Small {
    fn widened(layout: Layout) -> Layout {
        // An alignment of 16 is a power of two, and no size near isize::MAX is small.
        layout.align_to(SMALL_ALIGN).unwrap_or(layout)
    }
}

// SAFETY: every call passes its block to mimalloc with the same widened layout, as made.
unsafe impl GlobalAlloc for Small {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the widened layout is valid and as long as the caller's (non-zero).
        unsafe { mimalloc::MiMalloc.alloc(Self::widened(layout)) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe { mimalloc::MiMalloc.alloc_zeroed(Self::widened(layout)) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was made by `alloc` with this layout, so by mimalloc with its widening.
        unsafe { mimalloc::MiMalloc.dealloc(ptr, Self::widened(layout)) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as in `dealloc`; mimalloc keeps the widened alignment for the new size.
        unsafe { mimalloc::MiMalloc.realloc(ptr, Self::widened(layout), new_size) }
    }
}

/// The allocator of blocks of `size` bytes.
fn by_size(size: usize) -> &'static dyn GlobalAlloc {
    if size < LARGE {
        &Small
    } else {
        &System
    }
}

// SAFETY: every block is freed and resized by the allocator that made it: the layout given
// back to `dealloc` and `realloc` is the one of the allocation (GlobalAlloc's contract), so
// its size picks the same allocator; a resize across LARGE moves the block to the other.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees (a valid, non-zero layout) are passed on.
        unsafe { by_size(layout.size()).alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe { by_size(layout.size()).alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator with `layout`, so from `by_size`'s choice
        // for layout.size().
        unsafe { by_size(layout.size()).dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let (from, to) = (by_size(layout.size()), by_size(new_size));
        if (layout.size() < LARGE) == (new_size < LARGE) {
            // SAFETY: `ptr` and `layout` are from `from`, which also serves `new_size`.
            return unsafe { from.realloc(ptr, layout, new_size) };
        }
        // SAFETY: `new_size` with the old alignment is a valid layout (realloc's contract).
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: `new` is non-zero: new_size > 0 is realloc's contract.
        let moved = unsafe { to.alloc(new) };
        if !moved.is_null() {
            // SAFETY: the old block holds layout.size() bytes, the new one new_size; they are
            // distinct live blocks; the old one is freed by the allocator that made it.
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                from.dealloc(ptr, layout);
            }
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_blocks_are_aligned_as_the_c_librarys() {
        let blocks: Vec<Vec<u8>> = (1..=40).map(|n| vec![1u8; n]).collect();
        for b in &blocks {
            assert_eq!(b.as_ptr() as usize % SMALL_ALIGN, 0, "a block of {} bytes", b.len());
        }
        let mut grown = vec![1u8; 3];
        grown.extend([2u8; 50]);
        assert_eq!(grown.as_ptr() as usize % SMALL_ALIGN, 0);
    }

    #[test]
    fn blocks_keep_their_bytes_across_the_boundary() {
        let mut v: Vec<u8> = (0..=255).cycle().take(LARGE - 8).collect();
        v.extend(std::iter::repeat_n(7, 100));
        assert_eq!(v.len(), LARGE + 92);
        assert!(v[..LARGE - 8].iter().enumerate().all(|(i, &b)| b == (i % 256) as u8));
        v.truncate(10);
        v.shrink_to_fit();
        assert_eq!(v, (0..10).collect::<Vec<u8>>());
        let z = vec![0u64; LARGE];
        assert!(z.iter().all(|&x| x == 0));
    }
}
