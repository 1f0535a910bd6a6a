//! Where a test's message buffers live (PAW_BUFFER): host memory, GPU memory or CUDA
//! managed memory, as OSU's `-d cuda D D` and IMB-MPI1-GPU's device buffers.
//!
//! [`Memory::new`] reads the setting and, where a task's buffers are on a GPU, makes sure
//! it can work: a GPU on the node (the task takes the one of its node-local rank, modulo
//! the count) and an MPI library that says it takes CUDA memory. [`Memory::alloc`] gives a
//! [`MsgBuf`]: its views ([`MsgBuf::at`], [`MsgBuf::at_mut`]) go to the MPI calls as the
//! addresses themselves; the data check writes and reads it through host copies
//! ([`MsgBuf::write`], [`MsgBuf::read`]), outside the timing.

use mpi_ext::region::{Bytes, BytesMut};
use paw_core::mpi::traits::*;
use paw_core::{agree, buffer, Error, Paw, Result};
use paw_gpu::{copy_in, copy_out, DeviceBuffer, Gpu};
use std::borrow::Cow;

/// One kind of message memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Ordinary host memory (malloc).
    Host,
    /// GPU memory (cuMemAlloc).
    Device,
    /// CUDA managed memory (cuMemAllocManaged).
    Managed,
}

impl Place {
    const ALL: [Place; 3] = [Place::Host, Place::Device, Place::Managed];

    /// The name PAW_BUFFER spells it with.
    pub fn name(self) -> &'static str {
        match self {
            Place::Host => "host",
            Place::Device => "device",
            Place::Managed => "managed",
        }
    }

    fn parse(text: &str) -> Option<Place> {
        Place::ALL.into_iter().find(|p| p.name() == text.trim())
    }
}

/// PAW_BUFFER's value: the place of the first half of the tasks and of the second half
/// (one value: both).
pub fn placement(text: &str) -> std::result::Result<[Place; 2], String> {
    let places: Option<Vec<Place>> = text.split(',').map(Place::parse).collect();
    match places.as_deref() {
        Some(&[one]) => Ok([one, one]),
        Some(&[first, second]) => Ok([first, second]),
        _ => Err(format!(
            "PAW_BUFFER={text:?} is not a placement; accepted: host, device or managed, or two \
             of them separated by a comma (the first half of the tasks, the second half)"
        )),
    }
}

/// This task's message memory (see the module).
#[derive(Debug)]
pub struct Memory {
    place: Place,
    gpu: Option<Gpu>,
    note: String,
}

impl Memory {
    /// Reads PAW_BUFFER (collective). Where any task's buffers are on a GPU, every task
    /// checks its GPU and the library; a task without them fails every task with its one
    /// line (exit status 2).
    pub fn new(paw: &Paw) -> Result<Memory> {
        if !paw.spec().reads_var(paw_core::vars::PAW_BUFFER.name) {
            return Ok(Memory::host());
        }
        let text = paw.text(&paw_core::vars::PAW_BUFFER).unwrap_or_else(|| "host".to_string());
        let places = placement(&text).map_err(Error::input)?;
        let half = paw.rank() as usize >= paw.size() / 2 && paw.size() > 1;
        let place = places[half as usize];
        if places == [Place::Host; 2] {
            return Ok(Memory::host());
        }
        let local = paw.world().split_shared(paw.rank()).rank() as usize;
        let gpu = agree(paw.world(), open_gpu(place, local))?;
        let mine = match &gpu {
            Some(g) => format!("{} of task {}, {}", place.name(), paw.rank(), g.describe()),
            None => format!("host of task {}", paw.rank()),
        };
        let described = paw_core::broadcast_text(paw.world(), 0, mine.into_bytes());
        let note = format!(
            "message buffers: PAW_BUFFER={text} (first half of the tasks {}, second half {}); \
             {described}; MPIX_Query_cuda_support() = 1",
            places[0].name(),
            places[1].name()
        );
        Ok(Memory { place, gpu, note })
    }

    /// Host memory on every task, without reading PAW_BUFFER.
    pub fn host() -> Memory {
        Memory { place: Place::Host, gpu: None, note: String::new() }
    }

    /// Where this task's buffers are.
    pub fn place(&self) -> Place {
        self.place
    }

    /// The output files' note: the placement, a GPU's name and the library's answer; none
    /// for host memory.
    pub fn notes(&self) -> Vec<String> {
        [&self.note].into_iter().filter(|n| !n.is_empty()).cloned().collect()
    }

