//! Message buffers, their initialisation (guide §5.2.5) and the results check (§7.2).
//!
//! Buffers are float arrays (IMB's assign_type for MPI-1), viewed as bytes by the MPI_BYTE
//! benchmarks. A send buffer holds BUF_VALUE(rank, i) = 0.1 (rank+1) + i in element i, so
//! what arrives tells who sent it and from where in the buffer.

use crate::types::{Elem, Element};
use paw_core::mpi::ffi;
use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether buffers made from now on come from MPI_Alloc_mem ([`take_from_mpi`]).
static FROM_MPI: AtomicBool = AtomicBool::new(false);

/// `-alloc_mem`: the message buffers made from now on come from MPI_Alloc_mem, as today's IMB
/// takes them (`true`), or from the heap, as IMB 3.0's malloc (`false`, the start).
pub(crate) fn take_from_mpi(on: bool) {
    FROM_MPI.store(on, Ordering::Relaxed);
}

/// IMB's BUF_VALUE(rank, i) for MPI-1: 0.1 (rank+1) + i, as a float.
pub fn buf_value(rank: usize, i: usize) -> f32 {
    (0.1 * (rank as f64 + 1.0) + i as f64) as f32
}

/// Element `i` of the send buffer of rank `rank` in a reduction of `elem`, as f64:
/// IMB's BUF_VALUE 0.1 (rank+1) + i converted to the type (integers truncated), but
/// (i + rank) mod 4 for chars, whose sums would otherwise leave the type's range, where
/// libraries differ (Open MPI 4.1's MPI_Reduce of MPI_INT8_T disagreed with wrapping):
/// sums of up to 42 processes stay within it; ints up to 2048 processes at 4 MiB.
pub fn reduction_value(elem: Element, rank: usize, i: usize) -> f64 {
    let v = buf_value(rank, i);
    match elem {
        Element::Byte => (v as i64 as u8) as f64,
        Element::Char => ((i + rank) % 4) as f64,
        Element::Int => (v as i64 as i32) as f64,
        Element::Float => v as f64,
        Element::Double => 0.1 * (rank as f64 + 1.0) + i as f64,
    }
}

/// Zeroed 8-byte words, page-aligned from the C library ([`paw_core::buffer`]) or from
/// MPI_Alloc_mem.
#[derive(Debug)]
enum Storage {
    Heap(paw_core::Buffer),
    /// Words from MPI_Alloc_mem, given back with MPI_Free_mem.
    Mpi(NonNull<f64>),
}

impl Storage {
    /// `len` zero words, from where [`take_from_mpi`] last said (the heap outside MPI's
    /// lifetime).
    fn zeroed(len: usize) -> Storage {
        use paw_core::mpi::environment::{is_finalized, is_initialized};
        let from_mpi = FROM_MPI.load(Ordering::Relaxed) && is_initialized() && !is_finalized();
        if len == 0 || !from_mpi {
            return Storage::heap(len);
        }
        let bytes = len * size_of::<f64>();
        let mut base: *mut c_void = std::ptr::null_mut();
        // SAFETY: MPI is initialised and not finalised (checked above); `base` is a valid
        // out-parameter for the address MPI_Alloc_mem writes.
        let code = unsafe {
            ffi::MPI_Alloc_mem(bytes as ffi::MPI_Aint, ffi::RSMPI_INFO_NULL, (&raw mut base).cast())
        };
        let ptr = NonNull::new(base.cast::<f64>())
            .filter(|p| code == 0 && p.as_ptr().is_aligned())
            .unwrap_or_else(|| panic!("MPI_Alloc_mem of {bytes} bytes failed (error {code})"));
        // SAFETY: MPI_Alloc_mem gave `bytes` writable bytes at `ptr`, aligned for f64.
        unsafe { ptr.as_ptr().write_bytes(0, len) };
        Storage::Mpi(ptr)
    }

    /// `len` zero words from the C library, page-aligned.
    fn heap(len: usize) -> Storage {
        Storage::Heap(paw_core::Buffer::zeroed(len * size_of::<f64>()))
    }

    fn as_ptr(&self) -> *const f64 {
        match self {
            Storage::Heap(v) => v.as_ptr().cast(),
            Storage::Mpi(ptr) => ptr.as_ptr(),
        }
    }

