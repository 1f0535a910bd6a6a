//! Every result file of a run as measured rows, whatever wrote it: a sweep's medians with
//! their 95 % intervals, a plain table's cells (b_eff, b_eff_io, PRESTA, start-up, the
//! fabric map), an IMB table's times; and the facts a run records about itself (tasks,
//! hosts, library, settings, environment), for telling two runs apart.

use crate::Dat;
use paw_base::record::Record;
use paw_base::schema::{self, header, imb_csv, sweep, Better, Unit};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The unit of a measured value and which way it improves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quantity {
    /// As the file labels it: `usec`, `MB/s (MB = 2^20 B)`.
    pub label: String,
    /// Which way is better.
    pub better: Better,
}

impl Quantity {
    /// The quantity of a unit label: one of paw's units ([`schema::UNITS`]), else a time
    /// when the label's first word is one, else a rate.
    pub fn of_label(label: &str) -> Quantity {
        let better = match Unit::of_label(label) {
            Some(u) => u.better,
            None => match label.split_whitespace().next().unwrap_or("") {
                "usec" | "s" | "ms" | "nsec" => Better::Lower,
                _ => Better::Higher,
            },
        };
        Quantity { label: label.to_string(), better }
    }

    /// The quantity of a schema unit.
    pub fn of_unit(unit: Unit) -> Quantity {
        Quantity { label: unit.label.to_string(), better: unit.better }
    }
}

/// One measured row of a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// What the row is: its size, or its key cells and column (`1024 b_eff`).
    pub key: String,
    /// The figure: a sweep's MEDIAN, a table's cell, IMB's t_avg.
    pub value: f64,
    /// The median's 95 % interval, where the file has one (sweeps).
    pub interval: Option<(f64, f64)>,
    /// Its unit.
    pub quantity: Quantity,
    /// The row's figure in each launch of a launches result (empty for one launch).
    pub launches: Vec<f64>,
}

/// One result file of a run.
#[derive(Debug, Clone)]
pub struct ResultFile {
    /// Its name in the run's directory.
    pub name: String,
    /// Its rows.
    pub rows: Vec<Measured>,
    /// What the run says about itself ([`facts_of_header`], [`facts_of_record`]).
    pub facts: BTreeMap<String, String>,
    /// Of a launches result: its launches and the state they ran in.
    pub launched: Option<Launched>,
}

/// What a launches result says of its launches.
#[derive(Debug, Clone, PartialEq)]
pub struct Launched {
    /// Launches merged.
    pub count: usize,
    /// The machine's state: the probe's CPU round trip, ns (0: not measured).
    pub state_ns: f64,
}

/// How deep [`read_dir`] looks below the run's directory: a qualification run's steps, and
/// below `nodes/` a directory per host.
const DEPTH: usize = 2;

/// Whether more of the measured quantity is worse (a time) or better (a rate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Times: usec, s.
    LowerIsBetter,
    /// Bandwidths, rates, GFLOP/s.
    HigherIsBetter,
}

impl Direction {
    /// The direction of a quantity measured in `unit`.
    pub fn of(unit: &str) -> Direction {
        match Quantity::of_label(unit).better {
            Better::Lower => Direction::LowerIsBetter,
            _ => Direction::HigherIsBetter,
        }
    }
}

/// One headline figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// The step (a subdirectory of the run: `core`, `imb-mpi1` ...) it belongs to.
    pub section: String,
    /// What it is, as its users name it: `IMB-MPI1 PingPong: time at 0 B`.
    pub name: String,
    /// The value, in `unit`.
    pub value: f64,
    /// `usec`, `s`, `MB/s`, `GFLOP/s` ...
    pub unit: String,
    /// The 95 % interval of the median, where the figure is a sweep's median.
    pub interval: Option<(f64, f64)>,
    /// The file it was read from, relative to the run's directory.
    pub source: String,
}

impl Figure {
    /// `section/name`: the figure's key in a reference file.
    pub fn key(&self) -> String {
        format!("{}/{}", self.section, self.name)
    }

    /// Whether more is better (a bandwidth) or worse (a time).
    pub fn direction(&self) -> Direction {
        Direction::of(&self.unit)
    }
}

