//! IMB-EXT under mpirun: every benchmark and mode with the right process counts, lengths
//! and repetitions, consistent times and throughputs; the shared options; -check; bad
//! input.

use paw_test::imb::{check_table, parse, repetitions, Block};
use paw_test::{Launch, Outcome};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_IMB-EXT");

/// (name, single transfer, modes) in output order.
const TABLE: [(&str, bool, &[&str]); 6] = [
    ("Window", false, &[""]),
    ("Unidir_Put", true, &["AGGREGATE", "NON-AGGREGATE"]),
    ("Unidir_Get", true, &["AGGREGATE", "NON-AGGREGATE"]),
    ("Bidir_Get", true, &["AGGREGATE", "NON-AGGREGATE"]),
    ("Bidir_Put", true, &["AGGREGATE", "NON-AGGREGATE"]),
    ("Accumulate", false, &["AGGREGATE", "NON-AGGREGATE"]),
];

fn run(np: usize, args: &str) -> (Outcome, Vec<Block>) {
    paw_test::imb::run(BIN, np, args)
}

fn lengths(hi: u32, float: bool) -> Vec<f64> {
    let mut l = vec![0.0];
    l.extend((0..=hi).map(|k| f64::from(1u32 << k)).filter(|&x| !float || x >= 4.0));
    l
}

/// Repetitions with `-iter n`: n aggregate (and plain), MSGS_NONAGGR 100 non-aggregate.
fn reps(b: &Block, n: f64) -> impl Fn(f64) -> f64 {
    let per = if b.mode == "NON-AGGREGATE" { 100.0 } else { n };
    move |x| repetitions(x, per, 40.0 * 1048576.0)
}

#[test]
fn every_benchmark_and_mode_at_2_3_4_processes() {
    for np in paw_test::task_counts(&[2, 3, 4]) {
        let (_, blocks) = run(np, "-msglog 0:4 -iter 200");
        let counts: Vec<usize> = match np {
            1 => vec![1],
            2 => vec![2],
            3 => vec![2, 3],
            _ => vec![2, 4],
        };
        let mut expected = Vec::new();
        for (name, single, modes) in TABLE {
            if single && np < 2 {
                continue;
            }
            let qs = if single { vec![2] } else { counts.clone() };
            for q in qs {
                expected.extend(modes.iter().map(|m| (name.to_string(), q, m.to_string())));
            }
        }
        let got: Vec<(String, usize, String)> =
            blocks.iter().map(|b| (b.name.clone(), b.processes, b.mode.clone())).collect();
        assert_eq!(got, expected, "np {np}");
        for b in &blocks {
            assert_eq!(b.idle, np - b.processes, "{} idle", b.name);
            let n_msg = if b.name.contains("dir_") { 1.0 } else { 0.0 };
            let float = b.name == "Accumulate";
            check_table(b, &lengths(4, float), reps(b, 200.0), n_msg);
        }
    }
}

#[test]
fn standard_settings_give_the_guides_repetitions() {
    let (out, blocks) = run(2, "Unidir_Put");
    assert!(out.stdout.contains("# Maximum message length in bytes:   4194304"));
    assert_eq!(blocks.len(), 2);
    for b in &blocks {
        check_table(b, &lengths(22, false), reps(b, 1000.0), 1.0);
    }
    assert_eq!(blocks[0].col("#repetitions")[23], 10.0, "4 MiB aggregate");
    assert_eq!(blocks[1].col("#repetitions")[17], 100.0, "64 KiB non-aggregate");
}

#[test]
fn shared_options_work_for_the_one_sided_suite() {
    let dir = tempfile::tempdir().unwrap();
    let (sel, len) = (dir.path().join("sel"), dir.path().join("len"));
    std::fs::write(&sel, "# one-sided\nAccumulate\n#Window\nunidir_get\n").unwrap();
    std::fs::write(&len, "0\n64\n1000\n").unwrap();
    let args = format!("-input {} -msglen {} -iter 20", sel.display(), len.display());
    let (_, blocks) = run(2, &args);
    let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["Unidir_Get", "Unidir_Get", "Accumulate", "Accumulate"]);
    for b in &blocks {
        assert_eq!(b.col("#bytes"), [0.0, 64.0, 1000.0]);
    }

    let (_, blocks) = run(4, "-multi 1 -msglog 0:2 -iter 10 Bidir_Put Accumulate");
    let got: Vec<(&str, usize, usize)> =
        blocks.iter().map(|b| (b.name.as_str(), b.processes, b.groups.len())).collect();
    assert_eq!(got[0], ("Multi-Bidir_Put", 2, 2));
    assert!(got.contains(&("Multi-Accumulate", 4, 1)));
    assert_eq!(blocks[0].col("#group"), [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]);

    let (_, blocks) = run(4, "-multi 0 -map 2x2 -npmin 3 -msglog 0:2 -iter 10 Accumulate Window");
    let got: Vec<(&str, usize)> = blocks.iter().map(|b| (b.name.as_str(), b.processes)).collect();
    assert_eq!(
        got,
        [
            ("Multi-Window", 3),
            ("Multi-Window", 4),
            ("Multi-Accumulate", 3),
            ("Multi-Accumulate", 3),
            ("Multi-Accumulate", 4),
            ("Multi-Accumulate", 4)
        ]
    );
    assert_eq!(blocks[1].groups, [vec![0, 2, 1, 3]], "-map 2x2 numbers along the rows");
}

