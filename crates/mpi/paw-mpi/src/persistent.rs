//! The persistent collectives (col_pardc, col_pbct): the refusal on an MPI library without
//! MPI-4's persistent collectives, the file that puts the persistent and the plain call's
//! time per call side by side, and the test itself ([`main`]); a main is one line,
//! [`persistent_main!`](crate::persistent_main).

use mpi_ext::persistent::{allreduce_init, bcast_init, Persistent};
use paw_core::check::{self, Verdict};
use paw_core::mpi::collective::SystemOperation;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::schema::{BYTES, USEC};
use paw_core::{buffer, Family, Policy, Spec, Timing};
use paw_core::{Axis, Bench, Column, DatFile, DatSpec, Error, Measurement, Paw, World};

/// A persistent collective's SPEC and `main`: `persistent_main!(allreduce|bcast, name, file
/// stem)`.
#[macro_export]
macro_rules! persistent_main {
    ($op:ident, $name:literal, $stem:literal) => {
        $crate::spec_main!(
            $crate::persistent_spec!($name, $crate::persistent_main!(@title $op),
                concat!($crate::persistent_main!(@plain $op), "_init", $crate::persistent_main!(@init $op)),
                $crate::persistent_main!(@plain_call $op), $crate::persistent_main!(@size $op), $stem),
            |spec| $crate::persistent::main(spec, $crate::persistent_main!(@op $op), $stem)
        );
    };
    (@op allreduce) => { $crate::persistent::Op::Allreduce };
    (@op bcast) => { $crate::persistent::Op::Bcast };
    (@plain allreduce) => { "MPI_Allreduce" };
    (@plain bcast) => { "MPI_Bcast" };
    (@plain_call allreduce) => { "MPI_Allreduce" };
    (@plain_call bcast) => { "MPI_Bcast from task 0" };
    (@init allreduce) => { " (MPI_SUM over MPI_UINT8_T)" };
    (@init bcast) => { " (root task 0)" };
    (@title allreduce) => {
        "persistent MPI_Allreduce (MPI-4) against the plain call, MPI_SUM over MPI_UINT8_T of SIZE bytes"
    };
    (@title bcast) => {
        "persistent MPI_Bcast (MPI-4) against the plain call, SIZE bytes from task 0"
    };
    (@size allreduce) => { "bytes of the vector reduced" };
    (@size bcast) => { "bytes broadcast" };
}

/// A persistent collective's operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// MPI_Allreduce(_init), MPI_SUM over MPI_UINT8_T.
    Allreduce,
    /// MPI_Bcast(_init) from task 0 (only the receive buffer is used).
    Bcast,
}

/// The persistent request of `op` on `send` into `recv` (library checked by [`require`]).
fn init<'b>(
    op: Op,
    world: &'b SimpleCommunicator,
    send: &'b [u8],
    recv: &'b mut [u8],
) -> Persistent<'b> {
    match op {
        Op::Allreduce => allreduce_init(world, send, recv, SystemOperation::sum()),
        Op::Bcast => bcast_init(world, 0, recv),
    }
    .expect("required before")
}

/// Runs the test `spec` describes with `op`, its file `<stem>_time`: per size the plain
/// loop, then the persistent one; with PAW_CHECK=1 one more persistent call, every task
/// comparing what it holds with what `op` must deliver.
pub fn main(spec: &'static Spec, op: Op, stem: &str) -> std::process::ExitCode {
    paw_core::main(spec.name, || {
        let paw = Paw::init(spec)?;
        let sizes = paw.sizes(Family::Col)?;
        let mut bench = paw.bench(Timing::PerCall, Policy::Calibrated)?;
        require(spec.name)?;
        let (world, p) = (paw.world(), paw.size());
        let most = sizes.largest() as usize;
        let mut send = buffer(if op == Op::Allreduce { most } else { 0 });
        let mut recv = buffer(most);
        let send_len = |n: usize| if op == Op::Allreduce { n } else { 0 };
        let plain = |send: &[u8], recv: &mut [u8]| match op {
            Op::Allreduce => world.all_reduce_into(send, recv, SystemOperation::sum()),
            Op::Bcast => world.process_at_rank(0).broadcast_into(recv),
        };
        let mut file = file(&paw, &bench, stem)?;
        let w = sizes.med as usize;
        plain(&send[..send_len(w)], &mut recv[..w]);
        init(op, world, &send[..send_len(w)], &mut recv[..w]).run();
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let s = send_len(n);
            let plain = bench.measure(size, || plain(&send[..s], &mut recv[..n]))?;
            let mut call = init(op, world, &send[..s], &mut recv[..n]);
            let persistent = bench.measure(size, || call.run())?;
            drop(call);
            let mut wrong = 0;
            if paw.checking() {
                match op {
                    Op::Allreduce => check::fill_summand(&mut send[..n], paw.rank(), size, seq, p),
                    Op::Bcast if paw.rank() == 0 => check::fill(&mut recv[..n], 0, size, seq),
                    Op::Bcast => {}
                }
                init(op, world, &send[..s], &mut recv[..n]).run();
                wrong = match op {
                    Op::Allreduce => {
                        check::differences(&recv[..n], &check::sum_of(0..p as i32, p, size, seq))
                    }
                    Op::Bcast => check::mismatches(&recv[..n], 0, size, seq),
                };
            }
            row(&mut file, size, &persistent, &plain, paw.verdict(wrong));
        }
        paw.checks_passed()
    })
}

