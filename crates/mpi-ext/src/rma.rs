//! One-sided communication (MPI-2/3 RMA) over a window that owns its memory.
//!
//! Epochs are closures: [`Window::fenced`] (MPI_Win_fence ... MPI_Win_fence),
//! [`Window::access`] (MPI_Win_start ... MPI_Win_complete), [`Window::exposed`]
//! (MPI_Win_post ... MPI_Win_wait), [`Window::locked_all`] (MPI_Win_lock_all ...
//! MPI_Win_unlock_all), and [`Window::locked`] (MPI_Win_lock ... MPI_Win_unlock, shared).
//! Origin buffers passed to an epoch must live for the epoch's
//! lifetime parameter `'s`, which outlives the call that closes the epoch, and the epoch is
//! closed even if the closure unwinds, so MPI never touches a buffer that was freed or
//! handed back to safe code too early.
//!
//! The window owns its memory (leaking the window leaks the memory rather than freeing
//! memory other ranks may still write), and local access goes through copies
//! ([`Window::load`], [`Window::store`]): other processes may write window memory at any
//! time, so no Rust reference to it is ever handed out.

use crate::{count, datatype, Plain};
use mpi::collective::Operation;
use mpi::ffi;
use mpi::topology::{Communicator, Group, Rank};
use mpi::traits::*;
use std::cell::Cell;
use std::marker::PhantomData;
use std::mem::size_of;
use std::os::raw::c_int;

/// An RMA window over memory it owns (MPI_Win_create); MPI_Win_free on drop.
///
/// Creating and dropping are collective over the communicator. Target displacements are
/// in elements of `T`. Every operation checks that it stays inside the target's window.
pub struct Window<T: Plain> {
    raw: ffi::MPI_Win,
    /// The first element of the memory, which `_owner` holds.
    base: *mut T,
    /// This rank in the window's communicator.
    rank: Rank,
    /// Window length (elements) of every rank, for bounds checks.
    lens: Vec<u64>,
    /// What owns the memory (a Vec, a page-aligned buffer ...), never touched until it is
    /// dropped after MPI_Win_free (fields drop after [`Drop::drop`]).
    _owner: Box<dyn std::any::Any>,
}

impl<T: Plain> std::fmt::Debug for Window<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Window({} elements)", self.len())
    }
}

