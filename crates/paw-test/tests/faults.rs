//! Nothing hangs, nothing is lost: a rank killed mid-sweep ends the job within seconds and
//! leaves every finished row whole; signals end the job promptly; a stuck step is ended
//! by the watchdog, which names it; I/O scratch files never outlive the job.

use paw_test::binaries::bin;
use paw_test::{Dat, Interrupt, Launch, Outcome};
use std::path::Path;
use std::time::Duration;

/// Data rows in `dir/file` so far.
fn rows(dir: &Path, file: &str) -> usize {
    std::fs::read_to_string(dir.join(file))
        .map(|t| t.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).count())
        .unwrap_or(0)
}

/// The job ended by itself, promptly, with a non-zero status (where the launcher reports a
/// signal it forwarded: MPICH's may exit 0), leaving no process behind.
fn ended_promptly(out: &Outcome, within: Duration, what: Interrupt) {
    assert!(!out.timed_out, "the job hung\n{}", out.report());
    let forwarded = matches!(what, Interrupt::Launcher(_)) && !paw_test::launcher_is_graceful();
    assert!(out.code != Some(0) || forwarded, "a killed job must not exit 0\n{}", out.report());
    let took = out.after_interrupt.expect("the signal was sent");
    eprintln!("measured: ended {took:?} after the interrupt (allowed {within:?})");
    assert!(took < within, "took {took:?} to end\n{}", out.report());
    assert!(out.survivors.is_empty(), "{}", out.report());
}

/// Every `.dat` file parses (no torn row) and its CSV twin has as many rows; only paw's
/// own files are left.
fn files_whole(out: &Outcome) -> usize {
    let mut total = 0;
    for f in out.files() {
        assert!(
            f.ends_with(".dat") || f.ends_with(".csv") || f.ends_with(".json"),
            "a scratch file was left: {f}\n{}",
            out.report()
        );
    }
    for f in out.dat_files() {
        let dat = out.dat(&f);
        let csv = std::fs::read_to_string(out.dir.path().join(f.replace(".dat", ".csv"))).unwrap();
        assert_eq!(csv.lines().count(), 1 + dat.rows.len(), "{f}: CSV rows vs .dat rows");
        total += dat.rows.len();
    }
    for f in out.files().into_iter().filter(|f| f.ends_with(".json")) {
        let text = std::fs::read_to_string(out.dir.path().join(&f)).unwrap();
        assert!(text.trim_end().ends_with('}'), "{f} is not whole JSON");
    }
    total
}

