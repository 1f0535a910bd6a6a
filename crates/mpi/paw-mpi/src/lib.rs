//! paw-mpi: what several MPI tests share beyond paw-core, so each `main.rs` keeps only its
//! own pattern: the two ping-pong kernels of PAW Tables 7.4 and 7.5, the pair of
//! `<stem>_time-np_NNNN.dat` / `<stem>_bw-np_NNNN.dat` files (or `_rate`) they write, and the
//! overlap measurement of the non-blocking collectives ([`nbc`]).
#![warn(missing_docs)]

pub mod fan;
pub mod memory;
pub mod message_rate;
pub mod nbc;
pub mod neighbor;
pub mod persistent;
pub mod rma_acc;
pub mod rma_pair;
pub mod rooted;
mod sweep;

pub use sweep::{Probe, Sweep};

pub use mpi_ext::region::{Bytes, BytesMut};
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::datatype::{Buffer, BufferMut};
use paw_core::mpi::request;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::schema::{table, NONE, SECONDS};
use paw_core::{vars, Bench, Column, Error, Paw, Policy, Singles, SizeRange, Timing, World};
use paw_core::{Extra, Files, Second, SweepFiles};

/// What the point-to-point tests check with PAW_CHECK=1.
pub const PAIR_CHECK: &str = "one more transfer of a pattern set by the sender's rank, the size \
                              and a sequence number; every receiver compares each byte it got";

/// What the collective tests check with PAW_CHECK=1.
pub const COLLECTIVE_CHECK: &str = "one more call with buffers holding patterns set by rank, \
                                    size and sequence; every task compares what it holds with \
                                    what the operation must deliver (blocks from the right \
                                    ranks; sums exact, the values chosen so that no byte \
                                    overflows)";

/// The SPEC of a blocking collective test: the binary's name, its title, the call as the
/// text says it, what SIZE means, the file stem, optionally the bandwidth's label
/// (`bandwidth = "..."`, default `bandwidth, SIZE / time per call`) and a group of
/// variables of its own; the rest (the two loops, the rank rule, formulas, variables,
/// check) is common to all. See [`Sweep::collective`].
#[macro_export]
macro_rules! collective_spec {
    ($name:expr, $title:expr, $call:expr, $size:expr, $stem:expr,
     bandwidth = $bw:literal $(, $own:expr)?) => {
        ::paw_core::Spec {
            name: $name,
            title: $title,
            timed: concat!(
                "Per sample, by default: MPI_Barrier, clock, NLOOP calls of ",
                $call,
                " back to back, a rooted call's root moving to the next task after every \
                 call (IMB's loop), clock; with PAW_COMBINE set, PAW 1.6's NLOOP x \
                 (MPI_Barrier, clock, one call, root task 0, clock). SIZE = ",
                $size,
                ". Sizes MIN_COL_SIZE, doubling, to MAX_COL_SIZE, after one untimed call at \
                 MED_COL_SIZE (PAW 1.6 section 7.1)."
            ),
            reports: concat!(
                "time per call = the sample / NLOOP, usec, by default the {ranks} \
                 in IMB's loop, where each call's data must reach the next call's root, \
                 so that no time falls below the messages the operation needs (a barrier \
                 before each call lets a task start its clock after its data left); with \
                 PAW_COMBINE=min|max|avg, PAW 1.6's loop combined by that rule (PAW 1.6's \
                 figure: min, max for Bcast and Scatter; OSU's: avg); the timing and \
                 ranks-combined lines name what was used; the medians of the minimum and \
                 maximum over tasks in TASK_MIN, TASK_MAX; ",
                $bw,
                ", MB/s (MB = 2^20 B)."
            ),
            ranks: ::paw_core::Ranks::Any,
            combine: ::paw_core::Combine::Max,
            vars: &[
                ::paw_core::vars::COL_SIZES,
                ::paw_core::vars::MEASURE,
                ::paw_core::vars::COMBINE,
                ::paw_core::vars::TAIL,
                $($own,)?
                ::paw_core::vars::CHECK,
            ],
            check: ::paw_core::Check::Data($crate::COLLECTIVE_CHECK),
            files: ::paw_core::Files::Sweep(::paw_core::SweepFiles {
                stem: $stem,
                time: "time per call",
                second: ::paw_core::Second::Bandwidth($bw),
                extra: ::paw_core::Extra::Spread,
            }),
        }
    };
    ($name:expr, $title:expr, $call:expr, $size:expr, $stem:expr $(, $own:expr)?) => {
        $crate::collective_spec!(
            $name, $title, $call, $size, $stem,
            bandwidth = "bandwidth, SIZE / time per call" $(, $own)?
        )
    };
}