/// Reads every result file of `dir` and of its subdirectories (a qualification run's step
/// directories, a node step's host directories): sweeps, tables and IMB tables, not earlier
/// runs' kept files. Each is named by its path below `dir` (`p2p/send_bw-np_0002.dat`);
/// sorted by name. A file that cannot be read is an error naming it. Of a launches result
/// (`paw-report launches`), the merged files with each row's value in every launch of their
/// state (the result's own; [`read_state`] for another).
pub fn read_dir(dir: &Path) -> Result<Vec<ResultFile>, String> {
    match crate::launches::Record::read(dir) {
        Some(record) if !record.states.is_empty() => read_state(dir, &record, 0),
        _ => {
            let mut files = Vec::new();
            read_tree(dir, "", DEPTH, &mut files)?;
            files.sort_by(|a, b| a.name.cmp(&b.name));
            Ok(files)
        }
    }
}

/// The result of state `n` of the launches result in `dir` (`record`, its launches.json):
/// its merged files, each row with its value in each of the state's launches.
pub fn read_state(
    dir: &Path,
    record: &crate::launches::Record,
    n: usize,
) -> Result<Vec<ResultFile>, String> {
    let state = &record.states[n];
    let mut files = Vec::new();
    read_tree(&dir.join(&state.folder), "", 0, &mut files)?;
    files.sort_by(|a, b| a.name.cmp(&b.name));
    let mut each = Vec::new();
    for folder in &state.launches {
        let mut one = Vec::new();
        read_tree(&dir.join(folder), "", 0, &mut one)?;
        each.push(one);
    }
    for file in &mut files {
        file.launched = Some(Launched { count: each.len(), state_ns: state.probe_ns });
        for row in &mut file.rows {
            let values: Option<Vec<f64>> = each
                .iter()
                .map(|launch| {
                    let f = launch.iter().find(|f| f.name == file.name)?;
                    let r =
                        f.rows.iter().find(|r| r.key == row.key && r.quantity == row.quantity)?;
                    Some(r.value)
                })
                .collect();
            row.launches = values.unwrap_or_default();
        }
    }
    Ok(files)
}

/// The result files of `dir`, named with `prefix`, and those of its subdirectories down to
/// `depth` levels, into `files`.
fn read_tree(
    dir: &Path,
    prefix: &str,
    depth: usize,
    files: &mut Vec<ResultFile>,
) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    let steps = paths.iter().filter(|p| p.is_dir() && depth > 0);
    for sub in steps.filter(|p| !crate::launches::is_part(dir, p)) {
        let name = sub.file_name().unwrap_or_default().to_string_lossy().into_owned();
        read_tree(sub, &format!("{prefix}{name}/"), depth - 1, files)?;
    }
    paths.retain(|p| p.is_file() && !crate::is_kept(p));
    let records = records(&paths);
    for path in &paths {
        let own = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let record = records.get(&own);
        let name = format!("{prefix}{own}");
        let file = match path.extension().and_then(|e| e.to_str()) {
            Some("dat") => {
                let dat = Dat::read(path)?;
                let mut facts = facts_of_header(&dat);
                if let Some(r) = record {
                    facts.extend(facts_of_record(r));
                }
                let rows = if dat.find(sweep::MEDIAN).is_some() {
                    sweep_rows(&dat)
                } else {
                    match table_rows(&path.with_extension("csv"))? {
                        Some(rows) => rows,
                        None => continue,
                    }
                };
                ResultFile { name, rows, facts, launched: None }
            }
            Some("csv") if imb_csv::suite_of(&own).is_some() => ResultFile {
                rows: imb_rows(path)?,
                facts: record.map(facts_of_record).unwrap_or_default(),
                name,
                launched: None,
            },
            _ => continue,
        };
        files.push(file);
    }
    Ok(())
}

/// The facts of the file at `source` (relative to `top`): its run record's, and for a
/// `.dat` file its header's. Empty when neither can be read.
pub fn file_facts(top: &Path, source: &str) -> BTreeMap<String, String> {
    let path = top.join(source);
    let dir = path.parent().unwrap_or(top);
    let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let mut facts = BTreeMap::new();
    if name.ends_with(".dat") {
        if let Ok(dat) = Dat::read(&path) {
            facts = facts_of_header(&dat);
        }
    }
    if let Some(r) = record_of(&dir.join(&name)) {
        facts.extend(facts_of_record(&r));
    }
    facts
}

/// The run record that lists the file at `path`, from the records beside it.
pub(crate) fn record_of(path: &Path) -> Option<Record> {
    let dir = path.parent()?;
    let name = path.file_name()?.to_string_lossy().into_owned();
    let json: Vec<PathBuf> =
        std::fs::read_dir(dir).ok()?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    records(&json).remove(&name)
}

