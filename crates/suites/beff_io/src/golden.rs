//! Golden tests: b_eff_io 2.1's own output files (from runs of the original program) pin
//! paw's rules to 2.1's -- the per-type figures of its summary through paw's averaging give
//! its printed partition figures and final figure; the scheduled time of every pattern in
//! its protocol is paw's time split; its repeat counts of types 3 and 4 and its segment are
//! paw's. The files are read at test time from the shared reference folder beside the
//! workspace (`../shared/golden/beff_io-2.1-np2-T*`); where it is absent the tests say so
//! and pass.

use crate::plan::{self, Type};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The golden runs: folder, -T, and the final figure 2.1 printed.
const RUNS: [(&str, f64, f64); 2] =
    [("beff_io-2.1-np2-T60", 60.0, 2085.473), ("beff_io-2.1-np2-T30", 30.0, 2059.562)];

fn read(run: &str, file: &str) -> Option<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../../shared/golden").join(run);
    if !dir.is_dir() {
        eprintln!("golden files not found at {}: skipped", dir.display());
        return None;
    }
    Some(std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{run}/{file}: {e}")))
}

/// The number after `key` in `line` (`key` may be followed by blanks).
fn after(line: &str, key: &str) -> Option<f64> {
    line.split_once(key)?.1.split_whitespace().next()?.parse().ok()
}

/// Per partition of a summary file: the total rows (write, rewrite, read by type; `-` is
/// not run), the three weighted averages and the partition's figure, as printed.
struct Partition {
    totals: BTreeMap<String, Vec<Option<f64>>>,
    weighted: Vec<f64>,
    figure: f64,
}

fn partitions(sum: &str) -> BTreeMap<usize, Partition> {
    let mut out = BTreeMap::new();
    for block in sum.split("Summary of file I/O bandwidth accumulated on").skip(1) {
        let n: usize = block.split_whitespace().next().and_then(|w| w.parse().ok()).expect("n");
        let mut p = Partition { totals: BTreeMap::new(), weighted: Vec::new(), figure: f64::NAN };
        for line in block.lines() {
            let w: Vec<&str> = line.split_whitespace().collect();
            if let Some(access) = w.get(2).and_then(|x| x.strip_prefix("total-")) {
                p.totals.insert(access.into(), w[3..8].iter().map(|v| v.parse().ok()).collect());
            } else if line.starts_with("weighted average bandwidth") {
                p.weighted.push(after(line, ":").expect("a weighted average"));
            } else if line.starts_with("b_eff_io of these measurements") {
                p.figure = after(line, "=").expect("the figure");
            }
        }
        out.insert(n, p);
    }
    out
}

fn close(what: &str, got: f64, printed: f64) {
    // Printed to 0.001 MB/s from inputs printed to 0.001 MB/s.
    assert!((got - printed).abs() <= 0.0015, "{what}: paw {got:.4}, 2.1 printed {printed}");
}

#[test]
fn partition_and_final_figures_are_2_1s() {
    for (run, _, final_figure) in RUNS {
        let Some(sum) = read(run, "b_eff_io.sum") else { return };
        let mut best = 0.0f64;
        for (n, p) in partitions(&sum) {
            let row =
                |a: &str| -> [f64; 5] { std::array::from_fn(|t| p.totals[a][t].unwrap_or(0.0)) };
            let (w, rw, r) = (row("write"), row("rewrite"), row("read"));
            let figure = plan::release_21(&w, rw[0], &r);
            eprintln!("{run}, {n} processes: b_eff_io {figure:.4} (2.1 printed {})", p.figure);
            close(&format!("{run}, partition {n}"), figure, p.figure);
            close(&format!("{run}, {n}: write"), plan::weighted(&w), p.weighted[0]);
            close(&format!("{run}, {n}: rewrite (type 0 only)"), rw[0], p.weighted[1]);
            close(&format!("{run}, {n}: read"), plan::weighted(&r), p.weighted[2]);
            best = best.max(figure);
        }
        close(&format!("{run}: b_eff_io"), best, final_figure);
        let last =
            sum.lines().rfind(|l| l.trim_start().starts_with("b_eff_io =")).expect("final line");
        assert_eq!(after(last, "b_eff_io ="), Some(final_figure), "{last}");
    }
}

/// Per protocol line of the initial write: (partition, pattern, Tp as printed, r).
fn write_lines(prot: &str) -> Vec<(usize, usize, f64, u64)> {
    prot.lines()
        .filter(|l| l.starts_with("n=") && l.contains(" a=0 "))
        .map(|l| {
            let n = after(l, "n=").expect("n") as usize;
            let p = after(l, "p=").expect("p") as usize;
            (n, p, after(l, "Tp=").expect("Tp"), after(l, "r=").expect("r") as u64)
        })
        .collect()
}

#[test]
fn every_patterns_scheduled_time_is_2_1s() {
    for (run, t, _) in RUNS {
        let Some(prot) = read(run, "b_eff_io.prot") else { return };
        let table = plan::patterns(2 << 20);
        let lines = write_lines(&prot);
        assert_eq!(lines.len(), 2 * 43, "{run}: every pattern of both partitions");
        for (n, p, tp, _) in lines {
            // Two partitions: Tn = T / 2.
            let ours = plan::pattern_time(t / 2.0, table[p].units, false);
            assert!(
                (ours - tp).abs() <= 0.005,
                "{run}, n={n}, pattern {p}: Tp {tp} against paw's {ours}"
            );
        }
    }
}

#[test]
fn segment_counts_and_fill_are_2_1s() {
    for (run, _, _) in RUNS {
        let Some(prot) = read(run, "b_eff_io.prot") else { return };
        let table = plan::patterns(2 << 20);
        let lines = write_lines(&prot);
        for n in [1, 2] {
            let mut reps = vec![0u64; 43];
            for &(_, p, _, r) in lines.iter().filter(|x| x.0 == n) {
                reps[p] = r;
            }
            let (counts, segment, fill) = plan::segment(&table, &reps);
            for kind in [Type::Segmented, Type::SegmentedCollective] {
                let first = table.iter().position(|p| p.kind == kind).expect("type 3 and 4");
                assert_eq!(reps[first..first + 8], counts, "{run}, n={n}, {kind:?}");
                assert_eq!(reps[first + 8], 1, "one fill call");
            }
            let lseg = prot
                .lines()
                .filter(|l| l.contains("b_eff_io_write_segmented"))
                .nth(n - 1)
                .and_then(|l| after(l, "Lseg="))
                .expect("Lseg");
            assert_eq!((segment >> 20) as f64, lseg, "{run}, n={n}");
            let fill_line = lines.iter().find(|x| x.0 == n && x.1 == 33).expect("pattern 33");
            let l = prot
                .lines()
                .filter(|l| {
                    l.starts_with(&format!("n={n} ")) && l.contains(" a=0 ") && l.contains("p=33")
                })
                .find_map(|l| after(l, " l="))
                .expect("the fill's l");
            assert_eq!(fill as f64, l, "{run}, n={n}: fill ({fill_line:?})");
        }
    }
}
