//! The headline figures of a results directory: per step the few numbers its users quote
//! (latency at 1 byte, PingPong's 0-byte time, b_eff's one number, STREAM's Triad ...), each
//! with the file it was read from; per host directory the node outliers.

use crate::results::Figure;
use crate::{nodes, Dat};
use paw_base::schema::{imb_csv, sweep, table, Unit, MB_PER_S, MSG_PER_S, PERCENT, USEC};
use paw_base::{Headline, Pick, TAIL_COLUMNS};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One step of a run: its figures, what it says beside them (a fabric map's verdict, the
/// node outliers) and the sweeps worth a plot.
#[derive(Debug, Clone, Default)]
pub struct Section {
    /// The step's name: its directory's name.
    pub name: String,
    /// The headline figures.
    pub figures: Vec<Figure>,
    /// Verdict lines: slow links and nodes, NOT VALID results.
    pub notes: Vec<String>,
    /// The node table, for a directory of per-host directories.
    pub nodes: Option<nodes::Table>,
    /// Tables of two rows or more (`.dat` files and IMB's CSV files): a plot each.
    pub plots: Vec<PathBuf>,
    /// PNG files the run drew itself (the fabric map's heatmaps).
    pub images: Vec<PathBuf>,
}

/// The headline figures of a whole run.
#[derive(Debug, Clone)]
pub struct Report {
    /// The run's directory.
    pub dir: PathBuf,
    /// One section per step, in the order the run names them ([`STEPS_FILE`]).
    pub sections: Vec<Section>,
}

/// The unit of b_eff, b_eff_io and PRESTA's bandwidths.
const MB_10_6: &str = MB_PER_S.label;

/// The file in which a run names its steps in the order it ran them (qualify.sbatch writes
/// it); step directories it does not name follow by name.
pub const STEPS_FILE: &str = "steps.txt";

/// The report of `dir`: a run with a directory per step (qualify.sbatch's layout), or one
/// directory of result files. `low` is the fraction of the median below which a host is
/// named slow.
pub fn report(dir: &Path, low: f64) -> Result<Report, String> {
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && !crate::launches::is_part(dir, p))
        .collect();
    let steps = std::fs::read_to_string(dir.join(STEPS_FILE)).unwrap_or_default();
    let steps: Vec<&str> = steps.split_whitespace().collect();
    let rank = |p: &PathBuf| {
        let name = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
        (steps.iter().position(|s| *s == name).unwrap_or(steps.len()), name)
    };
    subdirs.sort_by_key(rank);
    let mut sections = Vec::new();
    let mut own = section(dir, dir, low)?;
    own.figures.extend(launch_figures(dir, low));
    // A run without step directories: its figures' keys must not depend on where it lies.
    own.name = "run".into();
    for f in &mut own.figures {
        f.section = own.name.clone();
    }
    if own.nodes.is_some() {
        // A directory of host directories: their node tests are the report.
        subdirs.clear();
    }
    if !own.figures.is_empty() || subdirs.is_empty() {
        sections.push(own);
    }
    for sub in subdirs {
        let s = section(dir, &sub, low)?;
        if !s.figures.is_empty() || !s.notes.is_empty() || s.nodes.is_some() {
            sections.push(s);
        }
    }
    if sections.iter().all(|s| s.figures.is_empty() && s.nodes.is_none()) {
        return Err(format!(
            "{}: no result files of paw (run a benchmark with PAW_OUTPUT_DIR there)",
            dir.display()
        ));
    }
    Ok(Report { dir: dir.to_path_buf(), sections })
}

/// Of a launches result, the headline figures its launches read from files left in their
/// folders (b_eff's protocol, b_eff_io's summary): per figure every launch of its own state
/// has, the median over them and their range as its interval.
fn launch_figures(dir: &Path, low: f64) -> Vec<Figure> {
    let Some(record) = crate::launches::Record::read(dir) else { return Vec::new() };
    let Some(state) = record.own_state() else { return Vec::new() };
    let reports: Vec<Report> =
        state.launches.iter().filter_map(|f| report(&dir.join(f), low).ok()).collect();
    let Some(first) = reports.first().filter(|_| reports.len() == state.launches.len()) else {
        return Vec::new();
    };
    let mut figures = Vec::new();
    for f in first.sections.iter().flat_map(|s| &s.figures) {
        if dir.join(&f.source).is_file() {
            continue; // merged: read from the merged file
        }
        let values: Vec<f64> = reports
            .iter()
            .filter_map(|r| r.sections.iter().flat_map(|s| &s.figures).find(|g| g.key() == f.key()))
            .map(|g| g.value)
            .collect();
        if values.len() == reports.len() {
            let (lo, hi) =
                values.iter().fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(*v), b.max(*v)));
            let source = format!("{}/{}", state.launches[0], f.source);
            figures.push(Figure {
                value: paw_base::median(&values),
                interval: Some((lo, hi)),
                source,
                ..f.clone()
            });
        }
    }
    figures
}

