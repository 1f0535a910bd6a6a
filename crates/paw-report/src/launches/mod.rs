//! `paw-report launches`: one command run K times, each launch in its own folder, and the
//! launches' files merged into one result whose intervals are over launches, not over the
//! samples of one launch (doc/methodology.md, "Launches").
//!
//! Before the first launch and after each one, [`probe`] measures the machine's state (a
//! cache-line round trip between two CPUs, no MPI). A launch between two probes of one
//! state ran in it; one between probes of different states is set aside. The launches of
//! the state most of them ran in make the result in the folder itself; those of each other
//! state make their own result in `state-N/`. `launches.json` records it all.

pub mod merge;
pub mod probe;
pub mod spread;
pub mod test;

use serde::{Deserialize, Serialize};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The record of a launches result, in its folder.
pub const RECORD: &str = "launches.json";

/// Launches of a result unless told: with six, a result's 95% interval over launches (the
/// smallest and largest launch) held another result's median in 84-90% of rows here
/// (doc/methodology.md, "Launches").
pub const DEFAULT_COUNT: u16 = 6;

/// At most this many times K launches are run to get K in one state.
pub const EXTRA: usize = 2;

/// The files a launch's folder holds beside its results: the command's output.
pub const CAPTURES: [&str; 2] = ["stdout.txt", "stderr.txt"];

/// One launch.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Launch {
    /// Its folder, relative to the result's.
    pub folder: String,
    /// Seconds from start to exit.
    pub wall_s: f64,
    /// The state probe before it, ns (None: could not be measured).
    pub probe_before_ns: Option<f64>,
    /// The probe after it.
    pub probe_after_ns: Option<f64>,
    /// The state it ran in (an index into `states`); None when its probes differ.
    pub state: Option<usize>,
}

/// One state of the machine: launches whose probes are of one level ([`states`]).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct State {
    /// The probes' median, ns.
    pub probe_ns: f64,
    /// Where its merged result is, relative to the result's folder (`.` or `state-N`).
    pub folder: String,
    /// Its launches' folders.
    pub launches: Vec<String>,
}

/// `launches.json`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Record {
    /// The command, word by word.
    pub command: Vec<String>,
    /// Every launch, in order.
    pub launches: Vec<Launch>,
    /// The states seen, the result's own first.
    pub states: Vec<State>,
    /// Files left in the launch folders (not in every launch, or not a table), with why.
    pub not_merged: Vec<(String, String)>,
}

