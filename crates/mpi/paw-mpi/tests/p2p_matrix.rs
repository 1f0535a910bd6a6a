//! p2p_matrix on this machine: one host, so a map of the tasks (MATRIX_PER_TASK=1); the map
//! of hosts, and its outliers against a known slow host, are tested on the namespace
//! cluster (paw-test's cluster.rs).

use paw_test::Launch;

const BIN: &str = env!("CARGO_BIN_EXE_p2p_matrix");

fn map(np: usize) -> Launch {
    Launch::mpi(BIN, np)
        .env("MATRIX_PER_TASK", 1)
        .env("MATRIX_SIZE", 65536)
        .env("MATRIX_WINDOW", 2)
        .env("MATRIX_SAMPLES", 3)
        .env("MATRIX_LAT_ITERS", 10)
}

#[test]
fn a_map_of_the_tasks_has_every_link_both_ways_named_on_both_axes() {
    for np in [2, 3, 4] {
        let out = map(np).run();
        out.success();
        for (stem, unit) in [("matrix_bw", "MB/s"), ("matrix_lat", "usec")] {
            let dat = out.dat(&format!("{stem}-np_{np:04}.dat"));
            let labels = dat.cells("HOST");
            assert_eq!(labels.len(), np, "a row per task\n{}", out.report());
            assert_eq!(&dat.columns[1..], &labels[..], "the same names on both axes");
            for (r, label) in labels.iter().enumerate() {
                assert!(label.ends_with(&format!(":{r}")), "host:rank, got {label}");
            }
            assert!(dat
                .header
                .iter()
                .any(|h| h.contains(&format!("[{unit}]: row = sending node"))));
            for (i, row) in dat.rows.iter().enumerate() {
                for (j, cell) in row[1..].iter().enumerate() {
                    if i == j {
                        assert_eq!(cell, "-", "the diagonal is empty");
                    } else {
                        let v: f64 =
                            cell.parse().unwrap_or_else(|_| panic!("{stem} {i},{j}: {cell}"));
                        assert!(v.is_finite() && v > 0.0, "{stem} {i},{j}: {v}\n{}", out.report());
                    }
                }
            }
            let png = std::fs::read(out.dir.path().join(format!("{stem}-np_{np:04}.png"))).unwrap();
            assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{stem}: a PNG heatmap");
            let side = u32::from_be_bytes(png[16..20].try_into().unwrap()) as usize;
            assert_eq!(side, np * 24, "a 24-pixel cell per link");
        }
        let verdict = out.stdout.lines().filter(|l| l.starts_with("median link ")).count();
        assert_eq!(verdict, 1, "the outlier summary\n{}", out.report());
    }
}

#[test]
fn one_host_without_per_task_and_bad_settings_are_refused() {
    let out = Launch::mpi(BIN, 2).run();
    out.failure("p2p_matrix maps the links between hosts, and this run's 2 tasks are all on host");
    assert!(out.files().is_empty() || out.dat_files().is_empty(), "{}", out.report());
    let out = map(2).env("MATRIX_LOW", 0).run();
    out.failure("MATRIX_LOW=0 is out of range; accepted: a whole number from 1 to 99");
    let out = map(2).env("MATRIX_WINDOW", 0).run();
    out.failure("MATRIX_WINDOW=0 is out of range");
}

#[test]
fn a_quick_map_measures_its_shifts_only_and_writes_the_verdict_as_json() {
    let out = map(4).env("MATRIX_SHIFTS", 1).run();
    out.success();
    let dat = out.dat("matrix_bw-np_0004.dat");
    for (i, row) in dat.rows.iter().enumerate() {
        // Shift 1 only: node i sends to node i+1 alone.
        let measured: Vec<usize> = (0..4).filter(|&j| row[j + 1] != "-").collect();
        assert_eq!(measured, [(i + 1) % 4], "row {i}: {row:?}\n{}", out.report());
    }
    let json = std::fs::read_to_string(out.dir.path().join("matrix_verdict-np_0004.json"));
    let json: serde_json::Value = serde_json::from_str(&json.expect("the verdict")).unwrap();
    assert_eq!(json["criteria"], "paw", "{json}");
    assert!(json["bandwidth"]["reference"].as_f64().is_some_and(|v| v > 0.0), "{json}");
    let progress = out.stderr_lines("] bandwidth shift 1 of 3");
    assert_eq!(progress.len(), 1, "{}", out.report());
}
