//! An allocator for the programs that time non-blocking collectives: the program's own
//! allocations from mimalloc, so the C library's heap is left to the MPI library, as in a C
//! benchmark. A program takes it with [`own_heap!`](crate::own_heap); the others keep the
//! system allocator.
//!
//! The reason: Open MPI's non-blocking collectives (libnbc) build a schedule at every call
//! with malloc and grow it with realloc. In the C library's heap those requests meet the
//! holes the program's own short-lived allocations left (strings, small vectors). A C
//! benchmark makes few such allocations; a Rust program makes many, and a hole of the
//! schedule's size with its neighbour in use keeps every later realloc from growing in
//! place: each call then moves its schedule. In paw's IMB-NBC on Open MPI 4.1, 18 % of rank
//! 0's reallocs moved (254 855 of 1 390 997) against 0.03 % in Intel's, and its small
//! Ialltoall read 4-14 % slower (doc/imb-nbc.md). Blocking and persistent collectives
//! allocate nothing per call, so nothing else needs it.
//!
//! There is no size threshold: message buffers never come from the program's allocator
//! but from [`crate::buffer`] (page-aligned, from the C library), so every allocation made
//! here is the program's own.

use std::alloc::{GlobalAlloc, Layout};

/// The alignment of every block at least: the C library's malloc gives 16 bytes on
/// x86-64, and MPI libraries count on it (MPICH 4.0 puts a window's bytes at its base
/// rounded down to 16: a 1-byte window 8 bytes into a line received its put 8 bytes
/// before its start). mimalloc aligns blocks of under 16 bytes to 8 only.
pub const ALIGN: usize = 16;

/// mimalloc with every block aligned to [`ALIGN`] at least.
#[derive(Debug)]
pub struct Heap;

impl Heap {
    fn widened(layout: Layout) -> Layout {
        // An alignment of 16 is a power of two, and no size near isize::MAX is allocated.
        layout.align_to(ALIGN).unwrap_or(layout)
    }
}

// SAFETY: every call passes its block to mimalloc with the same widened layout, as made.
unsafe impl GlobalAlloc for Heap {
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

/// Makes [`Heap`] the allocator of the program whose main file says `paw_core::own_heap!();`
/// (see the module for which programs and why).
#[macro_export]
macro_rules! own_heap {
    () => {
        #[global_allocator]
        static HEAP: $crate::heap::Heap = $crate::heap::Heap;
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_aligned_as_the_c_librarys_and_keep_their_bytes() {
        let heap = Heap;
        for n in 1..=40 {
            let layout = Layout::from_size_align(n, 1).unwrap();
            // SAFETY: a valid non-zero layout; the block is freed with it below.
            unsafe {
                let p = heap.alloc(layout);
                assert_eq!(p as usize % ALIGN, 0, "a block of {n} bytes");
                p.write_bytes(7, n);
                let q = heap.realloc(p, layout, 1000);
                assert_eq!(q as usize % ALIGN, 0);
                assert!((0..n).all(|i| *q.add(i) == 7));
                heap.dealloc(q, Layout::from_size_align(1000, 1).unwrap());
            }
        }
    }
}
