//! IMB-P2P under mpirun: the parsed output must hold every benchmark that can run on the
//! process count (the others named invalid), today's repetitions, and t, Mbytes/sec and
//! Msg/sec consistent with the CSV's process times; the check holds.

use paw_test::imb::{corrupted, Block};
use paw_test::Launch;

const BIN: &str = env!("CARGO_BIN_EXE_IMB-P2P");

/// The default list: (name, messages per process and iteration, half-time).
const DEFAULT: [(&str, f64, bool); 8] = [
    ("PingPong", 1.0, true),
    ("PingPing", 1.0, false),
    ("Unirandom", 1.0, false),
    ("Birandom", 2.0, false),
    ("Corandom", 1.0, false),
    ("Stencil2D", 4.0, false),
    ("Stencil3D", 6.0, false),
    ("SendRecv_Replace", 1.0, false),
];

/// The name without a stencil's grid.
fn base(name: &str) -> &str {
    name.split_whitespace().next().unwrap()
}

/// Which run on `np` processes.
fn runs(name: &str, np: usize) -> bool {
    match name {
        "PingPong" | "PingPing" => np.is_multiple_of(2),
        "Stencil2D" => np == 4,
        "Stencil3D" => false,
        _ => true,
    }
}

/// today's IMB-P2P iterations: round(800 MiB / X) within 1..`most`, `most` at length 0.
fn iterations(x: f64, most: f64) -> f64 {
    if x == 0.0 {
        most
    } else {
        (800.0 * 1048576.0 / x).round().clamp(1.0, most)
    }
}

/// t = mean time / messages (halved for PingPong), Msg/sec = messages x processes / the
/// slowest time, Mbytes/sec = Msg/sec x X / 10^6, against the CSV's t_avg and t_max.
fn check_block(b: &Block, dir: &std::path::Path, np: usize, most: f64) {
    let name = base(&b.name);
    let (_, n_msg, half) = *DEFAULT.iter().find(|d| d.0 == name).unwrap();
    assert_eq!(
        b.columns,
        ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "Msg/sec", "defects"]
    );
    assert_eq!(b.processes, np);
    let x = b.col("#bytes");
    let want: Vec<f64> = x.iter().map(|&x| iterations(x, most)).collect();
    assert_eq!(b.col("#repetitions"), want, "{}", b.name);
    assert!(b.col("defects").iter().all(|&d| d == 0.0), "{}: {:?}", b.name, b.rows);
    let file = format!("IMB-P2P-{name}-np_{np:04}.csv");
    let mut reader = csv::Reader::from_path(dir.join(&file)).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    for (i, row) in rows.iter().enumerate() {
        let (avg, max): (f64, f64) = (
            row[col("t_iter_avg_us")].parse().unwrap(),
            row[col("t_iter_max_us")].parse().unwrap(),
        );
        let t = avg / n_msg / if half { 2.0 } else { 1.0 };
        assert!(
            (b.col("t[usec]")[i] - t).abs() <= 0.006,
            "{} row {i}: t {} vs {t}",
            b.name,
            b.col("t[usec]")[i]
        );
        // The CSV's t_message_us is the table's t[usec], to four decimals.
        let message: f64 = row[col("t_message_us")].parse().unwrap();
        assert!((message - t).abs() <= 1e-4, "{} row {i}: {message} vs {t}", b.name);
        assert!((b.col("t[usec]")[i] - message).abs() <= 0.0051, "{} row {i}", b.name);
        let rate = n_msg * np as f64 * 1e6 / max;
        let msgs = b.col("Msg/sec")[i];
        // t_iter_max_us is written to 1e-4 usec.
        assert!(
            (msgs - rate).abs() <= 1.0 + rate * 1e-4 / max,
            "{} row {i}: {msgs} vs {rate}",
            b.name
        );
        let mb = b.col("Mbytes/sec")[i];
        assert!(
            (mb - msgs * x[i] / 1e6).abs() <= 0.005 + 0.5 * x[i] / 1e6,
            "{} row {i}: {mb}",
            b.name
        );
    }
}

#[test]
fn every_benchmark_that_fits_at_2_3_4_processes() {
    for np in paw_test::task_counts(&[2, 3, 4]) {
        let args = "-msglog 10 -iter 200,1 -pause 0 -check -csv";
        let (out, blocks) = paw_test::imb::run(BIN, np, args);
        assert!(out.stdout.contains("Intel MPI Benchmarks 2021"), "{}", out.report());
        let want: Vec<&str> = DEFAULT.iter().map(|d| d.0).filter(|n| runs(n, np)).collect();
        let got: Vec<&str> = blocks.iter().map(|b| base(&b.name)).collect();
        assert_eq!(got, want, "np {np}");
        if np == 4 {
            assert!(blocks.iter().any(|b| b.name == "Stencil2D (2 x 2)"), "the grid is named");
        }
        for (name, _, _) in DEFAULT.iter().filter(|d| !runs(d.0, np)) {
            let line = format!("# !! Benchmark {name} is invalid for {np} processes !!");
            assert!(out.stdout.contains(&line), "np {np}: no {line:?}\n{}", out.report());
        }
        for b in &blocks {
            check_block(b, out.dir.path(), np, 200.0);
        }
    }
}

#[test]
fn options_of_today_and_a_defect_fails_the_run() {
    // -msgsz lists the lengths; -msgwr/-msgrd off; the iterations' volume rule.
    let (_, blocks) = paw_test::imb::run(
        BIN,
        2,
        "PingPong SendRecv_Replace -msgsz 8 -msgsz 2K -msgwr off -msgrd off -pause 0 -iter 1000,1",
    );
    for b in &blocks {
        assert_eq!(b.col("#bytes"), [8.0, 2048.0], "{}", b.name);
        assert_eq!(b.col("#repetitions"), [1000.0, 512.0], "{}", b.name);
    }
    let bad = Launch::mpi(BIN, 2).args(["-msgwr", "maybe"]).run();
    bad.failure("-msgwr maybe: takes on or off");
    let bad = Launch::mpi(BIN, 2).args(["-msgsz", "3X"]).run();
    bad.failure("-msgsz 3X: takes a length in bytes");
    let args =
        ["-check", "-msglog", "3", "-iter", "10", "-pause", "0", "Corandom", "SendRecv_Replace"];
    for b in corrupted(BIN, 3, &args) {
        let d = b.col("defects");
        assert!(d[0] == 0.0 && d[1..].iter().all(|&x| x == 1.0), "{}: {d:?}", b.name);
    }
}
