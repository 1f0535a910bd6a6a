//! The host/device transfer sweep behind every transfer binary (PAW 1.6 §8.2 and the
//! GPU form of §9.1): sizes MIN_GPU_SIZE, doubling, to MAX_GPU_SIZE bytes; per sample,
//! NLOOP synchronous copies between two clock reads; NREPS samples per size.
//!
//! A binary picks a [`Transfer`]: the direction, the host memory (pinned, or pageable
//! and page-aligned or not) and whether device memory is kept for the whole run or
//! allocated and freed around every copy. With `both_devices` and two or more GPUs the
//! sweep runs a second time on devices 0 and 1 at once, one thread each (PAW §9.1.1).

use crate::memory::{copy_in, copy_out, DeviceBuffer, HostBuffer, PageableBuffer, PinnedBuffer};
use crate::{devices, FirstError, Gpu};
use paw_base::{
    check, Axis, DatSpec, Error, Family, Node, Policy, Result, SizeRange, Spec, Timing, Var,
};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// What the transfer tests check with PAW_CHECK=1.
pub const COPY_CHECK: &str = "a pattern goes each way the binary copies, through its own host \
                              buffer and a fresh device buffer; every byte is compared";

/// GPU_MISALIGN: where a misaligned host buffer starts.
pub const GPU_MISALIGN: Var = Var {
    name: "GPU_MISALIGN",
    default: "8",
    meaning: "bytes past a page boundary where the host buffer starts (1-4095)",
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

/// Runs the sweep for the binary described by `spec` (its name is the file stem).
pub fn run(spec: &Spec, transfer: Transfer) -> ExitCode {
    paw_base::main(spec.name, || sweep(spec, transfer))
}

fn sweep(spec: &Spec, t: Transfer) -> Result<()> {
    let mut node = Node::init(spec)?;
    let sizes = node.sizes(Family::Gpu)?;
    let offset = match t.host {
        Host::Misaligned => node.knob(&GPU_MISALIGN, 1..=4095)? as usize,
        _ => 0,
    };
    let count = devices()?;
    let largest = sizes.largest() as usize;
    let two = t.both_devices && count >= 2;
    let gpus: Vec<Gpu> = (0..if two { 2 } else { 1 }).map(Gpu::open).collect::<Result<_>>()?;
    node.add_library(gpus[0].describe());
    let mut lanes: Vec<Lane> =
        gpus.iter().map(|g| Lane::new(g, t, largest, offset)).collect::<Result<_>>()?;
    measure_sweep(&node, spec.name, "", &sizes, &mut lanes[..1])?;
    if two {
        node.add_library(gpus[1].describe());
        measure_sweep(&node, spec.name, "_dev0+1", &sizes, &mut lanes)?;
    } else if t.both_devices {
        println!("one GPU: the two-device run (files *_dev0+1.dat) needs two and is skipped");
    }
    node.checks_passed()
}

/// One device's buffers.
struct Lane {
    gpu: Gpu,
    direction: Direction,
    host: Box<dyn HostBuffer + Send>,
    /// The kept device buffer (`Device::Keep`); `None` allocates per copy.
    device: Option<DeviceBuffer>,
    /// Pageable host memory: cuMemcpyHtoD returns once the data is staged, so the
    /// iteration ends with cuCtxSynchronize to cover its arrival.
    staged: bool,
}

impl Lane {
    fn new(gpu: &Gpu, t: Transfer, len: usize, offset: usize) -> Result<Lane> {
        let host: Box<dyn HostBuffer + Send> = match t.host {
            Host::Pinned => Box::new(PinnedBuffer::new(gpu, len)?),
            Host::Aligned | Host::Misaligned => Box::new(PageableBuffer::new(len, offset)),
        };
        let device = match t.device {
            Device::Keep => Some(DeviceBuffer::new(gpu, len)?),
            Device::Alloc => None,
        };
        let staged = t.host != Host::Pinned;
        Ok(Lane { gpu: gpu.clone(), direction: t.direction, host, device, staged })
    }

    /// One timed iteration at `size` bytes.
    fn step(&mut self, size: usize) -> Result<()> {
        let host = &mut self.host.bytes_mut()[..size];
        if let Some(dev) = &mut self.device {
            moves(self.direction, dev, host)?;
            return self.arrived();
        }
        let mut dev = DeviceBuffer::new(&self.gpu, size)?;
        moves(self.direction, &mut dev, host)?;
        self.arrived()?;
        drop(dev); // cuMemFree, inside the timing
        Ok(())
    }

    /// After a host-to-device copy from pageable memory, waits for the data to arrive (in
    /// `InOut` the device-to-host copy that follows already waits for it).
    fn arrived(&self) -> Result<()> {
        if self.staged && self.direction == Direction::In {
            self.gpu.synchronize()?;
        }
        Ok(())
    }

    /// The untimed data check at `size`, on a fresh device buffer: a pattern goes each
    /// way the lane copies, through the lane's host buffer; returns the wrong bytes found.
    fn check(&mut self, size: usize, seq: u64) -> Result<usize> {
        let mut dev = DeviceBuffer::new(&self.gpu, size)?;
        let host = &mut self.host.bytes_mut()[..size];
        let mut other = vec![0u8; size];
        let (key, len) = (self.gpu.context().ordinal() as i32, size as u64);
        let mut wrong = 0;
        if self.direction != Direction::Out {
            check::fill(host, key, len, 2 * seq);
            copy_in(&mut dev, host)?;
            copy_out(&mut other, &dev)?;
            wrong += check::mismatches(&other, key, len, 2 * seq);
        }
        if self.direction != Direction::In {
            check::fill(&mut other, key, len, 2 * seq + 1);
            copy_in(&mut dev, &other)?;
            host.fill(0);
            copy_out(host, &dev)?;
            wrong += check::mismatches(host, key, len, 2 * seq + 1);
        }
        Ok(wrong)
    }
}

/// The copies of one iteration between `host` and `dev`.
fn moves(direction: Direction, dev: &mut DeviceBuffer, host: &mut [u8]) -> Result<()> {
    match direction {
        Direction::In => copy_in(dev, host),
        Direction::Out => copy_out(host, dev),
        Direction::InOut => {
            copy_in(dev, host)?;
            copy_out(host, dev)
        }
    }
}

/// Measures every size with `lanes` (one device, or two at once) and writes
/// `<name>_time<suffix>.dat` (usec) and `<name>_bw<suffix>.dat` (GB/s).
fn measure_sweep(
    node: &Node,
    name: &str,
    suffix: &str,
    sizes: &SizeRange,
    lanes: &mut [Lane],
) -> Result<()> {
    let mut bench = node.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Calibrated)?;
    let per_size = if lanes[0].direction == Direction::InOut { 2 } else { 1 } * lanes.len();
    let mut notes = Vec::new();
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
                file: format!("{name}_{stem}{suffix}.dat"),
                x: Axis::new("transfer size", "bytes"),
                y,
                notes: notes.clone(),
                echo,
                extra: vec![],
            },
        )
    };
    let mut time = file("time", Axis::new("time per iteration", "usec"), false)?;
    let mut bw = file("bw", Axis::new("bandwidth", "GB/s (1e9 B/s)"), true)?;

    for lane in lanes.iter_mut() {
        lane.step(sizes.med as usize)?;
    }
    let mut failure = FirstError::default();
    for size in sizes.sweep() {
        let n = size as usize;
        let m = match lanes {
            [one] => bench.measure(size, || failure.keep(one.step(n)))?,
            [a, b] => {
                let handshake = Handshake::default();
                std::thread::scope(|s| {
                    s.spawn(|| handshake.serve(b));
                    let m =
                        bench.measure(size, || failure.keep(handshake.together(n, || a.step(n))));
                    handshake.stop.store(true, Ordering::Release);
                    m
                })?
            }
            _ => unreachable!("one or two devices"),
        };
        failure.result()?;
        let mut wrong = 0;
        if node.checking() {
            for lane in lanes.iter_mut() {
                wrong += lane.check(n, size)?;
            }
        }
        let verdict = node.verdict(wrong);
        time.row(size, &m.row(|t| t * 1e6).verdict(verdict));
        bw.row(size, &m.row(|t| (per_size * n) as f64 / t / 1e9).verdict(verdict));
    }
    Ok(())
}

