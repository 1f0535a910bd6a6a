//! A bad-input sweep over the binaries of the Makefile's lists (one of each kind in
//! `make test`, every one in `make test-long`): each kind of bad input
//! that applies to a binary must end it with one line naming the input (and what is
//! accepted), a non-zero exit within 20 s on every rank, and no file holding a partial row.
//!
//! A binary's kind comes from the Makefile list that holds it, its variables and task rule
//! from its `-h`; a suite with a command line of its own needs valid arguments below.

use paw_test::binaries::{self, Start};
use paw_test::{Dat, Launch, Outcome, SmallDisk, SMALL};
use std::path::Path;
use std::time::Duration;

/// How a binary takes its input, from the Makefile list that holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// A paw benchmark: environment variables; a wrong task count from its `-h`.
    Paw,
    /// A GPU benchmark (GPU): its variables are checked before the GPU is looked for.
    Gpu,
    /// A paw benchmark of MPI-4's calls (MPI4): its variables are checked first; on an MPI-3
    /// library the output directory is never reached, the library's line comes instead.
    Mpi4,
    /// A suite with IMB's command line.
    Imb,
    /// A suite with a command line of its own: what every suite refuses, given these
    /// otherwise valid arguments ([`SUITE_ARGS`]).
    Suite(&'static str),
    /// paw-report (TOOL).
    Report,
}

/// Valid arguments of each suite with a command line of its own.
const SUITE_ARGS: &[(&str, &str)] = &[
    ("IMB-MT", "-count 1 -repeat 10"),
    ("b_eff", ""),
    ("b_eff_io", "-T 1 -MB 256"),
    ("com", "-o 2"),
    ("laten", "-o 2"),
    ("rma", "-o 2 -c 1"),
    ("allred", "10 10 2"),
    ("globalop", "-l 2"),
];

/// How binary `name` of Makefile list `list` takes its input (None: a suite missing from
/// [`SUITE_ARGS`]).
fn kind(list: &str, name: &str) -> Option<Kind> {
    Some(match list {
        "GPU" => Kind::Gpu,
        "MPI4" => Kind::Mpi4,
        "TOOL" => Kind::Report,
        // IMB-MT has IMB-MT's options only, not the other IMB suites' table.
        "SUITE" if name.starts_with("IMB-") && name != "IMB-MT" => Kind::Imb,
        "SUITE" => Kind::Suite(SUITE_ARGS.iter().find(|(n, _)| *n == name)?.1),
        _ => Kind::Paw,
    })
}

/// Variables whose zero is a meaning (off, none), not an error, beside those whose `-h`
/// range starts at 0 ([`zero_allowed`]).
const ZERO_ALLOWED: &[&str] = &["PAW_MAX_TIME", "PAW_TOLERANCE"];
/// Variables whose values are text, not numbers.
const TEXT: &[&str] = &[
    "PAW_OUTPUT_DIR",
    "PAW_IO_DIR",
    "PAW_THREAD_LEVEL",
    "PAW_COMBINE",
    "PAW_FIXTURE",
    "PAW_BUFFER",
];

/// What every suite refuses: an unknown option (each parses its own command line) and an
/// output directory that does not exist (each starts its run the same way; IMB's entries
/// add the other cases of that start).
fn suite_cases() -> Vec<Case> {
    vec![
        Case::new("an unknown option", &["unknown option \"-fast\"", "accepted"]).arg("-fast"),
        Case::new("a missing output directory", &["does not exist", "accepted"])
            .env("PAW_OUTPUT_DIR", "/nonexistent/paw"),
    ]
}

/// One bad input: what it sets, and what the error line must contain.
struct Case {
    what: String,
    env: Vec<(String, String)>,
    args: Vec<String>,
    np: Option<usize>,
    small_disk: bool,
    readonly_record: bool,
    expect: Vec<String>,
}

impl Case {
    fn new(what: impl Into<String>, expect: &[&str]) -> Case {
        Case {
            what: what.into(),
            env: vec![],
            args: vec![],
            np: None,
            small_disk: false,
            readonly_record: false,
            expect: expect.iter().map(|s| s.to_string()).collect(),
        }
    }
    /// Whether the case is about where files go (it needs the run to get that far).
    fn writes(&self) -> bool {
        self.small_disk
            || self.readonly_record
            || self.env.iter().any(|(k, _)| k == "PAW_OUTPUT_DIR")
    }
    fn env(mut self, k: &str, v: impl ToString) -> Case {
        self.env.push((k.to_string(), v.to_string()));
        self
    }
    fn arg(mut self, a: &str) -> Case {
        self.args.push(a.to_string());
        self
    }
}