    fn as_mut_ptr(&mut self) -> *mut f64 {
        match self {
            Storage::Heap(v) => v.as_mut_ptr().cast(),
            Storage::Mpi(ptr) => ptr.as_ptr(),
        }
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        if let Storage::Mpi(ptr) = self {
            // After MPI_Finalize the library has released its memory itself.
            if !paw_core::mpi::environment::is_finalized() {
                // SAFETY: `ptr` came from MPI_Alloc_mem and is freed once, here; no view
                // outlives the storage.
                unsafe { ffi::MPI_Free_mem(ptr.as_ptr().cast()) };
            }
        }
    }
}

/// A buffer of floats with byte and typed views, seen from a start that `-off_cache`
/// moves. The floats live in 8-byte aligned storage, so that a view of doubles
/// (`-data_type double`) is aligned wherever the start is a multiple of 8 bytes.
#[derive(Debug)]
pub struct Buffer {
    /// The storage: `floats` floats, two to an f64.
    data: Storage,
    floats: usize,
    /// Where the views start, in floats ([`Buffer::at`]).
    start: usize,
}

impl Buffer {
    /// A message buffer of `n` zero floats ([`take_from_mpi`] says from where).
    fn zeros(n: usize) -> Buffer {
        Buffer { data: Storage::zeroed(n.div_ceil(2)), floats: n, start: 0 }
    }

    /// A buffer of `n` zero floats on the heap, for what a check compares.
    fn heap_zeros(n: usize) -> Buffer {
        Buffer { data: Storage::heap(n.div_ceil(2)), floats: n, start: 0 }
    }

    /// A buffer of at least `bytes` bytes, filled with BUF_VALUE(rank, i).
    pub fn filled(bytes: usize, rank: usize) -> Buffer {
        let mut b = Buffer::zeros(bytes.div_ceil(4));
        for (i, f) in b.all_mut().iter_mut().enumerate() {
            *f = buf_value(rank, i);
        }
        b
    }

    /// A buffer of at least `bytes` bytes holding, as elements of `T`, a reduction's send
    /// values ([`reduction_value`]); as [`Buffer::filled`] for floats.
    pub fn filled_as<T: Elem>(bytes: usize, rank: usize) -> Buffer {
        let mut b = Buffer::zeros(bytes.div_ceil(8) * 2);
        let n = bytes / size_of::<T>();
        for (i, v) in b.elems_mut::<T>(n).iter_mut().enumerate() {
            *v = T::from_f64(reduction_value(T::ELEMENT, rank, i));
        }
        b
    }

    /// A buffer holding `floats`.
    pub fn from_floats(floats: Vec<f32>) -> Buffer {
        let mut b = Buffer::heap_zeros(floats.len());
        b.all_mut().copy_from_slice(&floats);
        b
    }

    /// A buffer holding `bytes`, padded to a whole float with 0xff.
    pub fn from_bytes(bytes: &[u8]) -> Buffer {
        let mut b = Buffer::heap_zeros(bytes.len().div_ceil(4));
        b.poison();
        b.bytes_mut(bytes.len()).copy_from_slice(bytes);
        b
    }

    /// Every float.
    fn all(&self) -> &[f32] {
        // SAFETY: the storage holds at least `floats` f32 (two per f64, no padding), f64's
        // alignment exceeds f32's, and any bit pattern is a valid f32.
        unsafe { std::slice::from_raw_parts(self.data.as_ptr().cast::<f32>(), self.floats) }
    }

    /// Every float, writable.
    fn all_mut(&mut self) -> &mut [f32] {
        // SAFETY: as in `all`; the exclusive borrow of the storage is the only view.
        unsafe { std::slice::from_raw_parts_mut(self.data.as_mut_ptr().cast::<f32>(), self.floats) }
    }

    /// Moves the views to start `bytes` into the buffer (a multiple of 4; `-off_cache`).
    pub fn at(&mut self, bytes: usize) {
        debug_assert_eq!(bytes % 4, 0, "views start at a whole float");
        self.start = bytes / 4;
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.floats * 4
    }

    /// Whether the buffer holds nothing.
    pub fn is_empty(&self) -> bool {
        self.floats == 0
    }

    /// The first `n` bytes from the start.
    pub fn bytes(&self, n: usize) -> &[u8] {
        self.elems::<u8>(n)
    }

