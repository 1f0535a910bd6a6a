//! The six one-sided pair tests of PAW 1.6 §7.5-7.6: task i (the origin) gets SIZE bytes
//! from, or puts them into, the window of task i + n/2, in one of three kinds of epoch. A
//! main is one line, [`rma_pair_main!`](crate::rma_pair_main), which makes its Spec and calls
//! [`main`].

use crate::Sweep;
use mpi_ext::rma::Window;
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, Pair, Paw, Spec, Timing};

/// Which way the bytes go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// The origin reads the target's window (MPI_Get, MPI_Rget).
    Get,
    /// The origin writes into the target's window (MPI_Put, MPI_Rput).
    Put,
}

/// The epoch around each transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sync {
    /// Origins MPI_Win_start .. MPI_Win_complete, targets MPI_Win_post .. MPI_Win_wait.
    PostStart,
    /// MPI_Win_fence before and after, on every task.
    Fence,
    /// Request-based calls, MPI_Wait and MPI_Win_flush_all in one MPI_Win_lock_all epoch;
    /// targets time an empty loop.
    LockAll,
}

/// A one-sided pair test's SPEC and `main`: `rma_pair_main!(get|put,
/// post_start|fence|lock_all, name, PAW section, PAW table, file stem)`.
#[macro_export]
macro_rules! rma_pair_main {
    ($move:ident, $sync:ident, $name:literal, $section:literal, $table:literal, $stem:literal) => {
        $crate::spec_main!(
            $crate::rma_pair_spec!($move, $sync, $name, $section, $table, $stem),
            |spec| {
                use $crate::rma_pair::{Move, Sync};
                let how = $crate::rma_pair_spec!(@Move $move);
                $crate::rma_pair::main(spec, how, $crate::rma_pair_spec!(@Sync $sync))
            }
        );
    };
}

/// The Spec of a one-sided pair test (see [`rma_pair_main!`](crate::rma_pair_main)).
#[macro_export]
macro_rules! rma_pair_spec {
    ($move:ident, $sync:ident, $name:literal, $section:literal, $table:literal, $stem:literal) => {
        $crate::pair_spec!(
            $name,
            concat!($crate::rma_pair_spec!(@title $move $sync), " (PAW 1.6 section ", $section, ")"),
            concat!(
                "Task i (origin) ",
                $crate::rma_pair_spec!(@verb $move $sync),
                " SIZE bytes ",
                $crate::rma_pair_spec!(@way $move),
                " the window of task i + n/2",
                $crate::rma_pair_spec!(@epoch $move $sync),
                " (PAW Table ",
                $table,
                "). Untimed: window creation (MAX_P2P_SIZE bytes per task)",
                $crate::rma_pair_spec!(@groups $sync),
                ". Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE."
            ),
            $crate::rma_pair_spec!(@reports $move $sync),
            Max,
            [::paw_core::vars::P2P_SWEEP, ::paw_core::vars::MEASURE, ::paw_core::vars::COMBINE,
             ::paw_core::vars::CHECK],
            $crate::pair_files($stem, $crate::rma_pair_spec!(@per $sync), "bandwidth per pair")
        )
    };
    (@Move get) => { Move::Get };
    (@Move put) => { Move::Put };
    (@Sync post_start) => { Sync::PostStart };
    (@Sync fence) => { Sync::Fence };
    (@Sync lock_all) => { Sync::LockAll };
    (@call get post_start) => { "MPI_Get" };
    (@call put post_start) => { "MPI_Put" };
    (@call get fence) => { "MPI_Get" };
    (@call put fence) => { "MPI_Put" };
    (@call get lock_all) => { "MPI_Rget" };
    (@call put lock_all) => { "MPI_Rput" };
    (@title $m:ident post_start) => {
        concat!($crate::rma_pair_spec!(@call $m post_start),
            " with post/start/complete/wait between task pairs")
    };
    (@title $m:ident fence) => {
        concat!($crate::rma_pair_spec!(@call $m fence), " between MPI_Win_fence calls, task pairs")
    };
    (@title $m:ident lock_all) => {
        concat!($crate::rma_pair_spec!(@call $m lock_all),
            ", MPI_Wait, MPI_Win_flush_all in a lock_all epoch")
    };
    (@verb get $s:ident) => { "reads" };
    (@verb put lock_all) => { "writes" };
    (@verb put $s:ident) => { "puts" };
    (@way get) => { "from" };
    (@way put) => { "into" };
    (@epoch $m:ident post_start) => {
        concat!(" (target). Per sample: NLOOP epochs; origins run MPI_Win_start, ",
            $crate::rma_pair_spec!(@call $m post_start),
            ", MPI_Win_complete, targets MPI_Win_post, MPI_Win_wait")
    };
    (@epoch $m:ident fence) => {
        concat!(". Per sample: NLOOP epochs; origins run MPI_Win_fence, ",
            $crate::rma_pair_spec!(@call $m fence),
            ", MPI_Win_fence, targets MPI_Win_fence, MPI_Win_fence")
    };
    (@epoch $m:ident lock_all) => {
        concat!(" in a passive-target (MPI_Win_lock_all) epoch. Per sample on the origins: \
            NLOOP x (", $crate::rma_pair_spec!(@call $m lock_all),
            ", MPI_Wait, MPI_Win_flush_all); targets time an empty loop")
    };
    (@groups post_start) => { " and groups" };
    (@groups $s:ident) => { "" };
    (@per lock_all) => { "time per transfer" };
    (@per $s:ident) => { "time per epoch" };
    (@reports put post_start) => {
        "time per epoch = sample / NLOOP, usec, {ranks} (the target's MPI_Win_wait covers the \
         data's arrival); bandwidth per pair = SIZE / time per epoch, MB/s (MB = 2^20 B)."
    };
    (@reports $m:ident $s:ident) => {
        concat!($crate::rma_pair_spec!(@per $s), " = sample / NLOOP, usec, {ranks}; bandwidth \
            per pair = SIZE / ", $crate::rma_pair_spec!(@per $s), ", MB/s (MB = 2^20 B).")
    };
}

