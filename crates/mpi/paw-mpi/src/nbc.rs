//! What the non-blocking collectives (col_iardc, col_ia2a, col_ibct, col_iagtr,
//! col_ibarrier) share: per size the pure communication time, the time with a computation
//! between the start and the wait, the computation's time inside it, and OSU's overlap, in one
//! `<stem>_time-np_NNNN.dat`. The four with a size are one line each,
//! [`nbc_main!`](crate::nbc_main), which makes the Spec and calls [`main`].

use paw_core::check::{self, Verdict};
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::request;
use paw_core::mpi::traits::*;
use paw_core::schema::{sweep, BYTES, PERCENT, USEC};
use paw_core::work::Exploit;
use paw_core::{buffer, Family, Spec};
use paw_core::{
    Axis, Bench, Column, DatFile, DatSpec, Paw, Policy, Stats, Team, Timing, Var, World,
};

/// NBC_COMPUTE: how long the computation between start and wait lasts.
pub const NBC_COMPUTE: Var = Var {
    name: "NBC_COMPUTE",
    default: "100",
    meaning: "computation between each call's start and wait, percent of the size's pure \
              communication time (0: none; no overlap is measured)",
    accepts: paw_core::vars::Accepts::Whole(0, 1000),
};

/// The variables only the non-blocking collectives read.
pub const NBC: &[Var] = &[NBC_COMPUTE];

/// What the overall loop does after the post, and the computation, in the words of a
/// SPEC's `timed` (a literal, for `concat!`).
#[doc(hidden)]
#[macro_export]
macro_rules! nbc_overall {
    () => {
        ", the computation (timed on its own inside the call, as OSU does), MPI_Wait. The \
         computation is passes of a 10 x 10 float matrix-vector product, as many as fill \
         NBC_COMPUTE % of the pure median at this task's rate, with no MPI call inside."
    };
}

/// The `reports` of a non-blocking collective's SPEC.
#[doc(hidden)]
#[macro_export]
macro_rules! nbc_reports {
    () => {
        "pure communication time per call, usec, {ranks} (OSU's rule for collectives); \
         OVERALL: median over the repetitions of the overall loop, usec; COMPUTE: the \
         computation's mean time inside the overall loop's calls, combined over tasks by the \
         same rule, usec; OVERLAP = max(0, 100 - 100 (OVERALL - COMPUTE) / MEDIAN), held to \
         at most 100, % (OSU 7.4's definition, from the row's own columns); with \
         NBC_COMPUTE=0 the file has no OVERALL, COMPUTE or OVERLAP and says that no \
         computation was configured."
    };
}

/// The SPEC of a non-blocking collective test: the binary's name, its title, the call as
/// the text says it, what SIZE means and the file stem.
#[macro_export]
macro_rules! nbc_spec {
    ($name:expr, $title:expr, $call:expr, $size:expr, $stem:expr) => {
        ::paw_core::Spec {
            name: $name,
            title: $title,
            timed: concat!(
                "Two loops per size, each NLOOP x (MPI_Barrier, clock, one call, clock): \
                 pure = ",
                $call,
                " then MPI_Wait; overall = ",
                $call,
                $crate::nbc_overall!(),
                " SIZE = ",
                $size,
                ". Sizes MIN_COL_SIZE, doubling, to MAX_COL_SIZE, after one untimed call at \
                 MED_COL_SIZE."
            ),
            reports: $crate::nbc_reports!(),
            ranks: ::paw_core::Ranks::Any,
            combine: ::paw_core::Combine::Avg,
            vars: &[
                ::paw_core::vars::COL_SIZES,
                ::paw_core::vars::MEASURE,
                ::paw_core::vars::COMBINE,
                $crate::nbc::NBC,
                ::paw_core::vars::CHECK,
            ],
            check: ::paw_core::Check::Data($crate::COLLECTIVE_CHECK),
            files: ::paw_core::Files::Text(concat!(
                $stem,
                "_time-np_NNNN.dat (usec; OVERALL, COMPUTE usec, OVERLAP %)"
            )),
            headlines: &[::paw_core::headline::TIME],
        }
    };
}

