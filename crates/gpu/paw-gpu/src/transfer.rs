//! The host/device transfer sweep behind every transfer binary (PAW 1.6 §8.2 and the
//! GPU form of §9.1): sizes MIN_GPU_SIZE, doubling, to MAX_GPU_SIZE bytes; per sample,
//! NLOOP synchronous copies between two clock reads; NREPS samples per size.
//!
//! A binary states a [`Transfer`] (the direction, the host memory: pinned, or pageable and
//! page-aligned or not, and whether device memory is kept for the whole run or allocated and
//! freed around every copy) in one line, [`crate::transfer_main!`], which writes its SPEC
//! from it and a `main` that gives [`Sweep::run`] the timed iteration the Transfer implies
//! ([`Transfer::iteration`]: the [`Lane`] calls `alloc`, `copy_in`, `synchronize`, `copy_out`,
//! `free` it needs), checked against the Transfer's own list on the warm-up iteration. With `both_devices` and two or more GPUs the sweep
//! runs a second time on devices 0 and 1 at once, one thread each (PAW §9.1.1).

use crate::memory::{
    copy_in, copy_out, DeviceBuffer, HostBuffer, PageableBuffer, PinnedBuffer, PAGE,
};
use crate::{devices, failed, Gpu};
use cudarc::driver::{sys, DriverError};
use paw_base::schema::{BYTES, GB_PER_S, USEC};
use paw_base::{
    check, Axis, DatSpec, Error, Family, Node, Policy, Result, SizeRange, Spec, Timing, Var,
};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the transfer tests check with PAW_CHECK=1.
pub const COPY_CHECK: &str = "a pattern goes each way the binary copies, through its own host \
                              buffer and a fresh device buffer; every byte is compared";

/// GPU_MISALIGN: where a misaligned host buffer starts.
pub const GPU_MISALIGN: Var = Var {
    name: "GPU_MISALIGN",
    default: "8",
    meaning: "bytes past a page boundary where the host buffer starts",
    accepts: paw_base::vars::Accepts::Whole(1, 4095),
};

/// GPU_HUGEPAGES: transparent huge pages for a pageable host buffer.
pub const GPU_HUGEPAGES: Var = Var {
    name: "GPU_HUGEPAGES",
    default: "0",
    meaning: "1: ask the kernel to back the pageable host buffer with transparent huge pages \
              (madvise MADV_HUGEPAGE, as NumPy does for large arrays); 0: ordinary pages, unless \
              the kernel gives huge pages to all memory",
    accepts: paw_base::vars::Accepts::Whole(0, 1),
};

/// Which way the bytes go in one timed iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Host to device (cuMemcpyHtoD).
    In,
    /// Device to host (cuMemcpyDtoH).
    Out,
    /// Host to device, then back (both copies; twice the bytes).
    InOut,
}

/// The host side of the copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    /// Page-locked memory (cuMemHostAlloc, flags 0), page-aligned.
    Pinned,
    /// Ordinary memory starting on a page boundary.
    Aligned,
    /// Ordinary memory starting GPU_MISALIGN bytes (default 8) past a page boundary.
    Misaligned,
}

/// The device side of the copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Device {
    /// Allocated once, before timing, at the largest size.
    Keep,
    /// cuMemAlloc before and cuMemFree after every copy, both inside the timing.
    Alloc,
}

/// What one transfer binary measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    /// Which way the bytes go.
    pub direction: Direction,
    /// The host memory.
    pub host: Host,
    /// The device memory.
    pub device: Device,
    /// Also run devices 0 and 1 at once when the machine has two GPUs.
    pub both_devices: bool,
}

/// [`Lane`]'s timed calls, each a 3-bit code; an iteration's calls in order are a sequence
/// of codes, to hold a binary's timed body to its [`Transfer`] (checked on the untimed
/// warm-up iteration).
mod call {
    pub const ALLOC: u32 = 1;
    pub const COPY_IN: u32 = 2;
    pub const SYNCHRONIZE: u32 = 3;
    pub const COPY_OUT: u32 = 4;
    pub const FREE: u32 = 5;
    pub const NAMES: [&str; 6] = ["", "alloc", "copy_in", "synchronize", "copy_out", "free"];

    /// `sequence` with `code` appended.
    #[inline]
    pub fn append(sequence: u32, code: u32) -> u32 {
        (sequence << 3) | code
    }
}

