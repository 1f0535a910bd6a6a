//! paw-report -- what a results directory says: its headline figures (text or one HTML
//! page), a reference of one or more runs and the check of a run against it, a comparison
//! of two runs that exits non-zero on a real slowdown (a CI regression gate), and gnuplot
//! figures. The commands and options are in `paw_report::cli`.

use clap::Parser;
use paw_report::cli::{run, Cli};
use std::process::ExitCode;

fn main() -> ExitCode {
    // Piped into `head`, end quietly as other Unix tools do rather than panic on the closed
    // pipe (Rust ignores SIGPIPE by default).
    // SAFETY: restoring the default action of a signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line: clap's message before the usage, without its "error: ".
            let text = e.to_string();
            let message = text.split("\n\n").next().unwrap_or("bad usage");
            let words: Vec<&str> = message.lines().map(str::trim).collect();
            let line = words.join(" ");
            let line = line.trim_start_matches("error: ");
            eprintln!("paw-report: {line} (paw-report -h: usage)");
            return ExitCode::from(2);
        }
    };
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("paw-report: {e}");
            ExitCode::from(2)
        }
    }
}
