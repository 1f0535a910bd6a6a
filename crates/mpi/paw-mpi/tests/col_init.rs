use paw_test::Launch;
use std::path::Path;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_col_init");
const INITEST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../scripts/initest");

/// scripts/initest with the tests' launcher (PAW_TEST_MPIRUN, as Launch::mpi uses) and,
/// for Open MPI only, --oversubscribe.
fn initest() -> Launch {
    let l = Launch::direct(INITEST).env("MPIRUN", paw_test::launcher());
    if paw_test::is_open_mpi() {
        l.env("MPIFLAGS", "--oversubscribe")
    } else {
        l
    }
}

/// The `nprocs tMax` line a run printed.
fn reported(stdout: &str) -> (usize, f64) {
    let line = stdout.lines().last().expect("a line on stdout");
    let cells: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(cells.len(), 2, "expected `nprocs tMax`, got {line:?}");
    (cells[0].parse().unwrap(), cells[1].parse().unwrap())
}

#[test]
fn start_up_time_is_plausible_and_written() {
    for np in [1, 2, 4] {
        let out = Launch::mpi(BIN, np).run();
        out.success();
        let (tasks, tmax) = reported(&out.stdout);
        assert_eq!(tasks, np);
        assert!(tmax > 0.0, "{}", out.report());
        assert!(
            tmax < out.elapsed.as_secs_f64(),
            "MPI_Init cannot outlast the run\n{}",
            out.report()
        );
        for file in [format!("time_init_{np}.dat"), "time_init.dat".to_string()] {
            let dat = out.dat(&file);
            assert_eq!(dat.columns, ["TASKS", "TMAX", "TMIN", "TAVG"]);
            assert_eq!(dat.numbers("TASKS"), [np as f64]);
            let [max, min, avg] = ["TMAX", "TMIN", "TAVG"].map(|c| dat.numbers(c)[0]);
            assert!(0.0 < min && min <= avg && avg <= max, "{file}: {min} {avg} {max}");
            assert!((max - tmax).abs() < 1e-6);
        }
    }
}

#[test]
fn initest_sweeps_task_counts_and_gathers_results() {
    let bindir = Path::new(BIN).parent().unwrap();
    assert!(
        bindir.join("col_init_th").exists(),
        "col_init_th is not built next to col_init: build the workspace (make test)"
    );
    let out = initest()
        .args(["1", "2", "4"])
        .env("BINDIR", bindir.display())
        .timeout(Duration::from_secs(120))
        .run();
    out.success();
    for stem in ["init", "init_th"] {
        let all = out.dat(&format!("time_{stem}.dat"));
        assert_eq!(all.numbers("TASKS"), [1.0, 2.0, 4.0], "{}", out.report());
        assert!(all.numbers("TMAX").iter().all(|&t| t > 0.0 && t < 60.0));
        for np in [1, 2, 4] {
            let one = out.dat(&format!("time_{stem}_{np}.dat"));
            assert_eq!(one.numbers("TASKS"), [np as f64]);
        }
    }
    let th = out.dat("time_init_th.dat");
    assert!(th.header.iter().any(|h| h.starts_with("thread level requested Multiple, granted")));
    // Every row follows a `# run:` line naming its task count: the header holds nothing
    // that differs between the runs.
    let text = std::fs::read_to_string(out.dir.path().join("time_init.dat")).unwrap();
    let runs: Vec<&str> = text.lines().filter(|l| l.starts_with("# run: ")).collect();
    assert_eq!(runs.len(), 3, "{text}");
    for (line, np) in runs.iter().zip([1, 2, 4]) {
        assert!(line.contains(&format!("tasks {np},")), "{line}");
    }
    assert!(!text.lines().any(|l| l.starts_with("# tasks:")), "{text}");
}

#[test]
fn a_second_sweep_starts_new_gathered_files_and_keeps_the_first() {
    let bindir = Path::new(BIN).parent().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let sweep = || {
        let out = initest()
            .args(["1", "2"])
            .env("BINDIR", bindir.display())
            .env("PAW_OUTPUT_DIR", dir.path().display())
            .timeout(Duration::from_secs(120))
            .run();
        out.success();
        out
    };
    sweep();
    let second = sweep();
    assert!(
        second.stdout.contains("the earlier sweep's time_init.dat is kept as"),
        "{}",
        second.report()
    );
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for stem in ["time_init", "time_init_th"] {
        let kept: Vec<&String> = names
            .iter()
            .filter(|n| n.starts_with(&format!("{stem}.before-")) && n.ends_with(".dat"))
            .collect();
        assert_eq!(kept.len(), 1, "{names:?}");
        for file in [format!("{stem}.dat"), kept[0].clone()] {
            let dat =
                paw_test::Dat::parse(&std::fs::read_to_string(dir.path().join(&file)).unwrap())
                    .unwrap();
            assert_eq!(dat.numbers("TASKS"), [1.0, 2.0], "{file}: one sweep per file");
        }
    }
}

#[test]
fn initest_dry_run_prints_the_commands_and_runs_nothing() {
    // Options anywhere; the commands as they would run, with the variables they get.
    let out = Launch::direct(INITEST)
        .args(["--range", "1", "6", "--dry-run"])
        .env("MPIRUN", "srun")
        .env("NPFLAG", "-N")
        .run();
    out.success();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 8, "{}", out.report());
    assert!(
        lines[0].starts_with("PAW_OUTPUT_DIR=") && lines[0].contains(" srun -N 1 "),
        "{}",
        lines[0]
    );
    assert!(lines[7].contains("srun -N 6 ") && lines[7].ends_with("/col_init_th"), "{}", lines[7]);
    assert!(out.files().is_empty());
    let out = Launch::direct(INITEST).args(["1", "2", "--dry-run"]).run();
    out.success();
    assert_eq!(out.stdout.lines().count(), 4, "{}", out.report());
    let help = Launch::direct(INITEST).arg("-h").run();
    help.success();
    assert!(help.stdout.starts_with("usage: scripts/initest") && !help.stdout.contains("set -eu"));
}

#[test]
fn initest_refuses_bad_counts_and_fails_loudly_on_a_failed_run() {
    let out = Launch::direct(INITEST).arg("two").run();
    out.failure("initest: 'two' is not a count");
    let out = Launch::direct(INITEST).args(["1", "2"]).env("BINDIR", "/nonexistent").run();
    out.failure("initest: /nonexistent/col_init not found");
    // A launcher that fails: the sweep stops with a message.
    let out = Launch::direct(INITEST)
        .arg("1")
        .env("BINDIR", Path::new(BIN).parent().unwrap().display())
        .env("MPIRUN", "false")
        .run();
    out.failure("failed; stopping the sweep");
}