impl<T: Plain> Window<T> {
    /// Exposes `memory` (a `Vec<T>`, a page-aligned buffer: what owns its elements) to
    /// every rank of `comm` (collective). The window keeps it until drop.
    pub fn create<C: Communicator, M: AsMut<[T]> + 'static>(comm: &C, memory: M) -> Self {
        // Boxed first, so the elements stay where the slice says however the window moves
        // (they are in the box itself for an array, behind it for a Vec).
        let mut owner = Box::new(memory);
        let slice = owner.as_mut().as_mut();
        let (base, len) = (slice.as_mut_ptr(), slice.len());
        let mut lens = vec![0u64; comm.size() as usize];
        comm.all_gather_into(&(len as u64), &mut lens[..]);
        // SAFETY: reading an extern static handle constant that MPI initialises at load.
        let mut raw = unsafe { ffi::RSMPI_WIN_NULL };
        // SAFETY: `base` points to `len` owned elements that stay allocated until drop, after
        // MPI_Win_free; no Rust reference to them exists while the window lives, so MPI and
        // other processes may read and write them; `raw` is a valid out-parameter.
        let rc = unsafe {
            ffi::MPI_Win_create(
                base.cast(),
                (len * size_of::<T>()) as ffi::MPI_Aint,
                size_of::<T>() as i32,
                ffi::RSMPI_INFO_NULL,
                comm.as_raw(),
                &mut raw,
            )
        };
        assert_eq!(rc, 0, "MPI_Win_create failed: {}", crate::error_string(rc));
        Window { raw, base, rank: comm.rank(), lens, _owner: owner }
    }

    /// Elements in this rank's window.
    pub fn len(&self) -> usize {
        self.lens[self.rank as usize] as usize
    }

    /// Whether this rank's window is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Copies `dst.len()` elements of this rank's window, from element `at`, into `dst`.
    ///
    /// Use it after the synchronisation that makes other ranks' updates visible (the end of
    /// an exposure epoch, a fence, or [`Window::sync_local`] for passive-target updates).
    pub fn load(&self, at: usize, dst: &mut [T]) {
        self.check_local(at, dst.len());
        for (i, d) in dst.iter_mut().enumerate() {
            // SAFETY: `at + i` is inside the window (checked); volatile reads of Plain data
            // are valid whatever another process wrote there.
            *d = unsafe { std::ptr::read_volatile(self.base.add(at + i)) };
        }
    }

    /// Copies `src` into this rank's window from element `at` (before the synchronisation
    /// that exposes it: an exposure epoch, a fence, or [`Window::sync_local`]).
    pub fn store(&self, at: usize, src: &[T]) {
        self.check_local(at, src.len());
        for (i, s) in src.iter().enumerate() {
            // SAFETY: `at + i` is inside the window (checked) and the memory is owned.
            unsafe { std::ptr::write_volatile(self.base.add(at + i), *s) };
        }
    }

    /// Synchronises this rank's view of its own window with passive-target accesses of
    /// other ranks (MPI_Win_lock on itself, MPI_Win_sync, MPI_Win_unlock). Call it outside
    /// active-target epochs: after remote puts completed, before [`Window::load`]; after
    /// [`Window::store`], before remote gets.
    pub fn sync_local(&self) {
        // SAFETY: the window handle is live; the lock is on this rank's own window and is
        // released before returning.
        unsafe {
            ffi::MPI_Win_lock(ffi::MPI_LOCK_SHARED as i32, self.rank, 0, self.raw);
            ffi::MPI_Win_sync(self.raw);
            ffi::MPI_Win_unlock(self.rank, self.raw);
        }
    }

    /// A fence epoch: MPI_Win_fence, `f`, MPI_Win_fence (collective over the window).
    pub fn fenced<'s, R>(&self, f: impl FnOnce(&Epoch<'s, '_, T>) -> R) -> R {
        self.fence();
        let _close = Close(|| self.fence());
        f(&Epoch::new(self, true))
    }

    /// An access epoch towards `group` (MPI_Win_start, `f`, MPI_Win_complete): the origin
    /// side of post/start/complete/wait synchronisation.
    pub fn access<'s, R>(&self, group: &impl Group, f: impl FnOnce(&Epoch<'s, '_, T>) -> R) -> R {
        // SAFETY: the window and group handles are live for this call.
        unsafe { ffi::MPI_Win_start(group.as_raw(), 0, self.raw) };
        // SAFETY: closes the access epoch opened above, also on unwind; origin buffers
        // (lifetime 's) are still alive, and complete at the origin when it returns.
        let _close = Close(|| unsafe {
            ffi::MPI_Win_complete(self.raw);
        });
        f(&Epoch::new(self, false))
    }

    /// An exposure epoch for `group` (MPI_Win_post, `f`, MPI_Win_wait): the target side.
    /// When it returns, every access of the group's epochs is complete in this window.
    pub fn exposed<R>(&self, group: &impl Group, f: impl FnOnce() -> R) -> R {
        // SAFETY: the window and group handles are live; the window owns the memory exposed.
        unsafe { ffi::MPI_Win_post(group.as_raw(), 0, self.raw) };
        // SAFETY: closes the exposure epoch opened above, also on unwind.
        let _close = Close(|| unsafe {
            ffi::MPI_Win_wait(self.raw);
        });
        f()
    }

    /// A passive-target epoch on every rank (MPI_Win_lock_all, `f`, MPI_Win_unlock_all).
    /// Not collective: only origins open it.
    pub fn locked_all<'s, R>(&self, f: impl FnOnce(&Passive<'s, '_, T>) -> R) -> R {
        // SAFETY: the window handle is live; 0 is the empty assertion set.
        unsafe { ffi::MPI_Win_lock_all(0, self.raw) };
        // SAFETY: closes the epoch opened above, also on unwind; it completes every
        // operation issued in it, request-based ones included, while their origin buffers
        // (lifetime 's) still live.
        let _close = Close(|| unsafe {
            ffi::MPI_Win_unlock_all(self.raw);
        });
        f(&Passive { epoch: Epoch::new(self, false) })
    }

    /// A passive-target epoch at each of `targets` (MPI_Win_lock with MPI_LOCK_SHARED and no
    /// assertion, once per distinct target), `f`, then MPI_Win_unlock of each. Not
    /// collective: only the origin opens it.
    pub fn locked<'s, R>(&self, targets: &[Rank], f: impl FnOnce(&Locked<'s, '_, T>) -> R) -> R {
        let mut distinct: Vec<Rank> = Vec::with_capacity(targets.len());
        for &t in targets {
            self.check_target(t, 0, 0);
            if !distinct.contains(&t) {
                distinct.push(t);
            }
        }
        for &t in &distinct {
            // SAFETY: the window handle is live and `t` is a rank of its group.
            unsafe { ffi::MPI_Win_lock(ffi::MPI_LOCK_SHARED as c_int, t, 0, self.raw) };
        }
        // SAFETY: closes the epochs opened above, also on unwind; unlocking completes every
        // operation issued in them while their origin buffers (lifetime 's) still live.
        let _close = Close(|| {
            for &t in &distinct {
                // SAFETY: `t` was locked above by this epoch.
                unsafe { ffi::MPI_Win_unlock(t, self.raw) };
            }
        });
        f(&Locked { epoch: Epoch::new(self, false), targets: &distinct })
    }

    fn fence(&self) {
        // SAFETY: the window handle is live; 0 is the empty assertion set.
        unsafe { ffi::MPI_Win_fence(0, self.raw) };
    }

    /// Panics unless `n` elements at `disp` fit in `target`'s window.
    fn check_target(&self, target: Rank, disp: usize, n: usize) {
        let limit = *self
            .lens
            .get(target as usize)
            .unwrap_or_else(|| panic!("RMA target rank {target} is not in the window's group"));
        assert!(
            (disp as u64).saturating_add(n as u64) <= limit,
            "RMA access of {n} elements at {disp} exceeds rank {target}'s window of {limit}"
        );
    }

    /// Panics unless `n` elements at `at` fit in this rank's window.
    fn check_local(&self, at: usize, n: usize) {
        assert!(
            at.saturating_add(n) <= self.len(),
            "local access of {n} elements at {at} exceeds the window of {}",
            self.len()
        );
    }
}