impl Transfer {
    /// The calls one iteration of this transfer makes, in order, as a [`call`] sequence:
    /// alloc, copy in, wait for a staged copy in, copy out, free.
    fn calls(self) -> u32 {
        let staged = self.direction == Direction::In && self.host != Host::Pinned;
        let alloc = self.device == Device::Alloc;
        [
            (alloc, call::ALLOC),
            (self.direction != Direction::Out, call::COPY_IN),
            (staged, call::SYNCHRONIZE),
            (self.direction != Direction::In, call::COPY_OUT),
            (alloc, call::FREE),
        ]
        .iter()
        .filter(|(made, _)| *made)
        .fold(0, |sequence, (_, code)| call::append(sequence, *code))
    }

    /// One iteration on `lane` at `n` bytes: the calls [`Transfer::calls`] names, in its
    /// order (what every transfer binary times).
    pub fn iteration(self, lane: &mut Lane, n: usize) {
        let alloc = self.device == Device::Alloc;
        if alloc {
            lane.alloc(n);
        }
        if self.direction != Direction::Out {
            lane.copy_in(n);
        }
        if self.direction == Direction::In && self.host != Host::Pinned {
            lane.synchronize();
        }
        if self.direction != Direction::In {
            lane.copy_out(n);
        }
        if alloc {
            lane.free();
        }
    }

    /// A [`call`] sequence in words, for a mismatch message.
    fn describe_calls(mut sequence: u32) -> String {
        let mut names = Vec::new();
        while sequence != 0 {
            names.push(call::NAMES.get((sequence & 7) as usize).copied().unwrap_or("?"));
            sequence >>= 3;
        }
        names.reverse();
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    }
}

/// The host memory of a lane, owned; the copies use its address, taken once.
#[derive(Debug)]
enum HostMemory {
    Pinned(PinnedBuffer),
    Pageable(PageableBuffer),
}

impl HostMemory {
    fn bytes_mut(&mut self) -> &mut [u8] {
        match self {
            HostMemory::Pinned(b) => b.bytes_mut(),
            HostMemory::Pageable(b) => b.bytes_mut(),
        }
    }
}

/// One device's buffers and the driver calls a transfer binary times on them. The calls
/// go straight to the driver: the device's context is made current on the calling thread
/// once, before timing ([`Sweep::run`] does it), and a failed call's status is kept (the
/// first one) and reported after the sample instead of being turned into an error inside it.
#[derive(Debug)]
pub struct Lane {
    gpu: Gpu,
    /// The host buffer, owned; the copies use it through `host_ptr`.
    host: HostMemory,
    /// The host buffer's address and length (taken from `host` once).
    host_ptr: *mut u8,
    host_len: usize,
    /// The device memory the copies use: the kept buffer, or what [`Lane::alloc`] returned.
    dev: sys::CUdeviceptr,
    dev_len: usize,
    kept: Option<DeviceBuffer>,
    /// The first failed call and its status.
    failure: Option<(&'static str, DriverError)>,
    /// The [`call`] sequence of the calls made since the last reset.
    called: u32,
}

// SAFETY: `host_ptr` points into `host`, which the lane owns and moves with it; a lane is
// used by one thread at a time (the sweep hands it to one thread per device).
unsafe impl Send for Lane {}

impl Lane {
    fn new(gpu: &Gpu, t: Transfer, len: usize, offset: usize, huge: bool) -> Result<Lane> {
        let mut host = match t.host {
            Host::Pinned => HostMemory::Pinned(PinnedBuffer::new(gpu, len)?),
            Host::Aligned | Host::Misaligned => {
                HostMemory::Pageable(PageableBuffer::new(len, offset, huge))
            }
        };
        let kept = match t.device {
            Device::Keep => Some(DeviceBuffer::new(gpu, len)?),
            Device::Alloc => None,
        };
        let bytes = host.bytes_mut();
        let (host_ptr, host_len) = (bytes.as_mut_ptr(), bytes.len());
        let (dev, dev_len) = kept.as_ref().map_or((0, 0), |d| (d.address(), d.len()));
        Ok(Lane {
            gpu: gpu.clone(),
            host,
            host_ptr,
            host_len,
            dev,
            dev_len,
            kept,
            failure: None,
            called: 0,
        })
    }

