//! Several launches' result files as one set, written as a paw binary writes them: the same
//! names, columns and header (with a `# launches:` line), CSV twins and run record.
//!
//! - A sweep (`.dat` with MEDIAN, and its CSV twin): per SIZE every launch has, MEDIAN is
//!   the median of the launches' medians and CI_LO, CI_HI its 95 % interval over launches
//!   (the order statistics of [`paw_base::median_interval`], the launches as the samples);
//!   AVG, MIN, MAX and STDDEV are those of all samples of all launches, NREPS their count,
//!   NLOOP the launches' median; NOISY by the file's PAW_TOLERANCE; a CHECK `fail` in any
//!   launch is a `fail`; other columns the launches' median.
//! - A table (`.dat` or CSV without MEDIAN: b_eff, PRESTA, the IMB suites ...): row by row,
//!   a cell the same in every launch stays, a number that differs becomes the launches'
//!   median; a table whose rows or words differ between launches is not merged.
//! - The run record (`.json`): the first launch's, with a `launches` entry.
//!
//! Other files (protocols, plots) stay in the launch folders only.

use super::spread;
use crate::Dat;
use paw_base::dat::{csv_twin, format_value};
use paw_base::schema::{sweep, RUN_COLUMN};
use paw_base::{median, median_interval};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a merge made.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Merged {
    /// Files written.
    pub files: Vec<String>,
    /// Files left in the launch folders, each with why.
    pub left: Vec<(String, String)>,
}

