//! IMB-MPI1 under mpirun: the parsed output must hold every benchmark, process count and
//! length, repetitions by the guide's formula, t_min <= t_avg <= t_max and throughput
//! consistent with time; options and bad input behave as documented.

use paw_test::imb::Block;
use paw_test::{Launch, Outcome};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_IMB-MPI1");

/// All benchmarks in output order: (name, class, throughput factor n_msg, reduction).
const TABLE: [(&str, Class, f64, bool); 13] = [
    ("PingPong", Class::Single, 1.0, false),
    ("PingPing", Class::Single, 1.0, false),
    ("Sendrecv", Class::Parallel, 2.0, false),
    ("Exchange", Class::Parallel, 4.0, false),
    ("Bcast", Class::Collective, 0.0, false),
    ("Allgather", Class::Collective, 0.0, false),
    ("Allgatherv", Class::Collective, 0.0, false),
    ("Alltoall", Class::Collective, 0.0, false),
    ("Alltoallv", Class::Collective, 0.0, false),
    ("Reduce", Class::Collective, 0.0, true),
    ("Reduce_scatter", Class::Collective, 0.0, true),
    ("Allreduce", Class::Collective, 0.0, true),
    ("Barrier", Class::Collective, 0.0, false),
];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Class {
    Single,
    Parallel,
    Collective,
}

fn run(np: usize, args: &str) -> (Outcome, Vec<Block>) {
    paw_test::imb::run(BIN, np, args)
}

/// IMB's repetition count for length x.
fn reps(x: f64, per_sample: f64) -> f64 {
    if x == 0.0 {
        per_sample
    } else {
        per_sample.min((40.0 * 1048576.0 / x).floor().max(1.0))
    }
}

fn log_lengths(lo: u32, hi: u32, reduction: bool) -> Vec<f64> {
    let mut l = vec![0.0];
    l.extend((lo..=hi).map(|k| f64::from(1u32 << k)).filter(|&x| !reduction || x >= 4.0));
    if reduction && lo < 2 {
        l.insert(1, 4.0);
        l.dedup();
    }
    l
}

/// The invariants every table must hold (`time_col` is the one the class shows).
fn check_table(b: &Block, lengths: &[f64], per_sample: f64, n_msg: f64, time_col: &str) {
    assert!(b.columns.iter().any(|c| c == time_col), "{}: no {time_col}", b.name);
    paw_test::imb::check_table(b, lengths, |x| reps(x, per_sample), n_msg);
}

#[test]
fn every_benchmark_at_2_3_4_processes() {
    for np in paw_test::task_counts(&[2, 3, 4]) {
        let (_, blocks) = run(np, "-msglog 0:17 -iter 400");
        let mut expected = Vec::new();
        for (name, class, _, _) in TABLE {
            let counts = match (class, np) {
                (Class::Single, _) => vec![2],
                (_, 2) => vec![2],
                (_, 3) => vec![2, 3],
                _ => vec![2, 4],
            };
            expected.extend(counts.into_iter().map(|q| (name.to_string(), q)));
        }
        let got: Vec<(String, usize)> =
            blocks.iter().map(|b| (b.name.clone(), b.processes)).collect();
        assert_eq!(got, expected, "np {np}");
        for b in &blocks {
            let (_, class, n_msg, reduction) = TABLE.iter().find(|t| t.0 == b.name).unwrap();
            assert_eq!(b.idle, np - b.processes, "{} idle on {np}", b.name);
            let time_col = if *class == Class::Single { "t[usec]" } else { "t_max[usec]" };
            check_table(b, &log_lengths(0, 17, *reduction), 400.0, *n_msg, time_col);
        }
    }
}