    /// The first `n` bytes from the start, writable.
    pub fn bytes_mut(&mut self, n: usize) -> &mut [u8] {
        self.elems_mut::<u8>(n)
    }

    /// The first `n` floats from the start.
    pub fn floats(&self, n: usize) -> &[f32] {
        &self.all()[self.start..self.start + n]
    }

    /// The first `n` floats from the start, writable.
    pub fn floats_mut(&mut self, n: usize) -> &mut [f32] {
        let start = self.start;
        &mut self.all_mut()[start..start + n]
    }

    /// The first `n` elements of `T` from the start; panics where they do not fit or the
    /// start is not aligned for `T`.
    pub fn elems<T: Elem>(&self, n: usize) -> &[T] {
        let rest = &self.all()[self.start..];
        assert!(n * size_of::<T>() <= rest.len() * 4, "{n} elements beyond the buffer");
        let p = rest.as_ptr().cast::<T>();
        assert!(p.is_aligned(), "the view's start is not aligned for its elements");
        // SAFETY: in bounds and aligned (both checked); any bit pattern in the floats'
        // memory is a valid T (Elem's contract).
        unsafe { std::slice::from_raw_parts(p, n) }
    }

    /// The first `n` elements of `T` from the start, writable (as [`Buffer::elems`]).
    pub fn elems_mut<T: Elem>(&mut self, n: usize) -> &mut [T] {
        let start = self.start;
        let rest = &mut self.all_mut()[start..];
        assert!(n * size_of::<T>() <= rest.len() * 4, "{n} elements beyond the buffer");
        let p = rest.as_mut_ptr().cast::<T>();
        assert!(p.is_aligned(), "the view's start is not aligned for its elements");
        // SAFETY: as in `elems`; the exclusive borrow is the only view, and any bit
        // pattern written through it is a valid f32.
        unsafe { std::slice::from_raw_parts_mut(p, n) }
    }

    /// Overwrites every byte with 0xff (a NaN pattern no sender writes), before a check.
    pub fn poison(&mut self) {
        self.all_mut().fill(f32::from_bits(u32::MAX));
    }

    /// Overwrites every byte with 0 (a check that adds into the buffer).
    pub fn zero(&mut self) {
        self.all_mut().fill(0.0);
    }

    /// Before a check: every byte that `expect` names becomes its complement, so a byte
    /// that never arrives differs from what was expected; the rest becomes 0xff.
    pub fn poison_against(&mut self, expect: &Expect) {
        self.poison();
        if let Expect::Bytes(e) = expect {
            for (b, w) in self.bytes_mut(e.len()).iter_mut().zip(e) {
                *b = !w;
            }
        }
    }
}

/// `n` copies of `value` in a message buffer ([`paw_core::buffer`]), every page written now:
/// a zeroed allocation is mapped lazily, and a page first touched inside a timed loop would
/// be timed.
pub fn touched<T: paw_core::buffer::Element>(value: T, n: usize) -> paw_core::Buffer<T> {
    let mut b = paw_core::Buffer::zeroed(n);
    b.fill(value);
    b
}

/// A self-test of `-check`: whether `PAW_TEST_CORRUPT` names group rank `rank`, which
/// then flips one received byte after every check run (never in timed runs), so the
/// defects column and the exit status can be seen to work.
pub fn test_corruption(rank: usize) -> bool {
    paw_core::check::corrupted_rank() == Some(rank as i64)
}

/// The bytes `offset .. offset + len` of the send buffer of group rank `rank`.
pub fn sent_bytes(rank: usize, offset: usize, len: usize) -> Vec<u8> {
    let floats = (offset + len).div_ceil(4);
    let all: Vec<u8> = (0..floats).flat_map(|i| buf_value(rank, i).to_ne_bytes()).collect();
    all[offset..offset + len].to_vec()
}

/// What a receive buffer must hold after one run of a pattern.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// Nothing is received here (a reduction's non-root, a sender).
    Nothing,
    /// The first bytes of the receive buffer, exactly.
    Bytes(Vec<u8>),
    /// The first elements of the receive buffer: sums of `terms` elements each, exact in
    /// f64 (integers wrapped to their width); a float or double may differ by the rounding
    /// of `terms` additions.
    Sums {
        /// Each element's sum.
        values: Vec<f64>,
        /// Elements added in each.
        terms: usize,
        /// Their type.
        elem: Element,
    },
}

