//! Figures with gnuplot: one `.dat` file as a PNG beside it, or the same file of several
//! runs overlaid in one PNG, each run labelled. The size axis reads in binary prefixes
//! (1K, 1M), time files use a logarithmic y axis, every point stays inside the frame and
//! the legend sits below the plot; the title names the benchmark, hosts and date.

use crate::{dat_files, Dat};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One run's version of a file, as a line in a figure.
#[derive(Debug, Clone)]
pub struct Series {
    /// How the legend names the run.
    pub label: String,
    /// The `.dat` file.
    pub file: PathBuf,
    /// Its content.
    pub dat: Dat,
}

/// `1`, `512`, `1K`, `4M`, `2G`: a power-of-two size with a binary prefix.
fn binary(x: f64) -> String {
    for (div, p) in [(1u64 << 40, "T"), (1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K")] {
        let d = div as f64;
        if x >= d && (x / d).fract() == 0.0 {
            return format!("{}{p}", x / d);
        }
    }
    format!("{x}")
}

fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The gnuplot script drawing `series` (the same file of one or more runs) into `png`.
pub fn gnuplot_script(series: &[Series], png: &Path) -> String {
    let first = &series[0].dat;
    let col = |name: &str| first.find(name).map(|i| i + 1);
    let header = |k: &str| first.header_value(k).unwrap_or("").to_string();
    let title_line = first.header.first().cloned().unwrap_or_default();
    let sub = if series.len() == 1 {
        format!("hosts: {}   date: {}", header("hosts"), header("date"))
    } else {
        format!(
            "{} runs: {}",
            series.len(),
            series.iter().map(|s| s.label.as_str()).collect::<Vec<_>>().join(", ")
        )
    };
    let unit = first.y_unit().unwrap_or("").to_string();
    let log_y = matches!(unit.as_str(), "usec" | "s");
    let xlabel = header("x").trim_start_matches("SIZE = ").to_string();
    let ylabel = header("y").split(';').next().unwrap_or("").to_string();
    let xs: Vec<f64> =
        series.iter().flat_map(|s| s.dat.cells("SIZE")).filter_map(|c| c.parse().ok()).collect();
    let named = xs.is_empty();
    let mut g = format!(
        "set terminal pngcairo size 1000,680 noenhanced font \",10\"\nset output \"{}\"\n\
         set title \"{}\\n{}\"\nset xlabel \"{}\"\nset ylabel \"{}\"\nset grid\nset key below\n",
        quote(&png.display().to_string()),
        quote(&title_line),
        quote(&sub),
        quote(&xlabel),
        quote(&ylabel)
    );
    if log_y {
        g += "set logscale y\n";
    } else {
        g += "set yrange [0:*]\n";
    }
    let (lo, hi) = xs.iter().fold((f64::INFINITY, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
    let log_x = !named && lo > 0.0 && hi / lo >= 64.0;
    if named {
        g += "set offsets 0.5, 0.5, graph 0.05, graph 0.05\nset style fill solid 0.5 border -1\n";
    } else if log_x {
        g += "set logscale x 2\n";
        let ticks: Vec<String> = (0..=62)
            .map(|k| (1u64 << k) as f64)
            .filter(|&t| t >= lo / 2.0 && t <= hi * 2.0)
            .collect::<Vec<_>>()
            .chunks(1 + ((hi / lo).log2() / 12.0) as usize)
            .map(|c| format!("\"{}\" {}", binary(c[0]), c[0]))
            .collect();
        g += &format!(
            "set xtics ({})\nset offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n",
            ticks.join(", ")
        );
    } else if lo == hi {
        g += &format!("set xrange [{}:{}]\nset xtics (\"{}\" {lo})\nset offsets 0, 0, graph 0.05, graph 0.05\n", lo * 0.5, hi * 1.5, binary(lo));
    } else {
        g += "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n";
    }
    let (med, ci_lo, ci_hi, min, max) =
        (col("MEDIAN"), col("CI_LO"), col("CI_HI"), col("MIN"), col("MAX"));
    let Some(med) = med else {
        return g + &curves(series, named);
    };
    let mut plots = Vec::new();
    for (i, s) in series.iter().enumerate() {
        let f = quote(&s.file.display().to_string());
        let label = if series.len() == 1 { String::new() } else { format!("{}: ", s.label) };
        let bars = match (ci_lo, ci_hi) {
            (Some(l), Some(h)) => format!(":{l}:{h}"),
            _ => String::new(),
        };
        let what = if bars.is_empty() { "median" } else { "median (bars: 95% interval)" };
        if named {
            let shift = (i as f64 - (series.len() as f64 - 1.0) / 2.0) * 0.8 / series.len() as f64;
            plots.push(format!(
                "\"{f}\" using ($0+{shift}):{med}{bars}:({:.3}):xtic(1) with boxerrorbars title \"{}{what}\"",
                0.8 / series.len() as f64,
                quote(&label)
            ));
        } else {
            plots.push(format!(
                "\"{f}\" using 1:{med}{bars} with yerrorlines lw 2 title \"{}{what}\"",
                quote(&label)
            ));
            if series.len() == 1 {
                if let (Some(a), Some(b)) = (min, max) {
                    plots.push(format!(
                        "\"{f}\" using 1:{a} with lines dt 2 lc rgb \"gray50\" title \"min\""
                    ));
                    plots.push(format!(
                        "\"{f}\" using 1:{b} with lines dt 3 lc rgb \"gray50\" title \"max\""
                    ));
                }
            }
        }
    }
    g + &format!("plot {}\n", plots.join(", \\\n     "))
}

/// Titled lines of a table without statistics columns (b_eff's bandwidth per pattern).
const TITLED: usize = 10;

/// The plot command of a table whose columns after SIZE are each a curve: the first
/// [`TITLED`] named (the first bold), the rest thin and grey; with several runs, the first
/// curve of each run.
fn curves(series: &[Series], named: bool) -> String {
    let first = &series[0].dat;
    if named || first.find("SIZE") != Some(0) || first.columns.len() < 2 {
        return "plot 0 title \"no MEDIAN column\"\n".to_string();
    }
    let mut plots = Vec::new();
    for s in series {
        let f = quote(&s.file.display().to_string());
        let label = if series.len() == 1 { String::new() } else { format!("{}: ", s.label) };
        let last = if series.len() == 1 { s.dat.columns.len() } else { 2 };
        for (i, name) in s.dat.columns.iter().enumerate().take(last).skip(1) {
            let style = match i {
                1 if series.len() == 1 => {
                    format!("lw 3 lc rgb \"black\" title \"{}\"", quote(name))
                }
                1 => format!("lw 3 title \"{}{}\"", quote(&label), quote(name)),
                _ if i <= TITLED => format!("lw 1 title \"{}\"", quote(name)),
                _ => "lw 1 lc rgb \"gray70\" notitle".to_string(),
            };
            plots.push(format!("\"{f}\" using 1:{} with linespoints pt 7 ps 0.5 {style}", i + 1));
        }
    }
    format!("plot {}\n", plots.join(", \\\n     "))
}

/// Runs gnuplot on `script`.
fn gnuplot(script: &str) -> Result<(), String> {
    let mut child = Command::new("gnuplot")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run gnuplot ({e}); scripts/install-deps installs it"))?;
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || !err.trim().is_empty() {
        return Err(format!("gnuplot: {}", err.trim()));
    }
    Ok(())
}

/// Draws each file as a PNG beside it; returns the PNGs.
pub fn plot_files(files: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut done = Vec::new();
    for file in files {
        let dat = Dat::read(file)?;
        if dat.rows.is_empty() {
            eprintln!("paw-report: {} has no rows; skipped", file.display());
            continue;
        }
        let png = file.with_extension("png");
        let series = [Series { label: String::new(), file: file.clone(), dat }];
        gnuplot(&gnuplot_script(&series, &png))?;
        done.push(png);
    }
    Ok(done)
}

/// Overlays every `.dat` file found in two or more of `dirs`, one PNG per file in `out`
/// (with the gnuplot script beside it); each run is labelled by its directory's name.
pub fn plot_runs(dirs: &[PathBuf], out: &Path) -> Result<Vec<PathBuf>, String> {
    let mut names: Vec<String> = Vec::new();
    for d in dirs {
        for f in dat_files(d)? {
            let n = f.file_name().unwrap().to_string_lossy().into_owned();
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut done = Vec::new();
    for name in names {
        let mut series = Vec::new();
        for d in dirs {
            let file = d.join(&name);
            if file.exists() {
                let dat = Dat::read(&file)?;
                if !dat.rows.is_empty() {
                    series.push(Series { label: label(d, &dat), file, dat });
                }
            }
        }
        if series.len() < 2 {
            continue;
        }
        let png = out.join(&name).with_extension("png");
        let script = gnuplot_script(&series, &png);
        std::fs::write(png.with_extension("gp"), &script).map_err(|e| e.to_string())?;
        gnuplot(&script)?;
        done.push(png);
    }
    Ok(done)
}

/// A run's label: its directory's name, with the run's date.
fn label(dir: &Path, dat: &Dat) -> String {
    let name = dir
        .file_name()
        .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned());
    match dat.header_value("date") {
        Some(d) => format!("{name} ({d})"),
        None => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_of_curves_is_drawn_curve_by_curve() {
        let mut text = String::from(
            "# paw b_eff -- t\n# x: SIZE = message length [bytes]\n\
             # y: bandwidth [MB/s (MB = 10^6 B)]\n# columns: SIZE b_eff",
        );
        for k in 1..=12 {
            text += &format!(" p{k}");
        }
        text += "\n";
        for size in [1, 2, 4] {
            text += &format!("{size} 1.5{}\n", " 2".repeat(12));
        }
        let dat = Dat::parse(&text).unwrap();
        let series = [Series { label: "a".into(), file: "f.dat".into(), dat }];
        let g = gnuplot_script(&series, Path::new("f.png"));
        assert!(g.contains(
            "using 1:2 with linespoints pt 7 ps 0.5 lw 3 lc rgb \"black\" title \"b_eff\""
        ));
        assert!(g.contains("using 1:11 with linespoints pt 7 ps 0.5 lw 1 title \"p9\""), "{g}");
        assert!(
            g.contains("using 1:14 with linespoints pt 7 ps 0.5 lw 1 lc rgb \"gray70\" notitle")
        );
        assert!(!g.contains("no MEDIAN"), "{g}");
    }

    #[test]
    fn binary_prefixes() {
        assert_eq!(binary(1.0), "1");
        assert_eq!(binary(512.0), "512");
        assert_eq!(binary(1024.0), "1K");
        assert_eq!(binary(4194304.0), "4M");
        assert_eq!(binary(1000.0), "1000");
    }
}