/// Runs the test `spec` describes: `how` bytes in epochs of `sync`, and with PAW_CHECK=1 one
/// more transfer of the pair pattern, compared where it landed.
pub fn main(spec: &'static Spec, how: Move, sync: Sync) -> std::process::ExitCode {
    paw_core::main(spec.name, || {
        let paw = Paw::init(spec)?;
        let sweep = Sweep::new(&paw, Timing::Batch { ops_per_iter: 1.0 })?;
        let pair = paw.pair();
        let mut data = buffer(sweep.largest());
        let win = Window::create(paw.world(), buffer(sweep.largest()));
        let test = Test { paw: &paw, win: &win, pair, how };
        match sync {
            Sync::LockAll => sweep.run_measured(
                &mut data,
                |data, bench, p| match pair.leader {
                    true => win.locked_all(|epoch| {
                        bench.measure(p.size, || {
                            match how {
                                Move::Get => epoch.rget_wait(&mut data[..p.n], pair.partner, 0),
                                Move::Put => epoch.rput_wait(&data[..p.n], pair.partner, 0),
                            }
                            epoch.flush_all();
                        })
                    }),
                    false => bench.measure(p.size, || {}),
                },
                |data, p| test.check_passive(&mut data[..p.n], p.size, p.seq),
            ),
            _ => {
                let group = paw.world().group().include(&[pair.partner]);
                let epoch = |data: &mut [u8]| match sync {
                    Sync::Fence => win.fenced(|e| {
                        if pair.leader {
                            test.transfer(e, data);
                        }
                    }),
                    _ if pair.leader => win.access(&group, |e| test.transfer(e, data)),
                    _ => win.exposed(&group, || ()),
                };
                sweep.run(
                    &mut data,
                    |data, n| epoch(&mut data[..n]),
                    |data, p| test.check_active(&mut data[..p.n], p.size, p.seq, &epoch),
                )
            }
        }
    })
}

/// What the check of a pair needs.
struct Test<'a> {
    paw: &'a Paw,
    win: &'a Window<u8>,
    pair: Pair,
    how: Move,
}

impl Test<'_> {
    /// The origin's transfer in an active-target epoch.
    fn transfer<'s>(&self, e: &mpi_ext::rma::Epoch<'s, '_, u8>, data: &'s mut [u8]) {
        match self.how {
            Move::Get => e.get(data, self.pair.partner, 0),
            Move::Put => e.put(data, self.pair.partner, 0),
        }
    }

    /// One more active-target epoch (`epoch`) moving the pattern; the wrong bytes where it
    /// landed. A get's pattern is exposed by the target; the epoch's opening orders it first.
    fn check_active(
        &self,
        data: &mut [u8],
        size: u64,
        seq: u64,
        epoch: &dyn Fn(&mut [u8]),
    ) -> usize {
        check::fill(data, self.paw.rank(), size, seq);
        if self.how == Move::Get {
            self.win.store(0, data);
        }
        epoch(data);
        self.landed(data, size, seq)
    }

    /// The same in a passive-target epoch: a local store, or a put, reaches the other side's
    /// view at its own lock or sync.
    fn check_passive(&self, data: &mut [u8], size: u64, seq: u64) -> usize {
        let partner = self.pair.partner;
        check::fill(data, self.paw.rank(), size, seq);
        match self.how {
            Move::Get => {
                self.win.store(0, data);
                self.win.sync_local();
                self.paw.world().barrier();
                if self.pair.leader {
                    self.win.locked_all(|e| e.rget(data, partner, 0).wait());
                }
            }
            Move::Put => {
                if self.pair.leader {
                    self.win.locked_all(|e| e.rput(data, partner, 0).wait());
                }
                self.paw.world().barrier();
                if !self.pair.leader {
                    self.win.sync_local();
                }
            }
        }
        let wrong = self.landed(data, size, seq);
        if self.how == Move::Get {
            self.paw.world().barrier();
        }
        wrong
    }

    /// The wrong bytes where the pattern landed: the origin's buffer after a get, the
    /// target's window after a put; 0 on the other side.
    fn landed(&self, data: &mut [u8], size: u64, seq: u64) -> usize {
        let lands_here = (self.how == Move::Get) == self.pair.leader;
        if !lands_here {
            return 0;
        }
        if self.how == Move::Put {
            self.win.load(0, data);
        }
        check::mismatches(data, self.pair.partner, size, seq)
    }
}
