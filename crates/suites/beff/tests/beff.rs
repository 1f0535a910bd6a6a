//! b_eff under mpirun: short runs at 2 to 5 processes, recomputed from their protocols;
//! the data check; bad input.

use paw_test::{Launch, Outcome};
use std::collections::BTreeMap;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_b_eff");
/// A short run: 1 MiB per process (Lmax 8 KiB), two random patterns, checked.
const SHORT: &str = "-short -mem 1 -random 2 -check";

fn launch(np: usize, args: &str) -> Launch {
    Launch::mpi(BIN, np).args(args.split_whitespace()).timeout(Duration::from_secs(60))
}

/// One protocol row: pattern, kind, messages, length, loops, method, repetition, MB/s.
struct Row {
    pattern: String,
    kind: String,
    messages: f64,
    length: f64,
    loops: f64,
    method: String,
    seconds: f64,
    bw: f64,
}

fn protocol(out: &Outcome, np: usize) -> Vec<Row> {
    let path = out.dir.path().join(format!("b_eff-np_{np:04}.prot"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}\n{}", out.report()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(c.len(), 9, "{l}");
            let num = |i: usize| c[i].parse::<f64>().unwrap_or_else(|_| panic!("{l}"));
            Row {
                pattern: c[0].into(),
                kind: c[1].into(),
                messages: num(2),
                length: num(3),
                loops: num(4),
                method: c[5].into(),
                seconds: num(7),
                bw: num(8),
            }
        })
        .collect()
}

/// A `name = value unit` line of standard output.
fn value(out: &Outcome, name: &str) -> f64 {
    let line = out
        .stdout
        .lines()
        .find(|l| l.split('=').next().is_some_and(|n| n.trim() == name))
        .unwrap_or_else(|| panic!("no {name:?} line\n{}", out.report()));
    line.split('=').nth(1).unwrap().split_whitespace().next().unwrap().parse().unwrap()
}

fn logavg(v: &[f64]) -> f64 {
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-3 * a.abs().max(b.abs()) + 2e-3
}

#[test]
fn short_runs_recompute_from_their_protocol() {
    for np in paw_test::task_counts(&[2, 3, 4, 5]) {
        let out = launch(np, SHORT).run();
        out.success();
        let rows = protocol(&out, np);

        // Every pattern, length, method and repetition is there.
        let mut patterns: BTreeMap<String, (String, BTreeMap<u64, f64>)> = BTreeMap::new();
        let mut methods: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for r in &rows {
            assert!(r.loops >= 1.0 && r.seconds > 0.0 && r.bw > 0.0, "{}", r.pattern);
            // b_eff 3.6's rule: the least of the processes' own bandwidths (own exchanges
            // over own time) times messages over rank 0's exchanges. Where every process
            // exchanges alike that is messages x L x loops / the slowest time; in rings of
            // mixed sizes (a '&' in the name: one exchange in a ring of two, two in larger
            // rings, rank 0 in a ring of two) it lies between that and twice that.
            let bw = r.length * r.messages * r.loops / r.seconds / 1e6;
            if r.pattern.contains('&') {
                // (MB_per_s is printed to 4 decimals: allow its rounding, as close() does.)
                let (lo, hi) = (bw * 0.999 - 2e-3, 2.0 * bw * 1.001 + 2e-3);
                assert!(lo <= r.bw && r.bw <= hi, "{}: {bw} vs {}", r.pattern, r.bw);
            } else {
                assert!(close(bw, r.bw), "{}: {bw} vs {}", r.pattern, r.bw);
            }
            let e = patterns.entry(r.pattern.clone()).or_insert((r.kind.clone(), BTreeMap::new()));
            let best = e.1.entry(r.length as u64).or_insert(0.0);
            *best = best.max(r.bw);
            let m = methods.entry(r.pattern.clone()).or_default();
            if !m.contains(&r.method) {
                m.push(r.method.clone());
            }
        }
        // Messages per step: 2P in rings of three or more, one each way in a ring of two
        // (b_eff 3.6), the bi-sections' pairs likewise, the ping-pong two.
        let messages =
            |name: &str| rows.iter().find(|r| r.pattern.starts_with(name)).unwrap().messages;
        let ring_of_all = if np == 2 { 2.0 } else { 2.0 * np as f64 };
        assert_eq!(messages("ring6"), ring_of_all, "np {np}");
        assert_eq!(messages("random01"), ring_of_all, "np {np}");
        assert_eq!(messages("bisect-best"), (np / 2 * 2) as f64, "np {np}");
        assert_eq!(messages("pingpong"), 2.0);
        let count = |kind: &str| patterns.values().filter(|(k, _)| k == kind).count();
        assert_eq!((count("ring"), count("random")), (6, 2), "{}", out.report());
        for name in ["cycle-worst", "bisect-best", "bisect-worst", "cart2d-dim0-cyclic", "pingpong"]
        {
            assert!(patterns.contains_key(name), "{name} missing at np {np}");
        }
        assert_eq!(rows.len(), patterns.len() * 21 * 9 - 21 * 6, "3 methods x 3 repetitions");
        for (name, m) in &methods {
            let want: &[&str] = if name == "pingpong" {
                &["Send_Recv"]
            } else {
                &["Sendrecv", "Alltoallv", "Irecv_Isend_Waitall"]
            };
            assert_eq!(m, want, "{name}");
        }
        let lengths: Vec<u64> = patterns["pingpong"].1.keys().copied().collect();
        assert_eq!(lengths.len(), 21);
        assert_eq!(lengths[..13], (0..13).map(|k| 1 << k).collect::<Vec<u64>>()[..]);
        assert_eq!(lengths[20], (1 << 20) / 128, "Lmax = memory / 128");

        // b_eff from the per-pattern values.
        let average = |kind: &str| -> Vec<f64> {
            patterns
                .values()
                .filter(|(k, _)| k == kind)
                .map(|(_, per_len)| per_len.values().sum::<f64>() / 21.0)
                .collect()
        };
        let (rings, random) = (average("ring"), average("random"));
        let b = logavg(&[logavg(&rings), logavg(&random)]);
        let printed = value(&out, "b_eff");
        assert!(close(b, printed), "np {np}: recomputed {b}, printed {printed}");
        let ring_avg = value(&out, "logavg of the ring patterns");
        let random_avg = value(&out, "logavg of the random patterns");
        for (avg, of) in [(ring_avg, &rings), (random_avg, &random)] {
            let (lo, hi) = of.iter().fold((f64::MAX, 0.0f64), |(l, h), &v| (l.min(v), h.max(v)));
            assert!(lo * 0.999 <= avg && avg <= hi * 1.001, "{avg} outside {lo}..{hi}");
        }
        assert!(close(value(&out, "b_eff per process"), printed / np as f64));

        // The original's final line.
        let last = out.stdout.lines().rfind(|l| l.starts_with("b_eff = ")).unwrap();
        let w: Vec<&str> = last.split_whitespace().collect();
        assert_eq!(
            [w[3], w[4], w[6], w[7], w[8], w[9], w[10], w[11], w[12]],
            ["MB/s", "=", "*", &np.to_string(), "PEs", "with", "1", "MB/PE", "on"],
            "{last}"
        );
        let (total, per): (f64, f64) = (w[2].parse().unwrap(), w[5].parse().unwrap());
        assert!(close(total, printed) && close(per, total / np as f64), "{last}");

        // The .dat table: 21 lengths, b_eff, ring and random averages, a column per pattern.
        let dat = out.dat(&format!("b_eff_bw-np_{np:04}.dat"));
        assert_eq!(dat.columns.len(), 4 + patterns.len(), "{:?}", dat.columns);
        assert_eq!(dat.rows.len(), 21);
        assert!(out.files().contains(&format!("b_eff_bw-np_{np:04}.csv")));
        assert!(!out.stderr.contains("defect"), "{}", out.report());
    }
}

