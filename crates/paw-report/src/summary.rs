//! `paw-report summary DIR`: the headline figures of every `.dat` file of a results
//! directory, one line each.

use crate::compare::Direction;
use crate::{dat_files, Dat};
use std::path::Path;

/// The summary table of `dir` as text.
pub fn summary(dir: &Path) -> Result<String, String> {
    let files = dat_files(dir)?;
    if files.is_empty() {
        return Err(format!(
            "{}: no .dat files (run a benchmark with PAW_OUTPUT_DIR there)",
            dir.display()
        ));
    }
    let mut out = format!(
        "{:<34} {:>5} {:>20} {:>20} {:>20} {:>6}  {}\n",
        "file", "rows", "first", "last", "best", "noisy", "unit (median at SIZE)"
    );
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let dat = Dat::read(&path)?;
        let (Some(size), Some(median)) = (dat.find("SIZE"), dat.find("MEDIAN")) else {
            out += &format!("{name:<34} {:>5}  (a table without MEDIAN)\n", dat.rows.len());
            continue;
        };
        if dat.rows.is_empty() {
            out += &format!("{name:<34} {:>5}\n", 0);
            continue;
        }
        let unit = dat.y_unit().unwrap_or("").to_string();
        let value = |r: &[String]| r[median].parse::<f64>().unwrap_or(f64::NAN);
        let at = |r: &[String]| format!("{}@{}", short(value(r)), r[size]);
        let better = |a: f64, b: f64| match Direction::of(&unit) {
            Direction::LowerIsBetter => a < b,
            Direction::HigherIsBetter => a > b,
        };
        let best =
            dat.rows
                .iter()
                .fold(&dat.rows[0], |b, r| if better(value(r), value(b)) { r } else { b });
        let noisy =
            dat.find("NOISY").map_or(0, |c| dat.rows.iter().filter(|r| r[c] == "1").count());
        out += &format!(
            "{name:<34} {:>5} {:>20} {:>20} {:>20} {noisy:>6}  {unit}\n",
            dat.rows.len(),
            at(&dat.rows[0]),
            at(dat.rows.last().unwrap()),
            at(best)
        );
    }
    Ok(out)
}

/// A value in at most 6 significant digits, as paw writes them.
pub fn short(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let digits = (5 - x.abs().log10().floor() as i32).clamp(0, 6) as usize;
    format!("{x:.digits$}")
}