/// The run records (`*.json`) among `paths`, by the name of each file they list.
fn records(paths: &[PathBuf]) -> BTreeMap<String, Record> {
    let mut map = BTreeMap::new();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|x| x == "json")) {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let Ok(record) = serde_json::from_str::<Record>(&text) else { continue };
        for f in &record.files {
            map.insert(f.name.clone(), record.clone());
        }
    }
    map
}

/// A sweep's rows: per SIZE the MEDIAN and its interval (CI_LO..CI_HI), where one stray
/// sample cannot set it ([`robust`]).
fn sweep_rows(dat: &Dat) -> Vec<Measured> {
    let quantity = Quantity::of_label(dat.y_unit().unwrap_or(""));
    let num = |r: &[String], c: Option<usize>| c.and_then(|c| r[c].parse::<f64>().ok());
    let [size, median, lo, hi, reps] =
        [sweep::SIZE, sweep::MEDIAN, sweep::CI_LO, sweep::CI_HI, sweep::NREPS].map(|c| dat.find(c));
    dat.rows
        .iter()
        .filter_map(|r| {
            let samples = num(r, reps).map(|n| n as usize);
            let interval = num(r, lo).zip(num(r, hi)).filter(|_| robust(samples));
            Some(Measured {
                key: r[size?].clone(),
                value: num(r, median)?,
                interval,
                quantity: quantity.clone(),
                launches: Vec::new(),
            })
        })
        .collect()
}

/// Whether the median's interval of `samples` samples rests on inner samples: below 9 it
/// is their whole range ([`paw_base::median_interval`]), which one stray sample
/// stretches over any change (NREPS=5 with one fast sample hid a run 13 times slower).
fn robust(samples: Option<usize>) -> bool {
    samples.is_some_and(|n| n >= 1 && paw_base::median_interval(n).0 >= 2)
}

/// A plain table's rows, from its CSV twin (whose column names carry their units): per row
/// and per column of a time or a rate, the cell. The row's key is its cells without a unit
/// (or in bytes); of a table with `avg`, `min` and `max` columns only `avg` (the others are
/// its spread over processes). None when the table has no CSV twin.
fn table_rows(csv_path: &Path) -> Result<Option<Vec<Measured>>, String> {
    if !csv_path.exists() {
        return Ok(None);
    }
    let at = |e: csv::Error| format!("{}: {e}", csv_path.display());
    let mut reader = csv::Reader::from_path(csv_path).map_err(at)?;
    let names: Vec<String> = reader.headers().map_err(at)?.iter().map(String::from).collect();
    let units: Vec<Option<(&str, Unit)>> = names.iter().map(|n| Unit::of_csv_column(n)).collect();
    let has_avg = units.iter().any(|u| u.is_some_and(|(n, _)| n == "avg"));
    let mut keys = Vec::new();
    let mut figures = Vec::new();
    for (i, (name, unit)) in names.iter().zip(&units).enumerate() {
        match unit {
            _ if name == schema::RUN_COLUMN => {}
            Some((q, u)) if u.better != Better::Neither => {
                if !(has_avg && (*q == "min" || *q == "max")) {
                    figures.push((i, *q, *u));
                }
            }
            _ => keys.push(i),
        }
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(at)?;
        let key: Vec<&str> = keys.iter().filter_map(|&i| record.get(i)).collect();
        for &(i, q, u) in &figures {
            let Some(value) = record.get(i).and_then(|v| v.parse::<f64>().ok()) else { continue };
            if !value.is_finite() {
                continue;
            }
            let key =
                if figures.len() > 1 { format!("{} {q}", key.join(" ")) } else { key.join(" ") };
            rows.push(Measured {
                key,
                value,
                interval: None,
                quantity: Quantity::of_unit(u),
                launches: Vec::new(),
            });
        }
    }
    Ok(Some(rows))
}

/// An IMB table's rows: per length (and group) its t_avg, usec.
fn imb_rows(path: &Path) -> Result<Vec<Measured>, String> {
    let at = |e: csv::Error| format!("{}: {e}", path.display());
    let mut reader = csv::Reader::from_path(path).map_err(at)?;
    let names = reader.headers().map_err(at)?.clone();
    let col = |n: &str| names.iter().position(|h| h == n);
    let figure = imb_csv::figure(names.iter()).map(|(i, _)| i);
    let (Some(bytes), Some(t)) = (col(imb_csv::BYTES), figure) else {
        return Err(format!(
            "{}: no {} column, or none of {}",
            path.display(),
            imb_csv::BYTES,
            imb_csv::FIGURES.join(", ")
        ));
    };
    let group = col(imb_csv::GROUP);
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(at)?;
        let Some(value) = record.get(t).and_then(|v| v.parse::<f64>().ok()) else { continue };
        let key = match group {
            Some(g) => format!("group {} {}", &record[g], &record[bytes]),
            None => record[bytes].to_string(),
        };
        rows.push(Measured {
            key,
            value,
            interval: None,
            quantity: Quantity::of_unit(schema::USEC),
            launches: Vec::new(),
        });
    }
    Ok(rows)
}