#[test]
fn a_corrupted_message_fails_the_check() {
    let out = launch(2, "-short -mem 1 -random 1 -check").env("PAW_TEST_CORRUPT", 1).run();
    out.failure("-check found");
    assert!(out.stdout.contains("b_eff = "), "the results are still written\n{}", out.report());
}

#[test]
fn bad_input_gets_one_line_and_a_non_zero_exit() {
    let host_mib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let kib = m.lines().find_map(|l| l.strip_prefix("MemTotal:"))?;
            kib.trim().trim_end_matches("kB").trim().parse::<u64>().ok()
        })
        .map_or(0, |kib| kib / 1024);
    // Three processes: Open MPI ends a job whose processes all failed faster when
    // oversubscribed (no busy polling).
    let mut cases = vec![
        (3, "-mem 0", "-mem 0: takes a whole number from 1 to 43690"),
        (3, "-mem -4", "-mem -4: takes"),
        (3, "-mem much", "-mem much: takes"),
        (3, "-random 0", "-random 0: takes a whole number from 1 to 1000"),
        (3, "-fast", "unknown option \"-fast\"; accepted: -mem"),
        (
            3,
            "-pattern ring9",
            "-pattern ring9: no pattern of this run has that name; accepted: ring1-",
        ),
        (3, "-pattern a,,b", "-pattern a,,b: takes pattern names separated by commas"),
        (1, "-short", "b_eff needs at least 2 processes"),
    ];
    if host_mib / 3 < 43_690 {
        cases.push((3, "-mem 43690", "-mem 43690: more than this host's memory per process"));
    }
    for (np, args, message) in cases {
        let out = launch(np, args).timeout(Duration::from_secs(30)).run();
        out.failure(message);
        assert_eq!(out.stderr_lines("error").len(), 1, "{}", out.report());
        assert!(!out.stdout.contains("b_eff = "), "{}", out.report());
    }
    let out = launch(2, "-h").run();
    out.success();
    assert_eq!(out.stdout.matches("usage: mpirun -np P b_eff").count(), 1, "{}", out.report());
}

#[test]
fn a_pattern_selection_runs_those_patterns_only() {
    let out = launch(3, "-short -mem 1 -pattern pingpong,ring1 -check").run();
    out.success();
    let rows = protocol(&out, 3);
    let names: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.pattern.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.contains("pingpong") && names.iter().any(|n| n.starts_with("ring1-")));
    assert_eq!(rows.len(), 21 * 3 + 21 * 9, "pingpong: 1 method, ring1: 3; 3 repetitions");
    assert!(out.stdout.contains("b_eff not computed: -pattern ran 2 of the"), "{}", out.report());
    assert!(!out.stdout.contains("b_eff = "), "{}", out.report());
    let dat = out.dat("b_eff_bw-np_0003.dat");
    assert_eq!(dat.columns.len(), 3, "SIZE and the two patterns: {:?}", dat.columns);
    assert_eq!(dat.columns[0], "SIZE");
}