impl Record {
    /// Reads `dir`'s record, if `dir` is a launches result.
    pub fn read(dir: &Path) -> Option<Record> {
        let text = std::fs::read_to_string(dir.join(RECORD)).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// The state whose result is in the folder itself.
    pub fn own_state(&self) -> Option<&State> {
        self.states.first()
    }
}

/// Whether `sub` is a launch or state folder of the launches result `dir` (not a step of a
/// run).
pub fn is_part(dir: &Path, sub: &Path) -> bool {
    let name = sub.file_name().unwrap_or_default().to_string_lossy();
    (name.starts_with("launch-") || name.starts_with("state-")) && dir.join(RECORD).is_file()
}

/// What `paw-report launches` is asked.
#[derive(Debug, Clone)]
pub struct Setup {
    /// Launches.
    pub count: usize,
    /// The result's folder.
    pub out: PathBuf,
    /// Seconds a launch may take (0: no limit).
    pub timeout: u64,
    /// The command.
    pub command: Vec<String>,
}

/// Runs the launches and merges them; `progress` is told each step. A launch that fails
/// stops the rest: Err carries its exit status and a line naming it.
pub fn run(setup: &Setup, progress: &mut dyn FnMut(&str)) -> Result<Record, (u8, String)> {
    let fail = |e: String| (2u8, e);
    prepare(&setup.out).map_err(fail)?;
    let out = std::path::absolute(&setup.out).map_err(|e| fail(e.to_string()))?;
    let mut record = Record { command: setup.command.clone(), ..Record::default() };
    let mut before = probe::round_trip_ns();
    let width = (setup.count * EXTRA).to_string().len().max(2);
    let mut i = 0;
    // K launches in one state; a launch run across a change, or in a state other than the
    // commonest, is replaced, up to EXTRA x K launches in all.
    while states(&mut record.launches.clone()).first().map_or(0, |s| s.launches.len()) < setup.count
        && i < setup.count * EXTRA
    {
        i += 1;
        let folder = format!("launch-{i:0width$}");
        let dir = out.join(&folder);
        std::fs::create_dir(&dir).map_err(|e| fail(format!("{}: {e}", dir.display())))?;
        let wall = launch(setup, &dir).map_err(|(code, why)| {
            (code, format!("launch {i}: {why} (its output: {})", dir.display()))
        })?;
        let after = probe::round_trip_ns();
        let ns = |p: Option<f64>| p.map_or("-".to_string(), |p| format!("{p:.0}"));
        progress(&format!(
            "launch {i} ({} wanted in one state): {wall:.2} s; CPU round trip {} ns before, {} after{}",
            setup.count,
            ns(before),
            ns(after),
            match (before, after) {
                (Some(b), Some(a)) if !probe::same_state(b, a) => ": a state change, set aside",
                _ => "",
            }
        ));
        record.launches.push(Launch {
            folder,
            wall_s: wall,
            probe_before_ns: before,
            probe_after_ns: after,
            state: None,
        });
        before = after;
    }
    record.states = states(&mut record.launches);
    let mut last = Ok(());
    if record.states.is_empty() {
        last = Err((
            1,
            "every launch ran across a change of the machine's state: nothing merged".to_string(),
        ));
    }
    for (n, state) in record.states.iter().enumerate() {
        let target = if n == 0 { out.clone() } else { out.join(&state.folder) };
        if n > 0 {
            std::fs::create_dir_all(&target).map_err(|e| fail(e.to_string()))?;
        }
        let folders: Vec<PathBuf> = state.launches.iter().map(|f| out.join(f)).collect();
        let merged = merge::merge(&folders, &target, &header_line(&record, n))
            .map_err(|e| fail(format!("merging the launches: {e}")))?;
        if n == 0 {
            record.not_merged = merged.left;
            if merged.files.is_empty() {
                last = Err(fail(format!(
                    "the launches wrote no result file that could be merged (in {})",
                    folders[0].display()
                )));
            }
        }
    }
    let json = serde_json::to_string_pretty(&record).map_err(|e| fail(e.to_string()))?;
    std::fs::write(out.join(RECORD), json + "\n").map_err(|e| fail(e.to_string()))?;
    last.map(|_| record)
}

/// What a launches result holds, for its user: per state its launches and folder, the
/// files merged and those left in the launch folders.
pub fn describe(record: &Record, out: &Path, wanted: usize) -> String {
    let mut s = String::new();
    let own = record.states.first().map_or(0, |s| s.launches.len());
    if own < wanted {
        s += &format!(
            "only {own} of the {wanted} launches wanted ran in one state: the machine changed \
             state during {} of {} launches\n",
            record.launches.iter().filter(|l| l.state.is_none()).count(),
            record.launches.len()
        );
    }
    for (n, state) in record.states.iter().enumerate() {
        let at = if n == 0 { out.to_path_buf() } else { out.join(&state.folder) };
        s += &format!(
            "state {} (CPU round trip {:.0} ns): {} launches merged into {}\n",
            n + 1,
            state.probe_ns,
            state.launches.len(),
            at.display()
        );
    }
    let aside: Vec<&str> =
        record.launches.iter().filter(|l| l.state.is_none()).map(|l| l.folder.as_str()).collect();
    if !aside.is_empty() {
        s += &format!("set aside (a state change during the launch): {}\n", aside.join(", "));
    }
    for (file, why) in &record.not_merged {
        s += &format!("left in the launch folders: {file} ({why})\n");
    }
    s += &format!("paw-report summary {} shows its figures\n", out.display());
    s
}

/// The `launches:` header line of the result of state `n`.
pub fn header_line(record: &Record, n: usize) -> String {
    let state = &record.states[n];
    let set_aside = record.launches.iter().filter(|l| l.state.is_none()).count();
    let mut line = format!(
        "{} of {} launches of `{}` ({} to {} beside this file), in state {} (CPU round trip {:.0} ns)",
        state.launches.len(),
        record.launches.len(),
        record.command.join(" "),
        state.launches.first().map_or("", String::as_str),
        state.launches.last().map_or("", String::as_str),
        n + 1,
        state.probe_ns
    );
    if record.states.len() > 1 {
        let others: Vec<String> = record
            .states
            .iter()
            .enumerate()
            .filter(|(m, _)| *m != n)
            .map(|(m, s)| {
                format!("state {} ({:.0} ns, {} launches)", m + 1, s.probe_ns, s.launches.len())
            })
            .collect();
        line += &format!("; also {}", others.join(", "));
    }
    if set_aside > 0 {
        line += &format!("; {set_aside} set aside (run across a state change)");
    }
    line + "; a sweep's NREPS counts the samples of the launches kept in its row"
}

/// Groups the launches by state. The probes of all launches, sorted, fall into levels: a
/// new level starts where a probe is more than [`probe::SAME_STATE`] times the one below
/// it (one state's probes spread over up to 2.4x here, the states lie 3-5x apart). A launch
/// whose two probes are of one level belongs to its state; the states ordered by launches,
/// most first (ties: the lower level). Without probes every launch is of one state of
/// probe 0.
fn states(launches: &mut [Launch]) -> Vec<State> {
    let mut all: Vec<f64> =
        launches.iter().flat_map(|l| [l.probe_before_ns, l.probe_after_ns]).flatten().collect();
    all.sort_by(f64::total_cmp);
    let mut tops: Vec<f64> = Vec::new();
    for (i, v) in all.iter().enumerate() {
        if i > 0 && *v > all[i - 1] * probe::SAME_STATE {
            tops.push(all[i - 1]);
        }
    }
    let level = |v: Option<f64>| v.map(|v| tops.iter().filter(|t| v > **t).count());
    let mut levels: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, l) in launches.iter().enumerate() {
        let at = match (level(l.probe_before_ns), level(l.probe_after_ns)) {
            (Some(b), Some(a)) if a == b => a,
            (Some(_), Some(_)) => continue,
            _ => 0,
        };
        match levels.iter_mut().find(|(n, _)| *n == at) {
            Some((_, members)) => members.push(i),
            None => levels.push((at, vec![i])),
        }
    }
    levels.sort_by_key(|(n, m)| (std::cmp::Reverse(m.len()), *n));
    levels
        .into_iter()
        .enumerate()
        .map(|(n, (_, members))| {
            let probes: Vec<f64> = members
                .iter()
                .flat_map(|&i| [launches[i].probe_before_ns, launches[i].probe_after_ns])
                .flatten()
                .collect();
            for &i in &members {
                launches[i].state = Some(n);
            }
            State {
                probe_ns: if probes.is_empty() { 0.0 } else { paw_base::median(&probes) },
                folder: if n == 0 { ".".into() } else { format!("state-{}", n + 1) },
                launches: members.iter().map(|&i| launches[i].folder.clone()).collect(),
            }
        })
        .collect()
}