#[test]
fn standard_settings_give_the_guides_lengths_and_repetitions() {
    let (out, blocks) = run(2, "PingPong allreduce BARRIER");
    assert!(out.stdout.contains("# Maximum message length in bytes:   4194304"));
    assert!(out.stdout.contains("2^20 bytes"));
    let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["PingPong", "Allreduce", "Barrier"]);
    check_table(&blocks[0], &log_lengths(0, 22, false), 1000.0, 1.0, "t[usec]");
    assert_eq!(blocks[0].col("#repetitions")[17..], [640.0, 320.0, 160.0, 80.0, 40.0, 20.0, 10.0]);
    check_table(&blocks[1], &log_lengths(0, 22, true), 1000.0, 0.0, "t_max[usec]");
    assert_eq!(blocks[1].col("#bytes")[..3], [0.0, 4.0, 8.0]);
    assert_eq!(blocks[2].columns, ["#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"]);
}

#[test]
fn iteration_policies_count_as_todays_imb() {
    // Intel's IMB-MPI1 2021.11 printed these counts on the same command lines.
    let (out, blocks) = run(2, "-iter_policy auto -msglog 14:16 Bcast Allreduce");
    assert!(out.stdout.contains("(-iter_policy auto)"), "the rule in the header");
    assert_eq!(blocks[0].name, "Bcast");
    assert_eq!(blocks[0].col("#repetitions"), [1000.0, 666.0, 500.0, 332.0], "rooted");
    assert_eq!(blocks[1].col("#repetitions"), [1000.0, 1000.0, 1000.0, 640.0], "dynamic");
    let (_, blocks) = run(3, "-iter_policy multiple_np -msglog 14:16 Allreduce");
    let counts: Vec<_> = blocks.iter().map(|b| (b.processes, b.col("#repetitions"))).collect();
    assert_eq!(
        counts,
        [(2, vec![1000.0, 666.0, 500.0, 332.0]), (3, vec![999.0, 570.0, 399.0, 249.0])]
    );
    // -time lowers only dynamic's counts.
    let (_, blocks) = run(2, "-iter_policy off -time 0.000001 -msglog 18:19 PingPong");
    assert_eq!(blocks[0].col("#repetitions"), [1000.0, 1000.0, 1000.0]);
}

#[test]
fn multi_modes_run_disjoint_groups() {
    let (_, blocks) = run(4, "-multi 0 PingPong Sendrecv Allreduce -msglog 0:4");
    let got: Vec<(&str, usize, usize)> =
        blocks.iter().map(|b| (b.name.as_str(), b.processes, b.groups.len())).collect();
    let expected = [
        ("Multi-PingPong", 2, 2),
        ("Multi-Sendrecv", 2, 2),
        ("Multi-Sendrecv", 4, 1),
        ("Multi-Allreduce", 2, 2),
        ("Multi-Allreduce", 4, 1),
    ];
    assert_eq!(got, expected);
    assert_eq!(blocks[0].groups, [vec![0, 1], vec![2, 3]]);
    // Multi single transfer shows t_min/t_max/t_avg; throughput from t_max.
    check_table(&blocks[0], &log_lengths(0, 4, false), 1000.0, 1.0, "t_max[usec]");
    check_table(&blocks[1], &log_lengths(0, 4, false), 1000.0, 2.0, "t_max[usec]");

    let (_, blocks) = run(4, "-multi 1 PingPing Bcast -msglog 0:3");
    for b in &blocks {
        let g = b.groups.len() as f64;
        let groups = b.col("#group");
        assert_eq!(groups.len() as f64, g * 5.0, "{}: one row per group and length", b.name);
        for (i, chunk) in groups.chunks(b.groups.len()).enumerate() {
            assert_eq!(
                chunk,
                (0..b.groups.len()).map(|x| x as f64).collect::<Vec<_>>(),
                "length {i}"
            );
        }
        let lengths: Vec<f64> = b.col("#bytes").iter().step_by(b.groups.len()).copied().collect();
        assert_eq!(lengths, log_lengths(0, 3, false));
    }
    // Five processes: two groups of two, one waiting.
    let (_, blocks) = run(5, "-multi 0 PingPong -msglog 0:2");
    assert_eq!((blocks[0].groups.len(), blocks[0].idle), (2, 1));
}