impl<T: Plain> Drop for Window<T> {
    fn drop(&mut self) {
        // SAFETY: the handle came from MPI_Win_create and is freed once; epochs are closed
        // by the methods that open them (also on unwind) before the window can be dropped.
        // The owner, and with it the memory, is dropped after this.
        unsafe { ffi::MPI_Win_free(&mut self.raw) };
    }
}

/// One window's life, for timing what it costs (collective over `comm`): MPI_Win_create
/// over `memory`, MPI_Win_fence, an MPI_Put of `byte` into rank `target`'s window at 0
/// (none when the windows are empty), MPI_Win_fence, MPI_Win_free. Returns what this
/// rank's window then holds at 0 (0 when empty); every window must be as long as `memory`.
pub fn window_lifecycle<C: Communicator>(
    comm: &C,
    memory: &mut [u8],
    byte: u8,
    target: Rank,
) -> u8 {
    // SAFETY: reading an extern static handle constant that MPI initialises at load.
    let (mut raw, info) = unsafe { (ffi::RSMPI_WIN_NULL, ffi::RSMPI_INFO_NULL) };
    let origin = [byte];
    // SAFETY: `memory` is borrowed exclusively for the whole call, which frees the window
    // before returning, so MPI writes it only while no Rust reference reads it; `origin`
    // outlives the epoch closed by the second fence; the put writes 1 byte at 0 of a
    // window of memory.len() >= 1 bytes (every rank's is as long, by the contract).
    unsafe {
        ffi::MPI_Win_create(
            memory.as_mut_ptr().cast(),
            memory.len() as ffi::MPI_Aint,
            1,
            info,
            comm.as_raw(),
            &mut raw,
        );
        ffi::MPI_Win_fence(0, raw);
        if !memory.is_empty() {
            let byte_type = datatype::<u8>();
            ffi::MPI_Put(origin.as_ptr().cast(), 1, byte_type, target, 0, 1, byte_type, raw);
        }
        ffi::MPI_Win_fence(0, raw);
        ffi::MPI_Win_free(&mut raw);
    }
    memory.first().copied().unwrap_or(0)
}

/// Runs its closure when dropped: closes an epoch on return and on unwind.
struct Close<F: FnMut()>(F);

impl<F: FnMut()> Drop for Close<F> {
    fn drop(&mut self) {
        (self.0)()
    }
}