    /// A message buffer of `len` bytes, every byte 0xa5.
    pub fn alloc(&self, len: usize) -> Result<MsgBuf> {
        let storage = match (&self.gpu, self.place) {
            (Some(gpu), Place::Device) => {
                let mut d = DeviceBuffer::new(gpu, len)?;
                copy_in(&mut d, &buffer(len))?;
                Storage::Gpu(d, gpu.clone())
            }
            (Some(gpu), Place::Managed) => {
                Storage::Gpu(DeviceBuffer::managed(gpu, len)?, gpu.clone())
            }
            _ => Storage::Host(buffer(len)),
        };
        Ok(MsgBuf { storage, len })
    }
}

/// The GPU of a task whose buffers are on one (None for host memory), or what is missing.
fn open_gpu(place: Place, local: usize) -> std::result::Result<Option<Gpu>, String> {
    match mpi_ext::cuda_support() {
        Some(true) => {}
        Some(false) => {
            return Err(format!(
                "PAW_BUFFER asks for GPU memory, but this MPI library does not take CUDA \
                 memory (MPIX_Query_cuda_support() = 0; {}); accepted: PAW_BUFFER=host, or a \
                 CUDA-aware library (Intel MPI: I_MPI_OFFLOAD=1)",
                paw_core::mpi_library_version().lines().next().unwrap_or("").trim()
            ))
        }
        None => {
            return Err("PAW_BUFFER asks for GPU memory, but this MPI library has no \
                        MPIX_Query_cuda_support(), so it cannot say it takes CUDA memory; \
                        accepted: PAW_BUFFER=host"
                .to_string())
        }
    }
    if place == Place::Host {
        return Ok(None);
    }
    let count = paw_gpu::devices().map_err(|e| format!("PAW_BUFFER={}: {e}", place.name()))?;
    let gpu = Gpu::open(local % count).map_err(|e| e.to_string())?;
    // The primary context must outlive MPI_Finalize, which still releases the library's
    // streams and IPC mappings in it (Intel MPI fails there, or crashes, once the last
    // reference is dropped): one reference is kept until the process ends.
    std::mem::forget(gpu.clone());
    Ok(Some(gpu))
}

#[derive(Debug)]
enum Storage {
    Host(paw_core::Buffer),
    Gpu(DeviceBuffer, Gpu),
}

/// A message buffer in host, device or managed memory (see the module).
#[derive(Debug)]
pub struct MsgBuf {
    storage: Storage,
    len: usize,
}

impl MsgBuf {
    /// Its first `n` bytes, for MPI to read (panics past its end).
    pub fn at(&self, n: usize) -> Bytes<'_> {
        assert!(n <= self.len, "{n} bytes of a {}-byte buffer", self.len);
        match &self.storage {
            Storage::Host(v) => Bytes::of(&v[..n]),
            // SAFETY: the device buffer holds len >= n bytes and lives as long as the
            // borrow of self; Rust code never reads it.
            Storage::Gpu(d, _) => unsafe { Bytes::from_raw(d.address() as *const u8, n) },
        }
    }

    /// Its first `n` bytes, for MPI to write (panics past its end).
    pub fn at_mut(&mut self, n: usize) -> BytesMut<'_> {
        assert!(n <= self.len, "{n} bytes of a {}-byte buffer", self.len);
        match &mut self.storage {
            Storage::Host(v) => BytesMut::of(&mut v[..n]),
            // SAFETY: as in `at`, and the exclusive borrow of self makes this the only view.
            Storage::Gpu(d, _) => unsafe { BytesMut::from_raw(d.address() as *mut u8, n) },
        }
    }

    /// Sets its first `n` bytes with `fill`, which writes a host slice (in place, or a copy
    /// sent to the GPU and finished before this returns). Panics if the copy fails.
    pub fn write(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) {
        match &mut self.storage {
            Storage::Host(v) => fill(&mut v[..n]),
            Storage::Gpu(d, gpu) => {
                let mut host = buffer(n);
                fill(&mut host);
                copy_in(d, &host).and_then(|_| gpu.synchronize()).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }

    /// Its first `n` bytes, read on the host (a copy from a GPU). Panics if the copy fails.
    pub fn read(&self, n: usize) -> Cow<'_, [u8]> {
        match &self.storage {
            Storage::Host(v) => Cow::Borrowed(&v[..n]),
            Storage::Gpu(d, _) => {
                let mut host = vec![0; n];
                copy_out(&mut host, d).unwrap_or_else(|e| panic!("{e}"));
                Cow::Owned(host)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_name_one_place_for_all_or_one_per_half() {
        assert_eq!(placement("device"), Ok([Place::Device; 2]));
        assert_eq!(placement("device,host"), Ok([Place::Device, Place::Host]));
        assert_eq!(placement("managed, device"), Ok([Place::Managed, Place::Device]));
        for bad in ["gpu", "", "device,host,host", "Device", "cuda"] {
            let e = placement(bad).unwrap_err();
            assert!(e.starts_with(&format!("PAW_BUFFER={bad:?}")) && e.contains("accepted"), "{e}");
        }
    }
}
