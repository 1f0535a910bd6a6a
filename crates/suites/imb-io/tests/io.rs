//! IMB-IO under mpirun: every benchmark and mode with the right process counts, lengths
//! and repetitions, consistent times, throughputs and overlaps; -check; the files (the
//! directory holds after a run exactly what it held before, whatever happened); bad
//! input.

use paw_test::imb::{check_table, parse, repetitions, Block};
use paw_test::{Interrupt, Launch, Outcome, SmallDisk};
use std::path::Path;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_IMB-IO");

/// Every benchmark, in output order, spelled as Intel's IMB-IO prints them (the names a
/// parser of Intel's output keys on; the 3.0 guide's tables write them in lower case).
#[rustfmt::skip]
fn names() -> Vec<String> {
    const INTEL: [&str; 37] = [
        "Open_Close",
        "S_Write_Indv", "S_IWrite_Indv", "S_Read_Indv", "S_IRead_Indv",
        "S_Write_Expl", "S_IWrite_Expl", "S_Read_Expl", "S_IRead_Expl",
        "P_Write_Indv", "P_IWrite_Indv", "P_Read_Indv", "P_IRead_Indv",
        "P_Write_Expl", "P_IWrite_Expl", "P_Read_Expl", "P_IRead_Expl",
        "P_Write_Shared", "P_IWrite_Shared", "P_Read_Shared", "P_IRead_Shared",
        "P_Write_Priv", "P_IWrite_Priv", "P_Read_Priv", "P_IRead_Priv",
        "C_Write_Indv", "C_IWrite_Indv", "C_Read_Indv", "C_IRead_Indv",
        "C_Write_Expl", "C_IWrite_Expl", "C_Read_Expl", "C_IRead_Expl",
        "C_Write_Shared", "C_IWrite_Shared", "C_Read_Shared", "C_IRead_Shared",
    ];
    INTEL.map(String::from).to_vec()
}

/// The files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn launch(np: usize, dir: &Path, args: &str) -> Launch {
    Launch::mpi(BIN, np)
        .arg("-dir")
        .arg(dir.display())
        .args(args.split_whitespace())
        .timeout(Duration::from_secs(240))
}

/// Runs in a fresh directory that must be as empty afterwards.
fn run(np: usize, args: &str) -> (Outcome, Vec<Block>) {
    let dir = tempfile::tempdir().unwrap();
    let out = launch(np, dir.path(), args).run();
    out.success();
    assert!(out.stdout.contains("# All processes entering MPI_Finalize"), "{}", out.report());
    assert_eq!(listing(dir.path()), Vec::<String>::new(), "files left behind");
    let blocks = parse(&out.stdout);
    (out, blocks)
}

/// The tables each benchmark has on `np` processes with `-npmin 1`: (name, Q, mode).
fn expected(np: usize) -> Vec<(String, usize, String)> {
    let counts: Vec<usize> = match np {
        1 => vec![1],
        2 => vec![1, 2],
        3 => vec![1, 2, 3],
        _ => vec![1, 2, 4],
    };
    let mut e = Vec::new();
    for name in names() {
        let qs = if name.starts_with("S_") { vec![1] } else { counts.clone() };
        let modes: &[&str] = if name == "Open_Close" {
            &[""]
        } else if name.contains("_Write_") {
            &["AGGREGATE", "NON-AGGREGATE"]
        } else {
            &["AGGREGATE"]
        };
        for q in qs {
            e.extend(modes.iter().map(|m| (name.clone(), q, m.to_string())));
        }
    }
    e
}

#[test]
#[ignore = "long: make test-long"]
fn every_benchmark_and_mode_at_1_2_3_4_processes() {
    let lengths = tempfile::tempdir().unwrap();
    let file = lengths.path().join("len");
    std::fs::write(&file, "0\n1000\n").unwrap();
    for np in paw_test::task_counts(&[1, 2, 3, 4]) {
        // Every non-blocking table lasts repetitions x lengths x 0.1 s: two repetitions
        // (aggregate and non-aggregate counts then differ) on one process, one beyond.
        let n = if np == 1 { 2.0 } else { 1.0 };
        let (out, blocks) = run(np, &format!("-msglen {} -iter {n},16,1", file.display()));
        assert!(out.stdout.contains("# CPU_Exploit"), "the Mflop/s line\n{}", out.report());
        let got: Vec<(String, usize, String)> =
            blocks.iter().map(|b| (b.name.clone(), b.processes, b.mode.clone())).collect();
        assert_eq!(got, expected(np), "np {np}");
        for b in &blocks {
            assert_eq!(b.idle, np - b.processes, "{} idle", b.name);
            let per = if b.mode == "NON-AGGREGATE" { 1.0 } else { n };
            let lengths: &[f64] = if b.name == "Open_Close" { &[0.0] } else { &[0.0, 1000.0] };
            let n_msg = if b.name == "Open_Close" { 0.0 } else { 1.0 };
            check_table(b, lengths, |x| repetitions(x, per, 16.0 * 1048576.0), n_msg);
        }
    }
}