#[test]
fn npmin_map_msglen_and_input() {
    let (_, blocks) = run(4, "Allreduce -npmin 1 -msglog 0:3");
    assert_eq!(blocks.iter().map(|b| b.processes).collect::<Vec<_>>(), [1, 2, 4]);
    let (_, blocks) = run(4, "-npmin 3 Allreduce -msglog 0:3");
    assert_eq!(blocks.iter().map(|b| b.processes).collect::<Vec<_>>(), [3, 4]);
    let (_, blocks) = run(3, "-npmin 9 Allreduce -msglog 0:3");
    assert_eq!(blocks.iter().map(|b| b.processes).collect::<Vec<_>>(), [3], "P_min > P is P");

    let (_, blocks) = run(4, "-map 2x2 Allreduce -msglog 0:2 -npmin 4");
    assert_eq!(blocks[0].rank_order, [0, 2, 1, 3]);
    let (_, blocks) = run(4, "-map 2x2 -multi 0 PingPong -msglog 0:2");
    assert_eq!(blocks[0].groups, [vec![0, 2], vec![1, 3]]);

    let dir = tempfile::tempdir().unwrap();
    let lengths = dir.path().join("Lengths");
    std::fs::write(&lengths, "0\n100\n1000\n# a comment\n10000\n").unwrap();
    let select = dir.path().join("select");
    std::fs::write(&select, "#\n# selection\nexchange\n#PingPong\nALLGATHERV\n").unwrap();
    let args = format!("-msglen {} -input {}", lengths.display(), select.display());
    let (_, blocks) = run(2, &args);
    let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["Exchange", "Allgatherv"]);
    for b in &blocks {
        assert_eq!(b.col("#bytes"), [0.0, 100.0, 1000.0, 10000.0]);
    }
    check_table(&blocks[0], &[0.0, 100.0, 1000.0, 10000.0], 1000.0, 4.0, "t_max[usec]");
}

#[test]
fn check_finds_no_defects_in_a_clean_run() {
    for np in paw_test::task_counts(&[2, 4]) {
        let (out, blocks) = run(np, "-check -msglog 0:12 -iter 20");
        assert!(out.stdout.contains("Results checking"));
        assert_eq!(blocks.len(), if np == 2 { 13 } else { 2 + 11 * 2 });
        for b in &blocks {
            assert!(b.col("defects").iter().all(|&d| d == 0.0), "{}: {:?}", b.name, b.rows);
        }
    }
    let (_, blocks) =
        run(4, "-check -multi 1 -msglog 0:6 -iter 10 Exchange Reduce_scatter Alltoallv");
    assert!(blocks.iter().all(|b| b.col("defects").iter().all(|&d| d == 0.0)));
}

#[test]
fn a_defect_is_reported_and_fails_the_run_on_every_rank() {
    // The self-test hook flips one received byte on group rank 1 after each check run.
    let args = ["-check", "-msglog", "0:3", "-iter", "10", "Sendrecv", "Allgather"];
    let blocks = paw_test::imb::corrupted(BIN, 3, &args);
    assert_eq!(blocks.len(), 4, "every block still printed");
    for b in &blocks {
        let d = b.col("defects");
        assert_eq!(d[0], 0.0, "{}: nothing to corrupt at length 0", b.name);
        assert!(d[1..].iter().all(|&x| x == 1.0), "{}: {d:?}", b.name);
    }
}

