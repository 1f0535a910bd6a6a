//! b_eff_io -- the effective I/O bandwidth benchmark (HLRS; Rabenseifner and Koniges, paper
//! §2.2, §3.2, §5, §6), through MPI-IO, re-implemented.
//!
//! Timed: per partition (the first n processes), access method (initial write, rewrite,
//! read) and pattern type, from MPI_File_open to MPI_File_close of the type's file, after a
//! barrier; the slowest process's time counts. Inside, each pattern of Table 2 of the type
//! in turn: in the initial write of types 0-2 as many calls as fit the pattern's share
//! T/3 x U/64 (rank 0 decides after batches that double, and broadcasts), one call when
//! U = 0; types 3 and 4 repeat type 2's counts in a segment per process and fill it up;
//! rewrite and read repeat the write's counts; every write pattern ends with MPI_File_sync.
//!
//! Reported (MB/s = 10^6 B/s): per type all bytes / the time from open to close; per access
//! the mean over types with type 0 twice; per partition 25 % write + 25 % rewrite + 50 %
//! read; b_eff_io = the maximum over partitions (also release 2.1's geometric figure).
//!
//! Ranks: any. Options: see `options::HELP` (`-h`). Files: the benchmark's files in `-p`
//! (checked absent first, removed after each partition, on error and on SIGTERM, SIGINT or
//! SIGHUP; `-keep` keeps the last partition's); in PAW_OUTPUT_DIR: b_eff_io-np_PPPP.sum, b_eff_io_<access>-part_NNNN-np_PPPP.dat
//! + .csv, the run record.

mod options;
mod plan;
mod progress;

use mpi_ext::io::{File, Mode};
use options::Options;
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::{Color, SimpleCommunicator};
use paw_core::mpi::traits::*;
use paw_core::{agree, check, vars, Column, Error, RunInfo, SuiteRun};
use plan::{Pattern, Type, MB, TYPES};
use progress::Progress;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const NAME: &str = "b_eff_io";
const TITLE: &str = "effective I/O bandwidth (b_eff_io, HLRS) through MPI-IO";
/// Scheduled time from which a result counts as valid, seconds (the paper's 15 minutes).
const VALID_T: f64 = 900.0;

/// The three access methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Access {
    Write,
    Rewrite,
    Read,
}

impl Access {
    fn name(self) -> &'static str {
        match self {
            Access::Write => "write",
            Access::Rewrite => "rewrite",
            Access::Read => "read",
        }
    }
}

/// What one pattern did in one access: calls per process, bytes of all processes, the
/// slowest process's seconds.
#[derive(Debug, Clone, Copy, Default)]
struct Done {
    calls: u64,
    bytes: u64,
    seconds: f64,
}

/// One type in one access: its patterns and the time from open to close.
#[derive(Debug, Clone, Default)]
struct TypeResult {
    patterns: Vec<(Pattern, Done)>,
    seconds: f64,
}

impl TypeResult {
    fn bytes(&self) -> u64 {
        self.patterns.iter().map(|(_, d)| d.bytes).sum()
    }
    fn bandwidth(&self) -> f64 {
        self.bytes() as f64 / self.seconds / 1e6
    }
}

fn main() -> ExitCode {
    paw_core::main(NAME, body)
}

