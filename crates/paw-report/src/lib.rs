//! paw-report: reading paw result files, and what the `paw-report` binary does with them —
//! the headline figures of a run (text, or one self-contained HTML page), references with
//! tolerances and the check of a run against them, the comparison of two runs (a
//! regression gate), gnuplot figures of one run or several overlaid, and the plan of a
//! qualification: its settings and cost on N nodes x T tasks.
#![warn(missing_docs)]

pub mod cli;
mod compare;
mod dat;
mod figures;
mod html;
pub mod imb_output;
pub mod launches;
mod nodes;
pub mod plan;
mod plot;
mod reference;
mod results;
pub mod side_by_side;
mod summary;

pub use compare::{
    compare, judge, render as render_comparison, Comparison, Flag, Intervals, HEADLINES,
};
pub use dat::Dat;
pub use figures::{report, Report, Section};
pub use html::html;
pub use nodes::{Row, Table};
pub use plot::{gnuplot_script, imb_tables, plot_files, plot_runs, Series};
pub use reference::{
    check, check_lines, parse as parse_reference, reference, reframe_reference, reframe_unit,
    reframe_variable, Checked, Outcome, Reference, FLOOR,
};
pub use results::{file_facts, read_dir, Direction, Figure, Measured, Quantity, ResultFile};
pub use summary::{short, summary, summary_csv};

use std::path::{Path, PathBuf};

/// The `.dat` files of a results directory (not those of earlier runs kept under a dated
/// name), sorted by name.
pub fn dat_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dat") && !is_kept(p))
        .collect();
    files.sort();
    Ok(files)
}

/// Whether `path` is an earlier run's file kept under a dated name (`x.2026-11-23T101500Z.dat`).
pub(crate) fn is_kept(path: &Path) -> bool {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    stem.rsplit_once('.').is_some_and(|(_, date)| {
        date.len() >= 17 && date.as_bytes()[4] == b'-' && date.contains('T')
    })
}