/// The SPEC of a persistent collective test: the binary's name, its title, the persistent
/// call, the plain call, what SIZE means and the file stem.
#[macro_export]
macro_rules! persistent_spec {
    ($name:expr, $title:expr, $init:expr, $plain:expr, $size:expr, $stem:expr) => {
        ::paw_core::Spec {
            name: $name,
            title: $title,
            timed: concat!(
                "Per size, two loops, each NLOOP x (MPI_Barrier, clock, one call, clock): \
                 persistent = MPI_Start then MPI_Wait on a request made once by ",
                $init,
                " before the size's loops (not timed; freed after them); plain = ",
                $plain,
                ". The plain loop runs first. Root task 0 in both. SIZE = ",
                $size,
                ". Sizes MIN_COL_SIZE, doubling, to MAX_COL_SIZE, after one untimed call of \
                 each at MED_COL_SIZE. Needs an MPI-4 library (MPICH 4, Open MPI 5)."
            ),
            reports: "persistent time per call, usec, {ranks} (OSU's rule for collectives); \
                 PLAIN, PLAIN_CI_LO, PLAIN_CI_HI: the plain call's median and its 95% \
                 interval over its repetitions, usec.",
            ranks: ::paw_core::Ranks::Any,
            combine: ::paw_core::Combine::Avg,
            vars: &[
                ::paw_core::vars::COL_SIZES,
                ::paw_core::vars::MEASURE,
                ::paw_core::vars::COMBINE,
                ::paw_core::vars::CHECK,
            ],
            check: ::paw_core::Check::Data($crate::COLLECTIVE_CHECK),
            files: ::paw_core::Files::Text(concat!(
                $stem,
                "_time-np_NNNN.dat (usec; PLAIN, PLAIN_CI_LO, PLAIN_CI_HI usec)"
            )),
            headlines: &[::paw_core::headline::TIME],
        }
    };
}

/// An error unless the MPI library has MPI-4's persistent collectives (call it after the
/// settings are read, so bad input is still named as such).
pub fn require(name: &str) -> paw_core::Result<()> {
    if mpi_ext::persistent::available() {
        return Ok(());
    }
    let library = paw_core::mpi_library_version();
    let library = library.split(',').next().unwrap_or_default().to_string();
    Err(Error::unavailable(format!(
        "this MPI library ({library}) lacks MPI-4's persistent collectives \
         (MPI_Allreduce_init, MPI_Bcast_init) that {name} times; accepted: an MPI-4 library \
         (MPICH 4, Open MPI 5)"
    )))
}

/// Creates `<stem>_time-np_NNNN.dat`: the persistent call's statistics and the plain
/// call's median and interval.
pub fn file(paw: &Paw, bench: &Bench<'_, World>, stem: &str) -> paw_core::Result<DatFile> {
    paw.dat(
        bench,
        DatSpec {
            file: paw.np_file(&format!("{stem}_time"), paw.size()),
            x: Axis::new("message size", BYTES),
            y: Axis::new("persistent time per call", USEC),
            notes: vec![],
            echo: true,
            extra: ["PLAIN", "PLAIN_CI_LO", "PLAIN_CI_HI"].map(|c| Column::fixed(c, USEC)).to_vec(),
        },
    )
}

/// Writes one size's row: `persistent`'s statistics, then `plain`'s median and interval.
pub fn row(
    file: &mut DatFile,
    size: u64,
    persistent: &Measurement,
    plain: &Measurement,
    v: Verdict,
) {
    let usec = |t: f64| t * 1e6;
    let p = plain.row(usec).stats;
    file.row_with(size, &persistent.row(usec).verdict(v), &[p.median, p.ci_lo, p.ci_hi]);
}
