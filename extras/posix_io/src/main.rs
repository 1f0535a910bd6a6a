//! posix_io -- file-per-task POSIX I/O bandwidth, in the spirit of IOR's easy mode (PAW 1.6
//! extras): every task writes its own file, then reads it back.
//!
//! Timed, per task, one operation per sample (NREPS samples after one timed warm-up):
//!   write  open(O_CREAT|O_TRUNC|O_WRONLY), IO_FILE_SIZE bytes in write() calls of
//!          IO_TRANSFER_SIZE bytes, fsync, close;
//!   read   open(O_RDONLY), posix_fadvise(DONTNEED) to drop the file's cached pages (so the
//!          data comes from the device where the file system honours it), read() calls of
//!          IO_TRANSFER_SIZE bytes, close.
//! Each repetition takes the maximum over tasks (the aggregate is done when the slowest task
//! is). Reported: aggregate bandwidth = tasks x IO_FILE_SIZE / time, MB/s (MB = 2^20 B), and
//! per-task bandwidth of the fastest and slowest task (TASK_MAX_BW, TASK_MIN_BW, medians).
//! Untimed: the data (a pattern per task), and after the reads a check that every byte read
//! back is the byte written. Files: PAW_IO_DIR/paw_io.<rank> (default: the output
//! directory), removed at the end. Any task count; runs under mpirun or alone.
//! Env: PAW_IO_DIR IO_FILE_SIZE (default 256 MiB) IO_TRANSFER_SIZE (default 1 MiB) NREPS
//! PAW_OUTPUT_DIR. Writes posix_io_write-np_NNNN.dat and posix_io_read-np_NNNN.dat.
use paw_core::{check, Axis, Combine, DatSpec, Error, Paw, Policy, Ranks, Spec, Timing, MB};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::io::AsRawFd;
use std::path::PathBuf;

const SPEC: Spec = Spec {
    name: "posix_io",
    title: "file-per-task POSIX write+fsync and read-back bandwidth (IOR easy mode style)",
    help: "\
Every task writes IO_FILE_SIZE bytes to its own file in IO_TRANSFER_SIZE writes, fsyncs and
closes it (write), then reads it back after dropping its cached pages (read). Aggregate
bandwidth = tasks x IO_FILE_SIZE / slowest task's time, MB/s (MB = 2^20 B); per-task
extremes in TASK_MIN_BW, TASK_MAX_BW. Data read back is checked; files are removed.
Env: PAW_IO_DIR (default: PAW_OUTPUT_DIR or .), IO_FILE_SIZE (bytes, default 268435456),
     IO_TRANSFER_SIZE (bytes, default 1048576).
Writes posix_io_write-np_NNNN.dat and posix_io_read-np_NNNN.dat.
Run with any number of MPI tasks:  mpirun -np 4 posix_io",
    ranks: Ranks::Any,
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let file_size = paw.knob("IO_FILE_SIZE", 256 << 20, 1..=1 << 40)? as usize;
        let transfer = paw.knob("IO_TRANSFER_SIZE", 1 << 20, 1..=1 << 30)? as usize;
        if transfer > file_size {
            return Err(Error::input(format!(
                "IO_TRANSFER_SIZE={transfer} is larger than IO_FILE_SIZE={file_size}; \
                 accepted: IO_TRANSFER_SIZE <= IO_FILE_SIZE"
            )));
        }
        let dir = std::env::var_os("PAW_IO_DIR").map_or_else(paw_core::output_dir, PathBuf::from);
        let path = dir.join(format!("paw_io.{}", paw.rank()));
        let tasks = paw.size() as f64;
        let mut data = vec![0u8; file_size];
        check::fill(&mut data, paw.rank(), file_size as u64, 0);
        let mut back = vec![0u8; file_size];
        let mut failure = None;

        let mut bench =
            paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Combine::Max, Policy::Fewest);
        let spec = |kind: &str, what: &str| DatSpec {
            file: paw.np_file(&format!("posix_io_{kind}")),
            x: Axis::new("file size per task", "bytes"),
            y: Axis::new(format!("aggregate {kind} bandwidth"), "MB/s (MB = 2^20 B)"),
            notes: vec![
                format!("timed per task: {what}"),
                format!("transfer size: {transfer} bytes; files in {}", dir.display()),
                "bandwidth = tasks x SIZE / time, time = maximum over tasks".to_string(),
                "TASK_MIN_BW, TASK_MAX_BW: medians of the slowest and fastest task's own \
                 bandwidth, MB/s"
                    .to_string(),
            ],
            echo: true,
            extra: vec!["TASK_MIN_BW", "TASK_MAX_BW"],
        };
        let mut write_out = paw.dat(&bench, spec("write", "open, write() x N, fsync, close"))?;
        let bw = |t: f64| file_size as f64 / t / MB;

        let m = bench.measure(|| {
            if let Err(e) = write_file(&path, &data, transfer) {
                failure.get_or_insert(e);
            }
        });
        // The fastest task's time gives the highest per-task bandwidth.
        let [fastest, slowest] = m.spread(bw);
        write_out.row_with(file_size, &m.row(|t| tasks * bw(t)), &[slowest, fastest]);
        let mut read_out =
            paw.dat(&bench, spec("read", "open, fadvise(DONTNEED), read() x N, close"))?;
        let m = bench.measure(|| {
            if let Err(e) = read_file(&path, &mut back, transfer) {
                failure.get_or_insert(e);
            }
        });
        let [fastest, slowest] = m.spread(bw);
        read_out.row_with(file_size, &m.row(|t| tasks * bw(t)), &[slowest, fastest]);
        let _ = std::fs::remove_file(&path);

        // Every task must have done its I/O and read back what it wrote.
        let wrong = match &failure {
            Some(_) => usize::MAX / 2,
            None => check::mismatches(&back, paw.rank(), file_size as u64, 0),
        };
        if let Some(e) = &failure {
            eprintln!("posix_io: rank {}: {} failed: {e}", paw.rank(), path.display());
        }
        if paw.all_ok(wrong == 0) {
            Ok(())
        } else {
            Err(Error::runtime(format!(
                "an I/O call failed or data read back differs from what was written (files in {})",
                dir.display()
            )))
        }
    })
}

/// Writes `data` to `path` in `transfer`-byte calls, then fsync and close.
fn write_file(path: &PathBuf, data: &[u8], transfer: usize) -> std::io::Result<()> {
    let mut f = OpenOptions::new().create(true).truncate(true).write(true).open(path)?;
    for chunk in data.chunks(transfer) {
        f.write_all(chunk)?;
    }
    f.sync_all()
}

/// Reads `path` into `into` in `transfer`-byte calls, after asking the kernel to drop the
/// file's cached pages.
fn read_file(path: &PathBuf, into: &mut [u8], transfer: usize) -> std::io::Result<()> {
    let mut f = File::open(path)?;
    // SAFETY: posix_fadvise on a file descriptor owned by `f`, which outlives the call.
    unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    for chunk in into.chunks_mut(transfer) {
        f.read_exact(chunk)?;
    }
    Ok(())
}