/// An open access epoch on a window (fence or start/complete). Origin buffers must live
/// for `'s`, which outlives the call that closes the epoch.
pub struct Epoch<'s, 'w, T: Plain> {
    win: &'w Window<T>,
    /// Opened by MPI_Win_fence ([`Window::fenced`]).
    fenced: bool,
    // Invariant in 's: a buffer with a shorter life cannot be passed in.
    _scope: PhantomData<Cell<&'s ()>>,
}

impl<T: Plain> std::fmt::Debug for Epoch<'_, '_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Epoch on {:?}", self.win)
    }
}

impl<'s, 'w, T: Plain> Epoch<'s, 'w, T> {
    fn new(win: &'w Window<T>, fenced: bool) -> Self {
        Epoch { win, fenced, _scope: PhantomData }
    }

    /// MPI_Win_fence inside a fence epoch (collective): every operation issued so far is
    /// complete, at origin and target, and a new epoch begins. Panics in other epochs.
    pub fn fence(&self) {
        assert!(self.fenced, "MPI_Win_fence inside an epoch not opened by a fence");
        self.win.fence();
    }

    /// MPI_Put of `origin` into `target`'s window at element `disp`.
    pub fn put(&self, origin: &'s [T], target: Rank, disp: usize) {
        // SAFETY: `origin` lives for 's, beyond the end of this epoch, when MPI is done with it.
        unsafe { self.post(Op::Put, origin.as_ptr(), origin.len(), target, disp) };
    }

    /// MPI_Get from `target`'s window at element `disp` into `origin`.
    pub fn get(&self, origin: &'s mut [T], target: Rank, disp: usize) {
        // SAFETY: `origin` is borrowed exclusively for 's, beyond the end of this epoch, so
        // nothing reads or frees it while MPI writes it.
        unsafe { self.post(Op::Get, origin.as_mut_ptr(), origin.len(), target, disp) };
    }

    /// MPI_Accumulate of `origin` into `target`'s window at element `disp` with `op`.
    pub fn accumulate<O: Operation>(&self, origin: &'s [T], target: Rank, disp: usize, op: O) {
        // SAFETY: as for `put`; `op` is a live operation handle for the call.
        unsafe {
            self.post(Op::Accumulate(op.as_raw()), origin.as_ptr(), origin.len(), target, disp)
        };
    }

    /// MPI_Get from `target`'s window at element `disp` into `len` elements of `into` from
    /// element `at`. Gets into a [`Landing`] may overlap one another (a window of
    /// operations into one buffer, as benchmarks issue them).
    pub fn get_landing(
        &self,
        into: &'s Landing<T>,
        at: usize,
        len: usize,
        target: Rank,
        disp: usize,
    ) {
        let dst = into.range(at, len);
        // SAFETY: the landing's memory lives for 's, beyond the end of this epoch, and Rust
        // reads it only through `&mut Landing`, once every such borrow has ended.
        unsafe { self.post(Op::Get, dst, len, target, disp) };
    }

    /// MPI_Get_accumulate: `origin` combined with `op` into `target`'s window at `disp`;
    /// the previous contents arrive in `result` from element `at`.
    pub fn get_accumulate<O: Operation>(
        &self,
        origin: &'s [T],
        result: &'s Landing<T>,
        at: usize,
        target: Rank,
        disp: usize,
        op: O,
    ) {
        self.win.check_target(target, disp, origin.len());
        let dst = result.range(at, origin.len());
        let (n, dt) = (count(origin.len()), datatype::<T>());
        // SAFETY: `origin` and the landing live for 's, beyond the epoch's end; Rust reads
        // the landing only through `&mut Landing`; the target range was checked.
        unsafe {
            ffi::MPI_Get_accumulate(
                origin.as_ptr().cast(),
                n,
                dt,
                dst.cast(),
                n,
                dt,
                target,
                disp as ffi::MPI_Aint,
                n,
                dt,
                op.as_raw(),
                self.win.raw,
            )
        };
    }

