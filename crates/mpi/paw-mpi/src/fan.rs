//! The congestion tests of OSU 7.4 (osu_bw_fan_in, osu_bw_fan_out), PAW-style: task 0 and
//! the n-1 others at once, windows of about WINDOW_SIZE messages in flight at task 0
//! (WINDOW_SIZE / (n-1), rounded up, between task 0 and each other task).
//! A main is one line, [`fan_main!`](crate::fan_main), which makes its Spec and calls
//! [`main`].

use crate::window::window_size;
use crate::Sweep;
use mpi_ext::batch::Batch;
use paw_core::mpi::traits::*;
use paw_core::schema::{BYTES, MIB_PER_S};
use paw_core::{Column, Paw, Spec, Timing, MB};

/// A congestion test's SPEC and `main`: `fan_main!(in|out, name, file stem)`.
#[macro_export]
macro_rules! fan_main {
    ($way:ident, $name:literal, $stem:literal) => {
        $crate::spec_main!(
            ::paw_core::Spec {
                name: $name,
                title: concat!(
                    "congestion: ",
                    $crate::fan_main!(@title $way),
                    " (OSU 7.4's osu_bw_",
                    $crate::fan_main!(@osu $way),
                    ")"
                ),
                timed: concat!(
                    "Per window, at once: ",
                    $crate::fan_main!(@timed $way),
                    " (the k-th message of every sender into the receiver's k-th buffer), then MPI_Waitall; then the receiving side \
                     sends a 1-byte acknowledgement that the other side receives (OSU's \
                     definition). NLOOP windows per sample; sizes MIN_P2P_SIZE, doubling, to \
                     MAX_P2P_SIZE. Start one task per host (mpirun --map-by node) to load \
                     task 0's link."
                ),
                reports: concat!(
                    "time per message slot = sample / (NLOOP x W), usec, {ranks}; \
                     bandwidth through task 0 = (n-1) x SIZE / that time, MB/s (MB = 2^20 B); \
                     each other task's share in ",
                    $stem,
                    "_share-np_NNNN.dat: its bytes over its own time to the end of its \
                     MPI_Waitall, over every window of the size, MB/s."
                ),
                ranks: ::paw_core::Ranks::AtLeast(2),
                combine: ::paw_core::Combine::Max,
                vars: &[&[::paw_core::vars::WINDOW_SIZE], ::paw_core::vars::P2P_SWEEP,
                        ::paw_core::vars::MEASURE, ::paw_core::vars::COMBINE],
                check: ::paw_core::Check::Never,
                files: ::paw_core::Files::Sweep(::paw_core::SweepFiles {
                    stem: $stem,
                    time: "time per message slot",
                    second: ::paw_core::Second::Bandwidth("bandwidth through task 0"),
                    extra: ::paw_core::Extra::Plain,
                }),
                headlines: &[::paw_core::headline::TIME, ::paw_core::headline::BANDWIDTH],
            },
            |spec| $crate::fan::main(spec, $crate::fan_main!(@into $way), $stem)
        );
    };
    (@title in) => { "every other task sends to task 0" };
    (@title out) => { "task 0 sends to every other task" };
    (@osu in) => { "fan_in" };
    (@osu out) => { "fan_out" };
    (@timed in) => {
        "tasks 1..n-1 each post W = WINDOW_SIZE / (n-1) (rounded up) MPI_Isend to task 0, task 0 \
         (n-1) x W MPI_Irecv"
    };
    (@timed out) => {
        "task 0 posts W = WINDOW_SIZE / (n-1) (rounded up) MPI_Isend to each of tasks 1..n-1, each \
         of them W MPI_Irecv"
    };
    (@into in) => { true };
    (@into out) => { false };
}

