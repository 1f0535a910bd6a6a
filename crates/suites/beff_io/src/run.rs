//! The measured part of b_eff_io, timed as release 2.1 times it. Per partition, access
//! method and pattern type: a barrier, MPI_File_open, a barrier (t_open); per pattern a
//! barrier, then, timed: its view, its calls (in the initial write of types 0-2 each call
//! followed by a barrier and a broadcast of rank 0's decision whether another fits),
//! MPI_File_sync after a barrier (write, rewrite), a barrier (t_pat); after the last
//! pattern MPI_File_close and a barrier (t_close; a read's close deletes the file unless
//! -keep). A type's time is t_open + the t_pat + t_close on rank 0's clock, as in 2.1.

use crate::buffers::{self, Buffers};
use crate::files::Files;
use crate::options::Options;
use crate::plan::{self, Access, Pattern, Type};
use crate::progress::Progress;
use mpi_ext::io::{File, Mode};
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::schema::MB_PER_S;

/// One pattern in one access: calls per process, bytes of all processes, seconds (t_pat),
/// and the parts of those seconds spent deciding (barriers and broadcasts) and in
/// MPI_File_sync.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Done {
    /// Calls of each process.
    pub calls: u64,
    /// Bytes of all processes.
    pub bytes: u64,
    /// The pattern's time (rank 0's clock), seconds.
    pub seconds: f64,
    /// Of which the per-call decisions, seconds.
    pub decide: f64,
    /// Of which MPI_File_sync, seconds.
    pub sync: f64,
}

/// One type in one access: its patterns, and its time from open to close.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDone {
    /// The type.
    pub kind: Type,
    /// Its patterns in order, with what each did.
    pub patterns: Vec<(Pattern, Done)>,
    /// MPI_File_open between its barriers, seconds.
    pub open: f64,
    /// MPI_File_close and the barrier after it, seconds.
    pub close: f64,
}

impl TypeDone {
    /// Bytes of all processes.
    pub fn bytes(&self) -> u64 {
        self.patterns.iter().map(|(_, d)| d.bytes).sum()
    }

    /// The type's time: open, every pattern, close, seconds.
    pub fn seconds(&self) -> f64 {
        self.open + self.patterns.iter().map(|(_, d)| d.seconds).sum::<f64>() + self.close
    }

    /// The type's bandwidth, MB/s (10^6 B/s): bytes over its time.
    pub fn bandwidth(&self) -> f64 {
        MB_PER_S.of(self.bytes() as f64 / self.seconds())
    }
}

/// One partition's results (on rank 0 complete; on every process its own counts).
#[derive(Debug, Clone, Default)]
pub struct PartitionDone {
    /// Processes.
    pub n: usize,
    /// Per access method its types.
    pub accesses: Vec<(Access, Vec<TypeDone>)>,
    /// Calls per process of each pattern in the initial write, by pattern number.
    pub reps: Vec<u64>,
    /// Types 3 and 4: the calls of patterns 0-7, the segment and the fill's bytes.
    pub segment: ([u64; 8], u64, u64),
    /// Defective chunks this process read.
    pub defects: u64,
}

impl PartitionDone {
    /// The types of `access`.
    pub fn of(&self, access: Access) -> &[TypeDone] {
        self.accesses.iter().find(|(a, _)| *a == access).map_or(&[], |(_, v)| v.as_slice())
    }

    /// The bandwidth of `kind` in `access`, if it ran.
    pub fn bandwidth(&self, access: Access, kind: Type) -> Option<f64> {
        self.of(access).iter().find(|t| t.kind == kind).map(TypeDone::bandwidth)
    }
}

/// What every partition needs: the options, the pattern table, the files, the buffers and
/// the progress display.
pub struct Run<'a> {
    /// The options.
    pub opts: &'a Options,
    /// Table 2 with this run's MPART.
    pub table: Vec<Pattern>,
    /// MPART, bytes.
    pub mpart: usize,
    /// The data files.
    pub files: &'a Files,
    /// Each partition's time Tn, seconds.
    pub tn: f64,
    /// This process's buffers.
    pub buffers: Buffers,
    /// Progress on rank 0.
    pub progress: Progress,
}

