//! Golden tests: b_eff 3.6's own per-measurement figures (its protocol file, from a run of
//! the original program) fed through paw's averaging give the original's printed results.
//! The files are read at test time from the shared reference folder beside the workspace
//! (`../shared/golden/beff-3.6-np2/`); where it is absent the tests say so and pass.

use crate::patterns::{Kind, Pattern};
use crate::plan::LENGTHS;
use crate::report::{self, PatternResult, Sample};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn folder() -> Option<PathBuf> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../../shared/golden/beff-3.6-np2");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("golden files not found at {}: skipped", dir.display());
        None
    }
}

fn read(dir: &std::path::Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Per pattern number: (sendrecv calls of rank 0, total messages), from the `.short`
/// file's pattern table.
fn pattern_table(short: &str) -> BTreeMap<usize, (f64, f64)> {
    let section = short
        .split("SECTION-PATTERN-BEGIN")
        .nth(1)
        .and_then(|s| s.split("SECTION-PATTERN-END").next())
        .expect("a pattern section");
    section
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let n = w.first()?.strip_prefix('p')?.parse().ok()?;
            Some((n, (w.get(2)?.parse().ok()?, w.get(3)?.parse().ok()?)))
        })
        .collect()
}

/// The per-process minimum bandwidths (MB/s) of the protocol's values section, by
/// (length index, method, pattern): one per repetition, `None` where not measured.
fn minima(prot: &str) -> BTreeMap<(usize, usize, usize), Vec<Option<f64>>> {
    let section = prot
        .split("SECTION-VALUES-BEGIN")
        .nth(1)
        .and_then(|s| s.split("SECTION-VALUES-END").next())
        .expect("a values section");
    let (mut length, mut method, mut lengths) = (0usize, 0usize, Vec::new());
    let mut out = BTreeMap::new();
    for line in section.lines() {
        let Some((head, values)) = line.split_once("min=") else { continue };
        let mut words = head.split_whitespace().peekable();
        if let Some(l) = words.peek().and_then(|w| w.parse::<usize>().ok()) {
            if lengths.last() != Some(&l) {
                lengths.push(l);
            }
            length = lengths.len() - 1;
            words.next();
        }
        let mut pattern = None;
        for w in words {
            if let Some(m) = w.strip_prefix("mthd") {
                method = m.parse().expect("method");
            } else if let Some(p) = w.strip_prefix('p') {
                pattern = p.parse().ok();
            }
        }
        let reps: Vec<Option<f64>> = values
            .split("->")
            .next()
            .unwrap_or("")
            .split_whitespace()
            .map(|v| v.parse().ok())
            .collect();
        out.insert((length, method, pattern.expect("a pattern")), reps);
    }
    assert_eq!(lengths.len(), LENGTHS, "21 lengths");
    out
}

/// paw's results for the original's ring (p00-p05) and random (p06-p35) patterns: per
/// length, method and repetition its b(L) = minimum x messages / calls.
fn results(dir: &std::path::Path) -> Vec<PatternResult> {
    let table = pattern_table(&read(dir, "b_eff.short"));
    let values = minima(&read(dir, "b_eff.prot"));
    (0..36)
        .map(|n| {
            let kind = if n < 6 { Kind::Ring } else { Kind::Random };
            let pattern =
                Pattern::new(format!("p{n:02}"), kind, vec![vec![(Some(1), Some(1))]; 2], false);
            let mut r = PatternResult::new(&pattern);
            let (calls, messages) = table[&n];
            for (i, per_method) in r.samples.iter_mut().enumerate() {
                for (m, reps) in per_method.iter_mut().enumerate() {
                    for v in values[&(i, m, n)].iter().flatten() {
                        reps.push(Sample {
                            loops: 1,
                            seconds: 1.0,
                            mb_per_s: v * messages / calls,
                        });
                    }
                }
            }
            r
        })
        .collect()
}

/// Asserts `got` equals a figure the original printed with `decimals`, allowing for the
/// rounding of the printed inputs (`relative`).
fn printed(what: &str, got: f64, want: f64, decimals: i32, relative: f64) {
    let allowed = 0.5 * 10f64.powi(-decimals) + relative * want.abs();
    assert!((got - want).abs() <= allowed, "{what}: {got} against the original's {want}");
}

#[test]
fn b_eff_of_the_original_protocol_is_the_original_figure() {
    let Some(dir) = folder() else { return };
    let s = report::summarize(&results(&dir));
    // Final line: b_eff = 7809.956 MB/s = 3904.978 * 2 PEs. The inputs are printed to
    // 0.001 MB/s, so the result may differ in its last digit.
    eprintln!("b_eff from the original protocol: {:.4} MB/s", s.b_eff);
    printed("b_eff", s.b_eff, 7809.956, 3, 2e-7);
    printed("b_eff per process", s.b_eff / 2.0, 3904.978, 3, 2e-7);
    // The summary's accumulated b_eff at Lmax (rings and random: 23980; rings only, per
    // process: 11876), printed as whole numbers.
    printed("b_eff at Lmax", s.at_lmax, 23980.0, 0, 0.0);
    printed("at Lmax per process, rings only", s.rings_at_lmax / 2.0, 11876.0, 0, 0.0);
}

#[test]
fn per_length_figures_are_the_original_ones() {
    let Some(dir) = folder() else { return };
    let results = results(&dir);
    let short = read(&dir, "b_eff.short");
    let table = short.split("effective bandwidth per process:").nth(1).expect("per-length table");
    let rows: Vec<Vec<f64>> = table
        .lines()
        .map(|l| l.split_whitespace().filter_map(|w| w.parse().ok()).collect::<Vec<f64>>())
        .filter(|v| v.len() == 8)
        .take(LENGTHS)
        .collect();
    assert_eq!(rows.len(), LENGTHS);
    let logavg = crate::plan::logavg;
    for (i, row) in rows.iter().enumerate() {
        let of = |kind| -> Vec<f64> {
            results.iter().filter(|r| r.kind == kind).map(|r| r.best(i)).collect()
        };
        let (rings, random) = (logavg(&of(Kind::Ring)), logavg(&of(Kind::Random)));
        // Columns: length, accumulated b_eff, per process: average, rings, random.
        let at = format!("length {}", row[0]);
        printed(&at, logavg(&[rings, random]), row[1], 3, 1e-4);
        printed(&at, rings / 2.0, row[3], 3, 1e-4);
        printed(&at, random / 2.0, row[4], 3, 1e-4);
    }
}