/// Runs a second lane on its own thread in step with the measuring thread: the measuring
/// thread starts an iteration, does its own copies, and waits for the partner's. Both sides
/// spin instead of sleeping, so an iteration costs no thread wake-up and the two devices'
/// copies overlap (PAW §9.1.1 used two OpenMP threads the same way).
#[derive(Debug, Default)]
struct Handshake {
    size: AtomicUsize,
    started: AtomicU64,
    finished: AtomicU64,
    stop: AtomicBool,
    failure: Mutex<Option<Error>>,
}

impl Handshake {
    /// The partner thread's loop: one `lane.step` per started iteration, until `stop`.
    fn serve(&self, lane: &mut Lane) {
        let mut seen = 0;
        loop {
            let go = loop {
                if self.stop.load(Ordering::Acquire) {
                    return;
                }
                let g = self.started.load(Ordering::Acquire);
                if g != seen {
                    break g;
                }
                std::hint::spin_loop();
            };
            seen = go;
            if let Err(e) = lane.step(self.size.load(Ordering::Relaxed)) {
                self.failure.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
            }
            self.finished.store(go, Ordering::Release);
        }
    }

    /// One iteration at `size` bytes: starts the partner, runs `mine`, waits for the partner.
    fn together(&self, size: usize, mine: impl FnOnce() -> Result<()>) -> Result<()> {
        self.size.store(size, Ordering::Relaxed);
        let go = self.started.fetch_add(1, Ordering::AcqRel) + 1;
        let result = mine();
        while self.finished.load(Ordering::Acquire) != go {
            std::hint::spin_loop();
        }
        let theirs = self.failure.lock().unwrap_or_else(|p| p.into_inner()).take();
        result.and(theirs.map_or(Ok(()), Err))
    }
}