#[test]
fn check_finds_no_defects_in_a_clean_run() {
    for np in paw_test::task_counts(&[2, 4]) {
        let (_, blocks) = run(np, "-check -msglog 0:8 -iter 20");
        assert!(!blocks.is_empty());
        for b in &blocks {
            assert!(b.col("defects").iter().all(|&d| d == 0.0), "{} at {np}", b.name);
        }
    }
}

#[test]
fn a_defect_is_reported_and_fails_the_run_on_every_rank() {
    let out = Launch::mpi(BIN, 2)
        .args(["-check", "-msglog", "0:3", "-iter", "10", "Unidir_Put", "Accumulate", "Window"])
        .env("PAW_TEST_CORRUPT", 1)
        .timeout(Duration::from_secs(60))
        .run();
    out.failure("-check found");
    assert_eq!(out.code, Some(1), "{}", out.report());
    let blocks = parse(&out.stdout);
    assert_eq!(blocks.len(), 5, "every block still printed\n{}", out.report());
    for b in blocks.iter().filter(|b| b.name != "Accumulate") {
        let d = b.col("defects");
        assert_eq!(d[0], 0.0, "{}: nothing to corrupt at length 0", b.name);
        assert!(d[1..].iter().all(|&x| x == 1.0), "{} {}: {d:?}", b.name, b.mode);
    }
}

#[test]
fn bad_input_gets_one_line_and_a_non_zero_exit() {
    let cases = [
        (1, "Unidir_Put", "Unidir_Put is a single transfer between 2 processes; this run has 1"),
        (1, "Accumulate", "one-sided windows need 2 or more processes per group"),
        (2, "-npmin 1", "one-sided windows need 2 or more processes per group"),
        (4, "-multi 0 Window", "Multi-Window cannot run with Open MPI"),
        (2, "Unidir_Pot", "unknown benchmark \"Unidir_Pot\"; valid names: Window, Unidir_Put"),
        (2, "-dir /tmp", "unknown option \"-dir\""),
        (2, "-mem 0.001", "-mem 0.001 is too small"),
    ];
    for (np, args, message) in cases {
        // Only Open MPI's windows need the refusal (MPICH runs Multi-Window).
        if args == "-multi 0 Window" && !paw_test::is_open_mpi() {
            continue;
        }
        let out = Launch::mpi(BIN, np)
            .args(args.split_whitespace())
            .timeout(Duration::from_secs(30))
            .run();
        out.failure(message);
        assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
        assert!(!out.stdout.contains("# Benchmarking"), "{}", out.report());
    }
}

/// `-off_cache` (today's IMB's placement, unit-tested in transfer.rs) in both modes of
/// every transfer, without a defect; `-imb_barrier`, which Intel's IMB-EXT kernels never
/// read, is taken and said to change nothing.
#[test]
fn off_cache_moves_the_transfers_and_imb_barrier_changes_nothing() {
    let (out, blocks) = run(2, "-msglog 0:16 -iter 30 -off_cache -1 -imb_barrier on -check");
    assert_eq!(blocks.len(), 11, "{}", out.report());
    for b in &blocks {
        assert!(b.col("defects").iter().all(|&d| d == 0.0), "{}: {:?}", b.name, b.rows);
    }
    for line in [
        "# Off-cache (-off_cache)         :   8 MiB cache, 64-byte lines",
        "# Taken, changing nothing        :   -imb_barrier on (read by none of IMB-EXT's benchmarks)",
    ] {
        assert!(out.stdout.contains(line), "{line}\n{}", out.report());
    }
}