impl Run<'_> {
    /// The types of `access` (rewrite: type 0 only unless -rewrite).
    pub fn types(&self, access: Access) -> Vec<Type> {
        match access {
            Access::Rewrite if !self.opts.rewrite_all => vec![Type::Scatter],
            _ => plan::TYPES.to_vec(),
        }
    }

    /// Runs `access` on partition number `i` (`comm`: its processes), adding to `done`.
    pub fn access(
        &mut self,
        comm: &SimpleCommunicator,
        i: usize,
        access: Access,
        done: &mut PartitionDone,
    ) {
        let n = comm.size() as usize;
        done.n = n;
        if done.reps.is_empty() {
            done.reps = vec![0; self.table.len()];
        }
        let mut types = Vec::new();
        for kind in self.types(access) {
            if access == Access::Write && kind == Type::Segmented {
                done.segment = plan::segment(&self.table, &done.reps);
            }
            types.push(self.run_type(comm, i, access, kind, done));
        }
        done.accesses.push((access, types));
    }

    /// Opens the type's file, runs its patterns, closes it.
    fn run_type(
        &mut self,
        comm: &SimpleCommunicator,
        i: usize,
        access: Access,
        kind: Type,
        done: &mut PartitionDone,
    ) -> TypeDone {
        let (rank, n) = (comm.rank() as usize, comm.size() as usize);
        let opts = self.opts;
        let path = self.files.path(i, n, kind, rank);
        let mut mode = match access {
            Access::Write => Mode::RDWR | Mode::CREATE,
            Access::Rewrite => Mode::RDWR,
            Access::Read if opts.keep => Mode::RDONLY,
            Access::Read => Mode::RDONLY | Mode::DELETE_ON_CLOSE,
        };
        if opts.unique {
            mode = mode | Mode::UNIQUE_OPEN;
        }
        // An I/O error may strike one process inside a collective call: the others cannot
        // be told, and closing is collective, so the job ends here (the files removed).
        let fail = |what: String| -> ! {
            let (a, k, f) = (access.name(), kind.number(), path.display());
            paw_core::scratch::remove_all();
            paw_core::fatal(&format!("error: partition {n}, {a} of type {k} in {f}: {what}"))
        };
        let (count, segment, fill) = done.segment;
        let patterns: Vec<Pattern> =
            self.table
                .iter()
                .filter(|p| p.kind == kind)
                .map(|p| {
                    if p.fill {
                        Pattern { l: fill as usize, big_l: fill as usize, ..*p }
                    } else {
                        *p
                    }
                })
                .collect();
        // The view of scatter: each process l bytes of every n x l, from `disp` on.
        let strided = kind == Type::Scatter || (kind == Type::Shared && !opts.shared);
        let open_info = opts.hints.on_open(n, access, kind);
        let own = SimpleCommunicator::self_comm();
        let file_comm = if kind == Type::Separate { &own } else { comm };
        self.progress.show(&format!(
            "{}, partition {n}, type {} ({})",
            access.name(),
            kind.number(),
            kind.name()
        ));

        comm.barrier();
        let t = paw_core::mpi::time();
        let open = || File::open_with_info(file_comm, &path, mode, open_info.as_ref());
        let file = if access == Access::Write { paw_core::scratch::creating(open) } else { open() }
            .unwrap_or_else(|e| fail(e.to_string()));
        comm.barrier();
        let open = paw_core::mpi::time() - t;

        let mut result = TypeDone { kind, patterns: Vec::new(), open, close: 0.0 };
        let mut disp = 0u64;
        for (k, pat) in patterns.iter().enumerate() {
            // Everything a call needs, before the timing.
            let info = opts.hints.on_view(n, access, pat, self.mpart);
            let calls: Option<u64> = match (access, kind) {
                (Access::Write, Type::Scatter | Type::Shared | Type::Separate) => None,
                (Access::Write, _) if pat.fill => Some(1),
                (Access::Write, _) => Some(count[k]),
                _ => Some(done.reps[pat.number]),
            };
            let budget = plan::pattern_time(self.tn, pat.units, opts.rewrite_all);
            let len = pat.big_l;
            // Each pattern and writing access its own data; a read expects the last write's.
            let rewritten = opts.rewrite_all || kind == Type::Scatter;
            let writer = match access {
                Access::Write => 0,
                Access::Rewrite => 1,
                Access::Read => u64::from(rewritten),
            };
            self.buffers.prepare(pat, rank as i32, 3 * pat.number as u64 + writer);
            let (data, l, buf) = self.buffers.split(pat, len);
            paw_core::watchdog::step(format!(
                "partition {n}, {} of type {}, pattern {}",
                access.name(),
                kind.number(),
                pat.number
            ));
            let report = |e: mpi_ext::io::IoError| {
                format!("pattern {} (chunk {} bytes): {e}", pat.number, pat.l)
            };

            comm.barrier();
            let start = paw_core::mpi::time();
            let view = if strided {
                file.set_block_view_with(
                    disp + (rank * pat.l) as u64,
                    pat.l,
                    n * pat.l,
                    info.as_ref(),
                )
            } else if k == 0 {
                let from = if kind >= Type::Segmented { rank as u64 * segment } else { 0 };
                file.set_byte_view(from, info.as_ref())
            } else if let Some(info) = &info {
                file.set_info(info)
            } else {
                Ok(())
            };
            view.unwrap_or_else(|e| fail(report(e)));
            let (mut made, mut decide, mut bad) = (0u64, 0.0, 0u64);
            loop {
                let moved = if access == Access::Read {
                    let got = match kind {
                        Type::Scatter | Type::SegmentedCollective => file.read_all(buf),
                        Type::Shared if !opts.shared => file.read_all(buf),
                        Type::Shared => file.read_ordered(buf),
                        Type::Separate | Type::Segmented => file.read(buf),
                    };
                    let got = got.unwrap_or_else(|e| fail(report(e)));
                    let (defects, first) = buffers::defects(buf, data, l, opts.check);
                    if defects > 0 {
                        bad += defects;
                        if bad - defects < opts.errors {
                            eprintln!(
                                "b_eff_io: [{rank}] ERROR in reading: partition {n}, pattern {}, call {}, chunk {}: {defects} chunks differ from what was written",
                                pat.number,
                                made + 1,
                                first.unwrap_or(0)
                            );
                        }
                    }
                    got
                } else {
                    match kind {
                        Type::Scatter | Type::SegmentedCollective => file.write_all(data),
                        Type::Shared if !opts.shared => file.write_all(data),
                        Type::Shared => file.write_ordered(data),
                        Type::Separate | Type::Segmented => file.write(data),
                    }
                    .unwrap_or_else(|e| fail(report(e)))
                };
                if moved != len {
                    fail(report(mpi_ext::io::IoError {
                        call: "a transfer",
                        path: path.display().to_string(),
                        message: format!(
                            "{moved} of {len} bytes {} (a full file system, or a file size limit?)",
                            if access == Access::Read { "read" } else { "written" }
                        ),
                    }));
                }
                made += 1;
                paw_core::watchdog::alive();
                match calls {
                    Some(c) if made >= c => break,
                    Some(_) => {}
                    None => {
                        let d = paw_core::mpi::time();
                        comm.barrier();
                        let mut more =
                            plan::another_call(made, paw_core::mpi::time() - start, budget);
                        comm.process_at_rank(0).broadcast_into(&mut more);
                        decide += paw_core::mpi::time() - d;
                        if !more {
                            break;
                        }
                    }
                }
            }
            let mut sync = 0.0;
            if access != Access::Read {
                comm.barrier();
                let s = paw_core::mpi::time();
                file.sync().unwrap_or_else(|e| fail(report(e)));
                sync = paw_core::mpi::time() - s;
            }
            comm.barrier();
            let seconds = paw_core::mpi::time() - start;

            if strided {
                disp += (n * len) as u64 * made;
            }
            if access == Access::Write {
                done.reps[pat.number] = made;
            }
            done.defects += bad;
            let bytes = (n * len) as u64 * made;
            result.patterns.push((*pat, Done { calls: made, bytes, seconds, decide, sync }));
            self.progress.tick();
        }
        let t = paw_core::mpi::time();
        file.close().unwrap_or_else(|e| fail(e.to_string()));
        comm.barrier();
        result.close = paw_core::mpi::time() - t;
        result
    }
}
