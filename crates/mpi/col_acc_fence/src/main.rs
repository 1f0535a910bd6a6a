//! col_acc_fence -- MPI_Accumulate into task 0 between MPI_Win_fence calls (PAW 1.6 §7.2.2).
//!
//! What is timed and reported, the task counts, the variables read, the data check and
//! the files written are stated once, in SPEC below: `-h`, the output headers and
//! doc/binaries.md are made from it.
use mpi_ext::rma::Window;
use paw_core::mpi::collective::SystemOperation;
use paw_core::{buffer, vars, Check, Combine, Family, Paw, Policy, Ranks, Spec, Timing, MB};
use paw_mpi::{accumulated, collective_files, ACC_CHECK};

const SPEC: Spec = Spec {
    name: "col_acc_fence",
    title: "MPI_Accumulate into task 0 between MPI_Win_fence calls (PAW 1.6 section 7.2.2)",
    timed: "\
Per sample: NLOOP x (MPI_Barrier, clock, epoch, clock); tasks 1..n-1 run \
MPI_Win_fence, MPI_Accumulate of SIZE bytes (MPI_UINT8_T, MPI_SUM) into task 0's \
window, MPI_Win_fence; task 0 runs MPI_Win_fence, MPI_Win_fence (PAW Table 7.2, \
section 7.2.2). Untimed: windows (MAX_COL_SIZE bytes on task 0). Sizes MIN_COL_SIZE, \
doubling, to MAX_COL_SIZE.",
    reports: "\
time per epoch = sum of the epoch times / NLOOP, usec, {ranks} (task 0's \
completion covers every contribution), with TASK_MIN, TASK_MAX; bandwidth = (n-1) x \
SIZE / time, the bytes reduced into task 0 per second, MB/s (MB = 2^20 B).",
    ranks: Ranks::AtLeast(2),
    combine: Combine::Max,
    vars: &[vars::COL_SWEEP, vars::MEASURE, vars::COMBINE, vars::CHECK],
    check: Check::Data(ACC_CHECK),
    files: "\
accfence_time-np_NNNN.dat (usec; TASK_MIN, TASK_MAX) and accfence_bw-np_NNNN.dat \
(MB/s), NNNN = tasks",
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        let sizes = paw.sweep(Family::Col)?;
        let is_target = paw.rank() == 0;
        let origins = (paw.size() - 1) as f64;
        let held = if is_target { sizes.max as usize } else { 0 };
        let mut send = buffer(sizes.max as usize);
        let win = Window::create(paw.world(), buffer(held));
        let epoch = |data: &[u8]| {
            win.fenced(|e| {
                if !is_target {
                    e.accumulate(data, 0, 0, SystemOperation::sum());
                }
            })
        };

        let mut bench = paw.bench(Timing::PerCall, Policy::Calibrated)?;
        let (mut time, mut bw) = collective_files(
            &paw,
            &bench,
            "accfence",
            "bytes reduced into task 0 per second, (n-1) x SIZE / time",
            &[],
        )?;
        for (seq, size) in sizes.sweep().into_iter().enumerate() {
            let (n, seq) = (size as usize, seq as u64);
            let m = bench.measure(size, || epoch(&send[..n]))?;
            let mut wrong = 0;
            if paw.checking() {
                wrong = accumulated(&paw, &win, &mut send[..n], size, seq, epoch);
            }
            let verdict = paw.verdict(wrong);
            time.row_with(size, &m.row(|t| t * 1e6).verdict(verdict), &m.spread(|t| t * 1e6));
            bw.row(size, &m.row(|t| origins * size as f64 / t / MB).verdict(verdict));
        }
        paw.checks_passed()
    })
}