    /// Host to device: the first `n` bytes of the host buffer to the device memory
    /// (cuMemcpyHtoD, synchronous).
    #[inline]
    pub fn copy_in(&mut self, n: usize) {
        self.called = call::append(self.called, call::COPY_IN);
        if self.fits(n) {
            // SAFETY: the host buffer holds host_len >= n bytes and the device memory
            // dev_len >= n (`fits`), both owned by this lane for the call.
            let r = unsafe { sys::cuMemcpyHtoD_v2(self.dev, self.host_ptr.cast(), n) };
            self.keep("cuMemcpyHtoD", r);
        }
    }

    /// Device to host: the first `n` bytes of the device memory to the host buffer
    /// (cuMemcpyDtoH, synchronous).
    #[inline]
    pub fn copy_out(&mut self, n: usize) {
        self.called = call::append(self.called, call::COPY_OUT);
        if self.fits(n) {
            // SAFETY: as in `copy_in`; the host bytes are written by the device.
            let r = unsafe { sys::cuMemcpyDtoH_v2(self.host_ptr.cast(), self.dev, n) };
            self.keep("cuMemcpyDtoH", r);
        }
    }

    /// Waits for the device (cuCtxSynchronize): a copy in from pageable memory returns once
    /// the data is staged, this once it has arrived.
    #[inline]
    pub fn synchronize(&mut self) {
        self.called = call::append(self.called, call::SYNCHRONIZE);
        // SAFETY: no memory is passed; the thread's current context is this lane's.
        let r = unsafe { sys::cuCtxSynchronize() };
        self.keep("cuCtxSynchronize", r);
    }

    /// Device memory of `n` bytes for the next copies (cuMemAlloc; at least one byte).
    #[inline]
    pub fn alloc(&mut self, n: usize) {
        self.called = call::append(self.called, call::ALLOC);
        let mut ptr = 0;
        // SAFETY: `ptr` is a valid place for the result; the allocation is freed by `free`
        // (or by `release` after a failed iteration).
        let r = unsafe { sys::cuMemAlloc_v2(&mut ptr, n.max(1)) };
        if r == sys::CUresult::CUDA_SUCCESS {
            (self.dev, self.dev_len) = (ptr, n);
        }
        self.keep("cuMemAlloc", r);
    }

    /// Frees what [`Lane::alloc`] returned (cuMemFree).
    #[inline]
    pub fn free(&mut self) {
        self.called = call::append(self.called, call::FREE);
        self.release();
    }

    /// cuMemFree of what [`Lane::alloc`] returned, if anything (a kept buffer stays).
    #[inline]
    fn release(&mut self) {
        if self.kept.is_none() && self.dev != 0 {
            // SAFETY: `dev` came from cuMemAlloc in `alloc` and is freed once, here.
            let r = unsafe { sys::cuMemFree_v2(self.dev) };
            (self.dev, self.dev_len) = (0, 0);
            self.keep("cuMemFree", r);
        }
    }

    /// Whether `n` bytes fit both buffers; a copy that does not is a failure, not a call.
    #[inline]
    fn fits(&mut self, n: usize) -> bool {
        let fits = n <= self.host_len && n <= self.dev_len;
        if !fits && self.failure.is_none() {
            let e = DriverError(sys::CUresult::CUDA_ERROR_INVALID_VALUE);
            self.failure = Some(("a copy larger than its buffers", e));
        }
        fits
    }

    #[inline]
    fn keep(&mut self, call: &'static str, r: sys::CUresult) {
        if r != sys::CUresult::CUDA_SUCCESS && self.failure.is_none() {
            self.failure = Some((call, DriverError(r)));
        }
    }

    /// The first failed call since the last check, as an error; frees memory an
    /// interrupted iteration left allocated.
    fn result(&mut self) -> Result<()> {
        if self.kept.is_none() && self.dev != 0 {
            self.gpu.bind()?;
            self.release();
        }
        match self.failure.take() {
            Some((call, e)) => Err(failed(call, e)),
            None => Ok(()),
        }
    }

