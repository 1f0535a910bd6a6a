//! posix_io -- file-per-task POSIX I/O bandwidth, in the spirit of IOR's easy mode (PAW 1.6
//! extras): every task writes its own file, then reads it back.
//!
//! What is timed and reported, the task counts, the variables read, the data check and the
//! files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use files::{read_file, write_file, FILE_SIZE, IO_DIR, TRANSFER_SIZE};
use paw_core::schema::sweep::MEDIAN;
use paw_core::{
    check, vars, Check, Combine, Error, Files, Headline, Paw, Pick, Policy, Ranks, Spec, Timing, MB,
};

mod files;

const SPEC: Spec = Spec {
    name: "posix_io",
    title: "file-per-task POSIX write+fsync and read-back bandwidth (IOR easy mode style)",
    timed: "\
Per task, one operation per sample (NREPS samples after one timed warm-up): write = \
open(O_CREAT|O_TRUNC|O_WRONLY), IO_FILE_SIZE bytes in write() calls of IO_TRANSFER_SIZE \
bytes, fsync, close; read = open(O_RDONLY), posix_fadvise(DONTNEED) to drop the file's \
cached pages, read() calls of IO_TRANSFER_SIZE bytes, close. Untimed: the data (a \
pattern per task). Files: PAW_IO_DIR/paw_io.<rank>, removed at the end.",
    reports: "\
aggregate bandwidth = tasks x IO_FILE_SIZE / time, MB/s (MB = 2^20 B), time = {ranks} \
(the aggregate is done when the slowest task is); the fastest and slowest task's own \
bandwidth in TASK_MAX_BW, TASK_MIN_BW (medians).",
    ranks: Ranks::Any,
    combine: Combine::Max,
    vars: &[&[IO_DIR, FILE_SIZE, TRANSFER_SIZE], vars::MEASURE, vars::COMBINE],
    check: Check::Always("every byte read back against the byte written"),
    files: Files::Text(
        "posix_io_write-np_NNNN.dat and posix_io_read-np_NNNN.dat (MB/s), NNNN = tasks",
    ),
    headlines: &[
        Headline::new("_write", "write bandwidth at {x} B", Pick::Last, MEDIAN),
        Headline::new("_read", "read bandwidth at {x} B", Pick::Last, MEDIAN),
    ],
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let (file_size, transfer) = files::sizes(&paw)?;
        let (dir, path) = files::place(&paw)?;
        let tasks = paw.size() as f64;
        let mut data = vec![0u8; file_size];
        check::fill(&mut data, paw.rank(), file_size as u64, 0);
        let mut back = vec![0u8; file_size];
        let mut failure = None;

        let mut bench = paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Fewest)?;
        let spec = |kind: &str, what: &str| files::output(&paw, kind, what, transfer, &dir);
        let mut write_out = paw.dat(&bench, spec("write", "open, write() x N, fsync, close"))?;
        let bw = |t: f64| file_size as f64 / t / MB;

        let m = bench.measure("write", || {
            if let Err(e) = write_file(&path, &data, transfer) {
                failure.get_or_insert(e);
            }
        })?;
        // The fastest task's time gives the highest per-task bandwidth.
        let [fastest, slowest] = m.spread(bw);
        write_out.row_with(file_size, &m.row(|t| tasks * bw(t)), &[slowest, fastest]);
        let mut read_out =
            paw.dat(&bench, spec("read", "open, fadvise(DONTNEED), read() x N, close"))?;
        let m = bench.measure("read", || {
            if let Err(e) = read_file(&path, &mut back, transfer) {
                failure.get_or_insert(e);
            }
        })?;
        let [fastest, slowest] = m.spread(bw);
        read_out.row_with(file_size, &m.row(|t| tasks * bw(t)), &[slowest, fastest]);
        paw_core::scratch::remove_all();

        // Every task must have done its I/O (else a failure while running, status 3) and
        // read back what it wrote (else a failed check, status 1).
        if let Some(e) = &failure {
            eprintln!("posix_io: rank {}: {} failed: {e}", paw.rank(), path.display());
        }
        let same =
            failure.is_none() && check::mismatches(&back, paw.rank(), file_size as u64, 0) == 0;
        if !paw.all_ok(failure.is_none()) {
            Err(Error::runtime(format!("an I/O call failed (files in {})", dir.display())))
        } else if !paw.all_ok(same) {
            Err(Error::check(format!(
                "data read back differs from what was written (files in {})",
                dir.display()
            )))
        } else {
            Ok(())
        }
    })
}
