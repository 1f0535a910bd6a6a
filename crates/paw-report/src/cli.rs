//! paw-report's command line: its commands and options (clap), and what each does.

use crate::{
    check, check_lines, compare, html, plan, plot_files, plot_runs, reference, report, side_by_side,
};
use crate::{reframe_reference, render_comparison, summary, summary_csv, FLOOR};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What a paw results directory says: headline figures, references and checks, the
/// comparison of two runs, plots. Exit status 2 on bad usage or unreadable input.
#[derive(Debug, Parser)]
#[command(name = "paw-report", disable_version_flag = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// paw-report's commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The headline figures of a run.
    ///
    /// A section per step directory (qualify.sbatch's layout) or of one directory of
    /// results, each figure with the file it came from; a fabric map's slow links and
    /// nodes; for a directory of host directories (node tests on every host) each host's
    /// figures against their median and the hosts below --low of it.
    Summary {
        /// A host below this percentage of the median (in its good direction) is slow.
        #[arg(long, value_name = "PERCENT", default_value = "80", value_parser = percent)]
        low: f64,
        /// The figures as CSV (section, figure, value, unit, ci_lo, ci_hi, file).
        #[arg(long)]
        csv: bool,
        /// With --csv: figures and units as paw's ReFrame tests name them
        /// (`p2p_send_bandwidth_at_4194304_B`, `MiB/s`).
        #[arg(long, requires = "csv")]
        reframe: bool,
        /// The results directory.
        dir: PathBuf,
    },
    /// The summary as one self-contained HTML page with a plot of every table (gnuplot).
    Html {
        /// A host below this percentage of the median is slow.
        #[arg(long, value_name = "PERCENT", default_value = "80", value_parser = percent)]
        low: f64,
        /// The page (default DIR/report.html); its links to the files are relative to it.
        #[arg(short, value_name = "FILE")]
        o: Option<PathBuf>,
        /// The results directory.
        dir: PathBuf,
    },
    /// A reference made from one or more runs of the same command (TOML, or ReFrame's YAML).
    ///
    /// Every row of every result file, and the headline figures of files without rows: per
    /// figure the median over the runs and an accepted range on its worse side, from how
    /// much the row varies between launches (launches results) or between the runs, such
    /// that a result of the same setup fails some row in at most 5% of checks; each says
    /// the smallest change it detects. A reference of one launch gets --floor.
    Reference {
        /// The range of a reference made of one launch (nothing to measure a spread by),
        /// percent of the value.
        #[arg(long, value_name = "PERCENT", default_value_t = FLOOR * 100.0, value_parser = percent_of)]
        floor: f64,
        /// Write ReFrame's reference form for this `system:partition` (YAML; repeatable).
        #[arg(long, value_name = "SYSTEM:PARTITION", value_parser = system_partition)]
        reframe: Vec<String>,
        /// The runs' results directories.
        #[arg(required = true)]
        runs: Vec<PathBuf>,
    },
    /// PASS or FAIL per figure of a reference, with the margin.
    ///
    /// Exit status 1 when any figure is outside its range (its 95% interval too), missing
    /// (the line names the settings its run changed) or in another unit.
    Check {
        /// The reference file (paw-report reference).
        #[arg(long, value_name = "FILE")]
        reference: PathBuf,
        /// The run's results directory.
        dir: PathBuf,
    },
    /// The rows of the files two runs share, and which changed: a CI regression gate.
    ///
    /// Per row both figures with their 95% intervals, the change in percent of the cost
    /// (+100% is twice the time or half the bandwidth), what decided it and a word. Rows of
    /// two launches results (paw-report launches) are judged by their launches: a t-test of
    /// the launches' log figures per row (its variance leaning on the file's rows), Benjamini and Hochberg's rule over all rows (5% false discoveries), then
    /// --threshold; the launches of one machine state are compared where both have them.
    /// Rows of single launches: a change counts beyond --threshold with the intervals apart
    /// (files without intervals: the threshold alone). Exit status 1 when a counted change
    /// is a slowdown, 2 when nothing could be compared.
    Compare {
        /// The change a row must exceed to count, percent [default: 5 between launches
        /// results, 10 between single launches].
        #[arg(long, value_name = "PERCENT", value_parser = threshold)]
        threshold: Option<f64>,
        /// The base run's directory.
        base: PathBuf,
        /// The new run's directory.
        new: PathBuf,
    },
    /// One command run K times as one result: intervals over launches, not over samples.
    ///
    /// Each launch runs COMMAND with PAW_OUTPUT_DIR set to its own folder under DIR
    /// (launch-01 ...), its standard output and error kept there. The machine's state is
    /// probed before the first launch and after each (a cache-line round trip between two
    /// CPUs, no MPI); a launch between probes of different states is set aside, and more
    /// are run until K ran in one state (at most 2 K in all). DIR then
    /// holds the files of the launches of the commonest state, as a paw binary writes them:
    /// per row MEDIAN the median of the launches' medians and CI_LO..CI_HI its 95% interval
    /// over launches (a table's numbers: their median); other states' results go to
    /// DIR/state-N; launches.json records it all. compare, reference and check judge such a
    /// result by its launches. A failing launch stops the rest, with its exit status.
    Launches {
        /// Launches.
        #[arg(short, value_name = "K", default_value_t = crate::launches::DEFAULT_COUNT, value_parser = clap::value_parser!(u16).range(1..=1000))]
        k: u16,
        /// The result's folder: new, or empty.
        #[arg(short, value_name = "DIR", required = true)]
        o: PathBuf,
        /// Seconds a launch may take before it is stopped (0: no limit).
        #[arg(long, value_name = "SECONDS", default_value_t = 0)]
        timeout: u64,
        /// The command, after `--`: the launcher, its options, the binary and its options.
        #[arg(last = true, required = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// paw's programs beside their originals: per row the ratio of medians, 95% interval.
    ///
    /// Per suite paw's program and the original run alternately on the same command line,
    /// -k pairs (paw first in odd pairs, the original in even ones); paw's `latency` probes
    /// the one-way latency before and after each pair, and a pair between probes more than
    /// 2x apart (the machine changed level) is set aside and counted. Per row both medians
    /// over the kept pairs, paw / original and a 95% bootstrap interval over the pairs; per
    /// suite the geometric mean of its rows. Suites: all, or any of IMB-MPI1 IMB-EXT IMB-IO
    /// IMB-NBC IMB-RMA IMB-P2P b_eff b_eff_io com laten rma allred osu_latency osu_bw
    /// osu_allreduce osu_iallreduce, and stream and dgemm against plain C
    /// (scripts/build-c-refs puts c/stream and c/dgemm into the originals' folder; these run
    /// without the launcher, on every core).
    SideBySide {
        /// The originals' folder, as scripts/build-originals makes it (imb/, beff/,
        /// beffio/, presta/, osu/; c/ from scripts/build-c-refs).
        #[arg(long, value_name = "DIR")]
        originals: Option<PathBuf>,
        /// Pairs of runs per suite.
        #[arg(short, value_name = "PAIRS", default_value_t = 5, value_parser = clap::value_parser!(u16).range(1..=1000))]
        k: u16,
        /// paw's binaries.
        #[arg(long, value_name = "DIR", default_value = "target/release")]
        bindir: PathBuf,
        /// The launcher with its options, split at spaces.
        #[arg(long, value_name = "COMMAND", default_value = "mpirun")]
        mpirun: String,
        /// Processes.
        #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u16).range(2..))]
        np: u16,
        /// Seconds a run may take before it is stopped.
        #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
        timeout: u64,
        /// Both programs' command line in place of the suite's own, split at spaces (paw's
        /// own options of a suite, such as IMB-MPI1's `-estimate on`, still come first).
        #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
        args: Option<String>,
        /// Write the table of headlines into FILE, between its side-by-side markers.
        #[arg(long, value_name = "FILE")]
        truth: Option<PathBuf>,
        /// The suites.
        #[arg(required = true, value_parser = suite_name)]
        suites: Vec<String>,
    },
    /// What a qualification (scripts/qualify.sbatch) takes and costs on N nodes x T tasks.
    ///
    /// Per step the settings qualify.sbatch passes, the predicted wall time (s) and the
    /// peak message buffers per task and on node 0 (MB = 2^20 B), from doc/scale.md's
    /// forms, and the total. No task's buffers may pass 1/4 of its node's memory divided by
    /// T: the col step's all-to-all family gets a smaller MAX_COL_SIZE, IMB-MPI1 a -msglog
    /// (and -mem, that share in GB); above 1024 tasks IMB runs at P only (-npmin P), with
    /// -time where it would pass 30 min; above 64 nodes the fabric map is the quick one
    /// (MATRIX_SHIFTS=32). doc/scale.md ("The plan") has the forms.
    Plan {
        /// Nodes.
        #[arg(long, value_name = "N", value_parser = whole, allow_hyphen_values = true)]
        nodes: u64,
        /// Tasks per node.
        #[arg(long, value_name = "T", value_parser = whole, allow_hyphen_values = true)]
        tasks_per_node: u64,
        /// Memory of a node, GB (2^30 B).
        #[arg(long, value_name = "GB", default_value_t = plan::DEFAULT_MEMORY_GB, value_parser = positive, allow_hyphen_values = true)]
        memory: f64,
        /// Goodput of a node's link, GB/s (2^30 B/s).
        #[arg(long, value_name = "GB/s", default_value_t = plan::DEFAULT_LINK_GB_S, value_parser = positive, allow_hyphen_values = true)]
        link: f64,
        /// Latency between nodes, microseconds.
        #[arg(long, value_name = "us", default_value_t = plan::DEFAULT_LATENCY_US, value_parser = positive, allow_hyphen_values = true)]
        latency: f64,
        /// A launch and MPI start-up on N nodes, A + B N seconds [default: 0.34,0.053].
        #[arg(long, value_name = "A,B", value_parser = launch_form, allow_hyphen_values = true)]
        launch: Option<(f64, f64)>,
        /// text: the table; env: only the settings, as shell assignments for eval.
        #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "env"])]
        format: String,
    },
    /// Plots: a PNG beside each file, or several runs overlaid.
    ///
    /// A PNG beside each .dat file or IMB table given; given two or more directories, the
    /// same files of those runs overlaid in OUT, each run labelled by its directory's name
    /// and date.
    Plot {
        /// Where the overlays go.
        #[arg(short, value_name = "OUT", default_value = ".")]
        o: PathBuf,
        /// .dat files, or result directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
}

/// A percentage above 0 and below 100, as a fraction.
fn percent(v: &str) -> Result<f64, String> {
    v.trim_end_matches('%')
        .parse::<f64>()
        .ok()
        .filter(|p| *p > 0.0 && *p < 100.0)
        .map(|p| p / 100.0)
        .ok_or_else(|| "accepted: a percentage above 0 and below 100, e.g. 80".to_string())
}

/// A percentage above 0 and below 100, as a percentage.
fn percent_of(v: &str) -> Result<f64, String> {
    percent(v).map(|p| p * 100.0)
}

/// A suite of `side-by-side`, or `all`.
fn suite_name(v: &str) -> Result<String, String> {
    if v == "all" || side_by_side::named(v).is_some() {
        return Ok(v.to_string());
    }
    let names: Vec<&str> = side_by_side::SUITES.iter().map(|s| s.name).collect();
    Err(format!("accepted: all, {}", names.join(", ")))
}

/// A ReFrame `system:partition`.
fn system_partition(v: &str) -> Result<String, String> {
    match v.split_once(':') {
        Some((s, p)) if !s.is_empty() && !p.is_empty() && !p.contains(':') && !v.contains(' ') => {
            Ok(v.to_string())
        }
        _ => Err("accepted: SYSTEM:PARTITION, e.g. cluster:compute".to_string()),
    }
}

/// A whole number from 1 to 10^7.
fn whole(v: &str) -> Result<u64, String> {
    v.parse::<u64>()
        .ok()
        .filter(|n| (1..=10_000_000).contains(n))
        .ok_or_else(|| "accepted: a whole number from 1 to 10000000".to_string())
}

/// The fabric map's settings for `plan`: p2p_matrix's defaults, or the MATRIX_SIZE,
/// MATRIX_WINDOW, MATRIX_SAMPLES and MATRIX_LAT_ITERS the user set (they win in
/// qualify.sbatch too).
fn map_settings() -> Result<plan::Matrix, String> {
    let mut map = plan::MATRIX;
    let fields = [&mut map.size, &mut map.window, &mut map.samples, &mut map.lat_iters];
    for ((name, _), field) in plan::MATRIX.vars().into_iter().zip(fields) {
        let Ok(text) = std::env::var(name) else { continue };
        let value = paw_base::config::bytes(text.trim()).filter(|&v| v >= 1);
        *field = value.ok_or_else(|| {
            format!("{name}={text}: accepted: a whole number from 1 (K, M, G suffixes)")
        })?;
    }
    Ok(map)
}

/// Two numbers `A,B`, each finite and 0 or more.
fn launch_form(v: &str) -> Result<(f64, f64), String> {
    let number = |t: &str| t.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
    v.split_once(',')
        .and_then(|(a, b)| Some((number(a)?, number(b)?)))
        .ok_or_else(|| "accepted: A,B, two numbers of 0 or more (seconds, seconds a node)".into())
}

/// A finite number above 0.
fn positive(v: &str) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x > 0.0)
        .ok_or_else(|| "accepted: a number above 0".to_string())
}