/// Runs the test `spec` describes: into task 0 (`into`), or out of it.
pub fn main(spec: &'static Spec, into: bool, stem: &'static str) -> std::process::ExitCode {
    paw_core::main(spec.name, || {
        let paw = Paw::init(spec)?;
        let sizes = Sweep::sizes(&paw)?;
        let (n, me) = (paw.size(), paw.rank() as usize);
        let others = n - 1;
        // About WINDOW_SIZE messages in flight at task 0 (max(WINDOW_SIZE, n-1)), spread
        // over the others, so that a window's bytes and task 0's buffers do not grow with
        // the number of tasks.
        let ws = window_size(&paw, &sizes, false)?.div_ceil(others.max(1));
        // A slot per message of a window on every receiving task: task 0's fan-in receives
        // the k-th message of every sender into slot k (as OSU's fan tests share theirs).
        let slots = if (me == 0) == into { ws } else { 0 };
        let held = (slots as u128) * sizes.max as u128;
        paw.fits_in_memory(held, "WINDOW_SIZE x MAX_P2P_SIZE", "receive buffers")?;
        let timing = Timing::Batch { ops_per_iter: ws as f64 };
        let note = format!(
            "WINDOW_SIZE: {ws} messages in flight between task 0 and each of {others} \
             (WINDOW_SIZE / {others}, rounded up)"
        );
        let sweep = Sweep::start(&paw, sizes, timing, &[&note])?.scaled(others as f64);
        let max = sweep.range().max as usize;
        let (send, mut recv) = (paw_core::buffer(max), paw_core::Buffer::<u8>::zeroed(slots * max));
        let (mut batch, mut ack) = (Batch::with_capacity(others.max(1) * ws), [0u8; 1]);
        let world = paw.world();
        let zero = world.process_at_rank(0);
        let peer = |p: usize| world.process_at_rank(p as i32);
        // One window and its acknowledgement; adds this task's bytes and seconds to the end
        // of its own MPI_Waitall to `own`.
        let mut window = |size: usize, own: &mut [f64; 2]| {
            let start = paw_core::mpi::time();
            let slots = recv.chunks_exact_mut(size.max(1));
            batch.run(|b| match (me, into) {
                (0, true) => slots
                    .take(ws)
                    .for_each(|slot| b.irecv_from_each((1..n).map(peer), &mut slot[..size], 0)),
                (0, false) => {
                    (1..n).for_each(|p| (0..ws).for_each(|_| b.isend(&peer(p), &send[..size], 0)))
                }
                (_, true) => (0..ws).for_each(|_| b.isend(&zero, &send[..size], 0)),
                (_, false) => slots.take(ws).for_each(|slot| b.irecv(&zero, &mut slot[..size], 0)),
            });
            *own = [own[0] + (ws * size) as f64, own[1] + paw_core::mpi::time() - start];
            match (me, into) {
                (0, true) => (1..n).for_each(|p| peer(p).send(&ack[..])),
                (0, false) => (1..n).for_each(|p| {
                    peer(p).receive_into(&mut ack[..]);
                }),
                (_, true) => {
                    zero.receive_into(&mut ack[..]);
                }
                (_, false) => zero.send(&ack[..]),
            }
        };
        let mut table = share_table(&paw, stem, others)?;
        let mut own = [0.0; 2];
        sweep.run_measured(
            &mut own,
            |own, bench, p| {
                *own = [0.0; 2];
                let m = bench.measure(p.size, || window(p.n, own))?;
                let mut all = vec![0.0; if me == 0 { 2 * n } else { 0 }];
                if me == 0 {
                    zero.gather_into_root(&own[..], &mut all[..]);
                    let mut cells = vec![p.size.to_string()];
                    cells.extend(
                        all.chunks_exact(2).skip(1).map(|t| format!("{:.3}", t[0] / t[1] / MB)),
                    );
                    table.row(&cells);
                } else {
                    zero.gather_into(&own[..]);
                }
                Ok(m)
            },
            |_, _| 0,
        )
    })
}

/// The share file: a row per size, a column per task other than 0 (its MB/s).
fn share_table(paw: &Paw, stem: &str, others: usize) -> paw_core::Result<paw_core::Table> {
    let mut columns = vec![Column::new("SIZE", BYTES)];
    columns.extend((1..=others).map(|p| Column::new(format!("TASK{p}"), MIB_PER_S)));
    let notes = ["each task's share: its bytes over its own time to the end of its MPI_Waitall, \
                  over every window of the size [MB/s, MB = 2^20 B]"
        .to_string()];
    paw.table(&paw.np_file(&format!("{stem}_share"), paw.size()), &notes, &columns, false)
}