#[test]
#[ignore = "long: make test-long"]
fn a_rank_killed_mid_sweep_ends_the_job_and_every_finished_row_is_whole() {
    const KILL: i32 = libc::SIGKILL;
    /// Binary, task counts, settings that make the sweep last, the file to watch, and the
    /// rows it must hold before the kill.
    type Case<'a> = (&'a str, &'a [usize], &'a [(&'a str, &'a str)], &'a str, usize);
    let cases: [Case; 5] = [
        ("latency", &[2], &[("NREPS", "3000"), ("NLOOP_MAX", "1000")], "latency.dat", 0),
        (
            "p2p_isend",
            &[2, 4],
            &[("MAX_P2P_SIZE", "4194304"), ("NREPS", "60")],
            "isend_time-np_{np}.dat",
            3,
        ),
        (
            "col_ardc",
            &[2, 4],
            &[("MAX_COL_SIZE", "4194304"), ("NREPS", "60")],
            "ardc_time-np_{np}.dat",
            3,
        ),
        (
            "col_acc",
            &[2, 4],
            &[("MAX_COL_SIZE", "4194304"), ("NREPS", "60")],
            "acc_time-np_{np}.dat",
            3,
        ),
        (
            "col_iardc",
            &[2, 4],
            &[("MAX_COL_SIZE", "4194304"), ("NREPS", "60")],
            "iardc_time-np_{np}.dat",
            3,
        ),
    ];
    // The other binaries of what MPI-3 and MPI-4 added, at 2 tasks (the persistent ones
    // where the library has them).
    const BIG: &[(&str, &str)] = &[("MAX_COL_SIZE", "4194304"), ("NREPS", "60")];
    let more: Vec<(&str, String, usize)> = [
        ("col_ia2a", "ia2a", 3),
        ("col_ibct", "ibct", 3),
        ("col_iagtr", "iagtr", 3),
        ("col_nbr_agtr", "nbr_agtr", 3),
        ("col_nbr_a2a", "nbr_a2a", 3),
        ("col_pardc", "pardc", 3),
        ("col_pbct", "pbct", 3),
    ]
    .into_iter()
    .filter(|(name, _, _)| paw_test::has_mpi4() || !["col_pardc", "col_pbct"].contains(name))
    .map(|(name, stem, rows)| (name, format!("{stem}_time-np_{{np}}.dat"), rows))
    .collect();
    let mut cases = cases.to_vec();
    for (name, file, rows) in &more {
        cases.push((name, &[2], BIG, file, *rows));
    }
    // col_ibarrier has one row (no sizes): its repetitions make it last.
    cases.push(("col_ibarrier", &[2], &[("NREPS", "200000")], "ibarrier_time-np_{np}.dat", 0));
    cases.push((
        "p2p_send_mt",
        &[2],
        &[("MT_THREADS", "1"), ("MAX_P2P_SIZE", "4194304"), ("NREPS", "60")],
        "send_mt_time-np_{np}.dat",
        3,
    ));
    let mut ends = Vec::new();
    for (name, nps, env, file, after) in cases {
        for np in paw_test::task_counts(nps) {
            let file = file.replace("{np}", &format!("{np:04}"));
            let mut l = Launch::mpi(bin(name), np).timeout(Duration::from_secs(90));
            for (k, v) in env {
                l = l.env(k, v);
            }
            let out = l.run_interrupting(Interrupt::Rank(KILL), |dir| {
                dir.join(&file).exists() && rows(dir, &file) >= after
            });
            ended_promptly(&out, Duration::from_secs(10), Interrupt::Rank(KILL));
            let kept = files_whole(&out);
            assert!(kept >= after, "{name} at {np}: {kept} rows\n{}", out.report());
            ends.push(out.after_interrupt.unwrap());
        }
    }
    // The IMB suites: the CSV tables of the lengths done stay whole, and IMB-IO's files go.
    let io_dir = tempfile::tempdir().unwrap();
    let io =
        format!("P_Write_indv -npmin 2 -iter 50 -msglog 0:24 -dir {}", io_dir.path().display());
    let counts: Vec<String> = (0..=20).map(|k| (1u32 << k).to_string()).collect();
    let mt = format!("PingPongMT -repeat 3000 -count {}", counts.join(","));
    let mut suites = vec![
        ("IMB-MPI1", "PingPong Allreduce -iter 3000 -msglog 0:22", "IMB-MPI1-PingPong-np_0002.csv"),
        ("IMB-NBC", "Ialltoall -iter 20000,4000 -msglog 0:22", "IMB-NBC-Ialltoall-np_0002.csv"),
        ("IMB-RMA", "All_put_all -iter 20000,4000 -msglog 0:22", "IMB-RMA-All_put_all-np_0002.csv"),
        // IMB-P2P runs on every process at once: its table is named after P (PPPP).
        (
            "IMB-P2P",
            "Birandom -iter 100000,4000 -msglog 22 -pause 0",
            "IMB-P2P-Birandom-np_PPPP.csv",
        ),
        (
            "IMB-EXT",
            "Unidir_Put -iter 3000 -msglog 0:22",
            "IMB-EXT-Unidir_Put-np_0002-aggregate.csv",
        ),
        ("IMB-IO", io.as_str(), "IMB-IO-P_Write_Indv-np_0002-aggregate.csv"),
        ("IMB-MT", mt.as_str(), "IMB-MT-PingPongMT-np_PPPP.csv"),
    ];
    if paw_test::has_mpi4() {
        let mpi4 = "Allreduce_persist -iter 20000,4000 -msglog 0:22";
        suites.push(("IMB-MPI4", mpi4, "IMB-MPI4-Allreduce_persist-np_0002.csv"));
    } else {
        eprintln!("IMB-MPI4: the library under test has no MPI-4 collectives; not killed here");
    }
    for (suite, args, table) in suites {
        for np in paw_test::task_counts(&[2, 4]) {
            let table = table.replace("PPPP", &format!("{np:04}"));
            let table = table.as_str();
            let out = Launch::mpi(bin(suite), np)
                .args(args.split_whitespace())
                .timeout(Duration::from_secs(90))
                .run_interrupting(Interrupt::Rank(KILL), |dir| rows(dir, table) >= 4);
            ended_promptly(&out, Duration::from_secs(10), Interrupt::Rank(KILL));
            let csv = std::fs::read_to_string(out.dir.path().join(table)).unwrap();
            let width = csv.lines().next().unwrap().split(',').count();
            assert!(csv.lines().all(|l| l.split(',').count() == width), "torn row\n{csv}");
            // Only where the other tasks get SIGTERM before SIGKILL can they remove files.
            let left: Vec<_> = std::fs::read_dir(io_dir.path()).unwrap().flatten().collect();
            if paw_test::launcher_is_graceful() {
                assert!(left.is_empty(), "{suite}: {left:?} left behind\n{}", out.report());
            }
            for f in left {
                let _ = std::fs::remove_file(f.path());
            }
            ends.push(out.after_interrupt.unwrap());
        }
    }
    // b_eff: its protocol, written a length at a time (3.6's order: repetition, length,
    // pattern, method), keeps whole rows.
    let first_length = |prot: &str| {
        prot.lines()
            .filter(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                !l.starts_with('#') && w.len() == 9 && w[3] == "1" && w[6] == "1"
            })
            .count()
    };
    let out = Launch::mpi(bin("b_eff"), 2)
        .args(["-mem", "64"])
        .timeout(Duration::from_secs(90))
        .run_interrupting(Interrupt::Rank(KILL), |dir| {
            rows(dir, "b_eff-np_0002.prot")
                > 2 * first_length(
                    &std::fs::read_to_string(dir.join("b_eff-np_0002.prot")).unwrap_or_default(),
                )
        });
    ended_promptly(&out, Duration::from_secs(10), Interrupt::Rank(KILL));
    let prot = std::fs::read_to_string(out.dir.path().join("b_eff-np_0002.prot")).unwrap();
    let data: Vec<&str> = prot.lines().filter(|l| !l.starts_with('#')).collect();
    let per_length = first_length(&prot);
    assert!(
        per_length > 0 && data.len() > per_length && data.len().is_multiple_of(per_length),
        "{per_length} rows a length: {}",
        data.len()
    );
    assert!(data.iter().all(|l| l.split_whitespace().count() == 9), "torn row\n{prot}");
    ends.push(out.after_interrupt.unwrap());
    // PRESTA's com: the unidirectional table, written whole before the bidirectional pass.
    let out = Launch::mpi(bin("com"), 2)
        .args(["-o", "2000", "-b", "32", "-e", "4194304"])
        .timeout(Duration::from_secs(90))
        .run_interrupting(Interrupt::Rank(KILL), |dir| {
            rows(dir, "com_unidirectional_bw-np_0002.csv") >= 18
        });
    ended_promptly(&out, Duration::from_secs(10), Interrupt::Rank(KILL));
    assert!(files_whole(&out) >= 18, "{}", out.report());
    ends.push(out.after_interrupt.unwrap());
    ends.sort();
    eprintln!(
        "jobs ended after a kill in: median {:?}, max {:?}",
        ends[ends.len() / 2],
        ends.last().unwrap()
    );
}

