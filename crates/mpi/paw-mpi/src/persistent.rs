//! What the persistent collectives (col_pardc, col_pbct) share: the refusal on an MPI
//! library without MPI-4's persistent collectives, and the file that puts the persistent
//! and the plain call's time per call side by side.

use paw_core::check::Verdict;
use paw_core::{Axis, Bench, Column, DatFile, DatSpec, Error, Measurement, Paw, World};

/// The SPEC of a persistent collective test: the binary's name, its title, the persistent
/// call, the plain call, what SIZE means and the file stem.
#[macro_export]
macro_rules! persistent_spec {
    ($name:literal, $title:literal, $init:literal, $plain:literal, $size:literal, $stem:literal) => {
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
            x: Axis::new("message size", "bytes"),
            y: Axis::new("persistent time per call", "usec"),
            notes: vec![],
            echo: true,
            extra: ["PLAIN", "PLAIN_CI_LO", "PLAIN_CI_HI"]
                .map(|c| Column::fixed(c, "usec"))
                .to_vec(),
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