#[test]
fn time_limit_and_single_process() {
    let (_, blocks) = run(2, "PingPong -time 0.000001 -msglog 0:20");
    let r = blocks[0].col("#repetitions");
    let x = blocks[0].col("#bytes");
    for (x, r) in x.iter().zip(&r) {
        assert!(*r >= 1.0 && *r <= reps(*x, 1000.0), "{x}: {r}");
    }
    assert_eq!(*r.last().unwrap(), 1.0, "a 1 MiB ping-pong takes longer than 1 usec");

    let (out, blocks) = run(1, "PingPong Allreduce -msglog 0:3");
    assert!(out.stdout.contains("# PingPong skipped: it needs 2 processes, this run has 1"));
    assert_eq!(
        blocks.iter().map(|b| (b.name.as_str(), b.processes)).collect::<Vec<_>>(),
        [("Allreduce", 1)]
    );
}

#[test]
fn bad_input_gets_one_line_and_a_non_zero_exit() {
    let dir = tempfile::tempdir().unwrap();
    let negative = dir.path().join("neg");
    std::fs::write(&negative, "0\n16\n-4\n").unwrap();
    let cases = [
        (
            "PingPang",
            "unknown benchmark \"PingPang\"; valid names: PingPong, PingPongSpecificSource",
        ),
        ("-npmin 0", "-npmin 0: takes a whole number >= 1"),
        ("-npmin x", "-npmin x: takes a whole number >= 1"),
        ("-multi 2", "-multi 2: takes 0 or 1"),
        ("-msglen /nonexistent/lengths", "-msglen /nonexistent/lengths: cannot read it"),
        (&format!("-msglen {}", negative.display()), "line 3: \"-4\" is not a length"),
        ("-map 3x3", "-map 3x3 needs 9 processes, this run has 2"),
        ("-mem 0.0001", "-mem 0.0001 is too small"),
        ("-bogus", "unknown option \"-bogus\""),
    ];
    for (args, message) in cases {
        let out = Launch::mpi(BIN, 2)
            .args(args.split_whitespace())
            .timeout(Duration::from_secs(30))
            .run();
        out.failure(message);
        assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
        assert!(!out.stdout.contains("# Benchmarking"), "{}", out.report());
    }
}

#[test]
fn help_lists_options_and_benchmarks() {
    let out = Launch::mpi(BIN, 2).arg("-h").run();
    out.success();
    assert_eq!(out.stdout.matches("usage: mpirun -np P IMB-MPI1").count(), 1, "rank 0 only");
    for word in ["-npmin", "-multi", "-msglen", "-map", "-check", "Reduce_scatter", "Barrier"] {
        assert!(out.stdout.contains(word), "{word}\n{}", out.report());
    }
}

#[test]
fn todays_iter_forms_calling_sequence_and_csv_tables() {
    let (out, blocks) = run(2, "PingPong Allreduce -iter 1000,40 -msglog 0:12 -csv");
    assert!(out.stdout.contains("# Calling sequence was:"), "{}", out.report());
    assert!(out.stdout.lines().any(|l| l.contains("IMB-MPI1 PingPong Allreduce -iter 1000,40")));
    // Every added header line reads `key : value`.
    for line in out.stdout.lines().take_while(|l| !l.starts_with("# List of Benchmarks")) {
        let body = line.trim_start_matches('#').trim();
        assert!(!body.starts_with('('), "not key : value: {line}");
    }
    for b in &blocks {
        let file = format!("IMB-MPI1-{}-np_{:04}.csv", b.name, b.processes);
        let mut reader = csv::Reader::from_path(out.dir.path().join(&file))
            .unwrap_or_else(|e| panic!("{file}: {e}\n{}", out.report()));
        let header = reader.headers().unwrap().clone();
        let col = |name: &str| header.iter().position(|h| h == name).unwrap();
        let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
        assert_eq!(rows.len(), b.rows.len(), "{file}");
        let time = if b.columns.iter().any(|c| c == "t[usec]") { "t[usec]" } else { "t_max[usec]" };
        for ((row, x), t) in rows.iter().zip(b.col("#bytes")).zip(b.col(time)) {
            assert_eq!(&row[col("benchmark")], b.name.as_str());
            assert_eq!(row[col("bytes")].parse::<f64>().unwrap(), x);
            let t_csv: f64 = row[col("t_max_us")].parse().unwrap();
            assert!((t_csv - t).abs() <= 0.0051, "{file}: {t_csv} vs table {t}");
        }
    }
    let records: Vec<String> = out.files().into_iter().filter(|f| f.ends_with(".json")).collect();
    assert_eq!(records, ["IMB-MPI1-np_0002.json"]);
    let bad = Launch::mpi(BIN, 2).args(["-iter", "1000,x"]).run();
    bad.failure("-iter 1000,x: takes n[,vol[,nonaggr[,policy]]]");
}