    /// MPI_Fetch_and_op on one element: `origin` combined with `op` into `target`'s
    /// element `disp`, whose previous value arrives in `result` at element `at`.
    pub fn fetch_and_op<O: Operation>(
        &self,
        origin: &'s T,
        result: &'s Landing<T>,
        at: usize,
        target: Rank,
        disp: usize,
        op: O,
    ) {
        self.win.check_target(target, disp, 1);
        let dst = result.range(at, 1);
        // SAFETY: as for `get_accumulate`, one element each.
        unsafe {
            ffi::MPI_Fetch_and_op(
                (origin as *const T).cast(),
                dst.cast(),
                datatype::<T>(),
                target,
                disp as ffi::MPI_Aint,
                op.as_raw(),
                self.win.raw,
            )
        };
    }

    /// MPI_Compare_and_swap on one element: where `target`'s element `disp` equals
    /// `compare` it becomes `origin`; its previous value arrives in `result` at `at`.
    pub fn compare_and_swap(
        &self,
        origin: &'s T,
        compare: &'s T,
        result: &'s Landing<T>,
        at: usize,
        target: Rank,
        disp: usize,
    ) {
        self.win.check_target(target, disp, 1);
        let dst = result.range(at, 1);
        // SAFETY: as for `fetch_and_op`.
        unsafe {
            ffi::MPI_Compare_and_swap(
                (origin as *const T).cast(),
                (compare as *const T).cast(),
                dst.cast(),
                datatype::<T>(),
                target,
                disp as ffi::MPI_Aint,
                self.win.raw,
            )
        };
    }

    /// Posts `op` on `len` elements at `origin` to `target`'s window at `disp`.
    ///
    /// # Safety
    /// The `len` elements at `origin` must stay valid (and, for a get, unaliased) until the
    /// synchronisation that completes the operation.
    unsafe fn post(&self, op: Op, origin: *const T, len: usize, target: Rank, disp: usize) {
        self.win.check_target(target, disp, len);
        let (n, dt, at) = (count(len), datatype::<T>(), disp as ffi::MPI_Aint);
        let buf = origin as *mut std::ffi::c_void;
        let win = self.win.raw;
        // SAFETY: the caller keeps the buffer valid until completion; the target range was
        // checked against the target's window length.
        unsafe {
            match op {
                Op::Put => ffi::MPI_Put(buf, n, dt, target, at, n, dt, win),
                Op::Get => ffi::MPI_Get(buf, n, dt, target, at, n, dt, win),
                Op::Accumulate(o) => ffi::MPI_Accumulate(buf, n, dt, target, at, n, dt, o, win),
            }
        };
    }
}

/// Origin memory that one-sided operations write (gets, the results of atomics) and that
/// several operations of one epoch may write at once, as benchmarks issue them. Epochs
/// borrow it shared for their lifetime `'s`; Rust reads it only through `&mut self`
/// ([`Landing::contents`]), so never while an operation may still write it.
pub struct Landing<T: Plain> {
    /// The first element of the memory, which `_owner` holds.
    base: *mut T,
    len: usize,
    /// What owns the memory, never touched until dropped ([`Window`]'s `_owner`).
    _owner: Box<dyn std::any::Any>,
}

impl<T: Plain> std::fmt::Debug for Landing<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Landing({} elements)", self.len)
    }
}

impl<T: Plain> Landing<T> {
    /// Takes over `memory` (a `Vec<T>`, a page-aligned buffer: what owns its elements).
    pub fn new<M: AsMut<[T]> + 'static>(memory: M) -> Self {
        let mut owner = Box::new(memory);
        let slice = owner.as_mut().as_mut();
        Landing { base: slice.as_mut_ptr(), len: slice.len(), _owner: owner }
    }

    /// Its length in elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no element.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The contents: no epoch borrows it any more, so every operation into it is complete.
    pub fn contents(&mut self) -> &mut [T] {
        // SAFETY: `base` holds `len` owned elements; `&mut self` proves no epoch's shared
        // borrow is alive.
        unsafe { std::slice::from_raw_parts_mut(self.base, self.len) }
    }

    /// Pointer to `len` elements from `at`; panics when they do not fit.
    fn range(&self, at: usize, len: usize) -> *mut T {
        assert!(
            at.saturating_add(len) <= self.len(),
            "{len} elements at {at} exceed a landing of {}",
            self.len()
        );
        // SAFETY: `at` is inside the allocation (checked above).
        unsafe { self.base.add(at) }
    }
}

/// An open shared-lock epoch ([`Window::locked`]): the operations of [`Epoch`] on the
/// locked targets, and their completion by MPI_Win_flush or MPI_Win_flush_local.
pub struct Locked<'s, 'w, T: Plain> {
    epoch: Epoch<'s, 'w, T>,
    /// The ranks this epoch locked.
    targets: &'w [Rank],
}

