//! How settings reach a run: typos are pointed out, NLOOP and the default minimum, PAW_COMBINE,
//! samples added by default and PAW_PRECISION, earlier runs kept, PAW_CHECK where nothing
//! can be checked.

use paw_test::binaries::bin;
use paw_test::{Dat, Launch};

fn relative_width(dat: &Dat) -> Vec<f64> {
    let (lo, hi, med) = (dat.numbers("CI_LO"), dat.numbers("CI_HI"), dat.numbers("MEDIAN"));
    lo.iter().zip(&hi).zip(&med).map(|((l, h), m)| (h - l) / m).collect()
}

#[test]
fn a_misspelled_variable_is_named_with_the_closest_one_and_the_run_goes_on() {
    let out = Launch::mpi(bin("p2p_send"), 2).env("MAX_P2P_SZIE", 4194304).run();
    out.success();
    let warned = out.stderr_lines("warning: MAX_P2P_SZIE is not read by p2p_send");
    assert_eq!(warned.len(), 1, "{}", out.report());
    assert!(warned[0].contains("the closest variable it reads is MAX_P2P_SIZE"), "{}", warned[0]);
    assert_eq!(out.dat("send_time-np_0002.dat").numbers("SIZE").last(), Some(&4096.0));
}

#[test]
fn near_misses_are_warned_about_and_paw_strict_refuses_them() {
    let out = Launch::mpi(bin("p2p_send"), 2)
        .env("NREP", 3)
        .env("max_p2p_size", 64)
        .env("MAX_COL_SIZE", 64)
        .run();
    out.success();
    let expected = [
        "NREP is not read by p2p_send and is ignored; the closest variable it reads is NREPS",
        "max_p2p_size is not read by p2p_send and is ignored; variable names are upper case: \
         MAX_P2P_SIZE",
        "MAX_COL_SIZE is not read by p2p_send and is ignored (see p2p_send -h",
    ];
    for needle in expected {
        assert_eq!(out.stderr_lines(needle).len(), 1, "{needle}\n{}", out.report());
    }
    // A variable another binary reads is not passed off as a near miss of one this reads.
    let out = Launch::mpi(bin("latency"), 2).env("MAX_P2P_SIZE", 64).run();
    out.success();
    let warned = out.stderr_lines("MAX_P2P_SIZE is not read by latency");
    assert_eq!(warned.len(), 1, "{}", out.report());
    assert!(!warned[0].contains("PAW_MAX_TIME"), "{}", warned[0]);

    let out = Launch::mpi(bin("p2p_send"), 2).env("NREP", 3).env("PAW_STRICT", 1).run();
    out.failure("NREP is not read by p2p_send");
    assert_eq!(out.code, Some(2), "{}", out.report());
    let said = out.stderr_lines("PAW_STRICT=1 stops the run here");
    assert_eq!(said.len(), 1, "one line\n{}", out.report());
    assert!(!said[0].contains("ignored"), "the run stops: nothing is ignored\n{}", said[0]);
    assert!(out.dat_files().is_empty(), "nothing measured: {:?}", out.dat_files());
}

#[test]
fn sizes_take_k_m_and_g_suffixes_and_the_header_records_bytes() {
    let out = Launch::mpi(bin("p2p_send"), 2)
        .env("MIN_P2P_SIZE", "1K")
        .env("MED_P2P_SIZE", "2k")
        .env("MAX_P2P_SIZE", "4k")
        .run();
    out.success();
    let dat = out.dat("send_time-np_0002.dat");
    assert_eq!(dat.numbers("SIZE"), [1024.0, 2048.0, 4096.0], "{}", out.report());
    let settings = dat.header_value("settings").unwrap_or_default().to_string();
    assert!(settings.contains("MAX_P2P_SIZE=4096"), "{settings}");
    // The terminal shows the time table and names the bandwidth file.
    let named = out.stdout.lines().filter(|l| l.ends_with("send_bw-np_0002.dat (file only)"));
    assert_eq!(named.count(), 1, "{}", out.report());
    let out = Launch::mpi(bin("p2p_send"), 2).env("MAX_P2P_SIZE", "4Q").run();
    out.failure("MAX_P2P_SIZE=\"4Q\" is not a number; accepted: a whole number from 1 to");
    assert_eq!(out.code, Some(2), "{}", out.report());
}