/// Elements of `received` that differ from `expect`: bytes for byte data; for sums,
/// integers that differ and floats or doubles outside the rounding bound (terms x epsilon x
/// |value|).
pub fn defects(expect: &Expect, received: &Buffer) -> usize {
    match expect {
        Expect::Nothing => 0,
        Expect::Bytes(e) => received.bytes(e.len()).iter().zip(e).filter(|(g, w)| g != w).count(),
        Expect::Sums { values, terms, elem } => {
            let got = received.bytes(values.len() * elem.size());
            let eps = *terms as f64 * elem.epsilon();
            got.chunks(elem.size())
                .zip(values)
                .filter(|(g, &w)| {
                    let close = (elem.read(g) - w).abs() <= eps * w.abs().max(1.0);
                    !close // NaN is never close
                })
                .count()
        }
    }
}

/// The element-wise sum over ranks `0..q` of the first `n` send floats starting at
/// element `from`.
pub fn sums(q: usize, from: usize, n: usize) -> Expect {
    sums_of(Element::Float, q, from, n)
}

/// The element-wise sum, in `elem`'s arithmetic, over ranks `0..q` of the first `n`
/// elements of a reduction's send buffers ([`Buffer::filled_as`]) from element `from`.
pub fn sums_of(elem: Element, q: usize, from: usize, n: usize) -> Expect {
    let sum = |i| (0..q).map(|r| reduction_value(elem, r, i)).fold(0.0, |a, v| elem.add(a, v));
    let sum_exact = |i| (0..q).map(|r| reduction_value(elem, r, i)).sum::<f64>();
    let values =
        (from..from + n).map(|i| if elem.integer() { sum(i) } else { sum_exact(i) }).collect();
    Expect::Sums { values, terms: q, elem }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_hold_their_types_values() {
        assert_eq!(reduction_value(Element::Char, 1, 130), 3.0, "chars stay small");
        assert_eq!(reduction_value(Element::Int, 2, 7), 7.0);
        let float = reduction_value(Element::Float, 0, 3);
        assert_eq!(float, Element::Float.read(&3.1f32.to_le_bytes()));
        let ints = Buffer::filled_as::<i32>(16, 2);
        assert_eq!(ints.elems::<i32>(4), [0, 1, 2, 3]);
    }

    #[test]
    fn clean_copy_has_no_defects() {
        let mut got = Buffer::filled(100, 9);
        got.poison();
        got.bytes_mut(37).copy_from_slice(&sent_bytes(3, 0, 37));
        assert_eq!(defects(&Expect::Bytes(sent_bytes(3, 0, 37)), &got), 0);
    }

    #[test]
    fn corruption_is_counted() {
        let mut got = Buffer::filled(64, 1);
        let expect = Expect::Bytes(sent_bytes(1, 0, 64));
        assert_eq!(defects(&expect, &got), 0);
        got.bytes_mut(64)[10] ^= 0x04;
        got.bytes_mut(64)[63] = 0;
        assert_eq!(defects(&expect, &got), 2);
        // Data from another sender or another offset is wrong everywhere it differs.
        assert!(defects(&Expect::Bytes(sent_bytes(2, 0, 64)), &got) > 0);
        assert!(defects(&Expect::Bytes(sent_bytes(1, 8, 56)), &got) > 0);
        // A stale (poisoned) buffer is all defects, 0xff bytes included.
        got.poison_against(&expect);
        assert_eq!(defects(&expect, &got), 64);
        let ones = Expect::Bytes(vec![0xff; 8]);
        got.poison_against(&ones);
        assert_eq!(defects(&ones, &got), 8);
    }

    #[test]
    fn sums_allow_rounding_but_not_errors() {
        let q = 4;
        let mut got = Buffer::filled(4 * 1000, 0);
        for i in 0..1000 {
            got.floats_mut(1000)[i] = (0..q).map(|r| buf_value(r, i)).sum();
        }
        let expect = sums(q, 0, 1000);
        assert_eq!(defects(&expect, &got), 0);
        got.floats_mut(1000)[500] += 1.0;
        assert_eq!(defects(&expect, &got), 1);
        got.poison();
        assert_eq!(defects(&expect, &got), 1000, "NaN is a defect");
    }
}
