use paw_test::Launch;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_col_init_th");

#[test]
fn granted_level_and_time_are_reported() {
    for (level, name) in [(None, "Multiple"), (Some("funneled"), "Funneled")] {
        let mut launch = Launch::mpi(BIN, 2);
        if let Some(l) = level {
            launch = launch.env("PAW_THREAD_LEVEL", l);
        }
        let out = launch.run();
        out.success();
        let line = out.stdout.lines().last().unwrap();
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells[0], "2", "{line}");
        let tmax: f64 = cells[1].parse().unwrap();
        assert!(tmax > 0.0 && tmax < out.elapsed.as_secs_f64());
        assert!(out.stdout.contains(&format!("thread level requested {name}, granted")));
        let dat = out.dat("time_init_th_2.dat");
        assert!(dat
            .header
            .iter()
            .any(|h| h.starts_with(&format!("thread level requested {name}"))));
        assert_eq!(out.dat("time_init_th.dat").numbers("TASKS"), [2.0]);
    }
}

#[test]
fn bad_thread_level_is_refused() {
    let out =
        Launch::mpi(BIN, 2).env("PAW_THREAD_LEVEL", "lots").timeout(Duration::from_secs(20)).run();
    out.failure("PAW_THREAD_LEVEL=\"lots\" is not a thread level; accepted: single, funneled");
    assert_eq!(out.stderr_lines("error:").len(), 1, "{}", out.report());
}