/// The section of directory `dir` of the run in `top`.
fn section(top: &Path, dir: &Path, low: f64) -> Result<Section, String> {
    let name = dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let mut s = Section { name: name.clone(), ..Section::default() };
    let name_of_section = name.clone();
    if let Some(table) = nodes::table(dir, low, |host| section_figures(top, host))? {
        s.figures = table.medians(&name);
        s.notes = table.verdict();
        s.nodes = Some(table);
        return Ok(s);
    }
    let files = all_files(dir)?;
    let binaries = binaries(&files);
    let relative = |p: &Path| p.strip_prefix(top).unwrap_or(p).display().to_string();
    let mut found = Vec::new();
    let mut add = |name: String, value: f64, unit: &str, interval, from: &Path| {
        found.push(Figure {
            section: name_of_section.clone(),
            name,
            value,
            unit: unit.to_string(),
            interval,
            source: relative(from),
        })
    };
    let mut imb = Vec::new();
    for path in &files {
        let file = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let (binary, headlines) =
            binaries.get(&file).cloned().unwrap_or_else(|| (stem(&file), Vec::new()));
        // A file that cannot be read (torn by a killed step) is named; the rest still count.
        let mut read = || -> Result<(), String> {
            match path.extension().and_then(|e| e.to_str()) {
                Some("dat") => {
                    let dat = Dat::read(path)?;
                    if !is_part(&file) {
                        let add = &mut |n, v, u: &str, i| add(n, v, u, i, path);
                        dat_figures(&file, &binary, &headlines, &dat, add);
                    }
                    if file.starts_with("matrix_bw") {
                        s.notes.extend(matrix_verdict(&dat));
                    }
                    // Every table of two rows or more against a number is a plot; the
                    // fabric map has its heatmaps.
                    let numeric = dat.rows.iter().all(|r| r[0].parse::<f64>().is_ok());
                    if dat.rows.len() > 1 && numeric && !file.starts_with("matrix_") {
                        s.plots.push(path.clone());
                    }
                }
                Some("csv") if imb_csv::suite_of(&file).is_some() => {
                    imb.push(path.clone());
                    s.plots.push(path.clone());
                }
                Some("prot") if binary == "b_eff" || file.starts_with("b_eff") => {
                    for (n, v, u) in beff_prot(path)? {
                        add(n, v, &u, None, path);
                    }
                }
                Some("sum") => {
                    let (figures, note) = beff_io_sum(path)?;
                    for (n, v, u) in figures {
                        add(n, v, &u, None, path);
                    }
                    s.notes.extend(note);
                }
                Some("png") if file.starts_with("matrix_") => s.images.push(path.clone()),
                _ => {}
            }
            Ok(())
        };
        if let Err(e) = read() {
            s.notes.push(format!("unreadable, no figures from it: {e}"));
        }
    }
    match imb_figures(&imb) {
        Ok(found) => found.into_iter().for_each(|(n, v, u, path)| add(n, v, &u, None, &path)),
        Err(e) => s.notes.push(format!("unreadable, no figures from it: {e}")),
    }
    s.figures = found;
    Ok(s)
}

/// The figures of directory `dir` of the run in `top` (a host's node tests).
pub(crate) fn section_figures(top: &Path, dir: &Path) -> Result<Vec<Figure>, String> {
    Ok(section(top, dir, 1.0)?.figures)
}

/// The result files of `dir` (not kept earlier runs), sorted.
fn all_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.retain(|p| !crate::is_kept(p));
    files.sort();
    Ok(files)
}