/// Whether `var`'s zero is a meaning: listed in [`ZERO_ALLOWED`], or its line of `help`
/// gives a range from 0 (`; 0 to N`).
fn zero_allowed(help: &str, var: &str) -> bool {
    let line = help.lines().find(|l| l.split_whitespace().next() == Some(var));
    ZERO_ALLOWED.contains(&var) || line.is_some_and(|l| l.contains("; 0 to "))
}

/// The cases that apply to a paw benchmark with `help`'s variables.
fn paw_cases(
    index: usize,
    help: &binaries::Help,
    wrong_np: Option<usize>,
    files: bool,
    scratch: &Path,
    small_disk: bool,
) -> Vec<Case> {
    let vars = &help.vars;
    let numeric: Vec<&String> = vars.iter().filter(|v| !TEXT.contains(&v.as_str())).collect();
    let pick = |k: usize| numeric[(index + 3 * k) % numeric.len()].as_str();
    let no_zero: Vec<&String> =
        numeric.iter().copied().filter(|v| !zero_allowed(&help.text, v)).collect();
    let mut cases =
        vec![Case::new("an unknown argument", &["unknown argument \"--bogus\""]).arg("--bogus")];
    for (k, (value, kind)) in
        [("abc", "not a number"), ("-3", "negative"), ("99999999999999999999999", "overflowing")]
            .into_iter()
            .enumerate()
    {
        let v = pick(k);
        cases.push(Case::new(format!("{v} {kind}"), &[v, "accepted"]).env(v, value));
    }
    if !no_zero.is_empty() {
        let v = no_zero[index % no_zero.len()].as_str();
        cases.push(Case::new(format!("{v} zero"), &[v, "accepted"]).env(v, 0));
    }
    if let Some(min) = vars.iter().find(|v| v.starts_with("MIN_") && v.ends_with("_SIZE")) {
        let max = min.replacen("MIN_", "MAX_", 1);
        if vars.contains(&max) {
            cases.push(
                Case::new(
                    "MIN above MAX",
                    &[&format!("{min}=64 is larger than {max}=8"), "accepted"],
                )
                .env(min, 64)
                .env(&max, 8),
            );
        }
    }
    if vars.iter().any(|v| v == "PAW_BUFFER") {
        cases.push(
            Case::new("PAW_BUFFER not a placement", &["PAW_BUFFER=\"gpu\"", "accepted"])
                .env("PAW_BUFFER", "gpu"),
        );
        // No GPU or no CUDA-aware MPI here: the library's answer, or the GPU, is missing.
        cases.push(
            Case::new("PAW_BUFFER=device without what it needs", &["PAW_BUFFER", "GPU"])
                .env("PAW_BUFFER", "device,host"),
        );
    }
    if let Some(np) = wrong_np {
        let mut c =
            Case::new(format!("{np} tasks"), &[&format!("started with {np}"), "mpirun -np"]);
        c.np = Some(np);
        cases.push(c);
    }
    if files {
        let afile = scratch.join("a-file");
        std::fs::write(&afile, "not a directory").unwrap();
        cases.push(
            Case::new("a missing output directory", &["does not exist", "accepted"])
                .env("PAW_OUTPUT_DIR", "/nonexistent/paw"),
        );
        cases.push(
            Case::new("an output directory that is a file", &["is not a directory", "accepted"])
                .env("PAW_OUTPUT_DIR", afile.display()),
        );
        cases.push(
            Case::new("an unwritable output directory", &["PAW_OUTPUT_DIR=/proc/self", "accepted"])
                .env("PAW_OUTPUT_DIR", "/proc/self"),
        );
        let mut c =
            Case::new("a read-only earlier output file", &["exists and is read-only", "accepted"]);
        c.readonly_record = true;
        cases.push(c);
        if small_disk {
            let mut c = Case::new("a full disk", &["cannot write", "No space left on device"]);
            c.small_disk = true;
            cases.push(c);
        }
    }
    cases
}

