//! IMB-NBC under mpirun: the parsed output must hold every default benchmark at every
//! process count and length, today's repetitions, overlap recomputed from its columns by
//! today's rule, t_min <= t_avg <= t_max for the pure twins, and clean checks. IMB-MPI4 (the
//! persistent collectives, timed the same way) is held to the same, on an MPI-4 library.

use paw_test::imb::{corrupted, repetitions, Block};
use paw_test::Launch;

const BIN: &str = env!("CARGO_BIN_EXE_IMB-NBC");
const MPI4: &str = env!("CARGO_BIN_EXE_IMB-MPI4");

/// The default list in today's IMB's order: (name, reduction).
const DEFAULT: [(&str, bool); 13] = [
    ("Ibcast", false),
    ("Iallgather", false),
    ("Iallgatherv", false),
    ("Igather", false),
    ("Igatherv", false),
    ("Iscatter", false),
    ("Iscatterv", false),
    ("Ialltoall", false),
    ("Ialltoallv", false),
    ("Ireduce", true),
    ("Ireduce_scatter", true),
    ("Iallreduce", true),
    ("Ibarrier", false),
];

fn lengths(hi: u32, reduction: bool) -> Vec<f64> {
    let mut l = vec![0.0];
    l.extend((0..=hi).map(|k| f64::from(1u32 << k)).filter(|&x| !reduction || x >= 4.0));
    l
}

/// Lengths and repetitions (`-iter per_sample`, 40 MiB), and the table's own invariants.
fn check_block(b: &Block, reduction: bool, hi: u32, per_sample: f64) {
    let x = if b.name.starts_with("Ibarrier") || b.name.starts_with("Barrier_persist") {
        assert_eq!(b.rows.len(), 1, "{}: one row", b.name);
        vec![0.0]
    } else {
        assert_eq!(b.col("#bytes"), lengths(hi, reduction), "{}", b.name);
        b.col("#bytes")
    };
    let want: Vec<f64> = x.iter().map(|&x| repetitions(x, per_sample, 40.0 * 1048576.0)).collect();
    assert_eq!(b.col("#repetitions"), want, "{}", b.name);
    if b.name.ends_with("_pure") {
        let (lo, hi, avg) = (b.col("t_min[usec]"), b.col("t_max[usec]"), b.col("t_avg[usec]"));
        for i in 0..lo.len() {
            assert!(
                lo[i] > 0.0 && lo[i] <= avg[i] + 0.01 && avg[i] <= hi[i] + 0.01,
                "{} {i}",
                b.name
            );
        }
        return;
    }
    let (o, p, c, v) =
        (b.col("t_ovrl[usec]"), b.col("t_pure[usec]"), b.col("t_CPU[usec]"), b.col("overlap[%]"));
    for i in 0..o.len() {
        assert!(o[i] > 0.0 && p[i] > 0.0 && c[i] >= 0.0, "{} row {i}: {:?}", b.name, b.rows[i]);
        // Today's rule: over the longer of t_pure and t_CPU, all three of one process.
        let most = p[i].max(c[i]);
        let want = (100.0 * (p[i] + c[i] - o[i]) / most).clamp(0.0, 100.0);
        let slack = 100.0 * 0.02 / most + 0.006;
        assert!((v[i] - want).abs() <= slack, "{} row {i}: overlap {} vs {want}", b.name, v[i]);
    }
}

#[test]
fn every_default_benchmark_at_2_3_4_processes() {
    for np in paw_test::task_counts(&[2, 3, 4]) {
        let (out, blocks) = paw_test::imb::run(BIN, np, "-msglog 0:12 -iter 40");
        assert!(out.stdout.contains("Intel MPI Benchmarks 2021"), "{}", out.report());
        assert!(out.stdout.contains("# Mbytes/sec                     :   10^6 bytes per second"));
        assert!(out.stdout.contains("# CPU work (overlap)"), "{}", out.report());
        let counts = match np {
            2 => vec![2],
            3 => vec![2, 3],
            _ => vec![2, 4],
        };
        let want: Vec<(&str, usize)> =
            DEFAULT.iter().flat_map(|&(n, _)| counts.iter().map(move |&q| (n, q))).collect();
        let got: Vec<(&str, usize)> =
            blocks.iter().map(|b| (b.name.as_str(), b.processes)).collect();
        assert_eq!(got, want, "np {np}");
        for b in &blocks {
            let reduction = DEFAULT.iter().find(|d| d.0 == b.name).unwrap().1;
            assert_eq!(b.idle, np - b.processes, "{} idle", b.name);
            let heads: &[&str] = if b.name == "Ibarrier" { &[] } else { &["#bytes"] };
            let mut want_cols: Vec<&str> = heads.to_vec();
            want_cols.extend([
                "#repetitions",
                "t_ovrl[usec]",
                "t_pure[usec]",
                "t_CPU[usec]",
                "overlap[%]",
            ]);
            assert_eq!(b.columns, want_cols, "{}", b.name);
            check_block(b, reduction, 12, 40.0);
        }
    }
}