/// The Spec of a pair test (task i with task i + n/2, an even count, [`PAIR_CHECK`]):
/// `pair_spec!(name, title, timed, reports, combine rule, [variables], files)`.
#[doc(hidden)]
#[macro_export]
macro_rules! pair_spec {
    ($name:expr, $title:expr, $timed:expr, $reports:expr, $combine:ident, [$($var:expr),*],
     $files:expr) => {
        ::paw_core::Spec {
            name: $name,
            title: $title,
            timed: $timed,
            reports: $reports,
            ranks: ::paw_core::Ranks::Even,
            combine: ::paw_core::Combine::$combine,
            vars: &[$($var),*],
            check: ::paw_core::Check::Data($crate::PAIR_CHECK),
            files: $files,
        }
    };
}

/// `const SPEC` from `$spec` and a `main` that runs `$run(&SPEC)`: every family member's
/// binary (the `*_main!` macros).
#[doc(hidden)]
#[macro_export]
macro_rules! spec_main {
    ($spec:expr, $run:expr) => {
        const SPEC: ::paw_core::Spec = $spec;

        fn main() -> ::std::process::ExitCode {
            $run(&SPEC)
        }
    };
}

/// The bench of an MPI-1 collective test and the roots of its calls. By default IMB's
/// loop, the maximum over tasks: calls back to back, a rooted call's root moving on after
/// every call, so that each call waits for the data of the one before. With PAW_COMBINE
/// set, PAW 1.6's loop (and OSU's): a barrier before each call, timed alone, root task 0,
/// the tasks' times combined by that rule.
pub fn collective_bench(paw: &Paw) -> paw_core::Result<(Bench<'_, World>, Roots)> {
    let imb = paw.combine_setting()?.is_none();
    let timing = if imb { Timing::Batch { ops_per_iter: 1.0 } } else { Timing::PerCall };
    let mut bench = paw.bench(timing, Policy::Calibrated)?;
    bench.singles(Singles::Separated);
    Ok((bench, Roots { rotate: imb, tasks: paw.size(), next: 0 }))
}

/// The root of each timed call of a rooted collective (see [`collective_bench`]).
#[derive(Debug, Clone)]
pub struct Roots {
    rotate: bool,
    tasks: usize,
    next: usize,
}

impl Roots {
    /// The root of the next call: task 0, or the task after the last call's root.
    pub fn take(&mut self) -> i32 {
        let root = self.next;
        if self.rotate {
            self.next = (self.next + 1) % self.tasks;
        }
        root as i32
    }
}