    /// The untimed data check at `size`, on a fresh device buffer: a pattern goes each
    /// way the lane copies, through the lane's host buffer; returns the wrong bytes found.
    fn check(&mut self, direction: Direction, size: usize, seq: u64) -> Result<usize> {
        let mut dev = DeviceBuffer::new(&self.gpu, size)?;
        assert!(size <= self.host_len, "check of {size} bytes, host buffer {}", self.host_len);
        // SAFETY: `host_ptr` addresses `host_len` >= size bytes of `host`, owned by this
        // lane; the timed calls use the same pointer, so no other reference to them exists.
        let host = unsafe { std::slice::from_raw_parts_mut(self.host_ptr, size) };
        let mut other = vec![0u8; size];
        let (key, len) = (self.gpu.context().ordinal() as i32, size as u64);
        let mut wrong = 0;
        if direction != Direction::Out {
            check::fill(host, key, len, 2 * seq);
            copy_in(&mut dev, host)?;
            copy_out(&mut other, &dev)?;
            wrong += check::mismatches(&other, key, len, 2 * seq);
        }
        if direction != Direction::In {
            check::fill(&mut other, key, len, 2 * seq + 1);
            copy_in(&mut dev, &other)?;
            host.fill(0);
            copy_out(host, &dev)?;
            wrong += check::mismatches(host, key, len, 2 * seq + 1);
        }
        Ok(wrong)
    }
}

/// A transfer binary's run, set up: its settings and sizes, GPU 0 (and GPU 1 for the
/// two-device run), and per device a [`Lane`] with buffers of the largest size.
#[derive(Debug)]
pub struct Sweep {
    node: Node,
    name: &'static str,
    transfer: Transfer,
    sizes: SizeRange,
    lanes: Vec<Lane>,
}

impl Sweep {
    /// Reads the settings (a bad one is refused before looking for a GPU), finds the GPUs,
    /// and allocates each lane's host and device memory, untimed.
    pub fn start(spec: &Spec, transfer: Transfer) -> Result<Sweep> {
        let mut node = Node::init(spec)?;
        let sizes = node.sizes(Family::Gpu)?;
        let offset = match transfer.host {
            Host::Misaligned => node.knob(&GPU_MISALIGN)? as usize,
            _ => 0,
        };
        let huge = transfer.host != Host::Pinned && node.knob(&GPU_HUGEPAGES)? == 1;
        let count = devices()?;
        let largest = sizes.largest() as usize;
        let two = transfer.both_devices && count >= 2;
        let gpus: Vec<Gpu> = (0..if two { 2 } else { 1 }).map(Gpu::open).collect::<Result<_>>()?;
        node.add_library(gpus[0].describe());
        let lanes = gpus
            .iter()
            .map(|g| Lane::new(g, transfer, largest, offset, huge))
            .collect::<Result<_>>()?;
        if transfer.both_devices && !two {
            println!("one GPU: the two-device run (files *_dev0+1.dat) needs two and is skipped");
        }
        Ok(Sweep { node, name: spec.name, transfer, sizes, lanes })
    }

    /// Times `iteration` (one lane's calls at `n` bytes: the copies themselves) at every
    /// size on GPU 0, then, with two GPUs, on both at once; writes the files and checks the
    /// data with PAW_CHECK=1. Fails if `iteration` makes other calls than the binary's
    /// [`Transfer`] says (found on the untimed warm-up iteration).
    pub fn run(mut self, iteration: impl Fn(&mut Lane, usize) + Sync) -> Result<()> {
        let mut lanes = std::mem::take(&mut self.lanes);
        self.measure("", &mut lanes[..1], &iteration)?;
        if let [_, second] = &lanes[..] {
            self.node.add_library(second.gpu.describe());
            self.measure("_dev0+1", &mut lanes, &iteration)?;
        }
        self.node.checks_passed()
    }