#[test]
fn sigterm_or_sigint_ends_the_job_promptly_with_its_rows() {
    for what in [
        Interrupt::Launcher(libc::SIGTERM),
        Interrupt::Rank(libc::SIGINT),
        Interrupt::Launcher(libc::SIGINT),
    ] {
        let file = "isend_time-np_0002.dat";
        let out = Launch::mpi(bin("p2p_isend"), 2)
            .env("MAX_P2P_SIZE", 4194304)
            .env("NREPS", 60)
            .timeout(Duration::from_secs(60))
            .run_interrupting(what, |dir| rows(dir, file) >= 3);
        ended_promptly(&out, Duration::from_secs(10), what);
        assert!(files_whole(&out) >= 3, "{what:?}\n{}", out.report());
        Dat::parse(&std::fs::read_to_string(out.dir.path().join(file)).unwrap()).unwrap();
    }
}

#[test]
fn io_scratch_files_never_outlive_the_job() {
    // posix_io writes paw_io.<rank> into the output directory; whatever ends the job, none
    // may remain.
    for what in [
        Interrupt::Rank(libc::SIGKILL),
        Interrupt::Launcher(libc::SIGTERM),
        Interrupt::Rank(libc::SIGTERM),
    ] {
        if what == Interrupt::Rank(libc::SIGKILL) && !paw_test::launcher_is_graceful() {
            eprintln!(
                "skipped: a killed task under {}: the others are SIGKILLed at once",
                paw_test::launcher()
            );
            continue;
        }
        let out = Launch::mpi(bin("posix_io"), 2)
            .env("IO_FILE_SIZE", 64 << 20)
            .env("NREPS", 40)
            .timeout(Duration::from_secs(90))
            .run_interrupting(what, |dir| {
                std::fs::read_dir(dir).is_ok_and(|d| {
                    d.flatten().any(|e| e.file_name().to_string_lossy().starts_with("paw_io."))
                })
            });
        ended_promptly(&out, Duration::from_secs(10), what);
        files_whole(&out);
    }
}

