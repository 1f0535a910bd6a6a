//! paw-core's allocator, checked on the main thread of a process of its own (the C
//! library's main arena, which mallinfo2 reports): the program's blocks leave the C
//! library's heap alone, message buffers come from it.

use std::hint::black_box;

paw_core::own_heap!();

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
    let large = black_box(vec![1u8; 1 << 20]);
    let grown = in_c_heap() - before;
    assert!(grown < 10_000, "{grown} bytes of the program's 1.4 MB went to the C heap");
    let message = black_box(paw_core::buffer(1 << 16));
    let with_buffer = in_c_heap() - before;
    assert!(with_buffer >= 1 << 16, "a 64 KiB buffer took {with_buffer} bytes of the C heap");
    assert_eq!((small[999][0], strings[499].len(), large[7], message[9]), (231, 500, 1, 0xa5));
    println!(
        "heap: the program's blocks added {grown} bytes to the C heap, a buffer {with_buffer}"
    );
}
