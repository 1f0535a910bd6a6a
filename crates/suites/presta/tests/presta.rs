//! PRESTA's five binaries under mpirun: their tables at 2, 3 and 4 processes, recomputed;
//! what -n, -r -t, -p c -t, -f and -i change; bad input.

use paw_test::{Launch, Outcome};
use std::time::Duration;

fn bin(name: &str) -> String {
    match name {
        "com" => env!("CARGO_BIN_EXE_com"),
        "laten" => env!("CARGO_BIN_EXE_laten"),
        "rma" => env!("CARGO_BIN_EXE_rma"),
        "allred" => env!("CARGO_BIN_EXE_allred"),
        _ => env!("CARGO_BIN_EXE_globalop"),
    }
    .to_string()
}

fn run(name: &str, np: usize, args: &str) -> Outcome {
    let out = Launch::mpi(bin(name), np)
        .args(args.split_whitespace())
        .timeout(Duration::from_secs(60))
        .run();
    out.success();
    out
}

/// The rows of standard output that start with `test` and continue with numbers only.
fn rows(out: &Outcome, test: &str) -> Vec<Vec<f64>> {
    out.stdout
        .lines()
        .filter_map(|l| l.strip_prefix(test))
        .filter(|rest| rest.starts_with(' '))
        .filter_map(|rest| rest.split_whitespace().map(|w| w.parse().ok()).collect())
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 5e-3 * a.abs().max(b.abs()) + 2e-3
}

/// The process counts the tests use at `np` processes.
fn counts(np: usize) -> Vec<f64> {
    if np == 4 {
        vec![2.0, 4.0]
    } else {
        vec![2.0]
    }
}

fn pairs_printed(out: &Outcome) -> Vec<String> {
    out.stdout
        .lines()
        .skip_while(|l| !l.starts_with("Process pairs"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            format!("{}-{}", w[0], w[3])
        })
        .collect()
}

#[test]
fn com_tables_recompute() {
    let sizes = [32.0, 128.0, 512.0, 2048.0];
    for np in [2, 3, 4] {
        let out = run("com", np, "-o 20 -b 32 -e 4096 -s 4");
        for (test, factor) in [("Unidirectional", 0.25), ("Bidirectional", 1.0)] {
            let r = rows(&out, test);
            let want: Vec<(f64, f64)> =
                counts(np).iter().flat_map(|&c| sizes.map(|s| (c, s))).collect();
            let got: Vec<(f64, f64)> = r.iter().map(|v| (v[0], v[1])).collect();
            assert_eq!(got, want, "{test} at np {np}\n{}", out.report());
            for v in &r {
                // BW = procs x size x factor / op time (size / usec = MB/s).
                let bw = v[0] * v[1] * factor / v[3];
                assert!(close(bw, v[2]), "{test} {v:?}: {bw}\n{}", out.report());
            }
            let file = format!("com_{}_bw-np_{np:04}.dat", test.to_lowercase());
            let dat = out.dat(&file);
            assert_eq!(dat.rows.len(), 4, "{file}");
            assert_eq!(dat.columns.len(), 1 + counts(np).len(), "{file}");
        }
        let best = rows(&out, "Unidirectional").iter().map(|v| v[2]).fold(0.0, f64::max);
        let line = out.stdout.lines().find(|l| l.starts_with("Max Unidirectional")).unwrap();
        assert!(line.contains(&format!("{best:.3} MB/s")), "{line} vs {best}");
        for needle in ["MPI_Wtick", "MPI_Wtime overhead", "Ticks for minimum sample"] {
            assert!(out.stdout.contains(needle), "{needle}\n{}", out.report());
        }
        assert!(pairs_printed(&out).is_empty(), "pairs only with -i");
    }
}

#[test]
fn com_options_change_what_they_should() {
    let base = "-o 5 -b 64 -e 64 -i";
    let out = run("com", 4, base);
    assert_eq!(pairs_printed(&out), ["0-2", "1-3"]);
    assert!(out.stdout.contains("barrier in the timed region: yes"));
    let out = run("com", 4, &format!("{base} -n"));
    assert!(out.stdout.contains("barrier in the timed region: no (-n)"), "{}", out.report());
    let out = run("com", 4, &format!("{base} -r -t 1"));
    assert_eq!(pairs_printed(&out), ["0-1", "2-3"], "{}", out.report());
    // Block allocation with 2 per SMP takes multiples of 4; cyclic, of the 2 SMPs.
    let out = run("com", 4, &format!("{base} -t 2"));
    assert_eq!(rows(&out, "Unidirectional").len(), 1, "{}", out.report());
    let out = run("com", 4, &format!("{base} -p c -t 2"));
    let procs: Vec<f64> = rows(&out, "Unidirectional").iter().map(|v| v[0]).collect();
    assert_eq!(procs, [2.0, 4.0], "{}", out.report());
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("counts");
    std::fs::write(&f, "2\n").unwrap();
    let out = run("com", 4, &format!("{base} -f {}", f.display()));
    let procs: Vec<f64> = rows(&out, "Bidirectional").iter().map(|v| v[0]).collect();
    assert_eq!(procs, [2.0], "{}", out.report());
    assert!(out.stdout.contains("process counts (-f): 2"));
}