#[test]
fn tasks_that_share_cpus_are_pointed_out() {
    // Intel MPI's hydra takes -bind-to but pins by I_MPI_PIN; the others ignore that variable.
    let out = Launch::mpi(bin("p2p_send"), 2)
        .launcher_args(["-bind-to", "none"])
        .env("I_MPI_PIN", "off")
        .run();
    out.success();
    let warned = out.stderr_lines("share CPUs with another task of their host");
    assert_eq!(warned.len(), 1, "{}", out.report());
    let dat = out.dat("send_time-np_0002.dat");
    let binding = dat.header_value("binding").unwrap_or_default().to_string();
    assert!(binding.starts_with("2 of 2 tasks (0, 1) share CPUs"), "{binding}");
}

#[test]
fn nloop_fixes_the_count_and_the_default_minimum_gives_large_sizes_ten_transfers() {
    let out = Launch::mpi(bin("p2p_send"), 2).env("NLOOP", 7).run();
    out.success();
    let dat = out.dat("send_time-np_0002.dat");
    assert!(dat.numbers("NLOOP").iter().all(|&n| n == 7.0), "{:?}", dat.numbers("NLOOP"));
    assert!(dat.header_value("nloop").unwrap().starts_with("fixed by NLOOP=7"));

    let out = Launch::mpi(bin("p2p_send"), 2).env("MAX_P2P_SIZE", 4194304).run();
    out.success();
    let dat = out.dat("send_time-np_0002.dat");
    let (sizes, nloop) = (dat.numbers("SIZE"), dat.numbers("NLOOP"));
    assert_eq!(sizes.last(), Some(&4194304.0));
    let (n, one_way) = (*nloop.last().unwrap(), *dat.numbers("MEDIAN").last().unwrap());
    eprintln!("measured: NLOOP at 4 MiB {n} (at least 10), one way {one_way} usec");
    // Fewer only where 10 round trips would last over 0.1 s (judged from the warm-up, so
    // against the median with a factor of 2 of slack).
    let ten = 10.0 * 2.0 * one_way * 1e-6;
    assert!(n >= 10.0 || ten > 0.05, "4 MiB samples hold {n} round trips of {one_way} usec");
    assert!(dat.header_value("nloop").unwrap().contains("at least 10 (NLOOP_MIN's default"));
}

#[test]
fn a_range_the_timer_floor_cannot_meet_is_refused() {
    // One round trip: under the floor (4-5 usec here) even on Intel MPI's slow first trips.
    let out = Launch::mpi(bin("latency"), 2).env("NLOOP_MIN", 1).env("NLOOP_MAX", 1).run();
    out.failure("NLOOP_MIN=1 and NLOOP_MAX=1 cannot both be met");
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
    assert!(out.stderr.contains("or NLOOP=1 to run exactly 1"), "{}", out.report());
}

#[test]
fn paw_combine_min_makes_the_median_the_fastest_tasks() {
    // col_ardc's own rule is the maximum; PAW_COMBINE=min gives PAW 1.6's minimum ...
    let out = Launch::mpi(bin("col_ardc"), 4).env("PAW_COMBINE", "min").run();
    out.success();
    let dat = out.dat("ardc_time-np_0004.dat");
    assert_eq!(dat.numbers("MEDIAN"), dat.numbers("TASK_MIN"), "{}", out.report());
    let rule = dat.header_value("ranks combined").unwrap();
    assert!(rule.starts_with("minimum over tasks") && rule.contains("PAW_COMBINE=min"), "{rule}");
    // ... in PAW 1.6's loop, a barrier before each timed call.
    let model = dat.header_value("timing").unwrap();
    assert!(model.contains(paw_test::collective::PER_CALL), "{model}");
    let out = Launch::mpi(bin("col_ardc"), 2).env("PAW_COMBINE", "median").run();
    out.failure("PAW_COMBINE=\"median\" is not a rule; accepted: min, max or avg");
}

#[test]
fn paw_precision_adds_samples_where_needed_and_narrows_the_interval() {
    let run = |precision: Option<f64>| {
        let mut l = Launch::mpi(bin("p2p_isend"), 2).env("NREPS", 5).env("MAX_P2P_SIZE", 256);
        if let Some(p) = precision {
            l = l.env("PAW_PRECISION", p).env("PAW_MAX_TIME", 0.5);
        }
        let out = l.run();
        out.success();
        out.dat("isend_time-np_0002.dat")
    };
    let (plain, precise) = (run(None), run(Some(0.005)));
    assert!(plain.numbers("NREPS").iter().all(|&n| n == 5.0));
    // A size keeps NREPS samples only if they were already precise enough.
    let reps = precise.numbers("NREPS");
    for (n, w) in reps.iter().zip(relative_width(&precise)) {
        assert!(*n > 5.0 || w / 2.0 <= 0.005, "{n} samples, half-width {}", w / 2.0);
    }
    assert!(reps.iter().any(|&n| n > 5.0), "{reps:?}");
    let mean = |v: Vec<f64>| v.iter().sum::<f64>() / v.len() as f64;
    let (wide, narrow) = (mean(relative_width(&plain)), mean(relative_width(&precise)));
    assert!(narrow < wide, "interval {narrow} with PAW_PRECISION, {wide} without");
    assert!(precise.header_value("repetitions").unwrap().contains("PAW_PRECISION=0.005"));
}