/// The result's folder, created, or refused when it holds anything.
fn prepare(out: &Path) -> Result<(), String> {
    match std::fs::read_dir(out) {
        Ok(mut entries) => match entries.next() {
            None => Ok(()),
            Some(_) => Err(format!(
                "-o {}: the folder holds files already; accepted: a new or empty folder",
                out.display()
            )),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(out).map_err(|e| format!("-o {}: {e}", out.display()))
        }
        Err(e) => Err(format!("-o {}: {e}", out.display())),
    }
}

/// One launch of the command with PAW_OUTPUT_DIR set to `dir`, its output captured there;
/// its wall time, or its exit status and why.
fn launch(setup: &Setup, dir: &Path) -> Result<f64, (u8, String)> {
    let (program, args) = setup.command.split_first().ok_or((2, "no command".to_string()))?;
    let file = |name: &str| {
        std::fs::File::create(dir.join(name)).map_err(|e| (2u8, format!("{name}: {e}")))
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .env("PAW_OUTPUT_DIR", dir)
        .stdin(Stdio::null())
        .stdout(file(CAPTURES[0])?)
        .stderr(file(CAPTURES[1])?);
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        // Open MPI started by root runs nothing otherwise (and exits 0).
        cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1").env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|e| (2, format!("cannot start {program}: {e}")))?;
    let limit = (setup.timeout > 0).then(|| Duration::from_secs(setup.timeout));
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if limit.is_some_and(|l| start.elapsed() > l) => {
                stop(&mut child);
                return Err((124, format!("took more than {} s; stopped", setup.timeout)));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err((2, format!("waiting for {program}: {e}"))),
        }
    };
    let wall = start.elapsed().as_secs_f64();
    if !status.success() {
        let code = status.code().map_or(1, |c| c.clamp(1, 255) as u8);
        return Err((code, format!("{status}: {}", last_line(&dir.join(CAPTURES[1])))));
    }
    let wrote = std::fs::read_dir(dir)
        .map(|e| e.filter_map(|e| e.ok()).any(|e| !CAPTURES.iter().any(|c| e.file_name() == *c)))
        .unwrap_or(false);
    if !wrote {
        return Err((
            1,
            format!(
                "exit status 0 but no result file in its folder: the command must run a paw \
                 binary, and the launcher pass PAW_OUTPUT_DIR to rank 0 (Open MPI across hosts: \
                 mpirun -x PAW_OUTPUT_DIR); {}",
                last_line(&dir.join(CAPTURES[1]))
            ),
        ));
    }
    Ok(wall)
}

