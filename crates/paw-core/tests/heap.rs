//! paw-core's allocator, checked on the main thread of a process of its own (the C
//! library's main arena, which mallinfo2 reports): small blocks leave the C library's heap
//! alone, large ones come from it.

use paw_core::heap::LARGE;
use std::hint::black_box;

/// Bytes in use in the C library's main arena and in its mmap'd blocks.
fn in_c_heap() -> usize {
    // SAFETY: mallinfo2 only reads the allocator's counters.
    let m = unsafe { libc::mallinfo2() };
    m.uordblks + m.hblkhd
}

fn main() {
    let before = in_c_heap();
    let small: Vec<Box<[u8; 100]>> =
        black_box((0..1000).map(|i| black_box(Box::new([i as u8; 100]))).collect());
    let strings: Vec<String> = black_box((0..1000).map(|i| "x".repeat(1 + i % 500)).collect());
    let grown = in_c_heap() - before;
    assert!(grown < 10_000, "{grown} bytes of the 350 000 in small blocks went to the C heap");
    let large = black_box(vec![1u8; LARGE]);
    let with_large = in_c_heap() - before;
    assert!(with_large >= LARGE, "a {LARGE}-byte block took {with_large} bytes of the C heap");
    assert_eq!((small[999][0], strings[499].len(), large[LARGE - 1]), (231, 500, 1));
    println!(
        "heap: small blocks added {grown} bytes to the C heap, a {LARGE}-byte one {with_large}"
    );
}
