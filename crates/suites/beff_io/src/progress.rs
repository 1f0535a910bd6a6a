//! Where a long run is, on rank 0's standard error: a progress bar on a terminal
//! (indicatif), else a plain line at each new step and at least every 30 seconds.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Instant;

/// Seconds between plain lines within one step.
const EVERY: f64 = 30.0;

/// Progress of the run against its scheduled time.
#[derive(Debug)]
pub struct Progress {
    on: bool,
    bar: Option<ProgressBar>,
    start: Instant,
    last: Instant,
    label: String,
    scheduled: f64,
}

impl Progress {
    /// Progress shown on rank 0 (`root`) for a run scheduled to last `scheduled` seconds.
    pub fn new(root: bool, scheduled: f64) -> Progress {
        let bar = (root && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(scheduled.ceil() as u64);
            let style = ProgressStyle::with_template(
                "b_eff_io [{elapsed_precise}] {bar:30} {pos}/{len} s scheduled  {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            // No steady tick: a drawing thread would run during the timed spans.
            bar.set_style(style);
            bar
        });
        let now = Instant::now();
        Progress { on: root, bar, start: now, last: now, label: String::new(), scheduled }
    }

    /// A new step (partition, access, type).
    pub fn show(&mut self, label: &str) {
        self.label = label.to_string();
        self.print();
    }

    /// Progress within a step: a plain line if the last one is 30 s old.
    pub fn tick(&mut self) {
        if let Some(bar) = &self.bar {
            bar.set_position(self.start.elapsed().as_secs());
        } else if self.on && self.last.elapsed().as_secs_f64() >= EVERY {
            self.print();
        }
    }

    fn print(&mut self) {
        let elapsed = self.start.elapsed().as_secs_f64();
        if let Some(bar) = &self.bar {
            bar.set_position(elapsed as u64);
            bar.set_message(self.label.clone());
        } else if self.on {
            eprintln!(
                "b_eff_io: [{elapsed:.0} s of {:.0} s scheduled] {}",
                self.scheduled, self.label
            );
        }
        self.last = Instant::now();
    }

    /// Removes the bar at the end of the run.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