/// One ping-pong of PAW Table 7.5: the leader runs MPI_Send then MPI_Recv, its partner
/// MPI_Recv then MPI_Send.
#[inline]
pub fn send_pingpong<S, R>(leader: bool, partner: &Process<'_>, send: &S, recv: &mut R)
where
    S: Buffer + ?Sized,
    R: BufferMut + ?Sized,
{
    if leader {
        partner.send(send);
        partner.receive_into(recv);
    } else {
        partner.receive_into(recv);
        partner.send(send);
    }
}

/// One ping-pong of PAW Table 7.4: the leader runs MPI_Isend, MPI_Wait, MPI_Irecv,
/// MPI_Wait; its partner MPI_Irecv, MPI_Wait, MPI_Isend, MPI_Wait.
#[inline]
pub fn isend_pingpong<S, R>(leader: bool, partner: &Process<'_>, send: &S, recv: &mut R)
where
    S: Buffer + ?Sized,
    R: BufferMut + ?Sized,
{
    request::scope(|scope| {
        if leader {
            partner.immediate_send(scope, send).wait_without_status();
            partner.immediate_receive_into(scope, recv).wait_without_status();
        } else {
            partner.immediate_receive_into(scope, recv).wait_without_status();
            partner.immediate_send(scope, send).wait_without_status();
        }
    })
}

/// A ping-pong pair test's SPEC and `main` (p2p_send, p2p_isend): `pingpong_main!(send|isend,
/// name, PAW section, PAW table, file stem)`, timing [`send_pingpong`] or [`isend_pingpong`].
#[macro_export]
macro_rules! pingpong_main {
    ($kind:ident, $name:literal, $section:literal, $table:literal, $stem:literal) => {
        $crate::spec_main!(
            $crate::pair_spec!(
                $name,
                concat!(
                    $crate::pingpong_main!(@title $kind),
                    " ping-pong between task pairs (PAW 1.6 section ",
                    $section,
                    ")"
                ),
                concat!(
                    "Task i pairs with task i + n/2 (PAW Fig. 7.1). Per sample: NLOOP ping-pongs \
                     of SIZE bytes; tasks 0..n/2-1 run ",
                    $crate::pingpong_main!(@calls $kind),
                    " (PAW Table ",
                    $table,
                    "). Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE, after one untimed \
                     ping-pong at MED_P2P_SIZE."
                ),
                "one-way time = sample / (2 NLOOP), usec, {ranks} (PAW section 7); bandwidth \
                 per pair = SIZE / one-way time, MB/s (MB = 2^20 B).",
                Min,
                [::paw_core::vars::P2P_SIZES, ::paw_core::vars::MEASURE,
                 ::paw_core::vars::COMBINE, ::paw_core::vars::TAIL, ::paw_core::vars::BUFFER,
                 ::paw_core::vars::CHECK],
                $crate::pair_files($stem, "one-way time", "bandwidth per pair")
            ),
            |spec| $crate::pingpong(spec, $crate::pingpong_main!(@call $kind))
        );
    };
    (@title send) => { "MPI_Send/MPI_Recv" };
    (@title isend) => { "MPI_Isend/MPI_Irecv" };
    (@calls send) => { "MPI_Send, MPI_Recv, tasks n/2..n-1 MPI_Recv, MPI_Send" };
    (@calls isend) => {
        "MPI_Isend, MPI_Wait, MPI_Irecv, MPI_Wait, tasks n/2..n-1 MPI_Irecv, MPI_Wait, \
         MPI_Isend, MPI_Wait"
    };
    (@call send) => { |l, p, s, mut r| $crate::send_pingpong(l, p, &s, &mut r) };
    (@call isend) => { |l, p, s, mut r| $crate::isend_pingpong(l, p, &s, &mut r) };
}

/// Runs the ping-pong test `spec` describes with `kernel(leader, partner, send, recv)`
/// ([`send_pingpong`] or [`isend_pingpong`]) between each task and its partner.
pub fn pingpong(
    spec: &'static paw_core::Spec,
    kernel: impl Fn(bool, &Process<'_>, Bytes<'_>, BytesMut<'_>),
) -> std::process::ExitCode {
    paw_core::main(spec.name, || {
        let paw = Paw::init(spec)?;
        let sweep = Sweep::new(&paw, Timing::Batch { ops_per_iter: 2.0 })?;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        sweep.run_pair(true, |send, recv| kernel(pair.leader, &partner, send, recv))
    })
}

/// The two files of a pair test: `<stem>_time` (`time`, usec) and `<stem>_bw` (`bandwidth`,
/// MB/s), without spread columns.
pub const fn pair_files(stem: &'static str, time: &'static str, bandwidth: &'static str) -> Files {
    Files::Sweep(SweepFiles {
        stem,
        time,
        second: Second::Bandwidth(bandwidth),
        extra: Extra::Plain,
    })
}

/// Most bytes of receive buffers a message-rate test may hold per task.
pub const RECEIVE_LIMIT: u64 = 1 << 34;

/// WINDOW_SIZE (PAW Table 3.1: messages in flight, default 128), refused when a task would
/// need more than [`RECEIVE_LIMIT`] bytes of receive buffers (one per message in flight, of
/// MAX_P2P_SIZE bytes each, or with `one_buffer` one for all). Collective: read on rank 0
/// and shared.
pub fn window_size(paw: &Paw, sizes: &SizeRange, one_buffer: bool) -> paw_core::Result<usize> {
    let ws = paw.knob(&vars::WINDOW_SIZE)?;
    let held = if one_buffer { sizes.max } else { ws * sizes.max };
    if held > RECEIVE_LIMIT {
        return Err(Error::input(format!(
            "WINDOW_SIZE x MAX_P2P_SIZE = {ws} x {} = {held} bytes of receive buffers per task; \
             accepted: at most {RECEIVE_LIMIT} (16 GiB), or RECV_BUFFERS=one where it is read",
            sizes.max
        )));
    }
    Ok(ws as usize)
}

/// RECV_BUFFERS: whether a window's receives all go into one buffer (`one`, as osu_bw and
/// osu_bibw post them) rather than each into its own (`each`, the default). Collective.
pub fn one_receive_buffer(paw: &Paw) -> paw_core::Result<bool> {
    match paw.text(&vars::RECV_BUFFERS).as_deref() {
        None | Some("each") => Ok(false),
        Some("one") => Ok(true),
        Some(other) => Err(Error::input(format!(
            "RECV_BUFFERS={other:?} is not a choice; accepted: each (a buffer per message in \
             flight) or one (every receive into one buffer, as osu_bw)"
        ))),
    }
}

/// The start-up tests' report of `seconds` (this task's MPI_Init or MPI_Init_thread time):
/// the maximum, minimum and mean over tasks written to `time_<stem>_<TASKS>.dat` and
/// appended to `time_<stem>.dat` (one row per run), and `nprocs tMax` printed by rank 0.
pub fn startup_times(
    paw: &Paw,
    stem: &str,
    seconds: f64,
    notes: &[String],
) -> paw_core::Result<()> {
    let world = paw.world();
    let (mut max, mut min, mut sum) = (0.0, 0.0, 0.0);
    world.all_reduce_into(&seconds, &mut max, SystemOperation::max());
    world.all_reduce_into(&seconds, &mut min, SystemOperation::min());
    world.all_reduce_into(&seconds, &mut sum, SystemOperation::sum());
    let tasks = paw.size();
    let fmt = |s: f64| format!("{s:.6}");
    let row = [tasks.to_string(), fmt(max), fmt(min), fmt(sum / tasks as f64)];
    let mut notes = notes.to_vec();
    notes.push("TMAX, TMIN, TAVG: maximum, minimum and mean over tasks, seconds".to_string());
    let columns = [
        Column::new(table::TASKS, NONE),
        Column::new(table::TMAX, SECONDS),
        Column::new(table::TMIN, SECONDS),
        Column::new(table::TAVG, SECONDS),
    ];
    paw.table(&format!("time_{stem}_{tasks}.dat"), &notes, &columns, false)?.row(&row);
    paw.table(&format!("time_{stem}.dat"), &notes, &columns, true)?.row(&row);
    if paw.rank() == 0 {
        println!("{tasks} {}", fmt(max));
    }
    Ok(())
}
