//! The timed file operations: a file written in transfers and synced, read back in
//! transfers after its cached pages were dropped.

use paw_core::schema::{BYTES, MIB_PER_S};
use paw_core::{Axis, Column, DatSpec, Error, Paw, Var};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// PAW_IO_DIR: where the scratch files go.
pub const IO_DIR: Var = Var {
    name: "PAW_IO_DIR",
    default: "PAW_OUTPUT_DIR",
    meaning: "directory of the scratch files paw_io.<rank>",
    accepts: paw_core::vars::Accepts::Said,
};
/// IO_FILE_SIZE: bytes each task writes.
pub const FILE_SIZE: Var = Var {
    name: "IO_FILE_SIZE",
    default: "268435456",
    meaning: "bytes each task writes and reads",
    accepts: paw_core::vars::Accepts::Bytes(1, 1 << 40),
};
/// IO_TRANSFER_SIZE: bytes per write() or read() call.
pub const TRANSFER_SIZE: Var = Var {
    name: "IO_TRANSFER_SIZE",
    default: "1048576",
    meaning: "bytes per write() or read() call",
    accepts: paw_core::vars::Accepts::Bytes(1, 1 << 30),
};

/// IO_FILE_SIZE and IO_TRANSFER_SIZE, the transfer at most the file, the buffers (data
/// and read-back) within memory.
pub fn sizes(paw: &Paw) -> paw_core::Result<(usize, usize)> {
    let file_size = paw.bytes(&FILE_SIZE)? as usize;
    let transfer = paw.bytes(&TRANSFER_SIZE)? as usize;
    if transfer > file_size {
        return Err(Error::input(format!(
            "IO_TRANSFER_SIZE={transfer} is larger than IO_FILE_SIZE={file_size}; \
             accepted: IO_TRANSFER_SIZE <= IO_FILE_SIZE"
        )));
    }
    paw.fits_in_memory(2 * file_size as u128, FILE_SIZE.name, "the data and read-back buffers")?;
    Ok((file_size, transfer))
}

/// The directory of the files (PAW_IO_DIR, else the output directory) and this task's
/// file, checked and registered ([`scratch`]).
pub fn place(paw: &Paw) -> paw_core::Result<(PathBuf, PathBuf)> {
    let chosen = paw.text(&IO_DIR).map(PathBuf::from);
    let dir = chosen.clone().unwrap_or_else(|| paw.output_dir().to_path_buf());
    let path = scratch(paw, &dir, chosen.is_some())?;
    Ok((dir, path))
}

/// The file of `kind` (write, read): aggregate bandwidth over the file size per task, with
/// the fastest and slowest task's own; `what` the calls timed.
pub fn output(paw: &Paw, kind: &str, what: &str, transfer: usize, dir: &Path) -> DatSpec {
    DatSpec {
        file: paw.np_file(&format!("posix_io_{kind}"), paw.size()),
        x: Axis::new("file size per task", BYTES),
        y: Axis::new(format!("aggregate {kind} bandwidth"), MIB_PER_S),
        notes: vec![format!("{what}; transfer size {transfer} bytes; files in {}", dir.display())],
        echo: true,
        extra: ["TASK_MIN_BW", "TASK_MAX_BW"].map(|c| Column::fixed(c, MIB_PER_S)).to_vec(),
    }
}

/// This task's scratch file in `dir`, checked on every task before anything runs: a
/// directory PAW_IO_DIR `chosen` is usable (paw-core's one check; the output directory,
/// the default, is checked as such when the first file is made) and no task's file
/// exists; every task then registers every task's file for removal, also if the run is
/// interrupted.
fn scratch(paw: &Paw, dir: &Path, chosen: bool) -> paw_core::Result<PathBuf> {
    let usable = if chosen { paw_core::scratch::check_dir(dir, "PAW_IO_DIR=") } else { Ok(()) };
    if !paw.all_ok(usable.is_ok()) {
        return Err(Error::input(usable.err().unwrap_or_else(|| {
            format!(
                "PAW_IO_DIR={:?} is not usable on every task; accepted: an existing, writable \
                 directory",
                dir.display().to_string()
            )
        })));
    }
    let path = dir.join(format!("paw_io.{}", paw.rank()));
    if !paw.all_ok(!path.exists()) {
        return Err(Error::input(format!(
            "{} already exists; paw never overwrites a file it did not create: remove it or \
             choose another PAW_IO_DIR",
            dir.join("paw_io.<rank>").display()
        )));
    }
    paw_core::scratch::register((0..paw.size()).map(|r| dir.join(format!("paw_io.{r}"))));
    Ok(path)
}

/// Writes `data` to `path` in `transfer`-byte calls, then fsync and close.
pub fn write_file(path: &PathBuf, data: &[u8], transfer: usize) -> std::io::Result<()> {
    let create = || OpenOptions::new().create(true).truncate(true).write(true).open(path);
    let mut f = paw_core::scratch::creating(create)?;
    for chunk in data.chunks(transfer) {
        f.write_all(chunk)?;
    }
    f.sync_all()
}

/// Reads `path` into `into` in `transfer`-byte calls, after asking the kernel to drop the
/// file's cached pages.
pub fn read_file(path: &PathBuf, into: &mut [u8], transfer: usize) -> std::io::Result<()> {
    let mut f = File::open(path)?;
    // SAFETY: posix_fadvise on a file descriptor owned by `f`, which outlives the call.
    unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    for chunk in into.chunks_mut(transfer) {
        f.read_exact(chunk)?;
    }
    Ok(())
}