/// The binary that wrote each file and the headlines it declared for it, from the run
/// records (`NAME-np_NNNN.json`) beside them.
fn binaries(files: &[PathBuf]) -> BTreeMap<String, (String, Vec<Headline>)> {
    let mut map = BTreeMap::new();
    for path in files.iter().filter(|p| p.extension().is_some_and(|x| x == "json")) {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
        let Some(binary) = json["binary"].as_str() else { continue };
        for f in json["files"].as_array().into_iter().flatten() {
            if let Some(name) = f["name"].as_str() {
                let headlines = serde_json::from_value(f["headlines"].clone()).unwrap_or_default();
                map.insert(name.to_string(), (binary.to_string(), headlines));
            }
        }
    }
    map
}

/// A file name without its extension and `-np_NNNN`.
fn stem(file: &str) -> String {
    let s = file.rsplit_once('.').map_or(file, |(s, _)| s);
    s.split("-np_").next().unwrap_or(s).to_string()
}

/// b_eff_io's per-partition tables and initest's single runs: no headline of their own.
fn is_part(file: &str) -> bool {
    file.contains("-part_")
        || file.starts_with("b_eff_bw")
        || (file.starts_with("time_init")
            && file.trim_end_matches(".dat").ends_with(char::is_numeric))
}

/// Takes a figure: its name, value, unit and interval.
type AddFigure<'a> = dyn FnMut(String, f64, &str, Option<(f64, f64)>) + 'a;

/// Adds the figures of one `.dat` file: the `headlines` its binary declared for it (the run
/// record's), the overlap and tail columns where it has them, and the PRESTA tables' own.
fn dat_figures(file: &str, binary: &str, headlines: &[Headline], dat: &Dat, add: &mut AddFigure) {
    let stem = stem(file);
    let num = |r: &[String], c: usize| r[c].parse::<f64>().unwrap_or(f64::NAN);
    let (Some(first), Some(last)) = (dat.rows.first(), dat.rows.last()) else { return };
    let cols: Vec<&str> = dat.columns.iter().map(String::as_str).collect();
    let unit = dat.y_unit().unwrap_or("").to_string();
    for h in headlines {
        let name = |x: &str| format!("{binary}: {}", h.figure.replace("{x}", x));
        let unit = if h.unit.is_empty() { &unit } else { &*h.unit };
        if h.row == Pick::Cells {
            let cells: Vec<f64> = dat
                .rows
                .iter()
                .flat_map(|r| r[1..].iter().filter_map(|c| c.parse().ok()))
                .collect();
            if !cells.is_empty() {
                add(name(&dat.rows.len().to_string()), paw_base::median(&cells), unit, None);
            }
            continue;
        }
        let Some(c) = dat.find(&h.column) else { continue };
        let rows: Vec<&Vec<String>> = match &h.row {
            Pick::First => vec![first],
            Pick::Last => vec![last],
            Pick::Key(key) => dat.rows.iter().filter(|r| r[0] == **key).collect(),
            Pick::Every => dat.rows.iter().collect(),
            Pick::Cells => unreachable!("taken above"),
        };
        // A median's interval where the file has one.
        let ci = |r: &[String]| match (dat.find(sweep::CI_LO), dat.find(sweep::CI_HI)) {
            (Some(lo), Some(hi)) if h.column == sweep::MEDIAN => Some((num(r, lo), num(r, hi))),
            _ => None,
        };
        for r in rows {
            add(name(&r[0]), num(r, c), unit, ci(r));
        }
    }
    if let Some(size) = dat.find(sweep::SIZE) {
        let at = |r: &[String]| format!("{} B", r[size]);
        // The overlap of computation at the largest size (non-blocking collectives) and the
        // tail at the smallest (PAW_TAIL).
        if let Some(c) = dat.find(sweep::OVERLAP) {
            add(format!("{binary}: overlap at {}", at(last)), num(last, c), PERCENT.label, None);
        }
        for (name, _) in TAIL_COLUMNS.iter().skip(2) {
            if let Some(c) = dat.find(name) {
                add(format!("{binary}: {name} at {}", at(first)), num(first, c), &unit, None);
            }
        }
    }
    if !headlines.is_empty() || dat.find(sweep::MEDIAN).is_some() {
        return;
    }
    // PRESTA's tables (a suite's, without a Spec): each by its columns.
    match cols.as_slice() {
        // PRESTA com and rma: a column per process count; the peak at the largest.
        [sweep::SIZE, .., p] if p.starts_with('P') => {
            let c = cols.len() - 1;
            let peak = dat.rows.iter().map(|r| num(r, c)).fold(f64::NAN, f64::max);
            let what =
                stem.trim_start_matches(binary).trim_start_matches('_').trim_end_matches("_bw");
            let what = what.replace('_', " ");
            add(
                format!("{binary}: peak {what} bandwidth, {} processes", &p[1..]),
                peak,
                MB_10_6,
                None,
            );
        }
        [table::PROCESSES, table::LATENCY] => {
            add(format!("{binary}: latency at {} processes", last[0]), num(last, 1), "usec", None);
        }
        [table::SAMPLE, table::BASE, table::OP] => {
            let iterations = dat
                .header_value("iterations per sample")
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap_or(f64::NAN);
            let sum = |c: usize| dat.rows.iter().map(|r| num(r, c)).sum::<f64>();
            let op = (sum(2) - sum(1)) / (dat.rows.len() as f64 * iterations);
            add(format!("{binary}: Op mean (one Allreduce)"), op, "usec", None);
        }
        [table::OPERATION, table::COMPUTE, table::SET, sweep::AVG, sweep::MIN, sweep::MAX] => {
            let mut ops: Vec<(&str, Vec<f64>)> = Vec::new();
            for r in dat.rows.iter().filter(|r| r[1] == "no") {
                match ops.iter_mut().find(|(o, _)| *o == r[0]) {
                    Some((_, v)) => v.push(num(r, 3)),
                    None => ops.push((&r[0], vec![num(r, 3)])),
                }
            }
            for (op, v) in ops {
                let mean = v.iter().sum::<f64>() / v.len() as f64;
                add(format!("{binary}: {op} time"), mean, "usec", None);
            }
        }
        _ => {}
    }
}

