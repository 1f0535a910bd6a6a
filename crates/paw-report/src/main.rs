//! paw-report -- what a results directory says: its headline figures (text or one HTML
//! page), a reference of them and the check of a run against one, a comparison of two runs
//! that exits non-zero on a real slowdown (a CI regression gate), and gnuplot figures.

use paw_report::{check, check_lines, compare, html, plot_files, plot_runs, reference, report};
use paw_report::{render_comparison, summary, Report};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
usage: paw-report summary [--low PERCENT] DIR
       paw-report html [--low PERCENT] [-o FILE] DIR   (default FILE: DIR/report.html)
       paw-report reference DIR > site.toml
       paw-report check --reference site.toml DIR
       paw-report compare BASE NEW [--threshold PERCENT]
       paw-report plot FILE.dat...           one PNG beside each file
       paw-report plot [-o OUT] DIR DIR...   the same files of several runs overlaid, in OUT (default .)

summary   the headline figures of a run, a section per step directory (qualify.sbatch's
          layout) or of one directory of results, each with the file it came from; a
          fabric map's slow links and nodes; for a directory of host directories (node
          tests on every host) each host's figures against their median, and the hosts
          below PERCENT of it (default 80) named as slow nodes.
html      the same as one self-contained HTML page, the run's plots embedded (gnuplot).
reference the run's figures as a reference file (TOML; per figure value, lower, upper,
          unit as ReFrame keeps them, with a default tolerance on the worse side).
check     PASS or FAIL per figure of the reference, with the margin; exit status 1 when
          any figure is outside its range, missing or in another unit.
compare   matches files and sizes between two result directories: first the settings and
          environment variables whose values differ between the runs' headers, then per
          size both medians with their 95% intervals and the change in percent of the cost
          (the time, or the inverse of a rate: +100% is twice the time or half the
          bandwidth, for every unit), a word (slower, faster, same) and per file a verdict.
          A change counts when it exceeds the threshold (default 10%) and the two runs'
          MIN..MAX ranges do not overlap. Exit status 1 when a counted change is a
          slowdown, 0 otherwise, 2 on bad usage.
plot      draws with gnuplot; overlays label each run by its directory's name and date.";

fn main() -> ExitCode {
    // Piped into `head`, end quietly as other Unix tools do rather than panic on the closed
    // pipe (Rust ignores SIGPIPE by default).
    // SAFETY: restoring the default action of a signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("paw-report: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let Some(cmd) = args.first() else {
        return Err("no command (paw-report -h: usage)".to_string());
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        "summary" => {
            print!("{}", summary(&run_of(cmd, rest, &mut None)?));
            Ok(ExitCode::SUCCESS)
        }
        "html" => {
            let mut out = Some(PathBuf::new());
            let run = run_of(cmd, rest, &mut out)?;
            let file = out.filter(|o| !o.as_os_str().is_empty()).unwrap_or(run.dir.join("report.html"));
            let scratch = tempfile::tempdir().map_err(|e| format!("a scratch directory: {e}"))?;
            let page = html(&run, scratch.path())?;
            std::fs::write(&file, page).map_err(|e| format!("{}: {e}", file.display()))?;
            println!("paw-report: {}", file.display());
            Ok(ExitCode::SUCCESS)
        }
        "reference" => {
            print!("{}", reference(&run_of(cmd, rest, &mut None)?));
            Ok(ExitCode::SUCCESS)
        }
        "check" => {
            let (Some(flag), Some(file)) = (rest.first(), rest.get(1)) else {
                return Err("check needs --reference FILE and a directory (paw-report -h: usage)".to_string());
            };
            if flag != "--reference" {
                return Err(format!("check: {flag:?}; accepted: --reference FILE DIR (paw-report -h: usage)"));
            }
            let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            let run = run_of(cmd, &rest[2..], &mut None)?;
            let checked = check(&run, &text).map_err(|e| format!("{file}: {e}"))?;
            for line in check_lines(&checked) {
                println!("{line}");
            }
            let failed = checked.iter().filter(|c| !c.pass).count();
            println!("{} figures checked against {file}: {failed} failed", checked.len());
            Ok(if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
        }
        "compare" => compare_cmd(rest),
        "plot" => plot_cmd(rest),
        other => {
            Err(format!("unknown command {other:?}; accepted: summary, html, reference, check, compare, plot, -h (paw-report -h: usage)"))
        }
    }
}

/// The report of the one directory in `rest`, with `--low PERCENT` and (where `out` is
/// given) `-o FILE` read from it.
fn run_of(cmd: &str, rest: &[String], out: &mut Option<PathBuf>) -> Result<Report, String> {
    let mut low = 0.8;
    let mut dirs = Vec::new();
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--low" => {
                let v = it.next().ok_or("--low needs a percentage")?;
                low = v
                    .trim_end_matches('%')
                    .parse::<f64>()
                    .ok()
                    .filter(|p| *p > 0.0 && *p < 100.0)
                    .ok_or_else(|| {
                        format!(
                            "--low {v:?}; accepted: a percentage above 0 and below 100, e.g. 80"
                        )
                    })?
                    / 100.0;
            }
            "-o" if out.is_some() => {
                *out = Some(PathBuf::from(it.next().ok_or("-o needs a file")?))
            }
            _ => dirs.push(a),
        }
    }
    let [dir] = &dirs[..] else {
        return Err(format!("{cmd} takes one directory (paw-report -h: usage)"));
    };
    report(Path::new(dir), low)
}

fn compare_cmd(rest: &[String]) -> Result<ExitCode, String> {
    let mut dirs = Vec::new();
    let mut threshold = 10.0;
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        if a == "--threshold" {
            let v = it.next().ok_or("--threshold needs a percentage")?;
            threshold = v
                .trim_end_matches('%')
                .parse::<f64>()
                .ok()
                .filter(|t| t.is_finite() && *t >= 0.0)
                .ok_or_else(|| {
                    format!("--threshold {v:?}; accepted: a percentage >= 0, e.g. 10")
                })?;
        } else {
            dirs.push(PathBuf::from(a));
        }
    }
    let [base, new] = &dirs[..] else {
        return Err("compare takes two directories (paw-report -h: usage)".to_string());
    };
    let report = compare(base, new, threshold / 100.0)?;
    print!("{}", render_comparison(&report, base, new, threshold));
    Ok(if report.slower() > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn plot_cmd(rest: &[String]) -> Result<ExitCode, String> {
    let mut out = PathBuf::from(".");
    let mut paths = Vec::new();
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        if a == "-o" {
            out = PathBuf::from(it.next().ok_or("-o needs a directory")?);
        } else {
            paths.push(PathBuf::from(a));
        }
    }
    if paths.is_empty() {
        return Err("plot needs .dat files or directories (paw-report -h: usage)".to_string());
    }
    let pngs = if paths.iter().all(|p| p.is_dir()) {
        if paths.len() < 2 {
            return Err("plot of directories overlays runs: give two or more".to_string());
        }
        plot_runs(&paths, &out)?
    } else if let Some(bad) = paths.iter().find(|p| !p.is_file()) {
        return Err(format!("cannot read {}", bad.display()));
    } else {
        plot_files(&paths)?
    };
    for p in pngs {
        println!("paw-report: {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}