/// Runs one case; returns the outcome after checking what every case must hold.
fn run(name: &str, start: Start, case: &Case, help_vars: &[String]) -> Outcome {
    let program = binaries::bin(name);
    let np = case.np.or(match start {
        Start::Mpi(n) => Some(n),
        Start::Direct => None,
    });
    let mut l = match np {
        Some(n) => Launch::mpi(&program, n),
        None => Launch::direct(&program),
    };
    // Open MPI waits a second before it kills what is left of a job whose rank exited
    // non-zero; every case here ends that way, and the wait is not what is tested.
    l = l
        .timeout(Duration::from_secs(20))
        .args(&case.args)
        .env("OMPI_MCA_odls_base_sigkill_timeout", 0);
    for (k, v) in SMALL {
        if help_vars.iter().any(|h| h == k) {
            l = l.env(k, v);
        }
    }
    for (k, v) in &case.env {
        l = l.env(k, v);
    }
    let out = if case.small_disk {
        let disk = SmallDisk::mount(12).expect("mounted before");
        let out = l.env("PAW_OUTPUT_DIR", disk.path().display()).run_shared();
        for f in std::fs::read_dir(disk.path()).unwrap().flatten() {
            // What the full disk holds must be whole rows too: checked below, from a copy.
            let _ = std::fs::copy(f.path(), out.dir.path().join(f.file_name()));
        }
        out
    } else if case.readonly_record {
        // The run record is every run's first file: an earlier, read-only one is in the way.
        let dir = tempfile::tempdir().unwrap();
        // Its NNNN is the tasks; a node test's, its files' (the threads): learnt from a run.
        let count = match np {
            Some(tasks) => tasks,
            None => {
                let mut probe = Launch::direct(&program).timeout(Duration::from_secs(20));
                for (k, v) in SMALL.iter().filter(|(k, _)| help_vars.iter().any(|h| h == k)) {
                    probe = probe.env(k, v);
                }
                let files = probe.run().files();
                let json = files.iter().find(|f| f.ends_with(".json")).expect("a run record");
                json.rsplit_once("-np_").and_then(|(_, n)| n[..4].parse().ok()).unwrap()
            }
        };
        let record = dir.path().join(format!("{name}-np_{count:04}.json"));
        std::fs::write(&record, "{}").unwrap();
        let mut perms = std::fs::metadata(&record).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&record, perms).unwrap();
        let out = l.env("PAW_OUTPUT_DIR", dir.path().display()).run_shared();
        assert_eq!(
            std::fs::read_to_string(&record).unwrap(),
            "{}",
            "{name}: the read-only file was touched"
        );
        out
    } else {
        l.run_shared()
    };
    assert!(!out.timed_out, "{name}, {}: hung\n{}", case.what, out.report());
    // Bad input ends every rank with status 2, and so does a disk too full to start on; a
    // disk that fills while running aborts the job with 3 (paw_core's RUNTIME), its line
    // saying so. Each status means one cause, every time.
    let aborted = out.stderr.contains("; aborting the job");
    let want = if case.small_disk && aborted { 3 } else { 2 };
    assert_eq!(out.code, Some(want), "{name}, {}: exit status\n{}", case.what, out.report());
    assert!(!aborted || case.small_disk, "{name}, {}: aborted\n{}", case.what, out.report());
    let ours: Vec<&str> =
        out.stderr.lines().filter(|l| l.starts_with(&format!("{name}:"))).collect();
    // Not errors: warnings, and progress lines (`name: [12 s ...] step`).
    let progress = format!("{name}: [");
    let errors: Vec<&&str> =
        ours.iter().filter(|l| !l.contains("warning:") && !l.starts_with(&progress)).collect();
    assert_eq!(errors.len(), 1, "{name}, {}: one line from rank 0\n{}", case.what, out.report());
    for needle in &case.expect {
        assert!(
            errors[0].contains(needle.as_str()),
            "{name}, {}: {needle:?} not in {:?}\n{}",
            case.what,
            errors[0],
            out.report()
        );
    }
    for f in out.files() {
        if f.ends_with(".dat") {
            let text = std::fs::read_to_string(out.dir.path().join(&f)).unwrap();
            Dat::parse(&text)
                .unwrap_or_else(|e| panic!("{name}, {}: {f} holds a partial row: {e}", case.what));
        }
        if f.ends_with(".csv") {
            let text = std::fs::read_to_string(out.dir.path().join(&f)).unwrap();
            let width = text.lines().next().map_or(0, |h| h.split(',').count());
            assert!(text.is_empty() || text.ends_with('\n'), "{name}: {f} ends in a partial row");
            assert!(text.lines().all(|l| l.split(',').count() == width), "{name}: {f} torn");
        }
    }
    out
}