/// A sized non-blocking collective's SPEC and `main`: `nbc_main!(allreduce|alltoall|bcast|
/// allgather, name, file stem)`.
#[macro_export]
macro_rules! nbc_main {
    ($op:ident, $name:literal, $stem:literal) => {
        // libnbc's schedules meet the program's allocations in the C library's heap otherwise.
        ::paw_core::own_heap!();
        $crate::spec_main!(
            $crate::nbc_spec!($name, $crate::nbc_main!(@title $op),
                $crate::nbc_main!(@call $op), $crate::nbc_main!(@size $op), $stem),
            |spec| $crate::nbc::main(spec, $crate::nbc_main!(@op $op), $stem)
        );
    };
    (@op allreduce) => { $crate::nbc::Op::Allreduce };
    (@op alltoall) => { $crate::nbc::Op::Alltoall };
    (@op bcast) => { $crate::nbc::Op::Bcast };
    (@op allgather) => { $crate::nbc::Op::Allgather };
    (@call allreduce) => { "MPI_Iallreduce (MPI_SUM over MPI_UINT8_T)" };
    (@call alltoall) => { "MPI_Ialltoall" };
    (@call bcast) => { "MPI_Ibcast from task 0" };
    (@call allgather) => { "MPI_Iallgather" };
    (@title allreduce) => { concat!("MPI_Iallreduce (MPI_SUM over MPI_UINT8_T) of SIZE bytes", $crate::nbc_main!(@overlap)) };
    (@title alltoall) => { concat!("MPI_Ialltoall of SIZE bytes between every pair of tasks", $crate::nbc_main!(@overlap)) };
    (@title bcast) => { concat!("MPI_Ibcast of SIZE bytes from task 0", $crate::nbc_main!(@overlap)) };
    (@title allgather) => { concat!("MPI_Iallgather of SIZE bytes from every task to every task", $crate::nbc_main!(@overlap)) };
    (@overlap) => { ": pure time and overlap with computation" };
    (@size allreduce) => { "bytes of the vector reduced" };
    (@size alltoall) => { "bytes each task sends to each task" };
    (@size bcast) => { "bytes broadcast" };
    (@size allgather) => { "bytes each task contributes (each receives SIZE x tasks)" };
}

/// The operation of a sized non-blocking collective.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// MPI_Iallreduce, MPI_SUM over MPI_UINT8_T, SIZE bytes.
    Allreduce,
    /// MPI_Ialltoall, SIZE bytes to each task.
    Alltoall,
    /// MPI_Ibcast of SIZE bytes from task 0.
    Bcast,
    /// MPI_Iallgather, SIZE bytes from each task.
    Allgather,
}

impl Op {
    /// The send and receive buffers' lengths at `n` bytes on `p` tasks (a broadcast has
    /// only the receive buffer).
    fn lengths(self, n: usize, p: usize) -> (usize, usize) {
        match self {
            Op::Allreduce => (n, n),
            Op::Alltoall => (n * p, n * p),
            Op::Bcast => (0, n),
            Op::Allgather => (n, n * p),
        }
    }
}

/// Runs the test `spec` describes with `op`, its file `<stem>_time`: after one untimed call at MED_COL_SIZE, per
/// size the [`Overlap`] measurement and, with PAW_CHECK=1, one more call of patterns that
/// every task compares with what `op` must deliver.
pub fn main(spec: &'static Spec, op: Op, stem: &str) -> std::process::ExitCode {
    paw_core::main(spec.name, || {
        let paw = Paw::init(spec)?;
        let sizes = paw.sizes(Family::Col)?;
        let (world, p, me) = (paw.world(), paw.size(), paw.rank());
        let root = world.process_at_rank(0);
        let (most_send, most_recv) = op.lengths(sizes.largest() as usize, p);
        let (mut send, mut recv) = (buffer(most_send), buffer(most_recv));
        let call = |n: usize, send: &[u8], recv: &mut [u8], between: &mut dyn FnMut()| {
            let (s, r) = op.lengths(n, p);
            let (send, recv) = (&send[..s], &mut recv[..r]);
            request::scope(|scope| match op {
                Op::Allreduce => {
                    let sum = SystemOperation::sum();
                    let started = world.immediate_all_reduce_into(scope, send, recv, sum);
                    between();
                    started.wait();
                }
                Op::Alltoall => {
                    let started = world.immediate_all_to_all_into(scope, send, recv);
                    between();
                    started.wait();
                }
                Op::Bcast => {
                    let started = root.immediate_broadcast_into(scope, recv);
                    between();
                    started.wait();
                }
                Op::Allgather => {
                    let started = world.immediate_all_gather_into(scope, send, recv);
                    between();
                    started.wait();
                }
            })
        };

        let mut overlap = Overlap::new(&paw, stem)?;
        call(sizes.med as usize, &send, &mut recv, &mut || {});
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let sample = overlap.measure(size, |between| call(n, &send, &mut recv, between))?;
            let mut wrong = 0;
            if paw.checking() {
                let (s, r) = op.lengths(n, p);
                let (sent, got) = (&mut send[..s], &mut recv[..r]);
                let from = |block: usize| match op {
                    // Block j goes from task j to this task: its pattern names both ends.
                    Op::Alltoall => (block * p) as i32 + me,
                    _ => block as i32,
                };
                match op {
                    Op::Allreduce => check::fill_summand(sent, me, size, seq, p),
                    Op::Alltoall => {
                        for (to, block) in sent.chunks_exact_mut(n).enumerate() {
                            check::fill(block, me * p as i32 + to as i32, size, seq);
                        }
                    }
                    Op::Bcast if me == 0 => check::fill(got, 0, size, seq),
                    Op::Bcast => {}
                    Op::Allgather => check::fill(sent, me, size, seq),
                }
                call(n, &send, &mut recv, &mut || {});
                let got = &recv[..r];
                wrong = match op {
                    Op::Allreduce => {
                        check::differences(got, &check::sum_of(0..p as i32, p, size, seq))
                    }
                    Op::Bcast => check::mismatches(got, 0, size, seq),
                    _ => got
                        .chunks_exact(n)
                        .enumerate()
                        .map(|(b, block)| check::mismatches(block, from(b), size, seq))
                        .sum(),
                };
            }
            overlap.row(size, &sample, paw.verdict(wrong));
        }
        paw.checks_passed()
    })
}