    /// Measures every size with `lanes` (one device, or two at once) and writes
    /// `<name>_time<suffix>.dat` (usec) and `<name>_bw<suffix>.dat` (GB/s).
    fn measure(
        &self,
        suffix: &str,
        lanes: &mut [Lane],
        iteration: &(impl Fn(&mut Lane, usize) + Sync),
    ) -> Result<()> {
        let node = &self.node;
        let t = self.transfer;
        let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
        let per_size = if t.direction == Direction::InOut { 2 } else { 1 } * lanes.len();
        let mut notes = vec![lanes[0].host_note(t), t.device_note()];
        if lanes.len() == 2 {
            notes.push(
                "two devices at once: each iteration runs the copies to GPU 0 and GPU 1 on two \
                 threads and ends when both have finished; bandwidth is the sum over both"
                    .to_string(),
            );
        }
        notes.push(format!(
            "bandwidth = {per_size} x SIZE / time, GB/s (GB = 1e9 B); time per iteration, usec"
        ));
        let file = |stem: &str, y: Axis, echo: bool| {
            node.dat(
                &bench,
                DatSpec {
                    file: format!("{}_{stem}{suffix}.dat", self.name),
                    x: Axis::new("transfer size", BYTES),
                    y,
                    notes: notes.clone(),
                    echo,
                    extra: vec![],
                },
            )
        };
        let mut time = file("time", Axis::new("time per iteration", USEC), false)?;
        let mut bw = file("bw", Axis::new("bandwidth", GB_PER_S), true)?;

        for lane in lanes.iter_mut() {
            lane.gpu.bind()?;
            lane.called = 0;
            iteration(lane, self.sizes.med as usize);
            let made = lane.called;
            lane.result()?;
            if made != t.calls() {
                return Err(Error::runtime(format!(
                    "{}'s timed iteration calls {} where its transfer needs {}",
                    self.name,
                    Transfer::describe_calls(made),
                    Transfer::describe_calls(t.calls())
                )));
            }
        }
        for size in self.sizes.sweep() {
            let n = size as usize;
            let m = match lanes {
                [one] => {
                    one.gpu.bind()?;
                    let m = bench.measure(size, || iteration(one, n))?;
                    one.result()?;
                    m
                }
                [a, b] => {
                    a.gpu.bind()?;
                    let handshake = Handshake::default();
                    let m = std::thread::scope(|s| {
                        let partner = s.spawn(|| handshake.serve(b, n, iteration));
                        let stop = Stop(&handshake.stop);
                        let m = bench.measure(size, || handshake.together(|| iteration(a, n)));
                        drop(stop);
                        partner
                            .join()
                            .unwrap_or_else(|_| Err(Error::runtime("GPU 1's thread panicked")))?;
                        m
                    })?;
                    a.result()?;
                    b.result()?;
                    m
                }
                _ => unreachable!("one or two devices"),
            };
            let mut wrong = 0;
            if node.checking() {
                for lane in lanes.iter_mut() {
                    wrong += lane.check(t.direction, n, size)?;
                }
            }
            let verdict = node.verdict(wrong);
            time.row(size, &m.row(|t| t * 1e6).verdict(verdict));
            bw.row(size, &m.row(|t| GB_PER_S.of((per_size * n) as f64 / t)).verdict(verdict));
        }
        Ok(())
    }
}

impl Lane {
    /// The header line saying which host memory the copies of transfer `t` use; for
    /// pageable memory also how much of it the kernel backs with transparent huge pages.
    fn host_note(&self, t: Transfer) -> String {
        let offset = self.host_ptr as usize % PAGE;
        let start = match t.host {
            Host::Pinned => {
                return "host memory: pinned (cuMemHostAlloc, flags 0: cached, not \
                        write-combined)"
                    .into()
            }
            Host::Aligned => "starting on a page boundary".to_string(),
            Host::Misaligned => format!("starting {offset} bytes past a page boundary"),
        };
        let huge = match &self.host {
            HostMemory::Pageable(b) => b.huge_bytes(),
            HostMemory::Pinned(_) => None,
        };
        let pages = match huge {
            Some(0) => "ordinary pages".to_string(),
            // The mapping may be a little longer than the buffer, or merged with a neighbour.
            Some(h) => format!(
                "{} of {} MiB in transparent huge pages",
                h.min(self.host_len as u64) >> 20,
                self.host_len.div_ceil(1 << 20)
            ),
            None => "pages unknown (no /proc/self/smaps)".to_string(),
        };
        format!("host memory: pageable, {start}, {pages} (GPU_HUGEPAGES)")
    }
}

impl Transfer {
    /// The header line saying how the device memory is had.
    fn device_note(self) -> String {
        match self.device {
            Device::Keep => "device memory: allocated once, before timing".into(),
            Device::Alloc => {
                "device memory: per iteration cuMemAlloc, cuMemcpy, cuMemFree, all timed".into()
            }
        }
    }
}

/// Stops the partner thread when dropped: also when the measuring thread panics, which would
/// otherwise leave the scope waiting for a partner that spins forever.
struct Stop<'a>(&'a AtomicBool);

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Runs a second lane on its own thread in step with the measuring thread: the measuring
/// thread starts an iteration, does its own calls, and waits for the partner's. Both sides
/// spin instead of sleeping, so an iteration costs no thread wake-up and the two devices'
/// copies overlap (PAW §9.1.1 used two OpenMP threads the same way).
#[derive(Debug, Default)]
struct Handshake {
    started: AtomicU64,
    finished: AtomicU64,
    stop: AtomicBool,
}

