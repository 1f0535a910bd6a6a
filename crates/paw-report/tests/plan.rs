//! `paw-report plan` from the command line: bad input refused in one line (exit status 2),
//! the env form evaluated by a POSIX shell as qualify.sbatch does.

use std::process::Command;

fn plan(args: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_paw-report"))
        .arg("plan")
        .args(args.split_whitespace())
        .output()
        .expect("paw-report runs")
}

#[test]
fn bad_input_is_refused_in_one_line() {
    for (args, option, accepted) in [
        ("--nodes 0 --tasks-per-node 4", "--nodes", "accepted: a whole number from 1"),
        ("--nodes 4 --tasks-per-node x", "--tasks-per-node", "accepted: a whole number"),
        ("--nodes 4 --tasks-per-node 4 --memory -1", "--memory", "accepted: a number above 0"),
        ("--nodes 4 --tasks-per-node 4 --link 0", "--link", "accepted: a number above 0"),
        ("--nodes 4 --tasks-per-node 4 --latency inf", "--latency", "accepted: a number above 0"),
        ("--nodes 4 --tasks-per-node 4 --format xml", "--format", "possible values: text, env"),
        ("--nodes 4 --tasks-per-node 4 --launch 1", "--launch", "accepted: A,B"),
        ("--nodes 4 --tasks-per-node 4 --launch 1,-2", "--launch", "accepted: A,B"),
        ("--tasks-per-node 4", "--nodes", "required"),
    ] {
        let out = plan(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args}: {err}");
        assert_eq!(err.lines().count(), 1, "{args}: {err}");
        assert!(err.contains(option) && err.contains(accepted), "{args}: {err}");
        assert!(out.stdout.is_empty(), "{args}");
    }
}

#[test]
fn the_env_form_evaluates_in_sh() {
    let out = plan("--nodes 1000 --tasks-per-node 64 --format env");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let script = format!(
        "{text}\nprintf '%s|%s|%s|%s\\n' \"$PLAN_MAX_COL_SIZE\" \"$PLAN_MATRIX_SHIFTS\" \
         \"$PLAN_IMB_MPI1_ARGS\" \"$PLAN_FAN_MAX_P2P_SIZE\""
    );
    let sh = Command::new("sh").args(["-euc", &script]).output().expect("sh");
    let got = String::from_utf8_lossy(&sh.stdout);
    assert_eq!(got.trim(), "8192|32|-npmin 64000 -msglog 0:13 -mem 1 -time 9.2|", "{text}");
}

#[test]
fn the_text_form_has_a_line_per_step_and_units() {
    let out = plan("--nodes 16 --tasks-per-node 1");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("time (s)") && text.contains("node 0 (MB)"), "{text}");
    for step in ["core", "col", "fabric/p2p_matrix", "imb-mpi1", "b_eff_io", "initest", "total"] {
        assert!(text.lines().any(|l| l.starts_with(step)), "{step}\n{text}");
    }
}

#[test]
fn the_users_map_settings_are_timed_and_shown() {
    let run = |vars: &[(&str, &str)]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_paw-report"));
        // A slow link, so that the map's windows, not the launch, make its time.
        cmd.args(["plan", "--nodes", "16", "--tasks-per-node", "1", "--link", "0.01"]);
        for v in ["MATRIX_SIZE", "MATRIX_WINDOW", "MATRIX_SAMPLES", "MATRIX_LAT_ITERS"] {
            cmd.env_remove(v);
        }
        cmd.envs(vars.iter().copied()).output().expect("paw-report runs")
    };
    let seconds = |out: &std::process::Output| -> f64 {
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text.lines().find(|l| l.starts_with("fabric/p2p_matrix")).expect("map row");
        line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("its seconds")
    };
    let ours = run(&[]);
    let yours = run(&[("MATRIX_SAMPLES", "2"), ("MATRIX_SIZE", "2M")]);
    let text = String::from_utf8_lossy(&yours.stdout);
    assert!(text.contains("MATRIX_SIZE=2097152 (yours)"), "{text}");
    assert!(text.contains("MATRIX_SAMPLES=2 (yours)"), "{text}");
    assert!(!String::from_utf8_lossy(&ours.stdout).contains("(yours)"));
    // 3 samples (one untimed) of twice the bytes against 6 of the default's: the same
    // bytes, the same time.
    let (a, b) = (seconds(&ours), seconds(&yours));
    assert!(b > 0.8 * a && b < 1.2 * a, "{a} against {b}");
    let bad = run(&[("MATRIX_SAMPLES", "0")]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("MATRIX_SAMPLES=0") && err.contains("accepted:"), "{err}");
}

#[test]
fn a_sites_launch_replaces_the_fitted_one() {
    // The total and its launches, s.
    let total = |args: &str| -> (f64, f64, String) {
        let text = String::from_utf8(plan(args).stdout).unwrap();
        let line = text.lines().find(|l| l.starts_with("total ")).expect("a total");
        let all = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        let of = line.split("launches ").nth(1).unwrap().split_whitespace().next().unwrap();
        (all, of.parse().unwrap(), text)
    };
    let (fitted, fitted_launches, _) = total("--nodes 100 --tasks-per-node 4");
    let (yours, your_launches, text) = total("--nodes 100 --tasks-per-node 4 --launch 10,0");
    assert!(text.contains("launches: 10 + 0 N s each (yours (--launch))"), "{text}");
    // Every launch 10 s: a whole number of them; the rest of the time unchanged.
    let count = your_launches / 10.0;
    assert!(count > 20.0 && (count - count.round()).abs() < 0.01, "{text}");
    assert!((yours - your_launches - (fitted - fitted_launches)).abs() < 1.0, "{text}");
}