/// The words of the file and the terminal when NBC_COMPUTE is 0.
pub const NO_COMPUTATION: &str = "overlap: not measured, no computation configured (NBC_COMPUTE=0)";

/// One size's three loops.
#[derive(Debug, Clone)]
pub struct Sample {
    pure: paw_core::Measurement,
    /// The overall median and the computation's mean inside it, seconds, when a
    /// computation is configured.
    overlapped: Option<(f64, f64)>,
}

/// OSU 7.4's overlap, %: max(0, 100 - 100 (overall - compute) / pure), held to at most 100.
pub fn overlap_percent(pure: f64, overall: f64, compute: f64) -> f64 {
    (100.0 - 100.0 * (overall - compute) / pure).clamp(0.0, 100.0)
}

/// The measurement and the file of a non-blocking collective test.
#[derive(Debug)]
pub struct Overlap<'p> {
    bench: Bench<'p, World>,
    team: &'p World,
    file: DatFile,
    percent: u64,
    work: Exploit,
}

impl<'p> Overlap<'p> {
    /// Reads NBC_COMPUTE and creates `<stem>_time-np_NNNN.dat` (collective).
    pub fn new(paw: &'p Paw, stem: &str) -> paw_core::Result<Overlap<'p>> {
        let percent = paw.knob(&NBC_COMPUTE)?;
        let bench = paw.bench(Timing::PerCall, Policy::Calibrated)?;
        let rate = paw_core::work::rate();
        let mut notes = vec![format!(
            "computation: {:.0} Mflop/s on task 0 ({:.0} passes per second)",
            rate.mflops, rate.passes_per_second
        )];
        let extra = if percent == 0 {
            notes.push(NO_COMPUTATION.to_string());
            if paw.rank() == 0 {
                println!("{NO_COMPUTATION}");
            }
            vec![]
        } else {
            vec![
                Column::fixed(sweep::OVERALL, USEC),
                Column::fixed(sweep::COMPUTE, USEC),
                Column::fixed(sweep::OVERLAP, PERCENT),
            ]
        };
        let file = paw.dat(
            &bench,
            DatSpec {
                file: paw.np_file(&format!("{stem}_time"), paw.size()),
                x: Axis::new("message size", BYTES),
                y: Axis::new("pure communication time per call", USEC),
                notes,
                echo: true,
                extra,
            },
        )?;
        Ok(Overlap { bench, team: paw.team(), file, percent, work: Exploit::new() })
    }

    /// Measures one size. `call(between)` starts the operation, runs `between`, waits for
    /// it (collective: every task calls this with its side).
    pub fn measure(
        &mut self,
        size: u64,
        mut call: impl FnMut(&mut dyn FnMut()),
    ) -> paw_core::Result<Sample> {
        let pure = self.bench.measure(size, || call(&mut || {}))?;
        if self.percent == 0 {
            return Ok(Sample { pure, overlapped: None });
        }
        // The combined median is the same on every task: all compute for the same time.
        let target = median(&pure.per_op) * self.percent as f64 / 100.0;
        let passes = Exploit::passes_for(target);
        let (team, work) = (self.team, &mut self.work);
        let (mut spent, mut calls) = (0.0, 0u64);
        let overall = self.bench.measure(size, || {
            call(&mut || {
                let t0 = team.now();
                work.run(passes);
                spent += team.now() - t0;
                calls += 1;
            })
        })?;
        let compute = team.combine(&[spent / calls as f64], self.bench.combine())[0];
        Ok(Sample { pure, overlapped: Some((median(&overall.per_op), compute)) })
    }

    /// Writes the row of one size.
    pub fn row(&mut self, size: u64, sample: &Sample, verdict: Verdict) {
        let usec = |t: f64| t * 1e6;
        let extra = match sample.overlapped {
            Some((overall, compute)) => {
                let pure = median(&sample.pure.per_op);
                vec![usec(overall), usec(compute), overlap_percent(pure, overall, compute)]
            }
            None => vec![],
        };
        self.file.row_with(size, &sample.pure.row(usec).verdict(verdict), &extra);
    }
}

fn median(samples: &[f64]) -> f64 {
    Stats::of(samples).median
}

#[cfg(test)]
mod tests {
    use super::overlap_percent;

    #[test]
    fn overlap_follows_osu_and_stays_within_0_and_100() {
        // Nothing hidden: overall = pure + compute.
        assert_eq!(overlap_percent(10.0, 20.0, 10.0), 0.0);
        // All hidden: overall = compute.
        assert_eq!(overlap_percent(10.0, 10.0, 10.0), 100.0);
        assert!((overlap_percent(10.0, 15.0, 10.0) - 50.0).abs() < 1e-12);
        // Worse than serial, or faster than the computation alone (noise): held to the range.
        assert_eq!(overlap_percent(10.0, 30.0, 10.0), 0.0);
        assert_eq!(overlap_percent(10.0, 9.0, 10.0), 100.0);
    }
}