impl Handshake {
    /// The partner thread: binds its lane's device once, then one `iteration` at `n` bytes
    /// per started iteration, until `stop`.
    fn serve(
        &self,
        lane: &mut Lane,
        n: usize,
        iteration: &(impl Fn(&mut Lane, usize) + Sync),
    ) -> Result<()> {
        let bound = lane.gpu.bind();
        let mut seen = 0;
        loop {
            let go = loop {
                if self.stop.load(Ordering::Acquire) {
                    return bound;
                }
                let g = self.started.load(Ordering::Acquire);
                if g != seen {
                    break g;
                }
                std::hint::spin_loop();
            };
            seen = go;
            if bound.is_ok() {
                iteration(lane, n);
            }
            self.finished.store(go, Ordering::Release);
        }
    }

    /// One iteration: starts the partner, runs `mine`, waits for the partner.
    fn together(&self, mine: impl FnOnce()) {
        let go = self.started.fetch_add(1, Ordering::AcqRel) + 1;
        mine();
        while self.finished.load(Ordering::Acquire) != go {
            std::hint::spin_loop();
        }
    }
}

/// A whole transfer binary: [`transfer_spec!`]'s `SPEC` and `TRANSFER`, and a `main` that
/// times [`Transfer::iteration`] with [`Sweep`] (same arguments).
#[macro_export]
macro_rules! transfer_main {
    ($name:literal, $dir:ident, $host:ident, $dev:ident, $gpus:ident, $section:literal) => {
        $crate::transfer_spec!($name, $dir, $host, $dev, $gpus, $section);

        fn main() -> ::std::process::ExitCode {
            ::paw_base::main(SPEC.name, || {
                let sweep = $crate::transfer::Sweep::start(&SPEC, TRANSFER)?;
                sweep.run(|lane, n| TRANSFER.iteration(lane, n))
            })
        }
    };
}

/// A transfer binary's `const SPEC` and `const TRANSFER`, the text made from the choice so
/// that each fact is written once. Arguments: the binary's name; the direction
/// (`In`, `Out`, `InOut`); the host memory (`Pinned`, `Aligned`, `Misaligned`); the device
/// memory (`Keep`, `Alloc`); `one` GPU or `both` (a second run on GPUs 0 and 1 at once);
/// the PAW section.
#[macro_export]
macro_rules! transfer_spec {
    ($name:literal, $dir:ident, $host:ident, $dev:ident, $gpus:ident, $section:literal) => {
        const SPEC: ::paw_base::Spec = ::paw_base::Spec {
            name: $name,
            title: concat!(
                "GPU transfer ",
        $crate::transfer_text!(short $dir),
                ", ",
        $crate::transfer_text!(short $host),
                ", ",
        $crate::transfer_text!(short $dev),
                " (PAW 1.6 section ",
                $section,
                ")"
            ),
            timed: concat!(
                "Per sample: NLOOP iterations on GPU 0, each ",
        $crate::transfer_text!(copies $dir),
        $crate::transfer_text!(sync $dir $host),
                "; ",
        $crate::transfer_text!(long $dev),
                "; ",
        $crate::transfer_text!(long $host),
                ". Sizes MIN_GPU_SIZE, doubling, to MAX_GPU_SIZE, after one untimed iteration \
                 at MED_GPU_SIZE.",
        $crate::transfer_text!(timed $gpus)
            ),
            reports: concat!(
                "time per iteration, usec; bandwidth = ",
        $crate::transfer_text!(bytes $dir),
                " x SIZE / time, GB/s (GB = 1e9 B)",
        $crate::transfer_text!(reports $gpus),
                "."
            ),
            ranks: ::paw_base::Ranks::Node,
            combine: ::paw_base::Combine::Min,
    vars: $crate::transfer_text!(vars $host),
            check: ::paw_base::Check::Data($crate::transfer::COPY_CHECK),
            files: ::paw_base::Files::Text(concat!(
                $name,
                "_time.dat (usec) and ",
                $name,
                "_bw.dat (GB/s)",
        $crate::transfer_text!(files $gpus $name)
            )),
            headlines: &[::paw_base::headline::TIME, ::paw_base::headline::BANDWIDTH],
        };

        const TRANSFER: $crate::transfer::Transfer = $crate::transfer::Transfer {
            direction: $crate::transfer::Direction::$dir,
            host: $crate::transfer::Host::$host,
            device: $crate::transfer::Device::$dev,
    both_devices: $crate::transfer_text!(both $gpus),
        };
    };
}