fn body() -> paw_core::Result<()> {
    let world = paw_core::start_mpi(NAME)?;
    let opts = shared_options(&world)?;
    let root = world.rank() == 0;
    if opts.help {
        if root {
            println!("{}", options::HELP);
        }
        return Ok(());
    }
    let p = world.size() as usize;
    let run = SuiteRun::start(NAME, &world, &[vars::PAW_CHECK], None, true)?;
    let host = world.split_shared(0);
    let mem_mib = memory(&world, &host, &opts);
    let mpart = plan::mpart(mem_mib << 20);
    let table = plan::patterns(mpart);
    let partitions = if opts.partitions.is_empty() {
        plan::default_partitions(p)
    } else {
        opts.partitions.clone()
    };
    let names = file_names(&opts.dir, &opts.prefix, p);
    agree(&world, usable_dir(&opts.dir))?;
    let mine: Vec<PathBuf> = [0, 1, 2, 3]
        .iter()
        .map(|&k| names[k].clone())
        .chain([names[4 + world.rank() as usize].clone()])
        .collect();
    agree(&world, absent(if root { &names } else { &mine }))?;
    if !opts.keep {
        paw_core::scratch::register(names.clone());
    }

    let info = RunInfo { title: TITLE.into(), ..run.info().clone() };
    let mut head = info.header_lines();
    let list = |v: &[usize]| v.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ");
    head.extend([
        format!("scheduled time T: {} s per partition ({:.2} min)", opts.t, opts.t / 60.0),
        format!("partitions: {}", list(&partitions)),
        format!(
            "memory per process: {mem_mib} MiB ({}); MPART = max(2 MB, memory / 128) = {mpart} \
             bytes{}",
            if opts.mem_mib.is_some() { "-MB" } else { "default: host memory / its processes" },
            if mpart == plan::MPART_CAP { " (capped at 1 GiB)" } else { "" }
        ),
        format!(
            "files: {}/{}_type<t>[_<rank>]{}",
            opts.dir.display(),
            opts.prefix,
            if opts.keep { ", the last partition's kept (-keep)" } else { ", removed at the end" }
        ),
        format!(
            "rewrite: {}",
            if opts.rewrite_all { "every type (-rewrite)" } else { "type 0 only" }
        ),
        format!(
            "read check: {}",
            if opts.check { "every byte (-check)" } else { "first and last 8 bytes of each chunk" }
        ),
        "MB/s = 10^6 B/s; chunk sizes binary (1 MB = 2^20 B)".into(),
    ]);
    head.extend(info.environment_lines());
    let head: String = head.iter().map(|l| format!("# {l}\n")).collect();
    if root {
        print!("{head}");
    }
    let mut sum = run.text(&format!("{NAME}-np_{p:04}.sum"))?;
    sum.write(&head);
    sum.write(
        "# columns: partition access type pattern l L calls bytes seconds MB_per_s \
         (pattern all: the type from open to close)\n",
    );

    let mut buffers = Buffers::new(&table, world.rank());
    let mut progress = Progress::new(root, opts.t * partitions.len() as f64);
    let mut best: Option<(f64, usize)> = None;
    let mut defects = 0u64;
    let mut lines = String::new();
    for (i, &n) in partitions.iter().enumerate() {
        let color =
            if (world.rank() as usize) < n { Color::with_value(0) } else { Color::undefined() };
        let part = world.split_by_color_with_key(color, world.rank());
        let mut results: Vec<(Access, Vec<(Type, TypeResult)>)> = Vec::new();
        if let Some(comm) = &part {
            let mut job = Partition {
                comm,
                opts: &opts,
                names: &names,
                table: &table,
                buffers: &mut buffers,
                progress: &mut progress,
                counts: Vec::new(),
                segment: 0,
                defects: 0,
            };
            for access in [Access::Write, Access::Rewrite, Access::Read] {
                let types: Vec<Type> = match access {
                    Access::Rewrite if !opts.rewrite_all => vec![Type::Scatter],
                    _ => TYPES.to_vec(),
                };
                let mut per_type = Vec::new();
                for t in types {
                    let r = job.run_type(n, access, t);

                    per_type.push((t, r));
                }
                results.push((access, per_type));
            }
            defects += job.defects;
            if !opts.keep || i + 1 < partitions.len() {
                job.remove_files();
            }
        }
        // The processes outside the partition wait here through its T.
        paw_core::waiting_barrier(&world);
        if root {
            let (text, value) = report(n, &results);
            print!("{text}");
            lines += &text;
            for (access, per_type) in &results {
                for (t, r) in per_type {
                    let calls: u64 = r.patterns.iter().map(|(_, d)| d.calls).sum();
                    sum.write(&format!(
                        "{n} {} {} all - - {calls} {} {:.6e} {:.4}\n",
                        access.name(),
                        t.number(),
                        r.bytes(),
                        r.seconds,
                        r.bandwidth()
                    ));
                    for (pat, d) in &r.patterns {
                        sum.write(&format!(
                            "{n} {} {} {} {} {} {} {} {:.6e} {:.4}\n",
                            access.name(),
                            t.number(),
                            pat.number,
                            pat.l,
                            pat.big_l,
                            d.calls,
                            d.bytes,
                            d.seconds,
                            d.bytes as f64 / d.seconds / 1e6
                        ));
                    }
                }
            }
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, n));
            }
        }
        if root {
            write_dats(&run, n, p, &results)?;
        } else {
            write_dats(&run, n, p, &[])?;
        }
    }
    progress.finish();
    let mut total = 0u64;
    world.all_reduce_into(&defects, &mut total, SystemOperation::sum());
    if root {
        let (value, n) = best.unwrap_or((f64::NAN, p));
        let system =
            run.info().hosts().iter().map(|(h, _)| h.clone()).collect::<Vec<_>>().join(",");
        let mut reasons = Vec::new();
        if opts.t < VALID_T {
            reasons.push(format!("T = {} s is below 15 minutes per partition", opts.t));
        }
        if total > 0 {
            reasons.push(format!("the read check found {total} defective bytes"));
        }
        let mut last = format!(
            "b_eff_io = {value:.3} MB/s on {n} processes with {mem_mib} MByte/PE, scheduled time={:.2} Min, on {system}",
            opts.t / 60.0
        );
        if !reasons.is_empty() {
            last += &format!(", NOT VALID ({})", reasons.join("; "));
        }
        println!("\n{last}");
        let comment: String =
            format!("{lines}\n{last}").lines().map(|l| format!("# {l}\n")).collect();
        sum.write(&comment);
    }
    if total > 0 {
        return Err(Error::runtime(format!(
            "the read check found {total} bytes that differ from what was written"
        )));
    }
    Ok(())
}

