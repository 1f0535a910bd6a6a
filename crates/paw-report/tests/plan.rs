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