/// The fabric map's verdict lines, from the bandwidth matrix's header: the thresholds,
/// what is named, and the suspects the retest cleared.
fn matrix_verdict(dat: &Dat) -> Vec<String> {
    const STARTS: [&str; 6] =
        ["median link", "best link", "median latency", "best latency", "slow ", "no slow"];
    dat.header
        .iter()
        .filter(|h| STARTS.iter().any(|s| h.starts_with(s)) || h.ends_with(": cleared"))
        .cloned()
        .collect()
}

/// A figure found in a file: name, value, unit.
type Found = (String, f64, String);

/// b_eff's `b_eff = ... MB/s` and `b_eff per process = ... MB/s` from its protocol.
fn beff_prot(path: &Path) -> Result<Vec<Found>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim_start_matches('#').trim();
        let Some((what, rest)) = line.split_once('=') else { continue };
        let what = what.trim();
        if what != "b_eff" && what != "b_eff per process" {
            continue;
        }
        let mut words = rest.split_whitespace();
        if let (Some(v), Some("MB/s")) = (words.next().and_then(|v| v.parse().ok()), words.next()) {
            if !out.iter().any(|(n, _, _): &Found| n == what) {
                out.push((what.to_string(), v, MB_10_6.to_string()));
            }
        }
    }
    Ok(out)
}

/// b_eff_io's figures from its summary file: per partition its write, rewrite and read
/// bandwidths and its b_eff_io, then the one number (the maximum over partitions); and
/// whether the run says it is NOT VALID.
fn beff_io_sum(path: &Path) -> Result<(Vec<Found>, Option<String>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut found = Vec::new();
    // `... = 401.652 MB/s on 2 processes ...`: the value and the process count.
    let value_on = |rest: &str| -> Option<(f64, String)> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let value = words.first()?.parse().ok()?;
        let on = words.iter().position(|w| *w == "on")?;
        Some((value, words.get(on + 1)?.to_string()))
    };
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("weighted average bandwidth for ") {
            let Some((access, rest)) = rest.split_once(':') else { continue };
            if let Some((v, np)) = value_on(rest) {
                let name = format!("b_eff_io: {} bandwidth, {np} processes", access.trim());
                found.push((name, v, MB_10_6.to_string()));
            }
        } else if let Some(rest) = line.strip_prefix("b_eff_io of these measurements =") {
            if let Some((v, np)) = value_on(rest) {
                found.push((
                    format!("b_eff_io: partition of {np} processes"),
                    v,
                    MB_10_6.to_string(),
                ));
            }
        }
    }
    let Some(line) = text.lines().rev().find(|l| l.trim_start().starts_with("b_eff_io = ")) else {
        return Ok((found, None));
    };
    if let Some(v) = line.split_whitespace().nth(2).and_then(|v| v.parse().ok()) {
        found.push(("b_eff_io".to_string(), v, MB_10_6.to_string()));
    }
    let note = line.contains("NOT VALID").then(|| {
        format!(
            "b_eff_io: NOT VALID as HLRS defines it ({})",
            path.file_name().unwrap_or_default().to_string_lossy()
        )
    });
    Ok((found, note))
}