#[test]
fn standard_settings_give_the_guides_repetitions() {
    let (out, blocks) = run(2, "P_Write_priv -msglog 18:24 -npmin 2");
    assert!(out.stdout.contains("# Maximum io portion in bytes:   16777216"));
    assert_eq!(blocks.len(), 2);
    let vol = 16.0 * 1048576.0;
    let lengths: Vec<f64> =
        std::iter::once(0.0).chain((18..=24).map(|k| f64::from(1u32 << k))).collect();
    check_table(&blocks[0], &lengths, |x| repetitions(x, 50.0, vol), 1.0);
    check_table(&blocks[1], &lengths, |x| repetitions(x, 10.0, vol), 1.0);
    assert_eq!(blocks[0].col("#repetitions"), [50.0, 50.0, 32.0, 16.0, 8.0, 4.0, 2.0, 1.0]);
    assert_eq!(blocks[1].col("#repetitions"), [10.0, 10.0, 10.0, 10.0, 8.0, 4.0, 2.0, 1.0]);
}

#[test]
fn shared_options_work_for_the_io_suite() {
    let dir = tempfile::tempdir().unwrap();
    let sel = dir.path().join("sel");
    std::fs::write(&sel, "# io\nc_read_expl\n#S_Write_indv\nP_Write_shared\n").unwrap();
    let (_, blocks) = run(4, &format!("-input {} -msglog 0:2 -iter 3 -npmin 3", sel.display()));
    let got: Vec<(&str, usize)> = blocks.iter().map(|b| (b.name.as_str(), b.processes)).collect();
    assert_eq!(
        got,
        [
            ("P_Write_Shared", 3),
            ("P_Write_Shared", 3),
            ("P_Write_Shared", 4),
            ("P_Write_Shared", 4),
            ("C_Read_Expl", 3),
            ("C_Read_Expl", 4)
        ]
    );
    let (_, blocks) =
        run(4, "-multi 1 -map 2x2 -npmin 2 -msglog 0:1 -iter 3 P_Read_priv S_Write_expl");
    let got: Vec<(&str, usize, usize)> =
        blocks.iter().map(|b| (b.name.as_str(), b.processes, b.groups.len())).collect();
    assert_eq!(
        got,
        [
            ("Multi-S_Write_Expl", 1, 4),
            ("Multi-S_Write_Expl", 1, 4),
            ("Multi-P_Read_Priv", 2, 2),
            ("Multi-P_Read_Priv", 4, 1)
        ]
    );
    assert_eq!(blocks[2].groups, [vec![0, 2], vec![1, 3]], "-map 2x2 numbers along the rows");
    assert_eq!(blocks[2].col("#group"), [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]);
}

#[test]
#[ignore = "long: make test-long"]
fn check_finds_no_defects_in_a_clean_run() {
    let lengths = tempfile::tempdir().unwrap();
    let file = lengths.path().join("len");
    std::fs::write(&file, "0\n1\n4099\n").unwrap();
    let (_, blocks) = run(2, &format!("-check -msglen {} -iter 3,16,2", file.display()));
    assert_eq!(blocks.len(), expected(2).len());
    let (_, more) = run(4, "-check -msglog 0:12 -iter 4 P_Write_indv P_Read_expl P_Write_shared P_Read_shared C_Write_shared C_Read_indv P_Read_priv");
    for b in blocks.iter().chain(&more) {
        assert!(b.col("defects").iter().all(|&d| d == 0.0), "{} {}", b.name, b.mode);
    }
}

#[test]
fn a_defect_is_reported_fails_the_run_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out =
        launch(2, dir.path(), "-check -msglog 0:3 -iter 3 -npmin 2 P_Write_expl C_IRead_shared")
            .env("PAW_TEST_CORRUPT", 0)
            .run();
    out.failure("-check found");
    assert_eq!(out.code, Some(1), "{}", out.report());
    let blocks = parse(&out.stdout);
    assert_eq!(blocks.len(), 3, "every block still printed\n{}", out.report());
    for b in &blocks {
        let d = b.col("defects");
        assert_eq!(d[0], 0.0, "{}: nothing to corrupt at length 0", b.name);
        assert!(d[1..].iter().all(|&x| x == 1.0), "{} {}: {d:?}", b.name, b.mode);
    }
    assert_eq!(listing(dir.path()), Vec::<String>::new());
}