/// A binary's cases, ready to run.
struct Job {
    name: String,
    start: Start,
    vars: Vec<String>,
    cases: Vec<Case>,
}

/// Runs every job's cases, a few launches at a time (they measure nothing).
fn run_all(jobs: &[Job]) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work: Vec<(&Job, &Case)> =
        jobs.iter().flat_map(|j| j.cases.iter().map(move |c| (j, c))).collect();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((job, case)) = work.get(i) else { break };
                run(&job.name, job.start, case, &job.vars);
            });
        }
    });
}

/// The first binary of each Makefile list and every suite (each parses its own command
/// line): every kind of bad input, each binary's own variables and task rule.
#[test]
fn one_binary_of_each_kind_refuses_every_kind_of_bad_input_with_one_line() {
    sweep(|list, first| first || list == "SUITE");
}

/// Every binary of the Makefile's lists.
#[test]
#[ignore = "long: make test-long"]
fn every_binary_refuses_every_kind_of_bad_input_with_one_line() {
    sweep(|_, _| true);
}

/// The sweep over the binaries that `chosen(list, first of its list)` takes. A binary's
/// cases are the same in every sweep (they rotate over its variables by its place in the
/// Makefile).
fn sweep(chosen: impl Fn(&str, bool) -> bool) {
    let gpus = paw_test::gpu::gpus();
    let scratch = tempfile::tempdir().unwrap();
    let small_disk = match SmallDisk::mount(12) {
        Ok(_) => true,
        Err(why) => {
            eprintln!("bad-input sweep: the full-disk case is skipped: {why}");
            false
        }
    };
    let mut missing = Vec::new();
    let mut jobs = Vec::new();
    let listed = binaries::makefile_lists();
    let every = listed
        .iter()
        .flat_map(|(list, names)| names.iter().enumerate().map(move |(i, n)| (list, i == 0, n)));
    for (index, (list, first, name)) in every.enumerate() {
        if !chosen(list, first) {
            continue;
        }
        let name = name.clone();
        let Some(kind) = kind(list, &name) else {
            missing.push(name);
            continue;
        };
        let job = |cases: Vec<Case>, start: Start, vars: Vec<String>| Job {
            name: name.clone(),
            start,
            vars,
            cases,
        };
        match kind {
            Kind::Paw => {
                let help = binaries::help(&name);
                let wrong = help.refused_tasks;
                let cases = paw_cases(index, &help, wrong, true, scratch.path(), small_disk);
                jobs.push(job(cases, help.start, help.vars));
            }
            Kind::Mpi4 => {
                let help = binaries::help(&name);
                let mut cases = paw_cases(index, &help, None, true, scratch.path(), small_disk);
                if !paw_test::has_mpi4() {
                    let lacks = ["lacks MPI-4's persistent collectives", "accepted"];
                    for c in cases.iter_mut().filter(|c| c.writes()) {
                        c.expect = lacks.iter().map(|s| s.to_string()).collect();
                    }
                }
                jobs.push(job(cases, help.start, help.vars));
            }
            Kind::Gpu => {
                let help = binaries::help(&name);
                let cases = paw_cases(index, &help, None, gpus > 0, scratch.path(), small_disk);
                jobs.push(job(cases, help.start, help.vars));
            }
            Kind::Suite(valid) => {
                let cases = suite_cases()
                    .into_iter()
                    .map(|c| valid.split_whitespace().fold(c, |c, a| c.arg(a)))
                    .collect();
                jobs.push(job(cases, Start::Mpi(2), vec![]));
            }
            Kind::Imb => {
                let mut cases = suite_cases();
                cases.extend([
                    Case::new(
                        "an unknown benchmark",
                        &["unknown benchmark \"PingPang\"", "valid names"],
                    )
                    .arg("PingPang"),
                    Case::new("-npmin not a number", &["-npmin two: takes a whole number >= 1"])
                        .arg("-npmin")
                        .arg("two"),
                    Case::new("-iter zero", &["-iter 0: takes"]).arg("-iter").arg("0"),
                    Case::new("-iter overflowing", &[": takes n[,vol"])
                        .arg("-iter")
                        .arg("99999999999999999999999"),
                    Case::new("-timeout negative", &["-timeout -1: takes a whole number >= 0"])
                        .arg("-timeout")
                        .arg("-1"),
                    Case::new("-msglog min above max", &["-msglog", ": takes [a:]b"])
                        .arg("-msglog")
                        .arg("9:3"),
                    Case::new("PAW_TIMEOUT not a number", &["PAW_TIMEOUT", "accepted"])
                        .env("PAW_TIMEOUT", "abc"),
                    Case::new("an unwritable output directory", &["/proc/self", "accepted"])
                        .env("PAW_OUTPUT_DIR", "/proc/self"),
                ]);
                // Without MPI-4, IMB-MPI4 stops before it writes anything: that is the line.
                if name == "IMB-MPI4" && !paw_test::has_mpi4() {
                    let lacks = ["IMB-MPI4 needs an MPI-4 library"].map(String::from).to_vec();
                    for c in cases.iter_mut().filter(|c| c.what == "an unwritable output directory")
                    {
                        c.expect = lacks.clone();
                    }
                }
                jobs.push(job(cases, Start::Mpi(2), vec![]));
            }
            Kind::Report => {
                for (args, needle) in [
                    (vec!["frobnicate"], "unrecognized subcommand 'frobnicate'"),
                    (vec!["summary", "/nonexistent/paw"], "/nonexistent/paw"),
                    (vec!["compare", "/tmp"], "required arguments were not provided: <NEW>"),
                    (
                        vec!["compare", "/tmp", "/tmp", "--threshold", "x"],
                        "invalid value 'x' for '--threshold <PERCENT>': accepted",
                    ),
                    (
                        vec!["summary", "--low", "100", "/tmp"],
                        "'100' for '--low <PERCENT>': accepted",
                    ),
                    (vec!["html", "-o"], "a value is required for '-o <FILE>'"),
                    (
                        vec!["reference", "--reframe", "x", "/tmp"],
                        "'x' for '--reframe <SYSTEM:PARTITION>': accepted",
                    ),
                    (vec!["check", "site.toml", "/tmp"], "unexpected argument '/tmp'"),
                    (
                        vec!["check", "--reference", "/nonexistent/site.toml", "/tmp"],
                        "/nonexistent/site.toml",
                    ),
                    (vec!["summary", "/proc/self/fdinfo"], "no result files of paw"),
                ] {
                    let out = Launch::direct(binaries::bin(&name)).args(args).run_shared();
                    out.failure(needle);
                    assert_eq!(out.code, Some(2), "{}", out.report());
                }
                eprintln!("{name}: 10 bad inputs refused");
            }
        }
    }
    assert!(missing.is_empty(), "suites of the Makefile without SUITE_ARGS here: {missing:?}");
    run_all(&jobs);
    let total: usize = jobs.iter().map(|j| j.cases.len()).sum::<usize>() + 10;
    for j in &jobs {
        eprintln!("{}: {} bad inputs refused", j.name, j.cases.len());
    }
    eprintln!(
        "bad-input sweep: {total} cases over {} binaries, every one refused with one line",
        jobs.len() + 1
    );
}

#[test]
#[ignore = "long: make test-long"]
fn a_missing_output_directory_gives_status_2_every_time() {
    for name in ["p2p_send", "latency"] {
        let codes: Vec<Option<i32>> = (0..20)
            .map(|_| {
                let out = Launch::mpi(binaries::bin(name), 2)
                    .env("PAW_OUTPUT_DIR", "/nonexistent/paw")
                    .env("OMPI_MCA_odls_base_sigkill_timeout", 0)
                    .timeout(Duration::from_secs(20))
                    .run_shared();
                out.failure("does not exist");
                out.code
            })
            .collect();
        assert!(codes.iter().all(|&c| c == Some(2)), "{name}: exit statuses {codes:?}");
    }
}