/// Merges the result files of the launch folders `launches` into `out`; `line` is the
/// header's `launches:` text.
pub fn merge(launches: &[PathBuf], out: &Path, line: &str) -> Result<Merged, String> {
    let first = launches.first().ok_or("no launch to merge")?;
    let mut names: Vec<String> = std::fs::read_dir(first)
        .map_err(|e| format!("{}: {e}", first.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !super::CAPTURES.contains(&n.as_str()) && !crate::is_kept(Path::new(n)))
        .collect();
    names.sort();
    let mut merged = Merged::default();
    let twins: Vec<String> =
        names.iter().filter(|n| n.ends_with(".dat")).map(|n| csv_twin(n)).collect();
    for name in &names {
        if twins.contains(name) {
            continue; // written with its .dat file
        }
        let missing = launches.iter().filter(|d| !d.join(name).is_file()).count();
        if missing > 0 {
            merged.left.push((name.clone(), format!("missing from {missing} launches")));
            continue;
        }
        let texts = |n: &str| -> Result<Vec<String>, String> {
            launches
                .iter()
                .map(|d| std::fs::read_to_string(d.join(n)).map_err(|e| format!("{n}: {e}")))
                .collect()
        };
        let outcome = match Path::new(name).extension().and_then(|e| e.to_str()) {
            Some("dat") => {
                let twin = csv_twin(name);
                let csvs = if names.contains(&twin) { texts(&twin).ok() } else { None };
                merge_dat(&texts(name)?, csvs.as_deref(), line).map(|(dat, csv)| {
                    let mut written = vec![(name.clone(), dat)];
                    written.extend(csv.map(|c| (twin.clone(), c)));
                    written
                })
            }
            Some("csv") => merge_csv(&texts(name)?).map(|c| vec![(name.clone(), c)]),
            Some("json") => merge_record(&texts(name)?, line).map(|j| vec![(name.clone(), j)]),
            _ => Err("not a table".to_string()),
        };
        match outcome {
            Ok(files) => {
                for (n, text) in files {
                    std::fs::write(out.join(&n), text).map_err(|e| format!("{n}: {e}"))?;
                    merged.files.push(n);
                }
            }
            Err(why) => merged.left.push((name.clone(), why)),
        }
    }
    merged.files.sort();
    Ok(merged)
}

/// The merged `.dat` text and, given the launches' CSV twins, the merged CSV.
fn merge_dat(
    texts: &[String],
    csvs: Option<&[String]>,
    line: &str,
) -> Result<(String, Option<String>), String> {
    let dats: Vec<Dat> = texts.iter().map(|t| Dat::parse(t)).collect::<Result<_, _>>()?;
    let rows =
        if dats[0].find(sweep::MEDIAN).is_some() { sweep_rows(&dats)? } else { table_rows(&dats)? };
    let sweep = dats[0].find(sweep::MEDIAN).is_some();
    let dat = rewrite(&texts[0], &dats[0], &rows, |h| header_line(h, sweep, line, dats.len()));
    let csv = match csvs {
        Some(csvs) if sweep => Some(csv_text(&csvs[0], &rows)?),
        Some(csvs) => Some(merge_csv(csvs)?),
        None => None,
    };
    Ok((dat, csv))
}

/// A merged row: its key (the first launch's first cell) and cells.
type Rows = Vec<Vec<String>>;

/// The sweep rows: per SIZE of the first launch that every launch has.
fn sweep_rows(dats: &[Dat]) -> Result<Rows, String> {
    let first = &dats[0];
    if dats.iter().any(|d| d.columns != first.columns) {
        return Err("its columns differ between launches".into());
    }
    let tolerance = tolerance(first);
    let col = |n: &str| first.find(n);
    let [size, avg, min, max, sd, med, nloop, nreps, lo, hi, noisy] = sweep::COLUMNS.map(col);
    let size = size.ok_or("no SIZE column")?;
    let (avg, min, max, sd, med, nreps) = (
        avg.ok_or("no AVG")?,
        min.ok_or("no MIN")?,
        max.ok_or("no MAX")?,
        sd.ok_or("no STDDEV")?,
        med.ok_or("no MEDIAN")?,
        nreps.ok_or("no NREPS")?,
    );
    let check = col(sweep::CHECK);
    let num = |r: &Vec<String>, c: usize| {
        r[c].parse::<f64>().map_err(|_| format!("{}: {:?} is not a number", r[size], r[c]))
    };
    // Per SIZE of the first launch that every launch has: the launches whose median counts
    // (spread::kept), then the file's prior of a launch's spread.
    let mut found_rows = Vec::new();
    for row in &first.rows {
        let key = &row[size];
        let found: Option<Vec<&Vec<String>>> =
            dats.iter().map(|d| d.rows.iter().find(|r| &r[size] == key)).collect();
        let Some(found) = found else { continue };
        let medians: Vec<f64> = found.iter().map(|r| num(r, med)).collect::<Result<_, _>>()?;
        let keep = spread::kept(&medians);
        let found: Vec<&Vec<String>> = found
            .into_iter()
            .zip(&medians)
            .filter(|(_, m)| keep.contains(m))
            .map(|(r, _)| r)
            .collect();
        found_rows.push((row, found, keep));
    }
    let logs: Vec<spread::Logs> = found_rows.iter().map(|(_, _, k)| spread::Logs::of(k)).collect();
    let prior = spread::Prior::of(
        &logs.iter().map(|l| (l.variance(), l.n as f64 - 1.0)).collect::<Vec<_>>(),
    );
    let mut rows = Vec::new();
    for ((row, found, medians), logs) in found_rows.into_iter().zip(logs) {
        let key = &row[size];
        let column =
            |c: usize| -> Result<Vec<f64>, String> { found.iter().map(|r| num(r, c)).collect() };
        let (avgs, sds, counts) = (column(avg)?, column(sd)?, column(nreps)?);
        let n: f64 = counts.iter().sum();
        let mean = avgs.iter().zip(&counts).map(|(a, k)| a * k).sum::<f64>() / n;
        let squares: f64 = avgs
            .iter()
            .zip(&sds)
            .zip(&counts)
            .map(|((a, s), k)| (k - 1.0) * s * s + k * (a - mean).powi(2))
            .sum();
        let stddev = if n > 1.0 { (squares / (n - 1.0)).sqrt() } else { 0.0 };
        let variance = match prior {
            Some(p) => p.moderate(logs.variance(), logs.n as f64 - 1.0).0,
            None => 0.0,
        };
        let (ci_lo, ci_hi) = spread::band(&medians, variance.sqrt());
        let middle = median(&medians);
        let mut cells = Vec::with_capacity(row.len());
        for c in 0..row.len() {
            let cell = match c {
                _ if c == size => key.clone(),
                _ if c == avg => format_value(mean),
                _ if c == min => {
                    format_value(column(min)?.into_iter().fold(f64::INFINITY, f64::min))
                }
                _ if c == max => format_value(column(max)?.into_iter().fold(0.0, f64::max)),
                _ if c == sd => format_value(stddev),
                _ if c == med => format_value(middle),
                _ if c == nreps => format!("{n:.0}"),
                _ if Some(c) == nloop => format!("{:.0}", median(&column(c)?)),
                _ if Some(c) == lo => format_value(ci_lo),
                _ if Some(c) == hi => format_value(ci_hi),
                _ if Some(c) == noisy => ((ci_hi - ci_lo > tolerance * middle) as u8).to_string(),
                _ if Some(c) == check => {
                    let words: Vec<&str> = found.iter().map(|r| r[c].as_str()).collect();
                    if words.contains(&"fail") { "fail" } else { words[0] }.to_string()
                }
                _ => cell(&found.iter().map(|r| r[c].as_str()).collect::<Vec<_>>())
                    .ok_or_else(|| format!("{key}: column {} differs", first.columns[c]))?,
            };
            cells.push(cell);
        }
        rows.push(cells);
    }
    if rows.is_empty() {
        return Err("no SIZE is in every launch".into());
    }
    Ok(rows)
}

/// The 95 % interval of the median of `values` (the launches' medians) from their order
/// statistics.
pub fn interval(values: &[f64]) -> (f64, f64) {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let (l, u, _) = median_interval(v.len());
    (v[l - 1], v[u - 1])
}

/// PAW_TOLERANCE as the file's header records it (0.05 when it does not).
fn tolerance(dat: &Dat) -> f64 {
    ["settings", "defaults"]
        .iter()
        .filter_map(|k| dat.header_value(k))
        .flat_map(str::split_whitespace)
        .find_map(|w| w.strip_prefix("PAW_TOLERANCE=")?.parse().ok())
        .unwrap_or(0.05)
}

/// The rows of a plain table, row by row (see the module).
fn table_rows(dats: &[Dat]) -> Result<Rows, String> {
    let first = &dats[0];
    if dats.iter().any(|d| d.columns != first.columns || d.rows.len() != first.rows.len()) {
        return Err("its columns or row count differ between launches".into());
    }
    (0..first.rows.len())
        .map(|i| {
            (0..first.columns.len())
                .map(|c| {
                    let cells: Vec<&str> = dats.iter().map(|d| d.rows[i][c].as_str()).collect();
                    cell(&cells).ok_or_else(|| {
                        format!("row {}: column {} differs", i + 1, first.columns[c])
                    })
                })
                .collect()
        })
        .collect()
}

/// One cell over launches: the same text, or the median of numbers (whole numbers stay
/// whole); None when words differ.
fn cell(cells: &[&str]) -> Option<String> {
    if cells.iter().all(|c| *c == cells[0]) {
        return Some(cells[0].to_string());
    }
    let numbers: Option<Vec<f64>> = cells.iter().map(|c| c.parse::<f64>().ok()).collect();
    let m = median(&numbers?);
    // Fixed decimals stay as the launches wrote them (IMB's tables); else six digits.
    let fixed = |c: &&str| c.bytes().all(|b| b.is_ascii_digit() || b == b'-' || b == b'.');
    if !cells.iter().all(fixed) {
        return Some(format_value(m));
    }
    let decimals = cells.iter().map(|c| c.split_once('.').map_or(0, |(_, d)| d.len())).max()?;
    Some(format!("{m:.decimals$}"))
}

/// `text` (the first launch's file) with its data rows replaced by `rows` (in the same
/// layout: each cell right-aligned where the first launch's was) and its header lines
/// passed through `header`.
fn rewrite(text: &str, dat: &Dat, rows: &Rows, header: impl Fn(&str) -> Vec<String>) -> String {
    let key = |cells: &[String]| cells.first().cloned().unwrap_or_default();
    let merged: BTreeMap<String, &Vec<String>> = rows.iter().map(|r| (key(r), r)).collect();
    let sweep = dat.find(sweep::MEDIAN).is_some();
    let mut out = String::new();
    let mut index = 0;
    for l in text.lines() {
        if let Some(h) = l.strip_prefix('#') {
            for line in header(h.trim()) {
                out += &format!("# {line}\n");
            }
            continue;
        }
        if l.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = l.split_whitespace().collect();
        let row = if sweep {
            merged.get(cells[0]).copied()
        } else {
            index += 1;
            rows.get(index - 1)
        };
        if let Some(row) = row {
            out += &relayout(l, row);
            out.push('\n');
        }
    }
    out
}

/// `cells` in the layout of `line`: each right-aligned to end where the line's did.
fn relayout(line: &str, cells: &[String]) -> String {
    let mut out = String::new();
    let mut rest = line;
    for (at, cell) in cells.iter().enumerate() {
        let lead = rest.len() - rest.trim_start().len();
        let token = rest.split_whitespace().next().unwrap_or("");
        let width = lead + token.len();
        let text = format!("{cell:>width$}");
        // A wider cell keeps one space before it.
        out += if text.len() > width && at > 0 { " " } else { "" };
        out += &text;
        rest = &rest[(lead + token.len()).min(rest.len())..];
    }
    out
}

/// A header line of a merged `.dat` file: the interval and `y:` lines say what is over
/// launches; the `launches:` line goes before `interval:` (sweeps) or `columns:` (tables).
fn header_line(h: &str, sweep: bool, line: &str, launches: usize) -> Vec<String> {
    let ours = format!("launches: {line}");
    if sweep && h.starts_with("interval:") {
        let (l, u, cover) = median_interval(launches);
        let ranks = if l == 1 {
            format!(
                "with {launches} launches the smallest and the largest, coverage {:.1}%",
                cover * 100.0
            )
        } else {
            format!(
                "with {launches} launches the {l}th and {u}th smallest, coverage {:.1}%",
                cover * 100.0
            )
        };
        return vec![
            ours,
            format!(
                "interval: over launches: MEDIAN is the median of the launches' medians (a \
                 launch beyond {away} times it is left out of the row: the machine changed state \
                 during it); CI_LO, CI_HI bound the band where 95% of launches fall: MEDIAN \
                 divided and multiplied by exp({band} s), s the standard deviation of a launch's \
                 log figure (the row's launches weighed with the file's other rows as far as \
                 they vary alike: a moderated variance), never narrower than the 95% interval of the median over launches ({ranks}); \
                 AVG, MIN, MAX, STDDEV are over all NREPS samples of the launches kept, NLOOP \
                 their median",
                away = spread::AWAY,
                band = spread::BAND,
            ),
        ];
    }
    if sweep && h.starts_with("y:") {
        let unit = h.split(';').next().unwrap_or(h);
        return vec![format!(
            "{unit}; MEDIAN CI_LO CI_HI over the launches, AVG MIN MAX STDDEV over the NREPS samples of all launches"
        )];
    }
    if !sweep && h.starts_with("columns:") {
        return vec![
            format!("{ours}; each number that differs between launches is their median"),
            h.to_string(),
        ];
    }
    vec![h.to_string()]
}

/// The CSV text of sweep rows under the header row of `first` (a launch's CSV twin).
fn csv_text(first: &str, rows: &Rows) -> Result<String, String> {
    let header = first.lines().next().ok_or("an empty CSV file")?;
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.write_record(r).map_err(|e| e.to_string())?;
    }
    let body =
        String::from_utf8(w.into_inner().map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    Ok(format!("{header}\n{body}"))
}

/// The launches' CSV tables merged cell by cell (see the module); the `run` column (a
/// run's date) is the first launch's.
fn merge_csv(texts: &[String]) -> Result<String, String> {
    let tables: Vec<(csv::StringRecord, Vec<csv::StringRecord>)> = texts
        .iter()
        .map(|t| {
            let mut r = csv::Reader::from_reader(t.as_bytes());
            let head = r.headers().map_err(|e| e.to_string())?.clone();
            let rows = r.records().collect::<Result<Vec<_>, _>>().map_err(|e| e.to_string())?;
            Ok((head, rows))
        })
        .collect::<Result<_, String>>()?;
    let (head, rows) = &tables[0];
    if tables.iter().any(|(h, r)| h != head || r.len() != rows.len()) {
        return Err("its columns or row count differ between launches".into());
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(head).map_err(|e| e.to_string())?;
    for (i, row) in rows.iter().enumerate() {
        let mut out = Vec::with_capacity(row.len());
        for (c, name) in head.iter().enumerate() {
            let cells: Vec<&str> = tables.iter().map(|(_, r)| r[i].get(c).unwrap_or("")).collect();
            out.push(match name {
                RUN_COLUMN => cells[0].to_string(),
                _ => cell(&cells).ok_or_else(|| format!("row {}: column {name} differs", i + 1))?,
            });
        }
        w.write_record(&out).map_err(|e| e.to_string())?;
    }
    String::from_utf8(w.into_inner().map_err(|e| e.to_string())?).map_err(|e| e.to_string())
}

/// The first launch's run record with `launches` added: the header's text and the count.
fn merge_record(texts: &[String], line: &str) -> Result<String, String> {
    let mut value: serde_json::Value =
        serde_json::from_str(&texts[0]).map_err(|e| format!("not a run record: {e}"))?;
    let object = value.as_object_mut().ok_or("not a run record")?;
    object.insert(
        "launches".into(),
        serde_json::json!({ "count": texts.len(), "interval": "over launches", "about": line }),
    );
    serde_json::to_string_pretty(&value).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_keep_words_and_take_medians_of_numbers() {
        assert_eq!(cell(&["a", "a"]).as_deref(), Some("a"));
        assert_eq!(cell(&["10", "30", "20"]).as_deref(), Some("20"));
        assert_eq!(cell(&["1.5", "2.5", "9"]).as_deref(), Some("2.5"));
        assert_eq!(cell(&["1.5e-3", "2e-3", "3e-3"]).as_deref(), Some("0.00200000"));
        assert_eq!(cell(&["a", "b"]), None);
    }

    #[test]
    fn a_row_keeps_its_layout() {
        assert_eq!(
            relayout("     1     0.25  10", &["1".into(), "0.5".into(), "9".into()]),
            "     1      0.5   9"
        );
        assert_eq!(relayout("1 2", &["1000".into(), "2".into()]), "1000 2");
    }

    #[test]
    fn intervals_over_launches_are_order_statistics() {
        assert_eq!(interval(&[3.0, 1.0, 2.0, 5.0, 4.0, 6.0]), (1.0, 6.0));
        let ten: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(interval(&ten), (2.0, 9.0));
    }
}