/// Today's source variants of PingPong and PingPing run only when named (any case), on two
/// processes with the others waiting, with the tables and checks of their base benchmarks;
/// `-list` prints every benchmark, those run only when named tagged.
#[test]
fn source_variants_run_when_named_and_list_tags_them() {
    const VARIANTS: [&str; 4] = [
        "PingPongSpecificSource",
        "PingPongAnySource",
        "PingPingSpecificSource",
        "PingPingAnySource",
    ];
    for np in paw_test::task_counts(&[2, 3, 4]) {
        let args = format!(
            "pingpongspecificsource {} -check -msglog 0:12 -iter 40",
            VARIANTS[1..].join(" ")
        );
        let (_, blocks) = run(np, &args);
        let got: Vec<(&str, usize)> =
            blocks.iter().map(|b| (b.name.as_str(), b.processes)).collect();
        assert_eq!(got, VARIANTS.map(|v| (v, 2)), "np {np}");
        for b in &blocks {
            assert_eq!(b.idle, np - 2, "{} idle on {np}", b.name);
            check_table(b, &log_lengths(0, 12, false), 40.0, 1.0, "t[usec]");
            assert!(b.col("defects").iter().all(|&d| d == 0.0), "{}: {:?}", b.name, b.rows);
        }
    }
    let (_, blocks) = run(2, "-msglog 0:2 -iter 10");
    assert!(blocks.iter().all(|b| !VARIANTS.contains(&b.name.as_str())), "not in the default run");

    let out = Launch::mpi(BIN, 2).arg("-list").run();
    out.success();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "List of benchmarks:", "{}", out.report());
    assert_eq!(
        &lines[1..4],
        ["PingPong", "PingPongSpecificSource (non-default)", "PingPongAnySource (non-default)"]
    );
    assert!(
        lines.contains(&"Barrier") && lines.contains(&"Gather (non-default)"),
        "{}",
        out.report()
    );
    assert_eq!(lines.len(), 1 + 25, "rank 0 only, every benchmark once\n{}", out.report());
}

