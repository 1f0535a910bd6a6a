//! The file transfers: S_/P_/C_ [I]Write/[I]Read with individual (indv), explicit (expl),
//! shared and private (priv) file pointers (guide §4.2.4.1-9, Tables 9-17).
//!
//! An I/O size X is split over the processes of P_ and C_ benchmarks as IMB splits it
//! (IMB_get_rank_portion): in 4-byte units, Q nearly equal contiguous portions, the first
//! X mod Q units one more each, the last cut at X; priv's processes each move the first
//! portion, into their own files; S_ moves all X. Per length, outside the timing: the file
//! is opened (MPI_MODE_CREATE | MPI_MODE_RDWR; on MPI_COMM_SELF for S_ and priv, else on the
//! group) with its view (indv with several processes: the portion's place in every X-byte
//! block); a read benchmark finds its file prepared once per process count as IMB prepares
//! it ([`Transfer::prepare`]). Untimed, min(M, MSGSPERSAMPLE) transfers as
//! the timed ones go (today's IMB runs the kernel to estimate its repetitions first). Timed:
//! N_BARR barriers, then M transfers of the portion (explicit offsets: block i's portion)
//! and, for writes, sync-barrier-sync after all of them (aggregate) or after each
//! (non-aggregate); t = Δt / M (§5.2.8.2). A non-blocking benchmark times its blocking
//! equivalent (t_pure), reopens the file, and times M rounds of initiate / CPU_Exploit /
//! wait (t_ovrl), §5.2.8.3.

use super::cpu;
use super::{Access, Scope};
use mpi_ext::io::{File, IoError, Mode as Amode, Split, Whence};
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_imb::buffers::{test_corruption, touched};
use paw_imb::settings::IO;
use paw_imb::{Ctx, Mode, ProcessTimes, Run};
use std::path::PathBuf;

/// One file transfer benchmark on one group.
pub struct Transfer<'a> {
    ctx: Ctx<'a>,
    path: PathBuf,
    /// The file is this process's alone (S_, priv): opened on MPI_COMM_SELF.
    own: bool,
    scope: Scope,
    access: Access,
    write: bool,
    nonblocking: bool,
    /// Every length this benchmark runs, with its most repetitions: what a read's file
    /// must hold ([`Transfer::prepare`]).
    lengths: Vec<(usize, usize)>,
    /// Whether a read's file has been prepared.
    prepared: bool,
}

/// IMB-IO's BUF_VALUE(rank, i) = 10000000 (1 + rank) + i mod 10000000, as ints (§5.2.5):
/// the first `x` bytes of process `rank`'s buffer.
fn values(rank: usize, x: usize) -> Vec<u8> {
    (0..x.div_ceil(4))
        .flat_map(|i| ((10_000_000 * (1 + rank) + i % 10_000_000) as i32).to_ne_bytes())
        .take(x)
        .collect()
}

/// IMB's unit of the split, bytes (its `assign_type`, an int).
const UNIT: usize = 4;

/// Where process `rank` of `np` starts in an `x`-byte transfer split as IMB splits it,
/// and how many bytes it moves.
pub fn portion(rank: usize, np: usize, x: usize) -> (usize, usize) {
    let units = x.div_ceil(UNIT);
    let (base, extra) = (units / np, units % np);
    let (start, len) = if rank < extra {
        (rank * (base + 1) * UNIT, (base + 1) * UNIT)
    } else {
        ((rank * base + extra) * UNIT, base * UNIT)
    };
    (start.min(x), len.min(x.saturating_sub(start)))
}

fn text(e: IoError) -> String {
    e.to_string()
}

/// Whether a failed write ran out of room: Open MPI returns a short count there, ROMIO
/// (MPICH) an MPI_ERR_IO whose text carries strerror (ENOSPC, EDQUOT, EFBIG).
fn no_room(e: &IoError) -> bool {
    ["No space left on device", "Disk quota exceeded", "File too large"]
        .iter()
        .any(|m| e.message.contains(m))
}

