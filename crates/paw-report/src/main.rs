//! paw-report -- what a results directory says: a summary, a comparison of two runs that
//! exits non-zero on a real slowdown (a CI regression gate), and gnuplot figures.

use paw_report::{compare, plot_files, plot_runs, short, summary, Flag};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: paw-report summary DIR
       paw-report compare BASE NEW [--threshold PERCENT]
       paw-report plot FILE.dat...           one PNG beside each file
       paw-report plot [-o OUT] DIR DIR...   the same files of several runs overlaid, in OUT (default .)

summary   the headline figures of every .dat file of DIR: the median at the first and last
          size and the best one, and how many rows are NOISY.
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
        return Err(format!("no command\n{USAGE}"));
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        "summary" => {
            let [dir] = rest else { return Err(format!("summary takes one directory\n{USAGE}")) };
            print!("{}", summary(&PathBuf::from(dir))?);
            Ok(ExitCode::SUCCESS)
        }
        "compare" => compare_cmd(rest),
        "plot" => plot_cmd(rest),
        other => {
            Err(format!("unknown command {other:?}; accepted: summary, compare, plot, -h\n{USAGE}"))
        }
    }
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
        return Err(format!("compare takes two directories\n{USAGE}"));
    };
    let report = compare(base, new, threshold / 100.0)?;
    if !report.differences.is_empty() {
        println!("settings that differ between the runs (base -> new):");
        let width = report.differences.iter().map(|(d, _)| d.what.len()).max().unwrap_or(0);
        for (d, n) in &report.differences {
            let files = if *n == report.files {
                "all files".to_string()
            } else {
                format!("{n} of {} files", report.files)
            };
            println!("  {:<width$}  {} -> {}  ({files})", d.what, d.base, d.new);
        }
        println!();
    }
    println!(
        "{:>12}  {:>11} {:<25} {:>11} {:<25} {:>9}",
        "size", "base median", "[95% interval]", "new median", "[95% interval]", "change"
    );
    let mut files: Vec<&str> = report.rows.iter().map(|r| r.file.as_str()).collect();
    files.dedup();
    for file in files {
        let rows: Vec<_> = report.rows_of(file).collect();
        println!("{file} [{}]", rows[0].unit);
        for r in &rows {
            let word = match r.flag {
                Flag::Same => "same",
                Flag::Slower => "slower",
                Flag::Faster => "faster",
            };
            let interval = |(lo, hi): (f64, f64)| format!("[{}, {}]", short(lo), short(hi));
            println!(
                "{:>12}  {:>11} {:<25} {:>11} {:<25} {:>+8.1}%  {word}",
                r.size,
                short(r.base),
                interval(r.base_interval),
                short(r.new),
                interval(r.new_interval),
                r.change
            );
        }
        let count = |f: Flag| rows.iter().filter(|r| r.flag == f).count();
        let (slower, faster) = (count(Flag::Slower), count(Flag::Faster));
        let verdict = if slower > 0 {
            "SLOWER"
        } else if faster > 0 {
            "faster"
        } else {
            "same"
        };
        let worst = rows.iter().max_by(|a, b| a.change.total_cmp(&b.change)).expect("a row");
        println!(
            "{file}: {verdict} ({slower} of {} rows slower, {faster} faster; largest change {:+.1}% at {})",
            rows.len(),
            worst.change,
            worst.size
        );
    }
    for f in &report.only_base {
        println!("only in {}: {f}", base.display());
    }
    for f in &report.only_new {
        println!("only in {}: {f}", new.display());
    }
    let faster = report.rows.iter().filter(|r| r.flag == Flag::Faster).count();
    println!(
        "{} rows compared: {} slower, {faster} faster beyond {threshold}% and both runs' spread",
        report.rows.len(),
        report.slower()
    );
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
        return Err(format!("plot needs .dat files or directories\n{USAGE}"));
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