/// One row of an IMB CSV file.
#[derive(Debug, Clone)]
struct ImbRow {
    suite: String,
    benchmark: String,
    processes: u64,
    mode: String,
    bytes: u64,
    t_avg: f64,
    /// The bandwidth and its unit (the suite's Mbytes).
    bandwidth: Option<(f64, &'static str)>,
    msgs: Option<f64>,
    overlap: Option<f64>,
    file: PathBuf,
}

/// Reads IMB's CSV files ([`imb_csv`]).
fn imb_rows(files: &[PathBuf]) -> Result<Vec<ImbRow>, String> {
    let mut rows = Vec::new();
    for path in files {
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let Some(suite) = imb_csv::suite_of(&name) else { continue };
        let at = |e: csv::Error| format!("{}: {e}", path.display());
        let mut reader = csv::Reader::from_path(path).map_err(at)?;
        let headers = reader.headers().map_err(at)?.clone();
        let col = |n: &str| headers.iter().position(|h| h == n);
        let (Some(b), Some(p), Some(m), Some(by), Some(t)) = (
            col(imb_csv::BENCHMARK),
            col(imb_csv::PROCESSES),
            col(imb_csv::MODE),
            col(imb_csv::BYTES),
            imb_csv::figure(headers.iter()).map(|(i, _)| i),
        ) else {
            continue;
        };
        let bandwidth = headers.iter().enumerate().find_map(|(i, h)| {
            let (q, unit) = Unit::of_csv_column(h)?;
            (q == "bandwidth").then_some((i, unit.label))
        });
        let (msgs, overlap) = (col(imb_csv::MSGS), col(imb_csv::OVERLAP));
        for rec in reader.records() {
            let rec = rec.map_err(at)?;
            let num = |i: usize| rec.get(i).and_then(|v| v.parse::<f64>().ok());
            rows.push(ImbRow {
                suite: suite.to_string(),
                benchmark: rec[b].to_string(),
                processes: num(p).unwrap_or(0.0) as u64,
                mode: rec[m].to_string(),
                bytes: num(by).unwrap_or(0.0) as u64,
                t_avg: num(t).unwrap_or(f64::NAN),
                bandwidth: bandwidth.and_then(|(i, u)| Some((num(i)?, u))),
                msgs: msgs.and_then(num),
                overlap: overlap.and_then(num),
                file: path.clone(),
            });
        }
    }
    Ok(rows)
}

/// A figure of an IMB table: name, value, unit, file.
type ImbFigure = (String, f64, String, PathBuf);

/// The IMB figures, each at the largest process count and, where a mode applies,
/// aggregate: IMB-MPI1's PingPong 0-byte time and 4 MiB bandwidth, Barrier's time, Allreduce and Alltoall
/// at 8 B and 1 MiB; per benchmark of the other suites what its users quote: the best
/// bandwidth at the largest length where the table has one (IMB-EXT, IMB-RMA, IMB-P2P) and
/// the message rate at the smallest where it has one (IMB-P2P), the overlap at the largest
/// length (IMB-NBC's I<coll>), else the time at the smallest nonzero and the largest length;
/// IMB-IO per family (S_Write, P_Read ...).
fn imb_figures(files: &[PathBuf]) -> Result<Vec<ImbFigure>, String> {
    let rows = imb_rows(files)?;
    let mut out = Vec::new();
    // The rows that `keep` selects, of `suite` at its largest process count.
    let of = |suite: &str, keep: &dyn Fn(&ImbRow) -> bool| -> Vec<&ImbRow> {
        let chosen: Vec<&ImbRow> = rows
            .iter()
            .filter(|r| r.suite == suite && keep(r) && (r.mode.is_empty() || r.mode == "aggregate"))
            .collect();
        let np = chosen.iter().map(|r| r.processes).max().unwrap_or(0);
        chosen.into_iter().filter(|r| r.processes == np).collect()
    };
    // The row of the size closest to `bytes` (a run with another -msglog still has figures).
    let near = |rs: &[&ImbRow], bytes: u64| -> Option<ImbRow> {
        rs.iter().min_by_key(|r| r.bytes.abs_diff(bytes)).map(|r| (*r).clone())
    };
    let suite = "IMB-MPI1";
    let pingpong = of(suite, &|r| r.benchmark == "PingPong");
    if let Some(r) = near(&pingpong, 0) {
        let what = format!("{suite} PingPong: time at {} B", r.bytes);
        out.push((what, r.t_avg, USEC.label.into(), r.file));
    }
    if let Some(r) = near(&pingpong, 4 << 20) {
        if let Some((mb, unit)) = r.bandwidth {
            let what = format!("{suite} PingPong: bandwidth at {} B", r.bytes);
            out.push((what, mb, unit.into(), r.file));
        }
    }
    let mut benchmarks: Vec<(&str, &str)> =
        rows.iter().map(|r| (r.suite.as_str(), r.benchmark.as_str())).collect();
    benchmarks.sort();
    benchmarks.dedup();
    for (suite, bench) in benchmarks {
        let rs = of(suite, &|r| r.benchmark == bench);
        match (suite, bench) {
            ("IMB-IO", _) => {}
            ("IMB-MPI1", "PingPong") => {}
            ("IMB-MPI1", "Barrier") => {
                if let Some(r) = rs.first() {
                    let what = format!("{suite} Barrier: time, {} processes", r.processes);
                    out.push((what, r.t_avg, USEC.label.into(), r.file.clone()));
                }
            }
            ("IMB-MPI1", "Allreduce" | "Alltoall") => {
                for bytes in [8, 1 << 20] {
                    if let Some(r) = near(&rs, bytes) {
                        let what = format!(
                            "{suite} {bench}: time at {} B, {} processes",
                            r.bytes, r.processes
                        );
                        out.push((what, r.t_avg, USEC.label.into(), r.file));
                    }
                }
            }
            ("IMB-MPI1", _) => {}
            _ => out.extend(quoted(suite, bench, &rs)),
        }
    }
    let mut families: Vec<String> =
        rows.iter().filter(|r| r.suite == "IMB-IO").map(|r| io_family(&r.benchmark)).collect();
    families.sort();
    families.dedup();
    for family in families {
        let rs = of("IMB-IO", &|r| io_family(&r.benchmark) == family);
        out.extend(quoted("IMB-IO", &family, &rs));
    }
    Ok(out)
}

/// What the users of one benchmark (or family) of rows quote: see [`imb_figures`].
fn quoted(suite: &str, family: &str, rows: &[&ImbRow]) -> Vec<ImbFigure> {
    let mut out = Vec::new();
    let Some(largest) = rows.iter().map(|r| r.bytes).max() else { return out };
    let np = rows[0].processes;
    let at = |bytes: u64| rows.iter().filter(move |r| r.bytes == bytes);
    // One length only (an atomic's element): its time, not a bandwidth.
    let lengths = rows.iter().filter(|r| r.bytes != largest).count();
    let best_bw = at(largest)
        .filter_map(|r| Some((r.bandwidth?, r)))
        .filter(|_| lengths > 0)
        .max_by(|(a, _), (b, _)| a.0.total_cmp(&b.0));
    if let Some(((mb, unit), r)) = best_bw.filter(|_| largest > 0) {
        let what = format!("{suite} {family}: best bandwidth at {largest} B, {np} processes");
        out.push((what, mb, unit.to_string(), r.file.clone()));
    }
    let smallest = rows.iter().map(|r| r.bytes).filter(|b| *b > 0).min().unwrap_or(largest);
    if let Some(r) = at(smallest).find(|r| r.msgs.is_some()) {
        let what = format!("{suite} {family}: message rate at {smallest} B, {np} processes");
        out.push((what, r.msgs.unwrap_or(f64::NAN), MSG_PER_S.label.into(), r.file.clone()));
    }
    if let Some(r) = at(largest).find(|r| r.overlap.is_some()) {
        let what = format!("{suite} {family}: overlap at {largest} B, {np} processes");
        out.push((what, r.overlap.unwrap_or(f64::NAN), PERCENT.label.into(), r.file.clone()));
    }
    if out.is_empty() {
        let mut sizes = vec![smallest];
        if largest != smallest {
            sizes.push(largest);
        }
        for bytes in sizes {
            if let Some(r) = at(bytes).min_by(|a, b| a.t_avg.total_cmp(&b.t_avg)) {
                let what = format!("{suite} {family}: time at {bytes} B, {np} processes");
                out.push((what, r.t_avg, USEC.label.into(), r.file.clone()));
            }
        }
    }
    out
}

/// An IMB-IO benchmark's family: its class and direction (`S_Write`, `P_Read`, `C_Write`),
/// blocking or not and whatever the file pointer; `Open_Close` alone.
fn io_family(benchmark: &str) -> String {
    let mut parts = benchmark.split('_');
    let (Some(class), Some(op)) = (parts.next(), parts.next()) else {
        return benchmark.to_string();
    };
    let op = op.strip_prefix('I').unwrap_or(op);
    if op == "Write" || op == "Read" {
        format!("{class}_{op}")
    } else {
        benchmark.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_families_join_blocking_and_pointer_variants() {
        assert_eq!(io_family("S_IWrite_Indv"), "S_Write");
        assert_eq!(io_family("P_Read_Shared"), "P_Read");
        assert_eq!(io_family("C_IRead_Expl"), "C_Read");
        assert_eq!(io_family("Open_Close"), "Open_Close");
    }

    #[test]
    fn stems_lose_the_task_count_and_kept_runs_are_parts() {
        assert_eq!(stem("send_time-np_0002.dat"), "send_time");
        assert_eq!(stem("latency.dat"), "latency");
        assert!(is_part("time_init_1.dat") && !is_part("time_init.dat"));
        assert!(is_part("b_eff_io_read-part_0002-np_0002.dat"));
    }

    #[test]
    fn beff_io_gives_each_partition_and_the_maximum() {
        let dir = tempfile::tempdir().unwrap();
        let sum = dir.path().join("b_eff_io-np_0004.sum");
        std::fs::write(
            &sum,
            "weighted average bandwidth for write   :  401.652 MB/s on 2 processes\n\
             weighted average bandwidth for read    : 2186.886 MB/s on 2 processes\n\
             b_eff_io of these measurements = 1132.992 MB/s on 2 processes with 12052 MByte/PE\n\
             b_eff_io of these measurements = 1500.5 MB/s on 4 processes with 6000 MByte/PE\n\
             \n b_eff_io = 1500.5 MB/s on 4 processes with 6000 MByte/PE, NOT VALID (see above)\n",
        )
        .unwrap();
        let (found, note) = beff_io_sum(&sum).unwrap();
        let names: Vec<(&str, f64)> = found.iter().map(|(n, v, _)| (n.as_str(), *v)).collect();
        assert_eq!(
            names,
            [
                ("b_eff_io: write bandwidth, 2 processes", 401.652),
                ("b_eff_io: read bandwidth, 2 processes", 2186.886),
                ("b_eff_io: partition of 2 processes", 1132.992),
                ("b_eff_io: partition of 4 processes", 1500.5),
                ("b_eff_io", 1500.5)
            ]
        );
        assert!(note.unwrap().contains("NOT VALID"));
    }

    #[test]
    fn presta_allred_op_mean_is_the_difference_per_iteration() {
        let text = "# iterations per sample: 10\n# columns: SAMPLE BASE OP\n1 100 130\n2 100 110\n";
        let dat = Dat::parse(text).unwrap();
        let mut got = Vec::new();
        dat_figures("allred-np_0002.dat", "allred", &[], &dat, &mut |n, v, u, _| {
            got.push((n, v, u.to_string()))
        });
        assert_eq!(got, [("allred: Op mean (one Allreduce)".to_string(), 2.0, "usec".to_string())]);
    }
}