/// Rank 0 reads the command line; every rank gets the outcome.
fn shared_options(world: &SimpleCommunicator) -> paw_core::Result<Options> {
    let size = world.size() as usize;
    let text = paw_core::parse_on_root(world, |args| {
        let check = std::env::var("PAW_CHECK").is_ok_and(|v| v.trim() == "1");
        options::parse(args, size, check).map(|o| o.encode())
    })?;
    Ok(Options::decode(&text))
}

/// Memory per process, MiB: `-MB`, else this host's memory divided by its processes, the
/// smallest over all hosts (collective).
fn memory(world: &SimpleCommunicator, host: &SimpleCommunicator, opts: &Options) -> u64 {
    if let Some(m) = opts.mem_mib {
        return m;
    }
    let mine = ((paw_core::total_memory().unwrap_or(0) >> 20) / host.size() as u64).max(1);
    let mut least = 0u64;
    world.all_reduce_into(&mine, &mut least, SystemOperation::min());
    least
}

/// Every file the run may create: one per type, type 2 one per process.
fn file_names(dir: &Path, prefix: &str, p: usize) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        [0, 1, 3, 4].iter().map(|t| dir.join(format!("{prefix}_type{t}"))).collect();
    v.extend((0..p).map(|r| dir.join(format!("{prefix}_type2_{r}"))));
    v
}

/// The type's file of `rank`.
fn file_of(names: &[PathBuf], t: Type, rank: usize) -> &Path {
    match t {
        Type::Scatter => &names[0],
        Type::Shared => &names[1],
        Type::Segmented => &names[2],
        Type::SegmentedCollective => &names[3],
        Type::Separate => &names[4 + rank],
    }
}