/// The `main` of a transfer binary: its SPEC and [`Transfer`], the text made from the
/// choice so that each fact is written once. Arguments: the binary's name; the direction
/// (`In`, `Out`, `InOut`); the host memory (`Pinned`, `Aligned`, `Misaligned`); the device
/// memory (`Keep`, `Alloc`); `one` GPU or `both` (a second run on GPUs 0 and 1 at once);
/// the PAW section.
#[macro_export]
macro_rules! transfer_main {
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
            files: concat!(
                $name,
                "_time.dat (usec) and ",
                $name,
                "_bw.dat (GB/s)",
        $crate::transfer_text!(files $gpus $name)
            ),
        };

        const TRANSFER: $crate::transfer::Transfer = $crate::transfer::Transfer {
            direction: $crate::transfer::Direction::$dir,
            host: $crate::transfer::Host::$host,
            device: $crate::transfer::Device::$dev,
    both_devices: $crate::transfer_text!(both $gpus),
        };

        fn main() -> std::process::ExitCode {
            $crate::transfer::run(&SPEC, TRANSFER)
        }
    };
}

/// The fragments [`transfer_main!`] composes a transfer binary's SPEC from.
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
            &[$crate::transfer::GPU_MISALIGN],
        ]
    };
    (vars $host:ident) => {
        &[::paw_base::vars::GPU_SIZES, ::paw_base::vars::MEASURE, ::paw_base::vars::CHECK]
    };
}