#[test]
fn a_killed_rank_leaves_no_file() {
    // The other tasks can remove the files only where they get SIGTERM before SIGKILL.
    if !paw_test::launcher_is_graceful() {
        eprintln!("skipped under {}: it SIGKILLs the other tasks at once", paw_test::launcher());
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // A foreign file, and one named like Open MPI's shared-pointer lock of IMB_out, which
    // its file-based component (forced here) creates beside IMB_out.
    let foreign = ["IMB_out-1-1.lock", "mine"];
    for name in foreign {
        std::fs::write(dir.path().join(name), "not IMB-IO's").unwrap();
    }
    let io = dir.path().to_path_buf();
    let out = launch(2, dir.path(), "-npmin 2 -msglog 20:24 P_Write_priv P_Write_indv")
        .env("OMPI_MCA_sharedfp", "lockedfile")
        .run_interrupting(Interrupt::Rank(libc::SIGKILL), move |_| {
            listing(&io).iter().any(|f| f.ends_with(".lock") && !foreign.contains(&f.as_str()))
        });
    assert!(out.code != Some(0), "{}", out.report());
    assert_eq!(listing(dir.path()), foreign, "{}", out.report());
    for name in foreign {
        assert_eq!(std::fs::read_to_string(dir.path().join(name)).unwrap(), "not IMB-IO's");
    }
}

#[test]
fn bad_input_gets_one_line_a_non_zero_exit_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("P_Wrte_indv", "unknown benchmark \"P_Wrte_indv\"; valid names: Open_Close, S_Write_Indv"),
        ("-iter 0", "-iter 0: takes n[,vol"),
        ("-mem 0.00001", "-mem 0.00001 is too small"),
        ("-prefix a/b", "-prefix a/b: takes a file name without '/'"),
    ];
    for (args, message) in cases {
        let out = launch(2, dir.path(), args).timeout(Duration::from_secs(30)).run();
        out.failure(message);
        assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
        assert!(!out.stdout.contains("# Benchmarking"), "{}", out.report());
    }
    let out = launch(2, Path::new("/nonexistent/io"), "").timeout(Duration::from_secs(30)).run();
    out.failure("-dir \"/nonexistent/io\": no such directory");
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());

    // An existing file at the chosen name is refused and left as it was.
    std::fs::write(dir.path().join("IMB_out_1"), "keep").unwrap();
    let out = launch(2, dir.path(), "-msglog 0:1").timeout(Duration::from_secs(30)).run();
    out.failure("IMB_out_1 exists; IMB-IO writes only files it creates");
    assert_eq!(std::fs::read_to_string(dir.path().join("IMB_out_1")).unwrap(), "keep");
    assert_eq!(listing(dir.path()), ["IMB_out_1"]);
}

#[test]
fn a_full_or_read_only_disk_is_named_and_cleaned_up() {
    let disk = SmallDisk::mount(256).expect("a small tmpfs (tests run as root)");
    let out =
        launch(2, disk.path(), "-msglog 18:20 S_Write_indv").timeout(Duration::from_secs(60)).run();
    assert!(out.code.is_some_and(|c| c != 0), "{}", out.report());
    let lines = out.stderr_lines("S_Write_Indv at ");
    assert_eq!(lines.len(), 1, "{}", out.report());
    assert!(
        lines[0].contains("bytes written to") && lines[0].contains("no room left"),
        "{}",
        lines[0]
    );
    assert_eq!(listing(disk.path()), Vec::<String>::new(), "{}", out.report());

    disk.read_only().expect("remount read-only");
    let out = launch(2, disk.path(), "-msglog 0:1").timeout(Duration::from_secs(30)).run();
    out.failure("not writable");
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
}

/// `-off_cache`, `-warm_up` and `-imb_barrier`, which Intel's IMB-IO takes and never reads,
/// are taken and said to change nothing; a malformed value is still refused.
#[test]
fn intels_unread_options_are_taken_and_named() {
    let (out, blocks) =
        run(2, "S_Write_indv -msglog 0:2 -iter 3 -off_cache -1 -warm_up off -imb_barrier on");
    assert!(!blocks.is_empty(), "{}", out.report());
    let line = "# Taken, changing nothing        :   -off_cache -1 -warm_up off -imb_barrier on \
                (read by none of IMB-IO's benchmarks)";
    assert!(out.stdout.contains(line), "{}", out.report());
    let dir = tempfile::tempdir().unwrap();
    let bad = launch(2, dir.path(), "-off_cache big").run();
    bad.failure("-off_cache big: takes size[,line]");
}