/// Uniband and Biband run when named, on the even process counts (np 3: 2, one waiting;
/// np 4: 2 and 4), with a window of `-window_size` messages per pair: Msg/sec from the CSV's
/// t_max by messages per window x pairs, Mbytes/sec = Msg/sec x length (2^20 B), and the
/// received data checked.
#[test]
fn uniband_and_biband_count_windows_of_messages_per_pair() {
    const W: f64 = 16.0;
    for np in paw_test::task_counts(&[2, 3, 4]) {
        let args = "uniband BIBAND -check -msglog 0:12 -iter 40 -window_size 16 -csv";
        let (out, blocks) = run(np, args);
        assert!(out.stdout.contains("# Window (Uniband, Biband)       :   16 messages per pair"));
        let counts: Vec<usize> = if np >= 4 { vec![2, 4] } else { vec![2] };
        let want: Vec<(&str, usize)> = ["Uniband", "Biband"]
            .iter()
            .flat_map(|&n| counts.iter().map(move |&q| (n, q)))
            .collect();
        let got: Vec<(&str, usize)> =
            blocks.iter().map(|b| (b.name.as_str(), b.processes)).collect();
        assert_eq!(got, want, "np {np}");
        for b in &blocks {
            assert_eq!(b.columns, ["#bytes", "#repetitions", "Mbytes/sec", "Msg/sec", "defects"]);
            assert_eq!(b.idle, np - b.processes, "{} idle", b.name);
            assert_eq!(b.col("#bytes"), log_lengths(0, 12, false), "{}", b.name);
            let want_reps: Vec<f64> = b.col("#bytes").iter().map(|&x| reps(x, 40.0)).collect();
            assert_eq!(b.col("#repetitions"), want_reps, "{}", b.name);
            assert!(b.col("defects").iter().all(|&d| d == 0.0), "{}: {:?}", b.name, b.rows);
            let per_window =
                if b.name == "Biband" { 2.0 } else { 1.0 } * W * (b.processes / 2) as f64;
            let file = format!("IMB-MPI1-{}-np_{:04}.csv", b.name, b.processes);
            let mut reader = csv::Reader::from_path(out.dir.path().join(&file))
                .unwrap_or_else(|e| panic!("{file}: {e}\n{}", out.report()));
            let header = reader.headers().unwrap().clone();
            let col = |name: &str| header.iter().position(|h| h == name).unwrap();
            let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
            for (i, row) in rows.iter().enumerate() {
                let (x, msgs, mb) =
                    (b.col("#bytes")[i], b.col("Msg/sec")[i], b.col("Mbytes/sec")[i]);
                let t_max: f64 = row[col("t_max_us")].parse().unwrap();
                let rate = per_window * 1e6 / t_max;
                // t_max_us is written to 1e-4 usec (half of it either way, twice for safety).
                assert!(
                    msgs > 0.0 && (msgs - rate).abs() <= 1.0 + rate * 1e-4 / t_max,
                    "{file} {x}: {msgs} vs {rate}"
                );
                let from_rate = msgs * x / 1048576.0;
                assert!(
                    (mb - from_rate).abs() <= 0.005 + 0.5 * x / 1048576.0,
                    "{file} {x}: {mb} vs {from_rate}"
                );
            }
        }
    }
    let (_, blocks) = run(2, "-msglog 0:2 -iter 10");
    assert!(blocks.iter().all(|b| !b.name.ends_with("band")), "not in the default run");
    let bad = Launch::mpi(BIN, 2).args(["Uniband", "-window_size", "0"]).run();
    bad.failure("-window_size 0: takes a whole number from 1 to 65536");
}

#[test]
fn todays_general_options_change_the_run_as_intels_do() {
    let (out, blocks) = run(
        2,
        "PingPong Bcast Allreduce -msglog 1:3 -zero_size off -off_cache -1 -root_shift off \
         -sync on -imb_barrier on -warm_up off -estimate on -alloc_mem on -check",
    );
    out.success();
    assert_eq!(blocks.len(), 3, "{}", out.report());
    for b in &blocks {
        let first = if b.name == "Allreduce" { 4.0 } else { 2.0 };
        assert_eq!(b.col("#bytes")[0], first, "{}: no length-0 row", b.name);
        assert!(b.col("defects").iter().all(|&d| d == 0.0), "{}: {:?}", b.name, b.rows);
    }
    for line in [
        "# Minimum message length in bytes:   2",
        "# Warm-up, synchronisation       :   1 + min(n, 1000) repetitions untimed at every length, \
         fewer past 1 ms each (-estimate), 2 zero-byte MPI_Sendrecv barriers before each timing",
        "# Off-cache (-off_cache)         :   8 MiB cache, 64-byte lines",
        "# Root shift (-root_shift)       :   off",
        "# Sync (-sync)                   :   on",
        "# Message buffers (-alloc_mem)   :   MPI_Alloc_mem",
    ] {
        assert!(out.stdout.contains(line), "{line}\n{}", out.report());
    }
    let out = Launch::mpi(BIN, 2).args(["PingPong", "-off_cache", "16,0"]).run();
    out.failure("-off_cache 16,0: takes size[,line]");
}

