//! col_agtr -- MPI_Allgather of SIZE bytes from every task to every task, timed call by call (PAW
//! 1.6 §7.1).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use paw_core::mpi::traits::*;
use paw_core::{buffer, check, vars, Check, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{collective_files, COLLECTIVE_CHECK};

const SPEC: Spec = Spec {
    name: "col_agtr",
    title: "MPI_Allgather of SIZE bytes from every task to every task, timed call by call (PAW 1.6 section 7.1)",
    timed: "\
Per sample: NLOOP x (MPI_Barrier, clock, MPI_Allgather, clock), every task timing its \
own calls; SIZE = bytes each task contributes (each receives SIZE x tasks). Sizes \
MIN_COL_SIZE, doubling, to MAX_COL_SIZE, after one untimed call at MED_COL_SIZE (PAW \
1.6 section 7.1).",
    reports: "\
time per call = sum of the call times / NLOOP, usec, minimum over tasks (PAW section \
7.1), with the medians of the minimum and maximum over tasks in TASK_MIN, TASK_MAX; \
bandwidth = SIZE / time per call, MB/s (MB = 2^20 B).",
    ranks: Ranks::Any,
    vars: &[vars::COL_SIZES, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(COLLECTIVE_CHECK),
    files: "\
agtr_time-np_NNNN.dat (usec; TASK_MIN, TASK_MAX) and agtr_bw-np_NNNN.dat (MB/s), NNNN \
= tasks",
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sizes(Family::Col)?;
        let world = paw.world();
        let p = paw.size();
        let most = sizes.largest() as usize;
        let mut send = buffer(most);
        let mut recv = buffer(most * p);
        let call = |send: &[u8], recv: &mut [u8]| world.all_gather_into(send, recv);

        let mut bench = paw.bench(Timing::PerCall, Combine::Min, Policy::Calibrated)?;
        let (mut time, mut bw) =
            collective_files(&paw, &bench, "agtr", "bandwidth, SIZE / time per call", &[])?;
        let w = sizes.med as usize;
        call(&send[..w], &mut recv[..w * p]);
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let m = bench.measure(size, || call(&send[..n], &mut recv[..n * p]))?;
            let mut wrong = 0;
            if paw.checking() {
                check::fill(&mut send[..n], paw.rank(), size, seq);
                call(&send[..n], &mut recv[..n * p]);
                for (from, block) in recv[..n * p].chunks_exact(n).enumerate() {
                    wrong += check::mismatches(block, from as i32, size, seq);
                }
            }
            let verdict = paw.verdict(wrong);
            time.row_with(size, &m.row(|t| t * 1e6).verdict(verdict), &m.spread(|t| t * 1e6));
            bw.row(size, &m.row(|t| size as f64 / t / MB).verdict(verdict));
        }
        paw.checks_passed()
    })
}
