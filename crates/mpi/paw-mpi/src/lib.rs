//! paw-mpi: what several MPI tests share beyond paw-core, so each `main.rs` keeps only its
//! own pattern: the two ping-pong kernels of PAW Tables 7.4 and 7.5, the pair of
//! `<stem>_time-np_NNNN.dat` / `<stem>_bw-np_NNNN.dat` files (or `_rate`) they write, and the
//! overlap measurement of the non-blocking collectives ([`nbc`]). This file declares the
//! modules, names what they export and holds the macros that make a binary's Spec and main
//! (`collective_spec!`, `pingpong_main!` ...); the binaries are the files of src/bin.
#![warn(missing_docs)]

mod collective;
pub mod fan;
pub mod matrix;
pub mod memory;
pub mod message_rate;
pub mod nbc;
pub mod neighbor;
mod pair;
pub mod persistent;
pub mod rma_acc;
pub mod rma_pair;
pub mod rooted;
mod startup;
mod sweep;
pub mod threads;
mod window;

pub use collective::{collective_bench, Roots, COLLECTIVE_CHECK};
pub use mpi_ext::region::{Bytes, BytesMut};
pub use pair::{isend_pingpong, pair_files, pingpong, send_pingpong, PAIR_CHECK};
pub use startup::{headline as startup_headline, startup_times};
pub use sweep::{collective_main, Probe, Sweep};
pub use window::{one_receive_buffer, window_size, RECEIVE_LIMIT};

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
            headlines: &[::paw_core::headline::TIME, ::paw_core::headline::BANDWIDTH],
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
/// `pair_spec!(name, title, timed, reports, combine rule, [variables], files)`, quoting the
/// time at the smallest size and the bandwidth at the largest (or `headlines` given last).
#[doc(hidden)]
#[macro_export]
macro_rules! pair_spec {
    ($name:expr, $title:expr, $timed:expr, $reports:expr, $combine:ident, [$($var:expr),*],
     $files:expr) => {
        $crate::pair_spec!($name, $title, $timed, $reports, $combine, [$($var),*], $files,
            &[::paw_core::headline::TIME, ::paw_core::headline::BANDWIDTH])
    };
    ($name:expr, $title:expr, $timed:expr, $reports:expr, $combine:ident, [$($var:expr),*],
     $files:expr, $headlines:expr) => {
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
            headlines: $headlines,
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