/// The pure twins run only when named, with range tables; `-check` finds every received
/// buffer right (rooted collectives at root Q-1), and one flipped byte fails the run.
#[test]
fn pure_twins_run_when_named_and_the_check_holds() {
    let args =
        "-check ibcast_pure IALLTOALLV_PURE Ireduce_pure Ireduce_scatter_pure Ibarrier_pure \
                Igatherv Iscatterv Iallreduce -msglog 0:10 -iter 20";
    let (_, blocks) = paw_test::imb::run(BIN, 3, args);
    let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
    // Today's IMB runs the benchmarks in the order named, each at 2 and 3 processes.
    let want: Vec<&str> = [
        "Ibcast_pure",
        "Ialltoallv_pure",
        "Ireduce_pure",
        "Ireduce_scatter_pure",
        "Ibarrier_pure",
        "Igatherv",
        "Iscatterv",
        "Iallreduce",
    ]
    .iter()
    .flat_map(|n| [*n, *n])
    .collect();
    assert_eq!(names, want, "the order named, at 2 and 3 processes");
    for b in &blocks {
        assert!(b.col("defects").iter().all(|&d| d == 0.0), "{}: {:?}", b.name, b.rows);
        let reduction = b.name.starts_with("Ireduce") || b.name.starts_with("Iallreduce");
        check_block(b, reduction, 10, 20.0);
    }
    let (_, blocks) = paw_test::imb::run(BIN, 2, "-msglog 0:2 -iter 10");
    assert!(blocks.iter().all(|b| !b.name.ends_with("_pure")), "not in the default run");

    let args = ["-check", "-msglog", "0:3", "-iter", "10", "Iallgather", "Ialltoall_pure"];
    for b in corrupted(BIN, 3, &args) {
        let d = b.col("defects");
        assert!(d[0] == 0.0 && d[1..].iter().all(|&x| x == 1.0), "{}: {d:?}", b.name);
    }
}

#[test]
fn list_tags_the_pure_twins_and_bad_input_is_one_line() {
    let out = Launch::mpi(BIN, 2).arg("-list").run();
    out.success();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 27, "{}", out.report());
    assert_eq!(lines[1], "Ibcast");
    assert_eq!(lines[14], "Ibcast_pure (non-default)");
    assert_eq!(lines[26], "Ibarrier_pure (non-default)");
    let bad = Launch::mpi(BIN, 2).arg("Iallreduce_impure").run();
    bad.failure("unknown benchmark \"Iallreduce_impure\"");
    let bad = Launch::mpi(BIN, 2).args(["-window_size", "4"]).run();
    bad.failure("unknown option \"-window_size\"");
}

/// IMB-MPI4's default list, in today's IMB's order (Allgather_persist only when named).
const MPI4_DEFAULT: [&str; 12] = [
    "Bcast_persist",
    "Allgatherv_persist",
    "Gather_persist",
    "Gatherv_persist",
    "Scatter_persist",
    "Scatterv_persist",
    "Alltoall_persist",
    "Alltoallv_persist",
    "Reduce_persist",
    "Reduce_scatter_persist",
    "Allreduce_persist",
    "Barrier_persist",
];

/// IMB-MPI4: the default persistent collectives in today's order, IMB-NBC's tables and
/// rules, clean checks and a flipped byte caught; on a library without MPI-4 one line and
/// status 2.
#[test]
fn mpi4_runs_the_persistent_collectives_or_refuses_without_mpi_4() {
    if !paw_test::has_mpi4() {
        let out = Launch::mpi(MPI4, 2).run();
        out.failure("IMB-MPI4 needs an MPI-4 library");
        assert_eq!(out.code, Some(2), "{}", out.report());
        assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
        return;
    }
    let (out, blocks) = paw_test::imb::run(MPI4, 2, "-msglog 0:10 -iter 40 -check");
    assert!(out.stdout.contains("MPI-4 part"), "{}", out.report());
    let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, MPI4_DEFAULT);
    for b in &blocks {
        assert!(b.col("defects").iter().all(|&d| d == 0.0), "{}: {:?}", b.name, b.rows);
        let reduction = b.name.contains("educe");
        check_block(b, reduction, 10, 40.0);
    }
    let args =
        ["-check", "-msglog", "0:3", "-iter", "10", "Allgather_persist", "Alltoallv_persist_pure"];
    for b in corrupted(MPI4, 3, &args) {
        let d = b.col("defects");
        assert!(d[0] == 0.0 && d[1..].iter().all(|&x| x == 1.0), "{}: {d:?}", b.name);
    }
}

/// Today's general options as Intel's IMB-NBC reads them: `-off_cache`, `-root_shift`,
/// `-sync`, `-zero_size` change the run (header lines, no length-0 row, clean checks), and
/// `-imb_barrier`, which Intel's never hands to its kernels, is taken and said to change
/// nothing.
#[test]
fn todays_general_options_as_intels_imb_nbc_reads_them() {
    let args = "Ibcast Igather Ireduce Iallreduce_pure -msglog 1:12 -iter 50 -off_cache -1 \
                -root_shift on -sync off -zero_size off -imb_barrier on -check";
    let (out, blocks) = paw_test::imb::run(BIN, 3, args);
    assert_eq!(blocks.len(), 8, "{}", out.report());
    for b in &blocks {
        assert!(b.col("defects").iter().all(|&d| d == 0.0), "{}: {:?}", b.name, b.rows);
        let first = if b.name.contains("reduce") { 4.0 } else { 2.0 };
        assert_eq!(b.col("#bytes")[0], first, "{}: no length-0 row", b.name);
    }
    for line in [
        "# Off-cache (-off_cache)         :   8 MiB cache, 64-byte lines",
        "# Root shift (-root_shift)       :   on",
        "# Sync (-sync)                   :   off",
        "# Taken, changing nothing        :   -imb_barrier on (read by none of IMB-NBC's benchmarks)",
    ] {
        assert!(out.stdout.contains(line), "{line}\n{}", out.report());
    }
}
