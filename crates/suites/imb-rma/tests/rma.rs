//! IMB-RMA under mpirun: the parsed output must hold every default benchmark at its process
//! counts, modes and lengths, today's repetitions, consistent times and throughputs, and
//! clean checks.

use paw_test::imb::{corrupted, repetitions, Block};
use paw_test::Launch;

const BIN: &str = env!("CARGO_BIN_EXE_IMB-RMA");

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// Two processes, both modes, `t[usec] Mbytes/sec`.
    Pair,
    /// Two processes, both modes, one row at 4 bytes.
    Element,
    /// Every process count, `t[usec] Mbytes/sec`.
    OneToAll,
    /// Every process count, t_min/t_max/t_avg.
    Collective,
    /// Two processes, `t_pure[usec] t_ovrl[usec]`.
    Passive,
}

/// The default list in today's IMB's order: (name, kind, reduction).
const DEFAULT: [(&str, Kind, bool); 17] = [
    ("Unidir_put", Kind::Pair, false),
    ("Unidir_get", Kind::Pair, false),
    ("Bidir_put", Kind::Pair, false),
    ("Bidir_get", Kind::Pair, false),
    ("One_put_all", Kind::OneToAll, false),
    ("One_get_all", Kind::OneToAll, false),
    ("All_put_all", Kind::Collective, false),
    ("All_get_all", Kind::Collective, false),
    ("Put_local", Kind::Pair, false),
    ("Put_all_local", Kind::OneToAll, false),
    ("Exchange_put", Kind::Collective, false),
    ("Exchange_get", Kind::Collective, false),
    ("Accumulate", Kind::Pair, true),
    ("Get_accumulate", Kind::Pair, true),
    ("Fetch_and_op", Kind::Element, true),
    ("Compare_and_swap", Kind::Element, true),
    ("Truly_passive_put", Kind::Passive, false),
];

fn lengths(hi: u32, reduction: bool) -> Vec<f64> {
    let mut l = vec![0.0];
    l.extend((0..=hi).map(|k| f64::from(1u32 << k)).filter(|&x| !reduction || x >= 4.0));
    l
}

fn columns(kind: Kind) -> Vec<&'static str> {
    let tail: &[&str] = match kind {
        Kind::Pair | Kind::Element | Kind::OneToAll => &["t[usec]", "Mbytes/sec"],
        Kind::Collective => &["t_min[usec]", "t_max[usec]", "t_avg[usec]"],
        Kind::Passive => &["t_pure[usec]", "t_ovrl[usec]"],
    };
    let mut c = vec!["#bytes", "#repetitions"];
    c.extend(tail);
    c
}

/// Lengths, repetitions (`per_sample`, MSGS_NONAGGR `nonaggr`, 40 MiB), times and
/// Mbytes/sec = X / t with 10^6 bytes.
fn check_block(b: &Block, kind: Kind, reduction: bool, hi: u32, per_sample: f64, nonaggr: f64) {
    assert_eq!(b.columns, columns(kind), "{}", b.name);
    let x = b.col("#bytes");
    if kind == Kind::Element {
        assert_eq!(x, [4.0], "{}: one row at one element", b.name);
    } else {
        assert_eq!(x, lengths(hi, reduction), "{} {}", b.name, b.mode);
    }
    let most = if b.mode == "NON-AGGREGATE" { nonaggr } else { per_sample };
    let want: Vec<f64> = x.iter().map(|&x| repetitions(x, most, 40.0 * 1048576.0)).collect();
    assert_eq!(b.col("#repetitions"), want, "{} {}", b.name, b.mode);
    match kind {
        Kind::Collective => {
            let (lo, hi, avg) = (b.col("t_min[usec]"), b.col("t_max[usec]"), b.col("t_avg[usec]"));
            for i in 0..lo.len() {
                assert!(
                    lo[i] >= 0.0 && lo[i] <= avg[i] + 0.01 && avg[i] <= hi[i] + 0.01,
                    "{} {i}",
                    b.name
                );
                assert!(hi[i] > 0.0, "{} row {i}: every process is an origin", b.name);
            }
        }
        Kind::Passive => {
            for (p, o) in b.col("t_pure[usec]").iter().zip(b.col("t_ovrl[usec]")) {
                assert!(*p > 0.0 && o > 0.0, "{}: {:?}", b.name, b.rows);
            }
        }
        _ => {
            for (x, (t, mb)) in x.iter().zip(b.col("t[usec]").iter().zip(b.col("Mbytes/sec"))) {
                assert!(*t > 0.0, "{} {}: {:?}", b.name, b.mode, b.rows);
                let (low, high) = (x / (t + 0.005) - 0.01, x / (t - 0.005).max(1e-9) + 0.01);
                assert!(mb >= low && mb <= high, "{} at {x}: {mb} Mbytes/sec for t {t}", b.name);
            }
        }
    }
}