/// SIGTERM to a child, SIGKILL five seconds later if it is still there.
fn stop(child: &mut std::process::Child) {
    // SAFETY: kill with a pid this process started and has not yet reaped.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// What a failed command said: its first line naming an error, else its last line of
/// words (not a launcher's rule of dashes).
fn last_line(path: &Path) -> String {
    let mut text = String::new();
    if let Ok(mut f) = std::fs::File::open(path) {
        let _ = f.read_to_string(&mut text);
    }
    let words = |l: &&str| l.chars().any(char::is_alphanumeric);
    let error = text.lines().find(|l| l.to_lowercase().contains("error"));
    error.or_else(|| text.lines().rev().find(words)).unwrap_or("").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(folder: &str, before: f64, after: f64) -> Launch {
        Launch {
            folder: folder.into(),
            wall_s: 0.5,
            probe_before_ns: Some(before),
            probe_after_ns: Some(after),
            state: None,
        }
    }

    #[test]
    fn launches_are_grouped_by_state_the_commonest_first() {
        let mut l = vec![
            launch("launch-1", 430.0, 440.0),
            launch("launch-2", 60.0, 135.0),
            launch("launch-3", 135.0, 430.0),
            launch("launch-4", 92.0, 88.0),
        ];
        let s = states(&mut l);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].launches, ["launch-2", "launch-4"]);
        assert_eq!((s[0].folder.as_str(), s[1].folder.as_str()), (".", "state-2"));
        assert_eq!(s[1].launches, ["launch-1"]);
        assert_eq!(l[2].state, None, "across a change");
        assert_eq!((l[0].state, l[1].state), (Some(1), Some(0)));
        assert!((s[0].probe_ns - 90.0).abs() < 1.5, "{}", s[0].probe_ns);
    }

    #[test]
    fn launches_merge_into_the_files_a_binary_writes_with_intervals_over_launches() {
        let d = tempfile::tempdir().unwrap();
        let mut sets = fixture::launches(6, &[1, 1024, 65536], 0.03, 1.0, 90.0);
        // One launch ran its 1024 B row in another state: left out of that row alone.
        sets[2].1[1].1 *= 3.0;
        // Two launches in another state: a result of their own in state-2.
        sets.extend(fixture::launches(2, &[1, 1024, 65536], 0.03, 2.0, 400.0));
        let record = fixture::result(d.path(), &sets);
        assert_eq!(record.states.len(), 2);
        assert_eq!(record.states[1].folder, "state-2");
        let dat = crate::Dat::read(&d.path().join("t.dat")).unwrap();
        assert_eq!(dat.columns, paw_base::schema::sweep::COLUMNS);
        assert_eq!(dat.numbers("SIZE"), [1.0, 1024.0, 65536.0]);
        let nreps = dat.numbers("NREPS");
        assert_eq!(nreps, [60.0, 50.0, 60.0], "10 samples of each launch kept in the row");
        for (i, row) in dat.rows.iter().enumerate() {
            let launches: Vec<f64> = sets[..6]
                .iter()
                .map(|(_, rows)| rows[i].1)
                .filter(|v| i != 1 || *v < 2.0 * (1.0 + 1.024))
                .collect();
            let want = paw_base::median(&launches);
            let got: f64 = row[dat.col("MEDIAN")].parse().unwrap();
            assert!((got - want).abs() <= 1e-5 * want, "row {i}: {got} against {want}");
            let (lo, hi) = (dat.numbers("CI_LO")[i], dat.numbers("CI_HI")[i]);
            let (min, max) = (
                launches.iter().copied().fold(f64::MAX, f64::min),
                launches.iter().copied().fold(0.0, f64::max),
            );
            assert!(
                lo <= min * (1.0 + 1e-5) && hi >= max * (1.0 - 1e-5),
                "the band holds every launch kept"
            );
        }
        assert_eq!(dat.y_unit(), Some("usec"));
        let launches = dat.header_value("launches").unwrap();
        assert!(
            launches.starts_with("6 of 8 launches of `x`")
                && launches.contains("state 2 (400 ns, 2 launches)"),
            "{launches}"
        );
        assert!(dat.header_value("interval").unwrap().starts_with("over launches:"));
        let csv = std::fs::read_to_string(d.path().join("t.csv")).unwrap();
        assert_eq!(csv.lines().count(), 4, "{csv}");
        assert!(csv.lines().nth(1).unwrap().starts_with("1,"), "{csv}");
        let other = crate::Dat::read(&d.path().join("state-2/t.dat")).unwrap();
        assert_eq!(other.numbers("NREPS"), [20.0; 3]);
        // Read back: the merged rows carry each launch's figure.
        let files = crate::read_dir(d.path()).unwrap();
        assert_eq!(files.len(), 1, "launch and state folders are no steps");
        assert_eq!(files[0].rows[0].launches.len(), 6);
        assert_eq!(files[0].launched.as_ref().unwrap().count, 6);
    }

    #[test]
    fn a_folder_with_files_is_refused() {
        let d = tempfile::tempdir().unwrap();
        prepare(d.path()).unwrap();
        std::fs::write(d.path().join("x"), "").unwrap();
        assert!(prepare(d.path()).unwrap_err().contains("new or empty folder"));
        prepare(&d.path().join("new/deeper")).unwrap();
    }
}