/// Whether the directory exists and is writable (checked on every rank).
fn usable_dir(dir: &Path) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Err(_) => Err(format!(
            "-p {:?}: no such directory; accepted: an existing, writable directory",
            dir.display().to_string()
        )),
        Ok(m) if !m.is_dir() => Err(format!(
            "-p {:?}: not a directory; accepted: an existing, writable directory",
            dir.display().to_string()
        )),
        Ok(_) => {
            let host = paw_core::mpi::environment::processor_name().unwrap_or_default();
            let probe = dir.join(format!(".b_eff_io-probe-{host}-{}", std::process::id()));
            match std::fs::File::options().write(true).create_new(true).open(&probe) {
                Ok(_) => {
                    let _ = std::fs::remove_file(&probe);
                    Ok(())
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
                Err(e) => Err(format!(
                    "-p {:?}: cannot write there ({e}); accepted: a writable directory",
                    dir.display().to_string()
                )),
            }
        }
    }
}

/// Refuses names that exist: b_eff_io never writes or deletes a file it did not create.
fn absent(names: &[PathBuf]) -> Result<(), String> {
    match names.iter().find(|n| n.exists()) {
        Some(n) => Err(format!(
            "{} exists; b_eff_io writes only files it creates (remove it, or choose -p or -f)",
            n.display()
        )),
        None => Ok(()),
    }
}

/// The write buffers, one per chunk size, each as long as the longest memory chunk of that
/// size and filled chunk by chunk with paw-core's check pattern of (rank, l); and the read
/// buffer.
struct Buffers {
    write: Vec<(usize, Vec<u8>)>,
    read: Vec<u8>,
}

impl Buffers {
    fn new(table: &[Pattern], rank: i32) -> Buffers {
        let mut write: Vec<(usize, Vec<u8>)> = Vec::new();
        for p in table {
            match write.iter_mut().find(|(l, _)| *l == p.l) {
                Some((_, b)) if b.len() >= p.big_l => {}
                Some((_, b)) => b.resize(p.big_l, 0),
                None => write.push((p.l, vec![0; p.big_l])),
            }
        }
        for (l, b) in &mut write {
            for chunk in b.chunks_mut(*l) {
                check::fill(chunk, rank, *l as u64, 0);
            }
        }
        let longest = table.iter().map(|p| p.big_l).max().unwrap_or(MB);
        Buffers { write, read: vec![0; longest] }
    }

    /// The first `len` bytes to write for chunk size `l`.
    fn data(&self, l: usize, len: usize) -> &[u8] {
        let (_, b) = self.write.iter().find(|(x, _)| *x == l).expect("a buffer per chunk size");
        &b[..len]
    }

    /// Defective bytes in the first `len` read bytes, chunks of `l`: every byte, or the
    /// first and last 8 of each chunk (paw-core's comparison, so its test hook reaches it).
    fn defects(&self, l: usize, len: usize, every_byte: bool) -> u64 {
        let want = self.data(l, len);
        let got = &self.read[..len];
        let mut bad = 0;
        for (w, g) in want.chunks(l).zip(got.chunks(l)) {
            bad += if every_byte {
                check::differences(g, w)
            } else {
                let k = 8.min(w.len());
                let e = w.len() - k;
                check::differences(&g[..k], &w[..k]) + check::differences(&g[e..], &w[e..])
            } as u64;
        }
        bad
    }
}

/// One partition's run.
struct Partition<'a> {
    comm: &'a SimpleCommunicator,
    opts: &'a Options,
    names: &'a [PathBuf],
    table: &'a [Pattern],
    buffers: &'a mut Buffers,
    progress: &'a mut Progress,
    /// Calls per process of each pattern in the initial write, by pattern number.
    counts: Vec<u64>,
    /// Segment of each process in types 3 and 4, bytes.
    segment: u64,
    defects: u64,
}