#[test]
fn the_watchdog_names_the_stuck_step_and_ends_the_job() {
    let out = Launch::mpi(bin("p2p_isend"), 2)
        .env("PAW_TIMEOUT", 2)
        .env("PAW_TEST_HANG", "1:3")
        .timeout(Duration::from_secs(30))
        .run();
    out.failure("watchdog: the measurement at size 8 made no progress for 2 s (PAW_TIMEOUT=2); aborting the job");
    eprintln!("measured: watchdog job took {:?} (allowed 9 s)", out.elapsed);
    assert!(out.elapsed < Duration::from_secs(9), "took {:?}\n{}", out.elapsed, out.report());
    assert!(out.survivors.is_empty(), "{}", out.report());
    // The rows before the stuck size are whole.
    let dat = out.dat("isend_time-np_0002.dat");
    assert_eq!(dat.numbers("SIZE"), [1.0, 2.0, 4.0], "{}", out.report());
    // PAW_TIMEOUT=0 turns it off; a bad value is refused.
    Launch::mpi(bin("p2p_isend"), 2).env("PAW_TIMEOUT", 0).run().success();
    let out = Launch::mpi(bin("p2p_isend"), 2).env("PAW_TIMEOUT", "soon").run();
    out.failure("PAW_TIMEOUT=\"soon\" is not a number");
}

/// The fabric map writes its matrices at the end: interrupted during its shifts, it ends
/// promptly and leaves no partial matrix. The signal comes 3 s in, well after start-up (a
/// task killed inside Open MPI 4.1's start-up can leave mpirun hanging in PMIx) and well
/// before the end (the run takes about 15 s here).
#[test]
fn an_interrupted_fabric_map_ends_promptly_without_a_partial_matrix() {
    for what in [Interrupt::Launcher(libc::SIGTERM), Interrupt::Rank(libc::SIGINT)] {
        let start = std::time::Instant::now();
        let out = Launch::mpi(bin("p2p_matrix"), 3)
            .env("MATRIX_PER_TASK", 1)
            .env("MATRIX_SAMPLES", 1000)
            .env("MATRIX_SIZE", 4 << 20)
            .timeout(Duration::from_secs(90))
            .run_interrupting(what, move |_| start.elapsed() > Duration::from_secs(3));
        ended_promptly(&out, Duration::from_secs(10), what);
        assert!(out.dat_files().is_empty(), "{what:?}\n{}", out.report());
    }
}