impl<T: Plain> std::fmt::Debug for Locked<'_, '_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Locked {:?}", self.epoch)
    }
}

impl<'s, 'w, T: Plain> std::ops::Deref for Locked<'s, 'w, T> {
    type Target = Epoch<'s, 'w, T>;
    fn deref(&self) -> &Self::Target {
        &self.epoch
    }
}

impl<T: Plain> Locked<'_, '_, T> {
    /// MPI_Win_flush: every operation issued so far to `target` is complete there. Panics
    /// unless this epoch locked `target`.
    pub fn flush(&self, target: Rank) {
        self.check_locked(target);
        // SAFETY: the window handle is live and `target` is locked by this epoch (checked).
        unsafe { ffi::MPI_Win_flush(target, self.epoch.win.raw) };
    }

    /// MPI_Win_flush_local: every operation issued so far to `target` is complete at this
    /// origin (its buffers may be reused), not necessarily at the target. Panics unless
    /// this epoch locked `target`.
    pub fn flush_local(&self, target: Rank) {
        self.check_locked(target);
        // SAFETY: as for `flush`.
        unsafe { ffi::MPI_Win_flush_local(target, self.epoch.win.raw) };
    }

    fn check_locked(&self, target: Rank) {
        assert!(self.targets.contains(&target), "rank {target} is not locked by this epoch");
    }
}

/// An open passive-target epoch (lock_all): the operations of [`Epoch`] plus
/// request-based ones and MPI_Win_flush_all.
pub struct Passive<'s, 'w, T: Plain> {
    epoch: Epoch<'s, 'w, T>,
}

impl<T: Plain> std::fmt::Debug for Passive<'_, '_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Passive {:?}", self.epoch)
    }
}

impl<'s, 'w, T: Plain> std::ops::Deref for Passive<'s, 'w, T> {
    type Target = Epoch<'s, 'w, T>;
    fn deref(&self) -> &Self::Target {
        &self.epoch
    }
}

impl<'s, 'w, T: Plain> Passive<'s, 'w, T> {
    /// MPI_Rput: like [`Epoch::put`], returning the request that completes it locally.
    pub fn rput(&self, origin: &'s [T], target: Rank, disp: usize) -> RmaRequest<'s, 'w> {
        // SAFETY: `origin` lives for 's, beyond the unlock_all that completes the request at
        // the latest.
        let raw = unsafe { self.issue(Op::Put, origin.as_ptr(), origin.len(), target, disp) };
        RmaRequest { raw, _scope: PhantomData, _window: PhantomData }
    }

    /// MPI_Rget: like [`Epoch::get`], returning the request that completes it locally.
    pub fn rget(&self, origin: &'s mut [T], target: Rank, disp: usize) -> RmaRequest<'s, 'w> {
        // SAFETY: `origin` is borrowed exclusively for 's, beyond the unlock_all that
        // completes the request at the latest.
        let raw = unsafe { self.issue(Op::Get, origin.as_mut_ptr(), origin.len(), target, disp) };
        RmaRequest { raw, _scope: PhantomData, _window: PhantomData }
    }

    /// MPI_Raccumulate: like [`Epoch::accumulate`], returning its request.
    pub fn raccumulate<O: Operation>(
        &self,
        origin: &'s [T],
        target: Rank,
        disp: usize,
        op: O,
    ) -> RmaRequest<'s, 'w> {
        let op = Op::Accumulate(op.as_raw());
        // SAFETY: as for `rput`.
        let raw = unsafe { self.issue(op, origin.as_ptr(), origin.len(), target, disp) };
        RmaRequest { raw, _scope: PhantomData, _window: PhantomData }
    }

    /// MPI_Rput then MPI_Wait: `origin` may be reused when this returns, so it is borrowed
    /// only for the call.
    pub fn rput_wait(&self, origin: &[T], target: Rank, disp: usize) {
        // SAFETY: the request is waited (by the RmaRequest's drop) before this returns and
        // `origin`'s borrow ends.
        let raw = unsafe { self.issue(Op::Put, origin.as_ptr(), origin.len(), target, disp) };
        RmaRequest { raw, _scope: PhantomData, _window: PhantomData }.wait();
    }