/// Whether a setting's value only says where files went (a path): such settings are no
/// difference between two runs.
fn is_location(name: &str, value: &str) -> bool {
    schema::LOCATIONS.contains(&name) || value.contains('/')
}

/// The facts of a `.dat` header: the lines of [`header::RUN`] whole, and each variable of
/// the `settings:` and `defaults:` lines (one namespace: a default and the same value set
/// by hand are no difference) and of the `environment:` line, but for [`is_location`]s.
pub fn facts_of_header(dat: &Dat) -> BTreeMap<String, String> {
    let mut facts = BTreeMap::new();
    for key in header::RUN {
        if let Some(v) = dat.header_value(key) {
            facts.insert(key.to_string(), v.to_string());
        }
    }
    for (key, label) in [
        (header::DEFAULTS, "setting"),
        (header::SETTINGS, "setting"),
        (header::ENVIRONMENT, "environment"),
    ] {
        for word in dat.header_value(key).unwrap_or("").split_whitespace() {
            if let Some((var, value)) = word.split_once('=') {
                if !is_location(var, value) {
                    facts.insert(format!("{label} {var}"), value.to_string());
                }
            }
        }
    }
    facts
}

/// The facts of a run record: tasks, hosts, library, settings, environment and a suite's
/// arguments (values naming a path left out).
pub fn facts_of_record(r: &Record) -> BTreeMap<String, String> {
    let mut facts = BTreeMap::new();
    facts.insert(header::TASKS.to_string(), r.tasks.to_string());
    facts.insert(header::HOSTS.to_string(), r.hosts_line());
    if let Some(lib) = &r.mpi_library {
        facts.insert(header::LIBRARY.to_string(), lib.clone());
    }
    for s in r.settings.iter().filter(|s| !is_location(&s.name, &s.value)) {
        facts.insert(format!("setting {}", s.name), s.value.clone());
    }
    for e in &r.environment {
        if let Some((var, value)) = e.split_once('=') {
            facts.insert(format!("environment {var}"), value.to_string());
        }
    }
    if !r.arguments.is_empty() {
        let shown: Vec<&str> =
            r.arguments.iter().map(|a| if a.contains('/') { "PATH" } else { a.as_str() }).collect();
        facts.insert("arguments".to_string(), shown.join(" "));
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_give_a_row_per_key_and_quantity_without_the_spread_columns() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("globalop-np_0002.csv");
        std::fs::write(
            &csv,
            "operation,compute,set,avg_us,min_us,max_us\nBarrier,no,1,0.5,0.4,0.6\nBarrier,yes,1,11,10,12\n",
        )
        .unwrap();
        let rows = table_rows(&csv).unwrap().unwrap();
        let keys: Vec<(&str, f64)> = rows.iter().map(|r| (r.key.as_str(), r.value)).collect();
        assert_eq!(keys, [("Barrier no 1", 0.5), ("Barrier yes 1", 11.0)]);
        assert_eq!(rows[0].quantity.better, Better::Lower);

        let csv = dir.path().join("time_init.csv");
        std::fs::write(&csv, "tasks,tmin_s,tmax_s,run\n2,0.1,0.2,2026-11-27T00:00:00Z\n").unwrap();
        let keys: Vec<String> =
            table_rows(&csv).unwrap().unwrap().into_iter().map(|r| r.key).collect();
        assert_eq!(keys, ["2 tmin", "2 tmax"], "the run's date is no key");
        assert!(table_rows(&dir.path().join("none.csv")).unwrap().is_none());
    }

    #[test]
    fn locations_are_no_facts() {
        let dat = Dat::parse(
            "# tasks: 2\n# settings: PAW_OUTPUT_DIR=/tmp/a MAX_P2P_SIZE=8\n# environment: OMPI_MCA_btl=self,tcp\n# columns: SIZE\n",
        )
        .unwrap();
        let facts = facts_of_header(&dat);
        let keys: Vec<&str> = facts.keys().map(String::as_str).collect();
        assert_eq!(keys, ["environment OMPI_MCA_btl", "setting MAX_P2P_SIZE", "tasks"]);
    }
}