impl Partition<'_> {
    /// Opens the type's file, runs its patterns, closes it; the slowest process's time.
    fn run_type(&mut self, n: usize, access: Access, t: Type) -> TypeResult {
        let rank = self.comm.rank() as usize;
        let patterns: Vec<Pattern> = self.table.iter().filter(|p| p.kind == t).copied().collect();
        if self.counts.is_empty() {
            self.counts = vec![0; self.table.len()];
        }
        if access == Access::Write && t == Type::Segmented {
            let separate: Vec<Pattern> =
                self.table.iter().filter(|p| p.kind == Type::Separate).copied().collect();
            let calls: Vec<u64> = separate.iter().map(|p| self.counts[p.number]).collect();
            self.segment = plan::segment_size(&separate, &calls);
        }
        self.progress.show(&format!(
            "partition {n}, {}, type {} ({})",
            access.name(),
            t.number(),
            t.name()
        ));
        let path = file_of(self.names, t, rank).to_path_buf();
        let mode = match access {
            Access::Read => Mode::RDONLY,
            _ => Mode::RDWR | Mode::CREATE,
        };
        // An I/O error may strike one process inside a collective pattern: the others
        // cannot be told, and closing the file is collective, so the job ends here (the
        // files removed first).
        let fail = |what: String| -> ! {
            let (a, k, f) = (access.name(), t.number(), path.display());
            paw_core::scratch::remove_all();
            paw_core::fatal(&format!("error: partition {n}, {a} of type {k} in {f}: {what}"))
        };

        self.comm.barrier();
        let start = paw_core::mpi::time();
        let file = match t {
            Type::Separate => File::open(&SimpleCommunicator::self_comm(), &path, mode),
            _ => File::open(self.comm, &path, mode),
        }
        .unwrap_or_else(|e| fail(e.to_string()));
        let mut done = Vec::new();
        let mut base = 0u64; // type 0: bytes of all processes before this pattern
        let mut in_segment = 0u64; // types 3, 4: bytes of this process's segment so far
        for pat in patterns {
            let begun = paw_core::mpi::time();
            let (calls, bytes) =
                self.pattern(&file, access, pat, n, base, &mut in_segment).unwrap_or_else(|e| {
                    fail(format!("pattern {} (chunk {} bytes): {e}", pat.number, pat.l))
                });
            if access != Access::Read {
                file.sync().unwrap_or_else(|e| fail(e.to_string()));
            }
            let mine = paw_core::mpi::time() - begun;
            let mut slowest = 0.0;
            self.comm.all_reduce_into(&mine, &mut slowest, SystemOperation::max());
            let mut all_bytes = 0u64;
            self.comm.all_reduce_into(&bytes, &mut all_bytes, SystemOperation::sum());
            if t == Type::Scatter {
                base += all_bytes;
            }
            done.push((pat, Done { calls, bytes: all_bytes, seconds: slowest }));
        }
        file.close().unwrap_or_else(|e| fail(e.to_string()));
        let mine = paw_core::mpi::time() - start;
        let mut seconds = 0.0;
        self.comm.all_reduce_into(&mine, &mut seconds, SystemOperation::max());
        TypeResult { patterns: done, seconds }
    }

    /// One pattern: its calls in this access; returns the calls and this process's bytes.
    fn pattern(
        &mut self,
        file: &File,
        access: Access,
        pat: Pattern,
        n: usize,
        base: u64,
        in_segment: &mut u64,
    ) -> Result<(u64, u64), String> {
        let rank = self.comm.rank() as u64;
        let (l, big_l) = (pat.l, pat.big_l);
        if pat.kind == Type::Scatter {
            file.set_block_view(base + rank * l as u64, l, n * l).map_err(|e| e.to_string())?;
        }
        // The calls: fixed (segment fill-up, later accesses), or decided as they go.
        let fixed = match (access, pat.kind) {
            _ if pat.fill => {
                let left = self.segment.saturating_sub(*in_segment);
                Some(left.div_ceil(MB as u64))
            }
            (Access::Write, Type::Segmented | Type::SegmentedCollective) => {
                let twin = self
                    .table
                    .iter()
                    .find(|p| p.kind == Type::Separate && p.l == l && p.units == pat.units)
                    .expect("type 3 and 4 follow type 2");
                Some(self.counts[twin.number])
            }
            (Access::Write, _) if pat.units == 0 => Some(1),
            (Access::Write, _) => None,
            _ => Some(self.counts[pat.number]),
        };
        let budget = plan::pattern_time(self.opts.t, pat.units);
        let start = paw_core::mpi::time();
        let (mut calls, mut bytes) = (0u64, 0u64);
        loop {
            let mut batch = match fixed {
                Some(total) => total - calls,
                None => {
                    // Writes may only have reached the page cache: flush them before the
                    // clock is read, so the time per call includes getting to storage.
                    if calls > 0 {
                        file.sync().map_err(|e| e.to_string())?;
                    }
                    // Every process decides from the slowest one's clock (type 2's files
                    // do not synchronise the processes).
                    let mine = paw_core::mpi::time() - start;
                    let mut elapsed = 0.0;
                    self.comm.all_reduce_into(&mine, &mut elapsed, SystemOperation::max());
                    plan::next_batch(calls, elapsed, budget)
                }
            };
            if batch == 0 {
                break;
            }
            while batch > 0 {
                let len = if pat.fill {
                    (self.segment - *in_segment).min(MB as u64) as usize
                } else {
                    big_l
                };
                bytes += self.call(file, access, pat, len, *in_segment)? as u64;
                if matches!(pat.kind, Type::Segmented | Type::SegmentedCollective) {
                    *in_segment += len as u64;
                }
                calls += 1;
                batch -= 1;
                paw_core::watchdog::alive();
            }
            self.progress.tick();
            if fixed.is_some() {
                break;
            }
        }
        if access == Access::Write {
            self.counts[pat.number] = calls;
        }
        Ok((calls, bytes))
    }

    /// One MPI-IO call of `len` bytes; returns the bytes moved (a short transfer is an
    /// error naming the file system's likely cause).
    fn call(
        &mut self,
        file: &File,
        access: Access,
        pat: Pattern,
        len: usize,
        at: u64,
    ) -> Result<usize, String> {
        let offset = self.comm.rank() as u64 * self.segment + at;
        let moved = if access == Access::Read {
            let buf = &mut self.buffers.read[..len];
            let got = match pat.kind {
                Type::Scatter => file.read_all(buf),
                Type::Shared => file.read_ordered(buf),
                Type::Separate => file.read(buf),
                Type::Segmented => file.read_at(offset, buf),
                Type::SegmentedCollective => file.read_at_all(offset, buf),
            }
            .map_err(|e| e.to_string())?;
            let l = if pat.fill { MB } else { pat.l };
            self.defects += self.buffers.defects(l, len, self.opts.check);
            got
        } else {
            let l = if pat.fill { MB } else { pat.l };
            let data = self.buffers.data(l, len);
            match pat.kind {
                Type::Scatter => file.write_all(data),
                Type::Shared => file.write_ordered(data),
                Type::Separate => file.write(data),
                Type::Segmented => file.write_at(offset, data),
                Type::SegmentedCollective => file.write_at_all(offset, data),
            }
            .map_err(|e| e.to_string())?
        };
        if moved != len {
            return Err(format!(
                "{moved} of {len} bytes {} (a full file system, or a file size limit?)",
                if access == Access::Read { "read" } else { "written" }
            ));
        }
        Ok(moved)
    }

    /// Removes this partition's files (rank 0 the shared ones, each process its own).
    fn remove_files(&self) {
        self.comm.barrier();
        let rank = self.comm.rank() as usize;
        let _ = std::fs::remove_file(file_of(self.names, Type::Separate, rank));
        if rank == 0 {
            for t in [Type::Scatter, Type::Shared, Type::Segmented, Type::SegmentedCollective] {
                let _ = std::fs::remove_file(file_of(self.names, t, 0));
            }
        }
        self.comm.barrier();
    }
}