/// Launches results made of chosen figures, for the tests of what reads them.
#[cfg(test)]
pub mod fixture {
    use super::*;

    /// A sweep file of one launch: per (SIZE, MEDIAN) a row of 10 samples around it.
    pub fn sweep(unit: &str, rows: &[(u64, f64)]) -> String {
        let mut text = format!(
            "# paw x -- t\n# tasks: 2\n# defaults: PAW_TOLERANCE=0.05\n# repetitions: 10\n\
             # interval: samples\n# x: SIZE = message size [bytes]\n# y: time [{unit}]; AVG ...\n\
             # columns: SIZE AVG MIN MAX STDDEV MEDIAN NLOOP NREPS CI_LO CI_HI NOISY\n"
        );
        for (size, m) in rows {
            let (lo, hi) = (m * 0.99, m * 1.01);
            text += &format!(
                "{size:>12} {m:>12} {:>12} {:>12} {:>12} {m:>12} {:>9} {:>6} {lo:>12} {hi:>12} {:>5}\n",
                m * 0.98,
                m * 1.02,
                m * 0.01,
                100,
                10,
                0
            );
        }
        text
    }

    /// The run record of `binary` in `dir`, declaring `figure` at the first row's MEDIAN of
    /// its file `file` (as a binary's Spec declares its headlines).
    pub fn declare(dir: &Path, binary: &str, file: &str, figure: &str) {
        let stem = file.trim_end_matches(".dat");
        let record = serde_json::json!({
            "binary": binary,
            "files": [{"name": file, "csv": format!("{stem}.csv"), "rows": 1, "noisy_rows": 0,
                       "headlines": [{"file": stem, "figure": figure, "row": "first",
                                      "column": "MEDIAN"}]}],
        });
        std::fs::write(dir.join(format!("{binary}-np_0002.json")), record.to_string()).unwrap();
    }