/// `-data_type` and `-red_data_type` as today's IMB takes them: lengths in whole elements
/// (Intel's 2021.11 prints 0, 8, 16 for doubles and 0, 4, 8 for int sums), the header
/// names the types, every received element checks out, and a flipped byte is caught.
#[test]
fn data_types_move_and_sum_the_elements_asked_for() {
    let cases =
        [("double", "int", 8.0, 4.0), ("char", "char", 1.0, 1.0), ("int", "double", 4.0, 8.0)];
    for (data, red, first, first_sum) in cases {
        let args = format!(
            "PingPong Exchange Alltoallv Gather Allreduce Reduce Reduce_scatter Reduce_local \
             -msglog 0:12 -iter 20 -check -data_type {data} -red_data_type {red}"
        );
        let (out, blocks) = run(3, &args);
        assert!(!blocks.is_empty(), "{}", out.report());
        for b in &blocks {
            assert!(
                b.col("defects").iter().all(|&d| d == 0.0),
                "{data}/{red} {}: {:?}",
                b.name,
                b.rows
            );
            let reduction = b.name.starts_with("Reduce") || b.name == "Allreduce";
            let want = if reduction { first_sum } else { first };
            assert_eq!(b.col("#bytes")[..2], [0.0, want], "{data}/{red} {}", b.name);
        }
        let dtype = format!("# MPI_Datatype for reductions    :   MPI_{}", red.to_uppercase());
        assert!(out.stdout.contains(&dtype), "{dtype}\n{}", out.report());
    }
    let args = ["Allreduce", "Sendrecv", "-msglog", "0:4", "-iter", "5", "-check"];
    let args = [&args[..], &["-data_type", "double", "-red_data_type", "int"]].concat();
    for b in paw_test::imb::corrupted(BIN, 3, &args) {
        let d = b.col("defects");
        assert!(d[0] == 0.0 && d[1..].iter().all(|&x| x == 1.0), "{}: {d:?}", b.name);
    }
    let out = Launch::mpi(BIN, 2).args(["PingPong", "-data_type", "bfloat16"]).run();
    out.failure("-data_type bfloat16: takes byte, char, int, float, double; bfloat16 needs");
}

/// `-edition 2021`: today's IMB's title, Mbyte (10^6 bytes, in the table and the CSV
/// column's name), `-sync on` and the benchmarks in the order named; 3.0's are the default.
#[test]
fn edition_2021_takes_todays_rules_units_and_order() {
    let (out, blocks) = run(2, "-edition 2021 Sendrecv PingPong -msglog 16:17 -csv");
    assert!(out.stdout.contains("of the Intel MPI Benchmarks 2021, re-implemented"));
    assert!(out.stdout.contains("# Mbytes/sec                     :   10^6 bytes per second"));
    let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["Sendrecv", "PingPong"], "{}", out.report());
    let pingpong = &blocks[1];
    for ((x, t), mb) in
        pingpong.col("#bytes").iter().zip(pingpong.col("t[usec]")).zip(pingpong.col("Mbytes/sec"))
    {
        if *x > 0.0 {
            let want = x / t;
            assert!((mb / want - 1.0).abs() < 0.01, "{x} B in {t} usec: {mb} Mbytes/sec");
        }
    }
    let csv =
        std::fs::read_to_string(out.dir.path().join("IMB-MPI1-PingPong-np_0002.csv")).unwrap();
    assert!(csv.lines().next().unwrap().ends_with("bandwidth_MB_per_s"), "{csv}");

    let (out, blocks) = run(2, "Sendrecv PingPong -msglog 16:17");
    assert!(out.stdout.contains("of the Intel MPI Benchmarks 3.0, re-implemented"));
    assert!(out.stdout.contains("# Mbytes/sec                     :   2^20 bytes per second"));
    let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["PingPong", "Sendrecv"], "the suite's order");
    let bad = Launch::mpi(BIN, 2).args(["-edition", "2020"]).run();
    bad.failure("-edition: \"2020\" is not an edition; accepted: 3.0 or 2021");
}