/// The fragments [`transfer_spec!`] composes a transfer binary's SPEC from.
#[doc(hidden)]
#[macro_export]
macro_rules! transfer_text {
    (short In) => { "CPU to GPU" };
    (short Out) => { "GPU to CPU" };
    (short InOut) => { "CPU to GPU and back" };
    (short Pinned) => { "pinned host memory" };
    (short Aligned) => { "page-aligned pageable host memory" };
    (short Misaligned) => { "misaligned pageable host memory" };
    (short Keep) => { "device memory kept" };
    (short Alloc) => { "device memory re-allocated per copy" };
    (copies In) => { "host to device (cuMemcpyHtoD, synchronous)" };
    (copies Out) => { "device to host (cuMemcpyDtoH, synchronous)" };
    (copies InOut) => { "host to device and back (cuMemcpyHtoD, cuMemcpyDtoH, synchronous)" };
    (sync In Pinned) => { "" };
    (sync In $host:ident) => {
        "; each iteration ends with cuCtxSynchronize (from pageable memory the copy returns once staged)"
    };
    (sync $dir:ident $host:ident) => { "" };
    (long Keep) => { "device memory allocated once, before timing" };
    (long Alloc) => {
        "device memory allocated (cuMemAlloc) before and freed (cuMemFree) after every copy, inside the timing"
    };
    (long Pinned) => { "pinned host memory (cuMemHostAlloc, flags 0: cached, not write-combined)" };
    (long Aligned) => { "pageable host memory starting on a page boundary" };
    (long Misaligned) => { "pageable host memory starting GPU_MISALIGN bytes past a page boundary" };
    (bytes InOut) => { "2" };
    (bytes $dir:ident) => { "1" };
    (timed one) => { "" };
    (timed both) => {
        " With two or more GPUs the sweep runs again on GPU 0 and GPU 1 at once, one thread each."
    };
    (reports one) => { "" };
    (reports both) => { ", summed over both GPUs in the two-device files" };
    (files one $name:literal) => { "" };
    (files both $name:literal) => {
        concat!("; with two GPUs also ", $name, "_time_dev0+1.dat and ", $name, "_bw_dev0+1.dat")
    };
    (both one) => { false };
    (both both) => { true };
    (vars Misaligned) => {
        &[
            ::paw_base::vars::GPU_SIZES,
            ::paw_base::vars::MEASURE,
            ::paw_base::vars::CHECK,
            &[$crate::transfer::GPU_MISALIGN, $crate::transfer::GPU_HUGEPAGES],
        ]
    };
    (vars Aligned) => {
        &[
            ::paw_base::vars::GPU_SIZES,
            ::paw_base::vars::MEASURE,
            ::paw_base::vars::CHECK,
            &[$crate::transfer::GPU_HUGEPAGES],
        ]
    };
    (vars $host:ident) => {
        &[::paw_base::vars::GPU_SIZES, ::paw_base::vars::MEASURE, ::paw_base::vars::CHECK]
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_transfer_names_the_calls_of_its_iteration() {
        let t = |direction, host, device| Transfer { direction, host, device, both_devices: false };
        let words = |t: Transfer| Transfer::describe_calls(t.calls());
        assert_eq!(words(t(Direction::In, Host::Pinned, Device::Keep)), "copy_in");
        assert_eq!(words(t(Direction::In, Host::Aligned, Device::Keep)), "copy_in, synchronize");
        assert_eq!(words(t(Direction::Out, Host::Misaligned, Device::Keep)), "copy_out");
        assert_eq!(
            words(t(Direction::InOut, Host::Pinned, Device::Alloc)),
            "alloc, copy_in, copy_out, free"
        );
        assert_eq!(
            words(t(Direction::In, Host::Misaligned, Device::Alloc)),
            "alloc, copy_in, synchronize, free"
        );
        assert_eq!(Transfer::describe_calls(0), "none");
        let wrong_order = call::append(call::append(0, call::SYNCHRONIZE), call::COPY_IN);
        assert_ne!(wrong_order, t(Direction::In, Host::Aligned, Device::Keep).calls());
        let twice = call::append(call::append(0, call::COPY_IN), call::COPY_IN);
        assert_ne!(twice, t(Direction::In, Host::Pinned, Device::Keep).calls());
    }
}