    /// Writes a launches result into `dir`: per launch (its probe, ns; its rows), a folder
    /// with `t.dat` (usec), its CSV twin and the run record of `x` quoting its time at the
    /// smallest size; then merges them as `run` does.
    pub fn result(dir: &Path, launches: &[(f64, Vec<(u64, f64)>)]) -> Record {
        let mut record = Record { command: vec!["x".into()], ..Record::default() };
        for (i, (probe, rows)) in launches.iter().enumerate() {
            let folder = format!("launch-{:02}", i + 1);
            let d = dir.join(&folder);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("t.dat"), sweep("usec", rows)).unwrap();
            let mut csv = "size_bytes,avg_us,min_us,max_us,stddev_us,median_us,nloop,nreps,ci_lo_us,ci_hi_us,noisy\n".to_string();
            for (s, m) in rows {
                csv += &format!("{s},{m},{m},{m},0,{m},100,10,{m},{m},0\n");
            }
            std::fs::write(d.join("t.csv"), csv).unwrap();
            declare(&d, "x", "t.dat", "time at {x} B");
            record.launches.push(Launch {
                folder,
                wall_s: 0.5,
                probe_before_ns: Some(*probe),
                probe_after_ns: Some(*probe),
                state: None,
            });
        }
        record.states = states(&mut record.launches);
        for (n, state) in record.states.iter().enumerate() {
            let target = dir.join(&state.folder);
            std::fs::create_dir_all(&target).unwrap();
            let folders: Vec<PathBuf> = state.launches.iter().map(|f| dir.join(f)).collect();
            merge::merge(&folders, &target, &header_line(&record, n)).unwrap();
        }
        std::fs::write(dir.join(RECORD), serde_json::to_string(&record).unwrap()).unwrap();
        record
    }

    /// `k` launches of `sizes` with medians `base(size)` times a factor that moves from
    /// launch to launch by about `spread` (a fixed sequence), times `scale`.
    pub fn launches(
        k: usize,
        sizes: &[u64],
        spread: f64,
        scale: f64,
        probe: f64,
    ) -> Vec<(f64, Vec<(u64, f64)>)> {
        const WAVE: [f64; 8] = [0.0, 0.9, -0.7, 0.4, -1.1, 0.6, -0.2, 1.2];
        (0..k)
            .map(|i| {
                let rows = sizes
                    .iter()
                    .enumerate()
                    .map(|(j, &s)| {
                        let w = WAVE[(i + 3 * j) % WAVE.len()];
                        (s, (1.0 + s as f64 / 1000.0) * scale * (1.0 + spread * w))
                    })
                    .collect();
                (probe, rows)
            })
            .collect()
    }
}