/// A percentage >= 0.
fn threshold(v: &str) -> Result<f64, String> {
    v.trim_end_matches('%')
        .parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t >= 0.0)
        .ok_or_else(|| "accepted: a percentage >= 0, e.g. 10".to_string())
}

/// Does what `command` says; Err is the one line to print (exit status 2).
pub fn run(command: Command) -> Result<ExitCode, String> {
    match command {
        Command::Summary { low, csv: false, dir, .. } => print!("{}", summary(&report(&dir, low)?)),
        Command::Summary { low, csv: true, reframe, dir } => {
            print!("{}", summary_csv(&report(&dir, low)?, reframe))
        }
        Command::Html { low, o, dir } => {
            let run = report(&dir, low)?;
            let file = o.unwrap_or(run.dir.join("report.html"));
            let scratch = tempfile::tempdir().map_err(|e| format!("a scratch directory: {e}"))?;
            let page = html(&run, &file, scratch.path())?;
            std::fs::write(&file, page).map_err(|e| format!("{}: {e}", file.display()))?;
            println!("paw-report: {}", file.display());
        }
        Command::Reference { floor, reframe, runs } => {
            let text = if reframe.is_empty() {
                reference(&runs, floor / 100.0)?
            } else {
                reframe_reference(&runs, &reframe, floor / 100.0)?
            };
            for line in text.lines().filter(|l| l.contains(": the runs differ in ")) {
                eprintln!("paw-report: warning: {}", line.trim_start_matches("# "));
            }
            print!("{text}");
        }
        Command::Check { reference, dir } => {
            let file = reference.display();
            let text = std::fs::read_to_string(&reference).map_err(|e| format!("{file}: {e}"))?;
            let (checked, notes) = check(&dir, &text).map_err(|e| format!("{file}: {e}"))?;
            for line in check_lines(&checked) {
                println!("{line}");
            }
            for n in notes {
                println!("note: {n}");
            }
            let failed = checked.iter().filter(|c| !c.pass).count();
            println!("{} figures checked against {file}: {failed} failed", checked.len());
            if failed > 0 {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Compare { threshold, base, new } => {
            let report = compare(&base, &new, threshold.map(|t| t / 100.0))?;
            print!("{}", render_comparison(&report, &base, &new));
            if report.slower() > 0 {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Launches { k, o, timeout, command } => {
            let setup = crate::launches::Setup { count: k.into(), out: o, timeout, command };
            let progress = &mut |line: &str| eprintln!("paw-report: {line}");
            match crate::launches::run(&setup, progress) {
                Ok(record) => {
                    print!("{}", crate::launches::describe(&record, &setup.out, setup.count))
                }
                Err((code, line)) => {
                    eprintln!("paw-report: {line}");
                    return Ok(ExitCode::from(code));
                }
            }
        }
        Command::SideBySide { originals, k, bindir, mpirun, np, timeout, args, truth, suites } => {
            // The runs start in scratch folders: the folders as absolute paths.
            let absolute = |p: PathBuf| std::path::absolute(&p).unwrap_or(p);
            if !bindir.join("latency").is_file() {
                return Err(format!(
                    "--bindir {}: paw's binaries are not there (no latency); the default, \
                     target/release, is relative to the current folder: run from the checkout, \
                     or give --bindir",
                    bindir.display()
                ));
            }
            let setup = side_by_side::Setup {
                originals: absolute(originals.unwrap_or_else(|| std::env::temp_dir().join("refs"))),
                bindir: absolute(bindir),
                mpirun: mpirun.split_whitespace().map(String::from).collect(),
                np: np.into(),
                pairs: k.into(),
                timeout,
                args: args.map(|a| a.split_whitespace().map(String::from).collect()),
            };
            side_by_side_run(&setup, &suites, truth.as_deref())?;
        }
        Command::Plan { nodes, tasks_per_node, memory, link, latency, launch, format } => {
            let machine = plan::Machine {
                nodes,
                tasks_per_node,
                memory_gb: memory,
                link_gb_s: link,
                latency_us: latency,
                map: map_settings()?,
                launch: launch.unwrap_or(plan::LAUNCH),
            };
            let plan = plan::plan(&machine);
            if format == "env" {
                print!("{}", plan::render_env(&plan));
            } else {
                print!("{}", plan::render(&plan));
            }
        }
        Command::Plot { o, paths } => {
            for p in plot(&o, &paths)? {
                println!("paw-report: {}", p.display());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `paw-report side-by-side`: each suite run and printed, the table written to `truth`.
fn side_by_side_run(
    setup: &side_by_side::Setup,
    names: &[String],
    truth: Option<&Path>,
) -> Result<(), String> {
    let chosen: Vec<&'static side_by_side::Suite> = if names.iter().any(|n| n == "all") {
        side_by_side::SUITES.iter().collect()
    } else {
        names.iter().filter_map(|n| side_by_side::named(n)).collect()
    };
    let mut outcomes = Vec::new();
    for suite in chosen {
        let o = side_by_side::run(suite, setup, &mut |line| eprintln!("paw-report: {line}"))?;
        println!("{}", side_by_side::render(&o));
        outcomes.push(o);
    }
    if let Some(file) = truth {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let library = outcomes.first().map_or("", |o| o.library.as_str());
        let machine = machine();
        let table =
            side_by_side::truth_table(&outcomes, &machine, library, &paw_base::meta::utc_now());
        std::fs::write(file, side_by_side::replace_table(&text, &table))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        eprintln!("paw-report: the table is in {}", file.display());
    }
    Ok(())
}

/// This machine in a few words: its CPU model and cores, and its kernel.
fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo.lines().find_map(|l| {
        l.strip_prefix("model name")?.split_once(':').map(|(_, m)| m.trim().to_string())
    });
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "{}, {cores} cores, {}",
        model.unwrap_or_else(|| "unknown CPU".into()),
        paw_base::meta::uname()
    )
}

/// `paw-report plot`: files drawn beside themselves, or directories overlaid in `out`.
fn plot(out: &Path, paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    if paths.iter().all(|p| p.is_dir()) {
        if paths.len() < 2 {
            return Err("plot of directories overlays runs: give two or more".to_string());
        }
        return plot_runs(paths, out);
    }
    if let Some(bad) = paths.iter().find(|p| !p.is_file()) {
        return Err(format!("cannot read {}", bad.display()));
    }
    plot_files(paths)
}