impl<'a> Transfer<'a> {
    /// The benchmark on `ctx` with file `path` (registered for removal by the caller),
    /// run at `lengths`, each with its most repetitions.
    pub fn new(
        ctx: Ctx<'a>,
        path: PathBuf,
        own: bool,
        (scope, access): (Scope, Access),
        write: bool,
        nonblocking: bool,
        lengths: Vec<(usize, usize)>,
    ) -> Transfer<'a> {
        Transfer { ctx, path, own, scope, access, write, nonblocking, lengths, prepared: false }
    }

    /// This process's part of an `x`-byte transfer: (start in the block, bytes).
    fn part(&self, x: usize) -> (usize, usize) {
        match (self.scope, self.access) {
            (Scope::Single, _) => (0, x),
            (_, Access::Private) => (0, portion(0, self.ctx.q, x).1),
            _ => portion(self.ctx.rank, self.ctx.q, x),
        }
    }

    /// Opens the file with its view for length `x`.
    fn open(&self, x: usize) -> Result<File, String> {
        let mode = Amode::CREATE | Amode::RDWR;
        let f = paw_core::scratch::creating(|| {
            if self.own {
                File::open(&SimpleCommunicator::self_comm(), &self.path, mode)
            } else {
                File::open(self.ctx.comm, &self.path, mode)
            }
        })
        .map_err(text)?;
        // MPI_File_set_view is collective: a process with an empty portion sets a view of
        // plain bytes, as IMB does.
        let (start, len) = self.part(x);
        if self.access == Access::Individual && !self.own && x > 0 {
            let (start, len, period) = if len > 0 { (start, len, x) } else { (0, 1, 1) };
            f.set_block_view(start as u64, len, period).map_err(text)?;
        }
        if self.access == Access::Shared {
            f.seek_shared(0, Whence::Set).map_err(text)?;
        }
        Ok(f)
    }

    /// Where this process's part of transfer `i` of `x` bytes starts, explicit offsets.
    fn offset(&self, i: usize, x: usize) -> u64 {
        (i * x + self.part(x).0) as u64
    }

    /// Transfer `i`: writes `send` or reads into `recv` with this benchmark's call, blocking
    /// or not (then `between` runs while it proceeds), as (write, nonblocking) say. Returns the bytes moved.
    fn transfer(
        &self,
        f: &File,
        (i, x): (usize, usize),
        (write, nonblocking): (bool, bool),
        send: &[u8],
        recv: &mut [u8],
        between: &dyn Fn(),
    ) -> Result<usize, IoError> {
        let at = self.offset(i, x);
        let len = if write { send.len() } else { recv.len() };
        let collective = self.scope == Scope::Collective;
        if nonblocking && collective {
            let op = match (self.access, write) {
                (Access::Explicit, true) => Split::WriteAtAll(at, send),
                (Access::Explicit, false) => Split::ReadAtAll(at, recv),
                (Access::Shared, true) => Split::WriteOrdered(send),
                (Access::Shared, false) => Split::ReadOrdered(recv),
                (_, true) => Split::WriteAll(send),
                (_, false) => Split::ReadAll(recv),
            };
            return f.split_collective(op, between).map(|_| len);
        }
        if nonblocking {
            return f
                .nonblocking(|b| {
                    match (self.access, write) {
                        (Access::Explicit, true) => b.iwrite_at(at, send),
                        (Access::Explicit, false) => b.iread_at(at, recv),
                        (Access::Shared, true) => b.iwrite_shared(send),
                        (Access::Shared, false) => b.iread_shared(recv),
                        (_, true) => b.iwrite(send),
                        (_, false) => b.iread(recv),
                    }
                    between();
                })
                .map(|_| len);
        }
        match (collective, self.access, write) {
            (true, Access::Explicit, true) => f.write_at_all(at, send),
            (true, Access::Explicit, false) => f.read_at_all(at, recv),
            (true, Access::Shared, true) => f.write_ordered(send),
            (true, Access::Shared, false) => f.read_ordered(recv),
            (true, _, true) => f.write_all(send),
            (true, _, false) => f.read_all(recv),
            (false, Access::Explicit, true) => f.write_at(at, send),
            (false, Access::Explicit, false) => f.read_at(at, recv),
            (false, Access::Shared, true) => f.write_shared(send),
            (false, Access::Shared, false) => f.read_shared(recv),
            (false, _, true) => f.write(send),
            (false, _, false) => f.read(recv),
        }
    }

    /// One run of `reps` transfers of `x` bytes with the file freshly opened: an untimed
    /// pass over the same blocks (IMB 2021's iteration estimate: at most MSGSPERSAMPLE
    /// transfers, then the file pointers back at 0), N_BARR barriers, then the timed
    /// transfers and, for writes, the completion `mode` places. Returns seconds per
    /// transfer.
    fn timed(&self, mode: Mode, x: usize, reps: usize, nonblocking: bool) -> Result<f64, String> {
        let len = self.part(x).1;
        let send = values(self.ctx.rank, len);
        let mut recv = touched(0u8, if self.write { 0 } else { len });
        let f = self.open(x)?;
        let exploit: &dyn Fn() = if nonblocking { &cpu::exploit } else { &|| {} };
        let mut pass = |reps: usize| -> Result<(), String> {
            for i in 0..reps {
                let moved = self
                    .transfer(&f, (i, x), (self.write, nonblocking), &send, &mut recv, exploit)
                    .map_err(|e| self.failed(e, len))?;
                if moved != len && self.write {
                    return Err(self.short_write(moved, len));
                } else if moved != len {
                    return Err(format!(
                        "{moved} of {len} bytes read from {}",
                        self.path.display()
                    ));
                }
                if self.write && mode == Mode::NonAggregate {
                    self.complete(&f)?;
                }
            }
            if self.write && mode != Mode::NonAggregate {
                self.complete(&f)?;
            }
            Ok(())
        };
        pass(reps.min(IO.msgs_per_sample))?;
        f.seek(0, Whence::Set).map_err(text)?;
        if self.access == Access::Shared {
            // Every process's untimed transfers are done before the shared pointer moves.
            self.ctx.comm.barrier();
            f.seek_shared(0, Whence::Set).map_err(text)?;
        }
        for _ in 0..IO.n_barr {
            self.ctx.comm.barrier();
        }
        let start = paw_core::mpi::time();
        pass(reps)?;
        let seconds = (paw_core::mpi::time() - start) / reps as f64;
        f.close().map_err(text)?;
        Ok(seconds)
    }

    /// Completes the writes so far as IMB does since 3.1: MPI_File_sync, a barrier of the
    /// file's processes, MPI_File_sync (MPI's sync-barrier-sync, after which every process
    /// sees every process's data).
    fn complete(&self, f: &File) -> Result<(), String> {
        f.sync().map_err(text)?;
        self.ctx.comm.barrier();
        f.sync().map_err(text)
    }

    /// A failed transfer of `len` bytes in words, naming the file.
    fn failed(&self, e: IoError, len: usize) -> String {
        if self.write {
            self.failed_write(e, len)
        } else {
            text(e)
        }
    }

    /// A failed write of `len` bytes in words, naming the file.
    fn failed_write(&self, e: IoError, len: usize) -> String {
        if no_room(&e) {
            format!(
                "fewer than {len} bytes written to {} (no room left on its file system, or a \
                 file size limit): {e}",
                self.path.display()
            )
        } else {
            text(e)
        }
    }

    /// A write that moved `moved` of `len` bytes, in words.
    fn short_write(&self, moved: usize, len: usize) -> String {
        format!(
            "{moved} of {len} bytes written to {} (no room left on its file system, or a file \
             size limit)",
            self.path.display()
        )
    }

    /// Prepares a read benchmark's file once per process count, as IMB does
    /// (IMB_init_file), so that every length reads what was written before the first:
    /// the largest length's blocks, as many bytes as the most any length reads.
    fn prepare(&mut self) -> Result<(), String> {
        if self.prepared {
            return Ok(());
        }
        let largest = self.lengths.iter().map(|&(x, _)| x).max().unwrap_or(0);
        let bytes = self.lengths.iter().map(|&(x, reps)| reps * self.block_len(x)).max();
        self.fill(largest, bytes.unwrap_or(0))?;
        self.prepared = true;
        Ok(())
    }

    /// Writes `bytes` bytes of the blocks of length `x` as IMB writes a file for reading:
    /// one process, the file's first, writes it from the start in pieces of at most
    /// [`PREPARE_PIECE`] bytes, with no view and no sync; the file's other processes wait at
    /// a barrier for it to be closed.
    fn fill(&self, x: usize, bytes: usize) -> Result<(), String> {
        if self.own || self.ctx.rank == 0 {
            let block = self.block(x);
            let total = if block.is_empty() { 0 } else { bytes };
            let f = paw_core::scratch::creating(|| {
                File::open(
                    &SimpleCommunicator::self_comm(),
                    &self.path,
                    Amode::CREATE | Amode::RDWR,
                )
            })
            .map_err(text)?;
            let mut piece = Vec::with_capacity(total.min(PREPARE_PIECE));
            for at in (0..total).step_by(PREPARE_PIECE) {
                piece.clear();
                piece.extend((at..total.min(at + PREPARE_PIECE)).map(|i| block[i % block.len()]));
                let moved =
                    f.write_at(at as u64, &piece).map_err(|e| self.failed_write(e, piece.len()))?;
                if moved != piece.len() {
                    return Err(self.short_write(moved, piece.len()));
                }
            }
            f.close().map_err(text)?;
        }
        if !self.own {
            self.ctx.comm.barrier();
        }
        Ok(())
    }

    /// The bytes one transfer of length `x` steps through its file.
    fn block_len(&self, x: usize) -> usize {
        if self.own {
            self.part(x).1
        } else {
            x
        }
    }

    /// One `x`-byte block of the file as the benchmark's writes leave it: on a file of its
    /// own, the process's portion (a private file's is contiguous, one portion after the
    /// other); on a shared file, every process's portion in rank order, which is where its
    /// view or explicit offset places it, and the order of an ordered (collective)
    /// shared-pointer access.
    fn block(&self, x: usize) -> Vec<u8> {
        if self.own {
            values(self.ctx.rank, self.part(x).1)
        } else {
            (0..self.ctx.q).flat_map(|r| values(r, portion(r, self.ctx.q, x).1)).collect()
        }
    }
}