/// The partition's table and its b_eff_io (paper's weighting).
fn report(n: usize, results: &[(Access, Vec<(Type, TypeResult)>)]) -> (String, f64) {
    let mut out = format!(
        "\npartition {n}:\n{:<9}{:>6} {:<10}{:>16}{:>12}{:>14}\n",
        "access", "type", "", "bytes", "seconds", "MB/s"
    );
    let mut values = [0.0; 3];
    let mut write_types = Vec::new();
    let mut rewrite0 = 0.0;
    for (i, (access, per_type)) in results.iter().enumerate() {
        let mut by_type = [None; 5];
        for (t, r) in per_type {
            let bw = r.bandwidth();
            by_type[t.number()] = Some(bw);
            out += &format!(
                "{:<9}{:>6} {:<10}{:>16}{:>12.4}{:>14.3}\n",
                access.name(),
                t.number(),
                t.name(),
                r.bytes(),
                r.seconds,
                bw
            );
            match access {
                Access::Write => write_types.push(bw),
                Access::Rewrite if *t == Type::Scatter => rewrite0 = bw,
                _ => {}
            }
        }
        values[i] = plan::access_value(&by_type);
        out += &format!("{:<9} weighted (type 0 twice)    {:>42.3}\n", access.name(), values[i]);
    }
    let value = plan::partition_value(values[0], values[1], values[2]);
    let r21 = plan::release_21_value(&write_types, rewrite0, values[2]);
    out += &format!(
        "b_eff_io of partition {n} (25 % write, 25 % rewrite, 50 % read) = {value:.3} MB/s\n"
    );
    out += &format!(
        "release 2.1's figure, sqrt(mean(write types, rewrite type 0) x read) = {r21:.3} MB/s\n"
    );
    (out, value)
}