#[test]
fn laten_rma_allred_globalop_tables() {
    for np in [2, 3, 4] {
        let out = run("laten", np, "-o 50");
        let r = rows(&out, "");
        let latency: Vec<&Vec<f64>> = r.iter().filter(|v| v.len() == 2).collect();
        let procs: Vec<f64> = latency.iter().map(|v| v[0]).collect();
        assert_eq!(procs, counts(np), "{}", out.report());
        assert!(latency.iter().all(|v| v[1] > 0.0 && v[1] < 1e5));
        assert_eq!(out.dat(&format!("laten-np_{np:04}.dat")).rows.len(), counts(np).len());

        let out = run("rma", np, "-o 3 -c 2 -b 64 -e 1024 -s 4");
        for (test, both) in
            [("Unidir. Put", 1.0), ("Unidir. Get", 1.0), ("Bidir. Put", 2.0), ("Bidir. Get", 2.0)]
        {
            let r = rows(&out, test);
            assert_eq!(r.len(), 3 * counts(np).len(), "{test}\n{}", out.report());
            for v in &r {
                assert_eq!(v[2], 3.0, "Ops/Epoch");
                let bw = v[0] / 2.0 * both * v[1] / v[4];
                assert!(close(bw, v[3]), "{test} {v:?}: {bw}\n{}", out.report());
            }
        }
        assert_eq!(out.dat(&format!("rma_bidir_get_bw-np_{np:04}.dat")).rows.len(), 3);

        let out = run("allred", np, "200 20 4");
        let samples: Vec<Vec<f64>> =
            rows(&out, "").into_iter().filter(|v| v.len() == 3 && v[0] >= 1.0).collect();
        assert_eq!(samples.len(), 4, "{}", out.report());
        let op_mean: f64 = samples.iter().map(|v| v[2] - v[1]).sum::<f64>() / (4.0 * 20.0);
        let printed = out.stdout.lines().find(|l| l.starts_with("Op mean")).unwrap();
        let printed: f64 = printed.split(':').nth(1).unwrap().trim().parse().unwrap();
        assert!((op_mean - printed).abs() < 0.01 + 1e-3 * op_mean.abs(), "{op_mean} {printed}");
        assert!(out.stdout.contains("Time between Allreduce (us) :"));

        let out = run("globalop", np, "-l 16 -w 10");
        let table: Vec<&str> = out
            .stdout
            .lines()
            .filter(|l| {
                ["Barrier", "Reduce", "Bcast", "Allreduce"].iter().any(|o| l.starts_with(o))
            })
            .collect();
        assert_eq!(table.len(), 6 * 2 * 3, "{}", out.report());
        for l in table {
            let v: Vec<f64> = l.split_whitespace().skip(3).map(|w| w.parse().unwrap()).collect();
            assert!(v[1] <= v[0] + 1e-3 && v[0] <= v[2] + 1e-3 && v[1] > 0.0, "{l}");
        }
        assert_eq!(out.dat(&format!("globalop-np_{np:04}.dat")).rows.len(), 36);
    }
}

#[test]
fn bad_input_stops_every_rank_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let f = dir.path().join(name);
        std::fs::write(&f, text).unwrap();
        f.display().to_string()
    };
    let (odd, big) = (file("odd", "3\n"), file("big", "6\n"));
    let cases = [
        ("com", "", "-o (operations per sample) is required"),
        ("laten", "", "-o (operations per sample) is required"),
        ("rma", "-c 2", "-o (operations per epoch) is required"),
        ("com", "-o 0", "-o 0: takes a whole number >= 1"),
        ("rma", "-o 2", "-c (epochs per sample) is required"),
        ("com", "-o 2 -b 64 -e 32", "-b 64 is above -e 32"),
        ("rma", "-o 2 -c 1 -s 1", "-s 1: takes a whole number >= 2"),
        ("com", "-o 2 -f /nonexistent/counts", "-f /nonexistent/counts: cannot read it"),
        ("laten", &format!("-o 2 -f {odd}"), "is odd; accepted: even counts from 2 to 4"),
        ("com", &format!("-o 2 -f {big}"), "\"6\" is out of range"),
        ("laten", "-o 2 -p c", "-p c (cyclic allocation) needs -t"),
        ("com", "-o 2 -r", "-r (partner with the nearby rank) needs -t"),
        ("rma", "-o 2 -c 1 -q", "unknown option \"-q\""),
        ("allred", "100 10", "allred takes 3 arguments"),
        ("allred", "100 0 5", "iterations per sample \"0\""),
        ("globalop", "-x", "unknown option \"-x\""),
    ];
    for (name, args, message) in cases {
        let out = Launch::mpi(bin(name), 4)
            .args(args.split_whitespace())
            .timeout(Duration::from_secs(20))
            .run();
        out.failure(message);
        assert_eq!(out.stderr_lines("error").len(), 1, "{name} {args}\n{}", out.report());
        eprintln!("measured: {name} {args} refused in {:?} (allowed 10 s)", out.elapsed);
        assert!(out.elapsed < Duration::from_secs(10), "{name} {args}: {:?}", out.elapsed);
    }
    let out = Launch::mpi(bin("com"), 1).arg("-o").arg("2").run();
    out.failure("PRESTA's tests need at least 2");
    let out = run("rma", 2, "-h");
    assert_eq!(out.stdout.matches("syntax:").count(), 1);
    assert!(out.stdout.contains("-c [number of epochs between measurements]"));
}