#[test]
fn by_default_every_row_is_precise_or_spent_its_budget() {
    for (name, file) in [
        ("p2p_send", "send_time-np_0002.dat"),
        ("p2p_isend", "isend_time-np_0002.dat"),
        ("col_ardc", "ardc_time-np_0002.dat"),
    ] {
        let mut launch = Launch::mpi(bin(name), 2);
        for var in ["NREPS", "NLOOP_MAX", "MIN_P2P_SIZE", "MED_P2P_SIZE", "MAX_P2P_SIZE"] {
            launch = launch.unset(var);
        }
        for var in ["MIN_COL_SIZE", "MED_COL_SIZE", "MAX_COL_SIZE"] {
            launch = launch.unset(var);
        }
        let out = launch.run();
        out.success();
        let dat = out.dat(file);
        // A row without added samples was narrow at once; a NOISY row spent its budget.
        let (reps, noisy) = (dat.numbers("NREPS"), dat.numbers("NOISY"));
        for (i, (n, flag)) in reps.iter().zip(&noisy).enumerate() {
            assert!(*n >= 10.0, "{name} row {i}: {n} samples\n{}", out.report());
            assert!(*flag == 0.0 || *n > 10.0, "{name} row {i}: NOISY with 10 samples");
        }
        let rule = dat.header_value("repetitions").unwrap();
        assert!(rule.contains("a NOISY row is one whose budget ran out"), "{rule}");
        let noisy = noisy.iter().filter(|&&f| f == 1.0).count();
        eprintln!("measured: {name} default: {noisy} of {} rows NOISY", reps.len());
    }
    let fixed = Launch::mpi(bin("p2p_send"), 2).env("NREPS", 10).run();
    fixed.success();
    let dat = fixed.dat("send_time-np_0002.dat");
    assert!(dat.numbers("NREPS").iter().all(|&n| n == 10.0));
    assert!(dat.header_value("repetitions").unwrap().contains("fixed (PAW 1.6's rule"));
}

#[test]
fn a_second_run_keeps_the_first_runs_files() {
    let dir = tempfile::tempdir().unwrap();
    let run = || {
        let out = Launch::mpi(bin("paw-fixture"), 2)
            .env("PAW_FIXTURE", "sweep")
            .env("PAW_FIXTURE_SLEEP_US", 10)
            .env("MAX_P2P_SIZE", 4)
            .env("PAW_OUTPUT_DIR", dir.path().display())
            .run();
        out.success();
        out
    };
    run();
    let first: Vec<String> = names(dir.path());
    assert_eq!(
        first,
        ["fixture_time-np_0002.csv", "fixture_time-np_0002.dat", "paw-fixture-np_0002.json"]
    );
    let date =
        Dat::parse(&std::fs::read_to_string(dir.path().join("fixture_time-np_0002.dat")).unwrap())
            .unwrap()
            .header_value("date")
            .unwrap()
            .replace(':', "");
    let second = run();
    let now = names(dir.path());
    for f in &first {
        let (stem, ext) = f.rsplit_once('.').unwrap();
        assert!(now.contains(f), "{f} written again");
        assert!(now.contains(&format!("{stem}.{date}.{ext}")), "{f} kept with its date: {now:?}");
    }
    let kept = second.stderr_lines("earlier results were kept");
    assert_eq!(kept.len(), 1, "one line says so\n{}", second.report());
}

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn paw_check_is_refused_where_nothing_can_be_checked_and_pointed_out_where_results_always_are() {
    let out = Launch::mpi(bin("col_init"), 2).env("PAW_CHECK", 1).run();
    out.failure(
        "PAW_CHECK=1: col_init moves no data it could check; accepted: PAW_CHECK unset or 0",
    );
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
    assert!(out.files().is_empty(), "{:?}", out.files());
    let out = Launch::direct(bin("dgemm")).env("PAW_CHECK", 1).run();
    out.success();
    assert_eq!(
        out.stderr_lines("PAW_CHECK is not read by dgemm: its results are always checked").len(),
        1
    );
}