/// Per access a `.dat` of bandwidth against chunk size, a column per type (rank 0 holds
/// the results; collective).
fn write_dats(
    run: &SuiteRun,
    n: usize,
    p: usize,
    results: &[(Access, Vec<(Type, TypeResult)>)],
) -> paw_core::Result<()> {
    const UNIT: &str = "MB/s (MB = 10^6 B)";
    for access in [Access::Write, Access::Rewrite, Access::Read] {
        let mut columns = vec![Column::new("SIZE", "bytes")];
        columns.extend(TYPES.map(|t| Column::new(format!("type{}", t.number()), UNIT)));
        let notes = [
            format!("partition: {n} processes; access: {}", access.name()),
            "x: SIZE = chunk size on disk l [bytes]".to_string(),
            format!("y: bandwidth of the type's patterns with that chunk size, bytes / seconds [{UNIT}]; nan: none"),
        ];
        let file = format!("{NAME}_{}-part_{n:04}-np_{p:04}.dat", access.name());
        let mut table = run.table(&file, TITLE, &notes, &columns)?;
        let per_type =
            results.iter().find(|(a, _)| *a == access).map(|(_, v)| v.as_slice()).unwrap_or(&[]);
        let mut sizes: Vec<usize> = per_type
            .iter()
            .flat_map(|(_, r)| r.patterns.iter().filter(|(p, _)| !p.fill).map(|(p, _)| p.l))
            .collect();
        sizes.sort();
        sizes.dedup();
        for l in sizes {
            let mut row = vec![l.to_string()];
            for t in TYPES {
                let cell = per_type.iter().find(|(x, _)| *x == t).map(|(_, r)| {
                    let (b, s) = r
                        .patterns
                        .iter()
                        .filter(|(p, _)| p.l == l && !p.fill)
                        .fold((0u64, 0.0), |(b, s), (_, d)| (b + d.bytes, s + d.seconds));
                    if s > 0.0 {
                        format!("{:.4}", b as f64 / s / 1e6)
                    } else {
                        "nan".into()
                    }
                });
                row.push(cell.unwrap_or_else(|| "nan".into()));
            }
            table.row(&row);
        }
    }
    Ok(())
}