/// The largest write of a file's preparation for reading (IMB_init_file's `el_size`).
const PREPARE_PIECE: usize = 1 << 20;

impl Run for Transfer<'_> {
    fn measure(&mut self, mode: Mode, x: usize, reps: usize) -> Result<ProcessTimes, String> {
        if !self.write {
            self.prepare()?;
        }
        let t = self.timed(mode, x, reps, false)? * 1e6;
        if !self.nonblocking {
            return Ok(ProcessTimes { t, ..Default::default() });
        }
        self.ctx.comm.barrier();
        let t_ovrl = self.timed(mode, x, reps, true)? * 1e6;
        let cpu = cpu::calibrate(IO.target_cpu_secs).seconds * 1e6;
        Ok(ProcessTimes { t: t_ovrl, pure: t, cpu, defects: 0.0 })
    }

    /// The blocks written (by this benchmark's calls for a write benchmark), read back
    /// (by its calls for a read benchmark) and compared with the writers' buffer values:
    /// a process's own for individual, explicit, private and ordered access; any
    /// process's for the shared pointer, whose order is free. Where the processes'
    /// portions differ in length (X not a multiple of 4 Q bytes), the free order leaves no
    /// block boundary to compare at: every read must then move its whole portion, as in
    /// the timed runs.
    fn check(&mut self, mode: Mode, x: usize, reps: usize) -> Result<u64, String> {
        if x == 0 {
            return Ok(0);
        }
        // A process whose portion is empty still takes part in the collective calls.
        let (rank, q) = (self.ctx.rank, self.ctx.q);
        let len = self.part(x).1;
        let send = values(rank, len);
        if self.write {
            let f = self.open(x)?;
            for i in 0..reps {
                self.transfer(&f, (i, x), (true, self.nonblocking), &send, &mut [], &|| {})
                    .map_err(text)?;
                if mode == Mode::NonAggregate {
                    f.sync().map_err(text)?;
                }
            }
            f.sync().map_err(text)?;
            f.close().map_err(text)?;
        } else {
            // The check's blocks are this length's; the file stays long enough for the
            // timed reads of every length.
            self.fill(x, reps * self.block_len(x))?;
        }
        self.ctx.comm.barrier();
        let reading_calls = !self.write && self.nonblocking;
        let any_writer = self.access == Access::Shared && self.scope != Scope::Collective;
        let uneven = (0..q).any(|r| portion(r, q, x).1 != len && portion(r, q, x).1 > 0);
        let writers: Vec<Vec<u8>> =
            if any_writer { (0..q).map(|r| values(r, len)).collect() } else { vec![send] };
        let f = self.open(x)?;
        let mut recv = vec![0u8; len];
        let mut wrong = 0u64;
        for i in 0..reps {
            recv.iter_mut().for_each(|b| *b = 0xff);
            let moved = self
                .transfer(&f, (i, x), (false, reading_calls), &[], &mut recv, &|| {})
                .map_err(text)?;
            if i == 0 && test_corruption(rank) && len > 0 {
                recv[0] ^= 1;
            }
            if any_writer && uneven {
                wrong += (len - moved) as u64;
                continue;
            }
            let differ = |w: &Vec<u8>| recv.iter().zip(w).filter(|(a, b)| a != b).count();
            wrong += writers.iter().map(differ).min().unwrap_or(0) as u64;
        }
        f.close().map_err(text)?;
        Ok(wrong)
    }
}

impl Drop for Transfer<'_> {
    /// The file goes when the benchmark ends: its own process removes a private file,
    /// group rank 0 a shared one (every process has closed it).
    fn drop(&mut self) {
        if self.own || self.ctx.rank == 0 {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::portion;

    #[test]
    fn x_is_split_as_imb_splits_it() {
        assert_eq!((portion(0, 2, 4099), portion(1, 2, 4099)), ((0, 2052), (2052, 2047)));
        assert_eq!(
            (0..4).map(|r| portion(r, 4, 16)).collect::<Vec<_>>(),
            [(0, 4), (4, 4), (8, 4), (12, 4)]
        );
        // One unit for three processes: the first takes the byte, the others nothing.
        assert_eq!((0..3).map(|r| portion(r, 3, 1).1).collect::<Vec<_>>(), [1, 0, 0]);
        assert_eq!(portion(0, 1, 1 << 20), (0, 1 << 20));
        assert_eq!(portion(1, 2, 0), (0, 0));
    }
}