    /// MPI_Rget then MPI_Wait: the data is in `origin` when this returns, so it is borrowed
    /// only for the call.
    pub fn rget_wait(&self, origin: &mut [T], target: Rank, disp: usize) {
        // SAFETY: as for `rput_wait`.
        let raw = unsafe { self.issue(Op::Get, origin.as_mut_ptr(), origin.len(), target, disp) };
        RmaRequest { raw, _scope: PhantomData, _window: PhantomData }.wait();
    }

    /// MPI_Raccumulate then MPI_Wait: `origin` is borrowed only for the call.
    pub fn raccumulate_wait<O: Operation>(&self, origin: &[T], target: Rank, disp: usize, op: O) {
        let op = Op::Accumulate(op.as_raw());
        // SAFETY: as for `rput_wait`.
        let raw = unsafe { self.issue(op, origin.as_ptr(), origin.len(), target, disp) };
        RmaRequest { raw, _scope: PhantomData, _window: PhantomData }.wait();
    }

    /// MPI_Win_flush_all: every operation issued so far is complete at its target.
    pub fn flush_all(&self) {
        // SAFETY: the window handle is live and in a passive epoch opened by `locked_all`.
        unsafe { ffi::MPI_Win_flush_all(self.epoch.win.raw) };
    }

    /// MPI_Win_flush_local_all: every operation issued so far is complete at this origin.
    pub fn flush_local_all(&self) {
        // SAFETY: as for `flush_all`.
        unsafe { ffi::MPI_Win_flush_local_all(self.epoch.win.raw) };
    }

    /// Issues a request-based operation on `len` elements at `origin`.
    ///
    /// # Safety
    /// The `len` elements at `origin` must stay valid (and, for a get, unaliased) until the
    /// returned request completes.
    unsafe fn issue(
        &self,
        op: Op,
        origin: *const T,
        len: usize,
        target: Rank,
        disp: usize,
    ) -> ffi::MPI_Request {
        let win = self.epoch.win;
        win.check_target(target, disp, len);
        let (n, dt, at) = (count(len), datatype::<T>(), disp as ffi::MPI_Aint);
        let mut req = null_request();
        let buf = origin as *mut std::ffi::c_void;
        // SAFETY: the caller keeps the buffer valid until the request completes; the target
        // range was checked; `req` is a valid out-parameter.
        unsafe {
            match op {
                Op::Put => ffi::MPI_Rput(buf, n, dt, target, at, n, dt, win.raw, &mut req),
                Op::Get => ffi::MPI_Rget(buf, n, dt, target, at, n, dt, win.raw, &mut req),
                Op::Accumulate(o) => {
                    ffi::MPI_Raccumulate(buf, n, dt, target, at, n, dt, o, win.raw, &mut req)
                }
            }
        };
        req
    }
}

/// Which operation [`Epoch::post`] or [`Passive::issue`] posts.
#[derive(Clone, Copy)]
enum Op {
    Put,
    Get,
    Accumulate(ffi::MPI_Op),
}

/// The request of a request-based RMA operation. [`RmaRequest::wait`] completes it
/// locally; dropping it waits too.
#[must_use = "an RMA request must be waited"]
pub struct RmaRequest<'s, 'w> {
    raw: ffi::MPI_Request,
    _scope: PhantomData<Cell<&'s ()>>,
    // Cannot outlive the window (its wait must come before MPI_Win_free).
    _window: PhantomData<&'w ()>,
}

impl std::fmt::Debug for RmaRequest<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RmaRequest")
    }
}

impl RmaRequest<'_, '_> {
    /// MPI_Wait: the origin buffer may be reused (put) or read (get) once this returns.
    pub fn wait(self) {
        // Drop does the waiting.
    }
}

impl Drop for RmaRequest<'_, '_> {
    fn drop(&mut self) {
        // SAFETY: `raw` is an active request from MPI_Rput/Rget/Raccumulate, waited once
        // here; MPI sets it to MPI_REQUEST_NULL.
        unsafe { ffi::MPI_Wait(&mut self.raw, ffi::RSMPI_STATUS_IGNORE) };
    }
}

fn null_request() -> ffi::MPI_Request {
    // SAFETY: reading an extern static handle constant that MPI initialises at load.
    unsafe { ffi::RSMPI_REQUEST_NULL }
}