/// Every default benchmark, its process counts (pairs on 2 with the rest waiting; the
/// others at every count) and modes (the pairs non-aggregate first, then aggregate).
#[test]
fn every_default_benchmark_at_2_3_4_processes() {
    for np in paw_test::task_counts(&[2, 3, 4]) {
        let (out, blocks) = paw_test::imb::run(BIN, np, "-msglog 0:12 -iter 40,40,8");
        assert!(out.stdout.contains("Intel MPI Benchmarks 2021"), "{}", out.report());
        let counts = match np {
            2 => vec![2],
            3 => vec![2, 3],
            _ => vec![2, 4],
        };
        let mut want: Vec<(&str, usize, &str)> = Vec::new();
        for (name, kind, _) in DEFAULT {
            match kind {
                Kind::Pair | Kind::Element => {
                    want.extend([(name, 2, "NON-AGGREGATE"), (name, 2, "AGGREGATE")])
                }
                Kind::Passive => want.push((name, 2, "")),
                _ => want.extend(counts.iter().map(|&q| (name, q, ""))),
            }
        }
        let got: Vec<(&str, usize, &str)> =
            blocks.iter().map(|b| (b.name.as_str(), b.processes, b.mode.as_str())).collect();
        assert_eq!(got, want, "np {np}");
        for b in &blocks {
            let (_, kind, reduction) = *DEFAULT.iter().find(|d| d.0 == b.name).unwrap();
            assert_eq!(b.idle, np - b.processes, "{} idle", b.name);
            check_block(b, kind, reduction, 12, 40.0, 8.0);
        }
    }
}

/// `-check`: every window and result buffer holds what the accesses put there, on 2 and
/// 3 processes (the named-only Get_local and Get_all_local too); a flipped element fails
/// the run with status 1.
#[test]
fn the_check_holds_for_every_benchmark_and_a_defect_fails_the_run() {
    for np in [2, 3] {
        let (_, blocks) = paw_test::imb::run(
            BIN,
            np,
            "-check -msglog 0:10 -iter 20,40,5 Get_local Get_all_local",
        );
        assert_eq!(blocks.len(), 2 + if np == 3 { 2 } else { 1 }, "np {np}");
        let (_, all) = paw_test::imb::run(BIN, np, "-check -msglog 0:10 -iter 20,40,5");
        for b in blocks.iter().chain(&all) {
            assert!(
                b.col("defects").iter().all(|&d| d == 0.0),
                "np {np} {} {}: {:?}",
                b.name,
                b.mode,
                b.rows
            );
        }
    }
    let args = ["-check", "-msglog", "0:3", "-iter", "10,40,5", "Unidir_put", "Fetch_and_op"];
    for b in corrupted(BIN, 2, &args) {
        let d = b.col("defects");
        let from = if b.name == "Fetch_and_op" { 0 } else { 1 };
        assert!(d[from..].iter().all(|&x| x == 1.0), "{} {}: {d:?}", b.name, b.mode);
    }
}

#[test]
fn list_tags_the_named_only_and_one_process_is_refused() {
    let out = Launch::mpi(BIN, 2).arg("-list").run();
    out.success();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 20, "{}", out.report());
    assert_eq!(lines[18], "Get_local (non-default)");
    assert_eq!(lines[19], "Get_all_local (non-default)");
    let out = Launch::mpi(BIN, 1).args(["Unidir_put", "-msglog", "0:2"]).run();
    out.failure("one-sided windows need 2 or more processes per group");
    let out = Launch::mpi(BIN, 2).args(["-npmin", "1"]).run();
    out.failure("use -npmin 2 or more");
    let (out, blocks) = paw_test::imb::run(BIN, 3, "Unidir_put One_put_all -msglog 0:2 -npmin 3");
    assert!(out.stdout.contains("# ( 1 additional process"), "{}", out.report());
    let got: Vec<(&str, usize)> = blocks.iter().map(|b| (b.name.as_str(), b.processes)).collect();
    assert_eq!(got, [("Unidir_put", 2), ("Unidir_put", 2), ("One_put_all", 3)]);
}

/// `-off_cache` moves every repetition's buffers (the plan's unit test says where) on
/// every benchmark without a defect; `-root_shift`, `-sync` and `-imb_barrier`, which no
/// kernel of Intel's IMB-RMA reads, are taken and said to change nothing.
#[test]
fn off_cache_runs_every_benchmark_and_the_unread_options_are_named() {
    let args = "-msglog 0:12 -iter 40 -off_cache 1,128 -sync off -root_shift on -check \
                Unidir_put Bidir_get All_put_all Exchange_get Accumulate Compare_and_swap \
                Truly_passive_put Get_all_local";
    let out = Launch::mpi(BIN, 3).args(args.split_whitespace()).run();
    out.success();
    let blocks = paw_test::imb::parse(&out.stdout);
    for name in args.split_whitespace().filter(|w| w.starts_with(char::is_uppercase)) {
        assert!(blocks.iter().any(|b| b.name == name), "no {name}\n{}", out.report());
    }
    for b in &blocks {
        assert!(b.col("defects").iter().all(|&d| d == 0.0), "{}: {:?}", b.name, b.rows);
    }
    for line in [
        "# Off-cache (-off_cache)         :   1 MiB cache, 128-byte lines",
        "# Taken, changing nothing        :   -sync off -root_shift on (read by none of IMB-RMA's",
    ] {
        assert!(out.stdout.contains(line), "{line}\n{}", out.report());
    }
}
