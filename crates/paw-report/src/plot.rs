//! Figures with gnuplot: one `.dat` file as a PNG beside it, or the same file of several
//! runs overlaid in one PNG, each run labelled. The size axis reads in binary prefixes
//! (1K, 1M), time files use a logarithmic y axis fitted to the data, every point stays
//! inside the frame and the legend sits below the plot; the title names the benchmark, the
//! file and what tells it apart, the tasks and how their times were combined, the hosts and
//! date (or the runs overlaid).

use crate::{dat_files, Dat};
use paw_base::schema::{imb_csv, sweep, Unit};
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

/// Ten colours told apart on screen and paper; with [`DASHES`] dash styles, 40 series.
const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f",
];

/// Dash styles cycled once the palette is used up.
const DASHES: usize = 4;

/// The colour and dash style of the `i`-th series: distinct for the first 40.
fn style(i: usize) -> String {
    format!("lc rgb \"{}\" dt {}", PALETTE[i % PALETTE.len()], i / PALETTE.len() % DASHES + 1)
}

/// Header keys that tell files of one run apart (b_eff_io's partition and access).
const DISTINGUISHING: [&str; 4] = ["partition", "access", "mode", "group"];

/// The smallest and largest positive finite value of `values`, if any.
fn extent(values: &[f64]) -> Option<(f64, f64)> {
    let v = values.iter().copied().filter(|x| x.is_finite() && *x > 0.0);
    v.fold(None, |e, x| Some(e.map_or((x, x), |(lo, hi): (f64, f64)| (lo.min(x), hi.max(x)))))
}

/// The y range of data spanning `(lo, hi)` with a margin, so that the axis spans the data
/// rather than the decades around it: from 0 on a linear axis.
fn y_range((lo, hi): (f64, f64), log: bool) -> (f64, f64) {
    if log {
        let margin = (hi / lo).powf(0.05).max(1.1);
        (lo / margin, hi * margin)
    } else {
        (0.0, hi * 1.08)
    }
}

/// The y axis label: the `y:` line's quantity before its first qualification (a comma or
/// Ticks at 1, 2 and 5 times the powers of ten between `lo` and `hi`, for a log axis of
/// less than three decades (gnuplot's own ticks, the powers of ten alone, leave one label
/// or none on it); None on a wider one.
fn log_ticks(lo: f64, hi: f64) -> Option<String> {
    if !(lo > 0.0 && hi / lo < 1000.0) {
        return None;
    }
    let text = |t: f64| {
        let v = paw_base::dat::format_value(t);
        if v.contains('.') && !v.contains('e') {
            v.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            v
        }
    };
    let first = lo.log10().floor() as i32;
    let ticks: Vec<String> = (first..=hi.log10().ceil() as i32)
        .flat_map(|k| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(k)))
        .filter(|t| *t >= lo * 0.999 && *t <= hi * 1.001)
        .map(text)
        .collect();
    (ticks.len() >= 2).then(|| ticks.join(", "))
}

/// parenthesis), with the unit.
fn y_label(y: &str, unit: &str) -> String {
    let quantity = y.split(';').next().unwrap_or("");
    let quantity = quantity.split(['[', '(', ',']).next().unwrap_or("").trim();
    if unit.is_empty() {
        quantity.to_string()
    } else {
        format!("{quantity} [{unit}]")
    }
}

/// Every number of the columns `cols` (0-based) of `dat`.
fn values(dat: &Dat, cols: &[usize]) -> Vec<f64> {
    dat.rows.iter().flat_map(|r| cols.iter().filter_map(|&c| r.get(c)?.parse().ok())).collect()
}

/// The three title lines: the benchmark's title; the file and what tells it apart from
/// the run's other files; the tasks and how their times were combined, then the hosts and
/// date (one run) or the runs overlaid.
fn title(series: &[Series]) -> String {
    let first = &series[0].dat;
    let header = |k: &str| first.header_value(k).unwrap_or("").to_string();
    // The file's name: its own, or the table's it was converted from (`file:`).
    let stem = match first.header_value("file") {
        Some(f) => f.to_string(),
        None => {
            series[0].file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
        }
    };
    let mut which = vec![stem];
    which.extend(
        DISTINGUISHING.iter().filter_map(|k| Some(format!("{k}: {}", first.header_value(k)?))),
    );
    let tasks = header("tasks");
    let mut how = format!("{tasks} task{}", if tasks == "1" { "" } else { "s" });
    if let Some(rule) = first.header_value("ranks combined") {
        how += &format!(", ranks combined: {rule}");
    }
    let runs = if series.len() == 1 {
        format!("hosts: {}   date: {}", header("hosts"), header("date"))
    } else {
        let labels: Vec<&str> = series.iter().map(|s| s.label.as_str()).collect();
        format!("{} runs: {}", series.len(), labels.join(", "))
    };
    let lines = [first.header.first().cloned().unwrap_or_default(), which.join("   "), how, runs];
    lines.iter().map(|l| quote(l)).collect::<Vec<_>>().join("\\n")
}

/// The gnuplot script drawing `series` (the same file of one or more runs) into `png`.
pub fn gnuplot_script(series: &[Series], png: &Path) -> String {
    let first = &series[0].dat;
    let col = |name: &str| first.find(name).map(|i| i + 1);
    let header = |k: &str| first.header_value(k).unwrap_or("").to_string();
    let unit = first.y_unit().unwrap_or("").to_string();
    let time = matches!(unit.as_str(), "usec" | "s");
    // The x axis: the first column (SIZE in sweeps), labelled by the `x:` line where there is one.
    let xlabel = match first.header_value("x") {
        Some(x) => x.trim_start_matches(&format!("{} = ", sweep::SIZE)).to_string(),
        None => first.columns.first().cloned().unwrap_or_default().to_lowercase(),
    };
    let ylabel = y_label(&header("y"), &unit);
    let xs: Vec<f64> = series
        .iter()
        .flat_map(|s| s.dat.rows.iter().filter_map(|r| r.first()?.parse().ok()))
        .collect();
    let named = xs.is_empty();
    let mut g = format!(
        "set terminal pngcairo size 1600,1000 noenhanced font \",16\"\nset output \"{}\"\n\
         set title \"{}\"\nset xlabel \"{}\"\nset ylabel \"{}\"\nset grid\nset key below\n",
        quote(&png.display().to_string()),
        title(series),
        quote(&xlabel),
        quote(&ylabel)
    );
    // The columns drawn, for the y range: the statistics, or every curve of the first run
    // (and only the first curve of each other run).
    let mut stats = vec![sweep::MEDIAN, sweep::CI_LO, sweep::CI_HI];
    if series.len() == 1 {
        stats.extend([sweep::MIN, sweep::MAX]);
        stats.extend(EXTRA);
    }
    let drawn: Vec<f64> = if first.find(sweep::MEDIAN).is_some() {
        let cols: Vec<usize> = stats.iter().filter_map(|c| first.find(c)).collect();
        series.iter().flat_map(|s| values(&s.dat, &cols)).collect()
    } else if series.len() == 1 {
        values(first, &(1..first.columns.len()).collect::<Vec<_>>())
    } else {
        series.iter().flat_map(|s| values(&s.dat, &[1])).collect()
    };
    // A log axis for times that span a decade or more (a narrower one would show no
    // labelled tick).
    let span = extent(&drawn);
    let log_y = time && span.is_some_and(|(lo, hi)| hi >= 10.0 * lo);
    if log_y {
        g += "set logscale y\n";
        if let Some(ticks) = span.and_then(|(lo, hi)| log_ticks(lo, hi)) {
            g += &format!("set ytics ({ticks})\n");
        }
    }
    match span.map(|e| y_range(e, log_y)) {
        Some((lo, hi)) => g += &format!("set yrange [{lo:.6e}:{hi:.6e}]\n"),
        None => g += "set yrange [0:*]\n",
    }
    // A 0-byte row (OSU's first) is left off a logarithmic axis, as gnuplot leaves it.
    let positive = xs.iter().filter(|&&x| x > 0.0);
    let (lo, hi) = positive.fold((f64::INFINITY, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
    let log_x = !named && lo > 0.0 && hi / lo >= 64.0;
    if named {
        g += "set offsets 0.5, 0.5, 0, 0\nset style fill solid 0.5 border -1\n";
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
            "set xtics ({})\nset offsets graph 0.03, graph 0.03, 0, 0\n",
            ticks.join(", ")
        );
    } else if lo == hi {
        g += &format!(
            "set xrange [{}:{}]\nset xtics (\"{}\" {lo})\n",
            lo * 0.5,
            hi * 1.5,
            binary(lo)
        );
    } else {
        g += "set offsets graph 0.03, graph 0.03, 0, 0\n";
    }
    let (med, ci_lo, ci_hi, min, max) = (
        col(sweep::MEDIAN),
        col(sweep::CI_LO),
        col(sweep::CI_HI),
        col(sweep::MIN),
        col(sweep::MAX),
    );
    let Some(med) = med else {
        return g + &curves(series, named);
    };
    let overlap = col(sweep::OVERLAP).filter(|_| series.len() == 1);
    if overlap.is_some() {
        g += "set y2label \"overlap [%]\"\nset y2range [0:105]\nset y2tics\nset ytics nomirror\n";
    }
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
                "\"{f}\" using ($0+{shift}):{med}{bars}:({:.3}):xtic(1) with boxerrorbars {} title \"{}{what}\"",
                0.8 / series.len() as f64,
                style(i),
                quote(&label)
            ));
        } else {
            plots.push(format!(
                "\"{f}\" using 1:{med}{bars} with yerrorlines lw 2 {} title \"{}{what}\"",
                style(i),
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
                // The non-blocking collectives' overall and compute times, PAW_TAIL's
                // percentiles, and the overlap on the right axis.
                for (k, name) in EXTRA.iter().enumerate() {
                    if let Some(c) = col(name) {
                        plots.push(format!(
                            "\"{f}\" using 1:{c} with linespoints pt 7 ps 0.6 lw 2 {} title \"{name}\"",
                            style(k + 1)
                        ));
                    }
                }
                if let Some(c) = overlap {
                    plots.push(format!(
                        "\"{f}\" using 1:{c} axes x1y2 with linespoints pt 5 lw 2 lc rgb \"black\" dt 2 title \"OVERLAP [%] (right axis)\""
                    ));
                }
            }
        }
    }
    g + &format!("plot {}\n", plots.join(", \\\n     "))
}

/// Extra columns of a sweep drawn as curves of their own on the time axis.
const EXTRA: [&str; 6] = [sweep::OVERALL, sweep::COMPUTE, "P50", "P90", "P99", "PMAX"];

/// A numbered family of columns drawn as one muted band: at least this many names of the
/// same letters followed by digits only (b_eff's `random01` ... `random30`).
const FAMILY: usize = 6;

/// The family of a column name: its letters when the rest is digits (`random07` ->
/// `random`).
fn family(name: &str) -> Option<&str> {
    let letters = name.trim_end_matches(|c: char| c.is_ascii_digit());
    (letters.len() < name.len() && !letters.is_empty() && letters.chars().all(char::is_alphabetic))
        .then_some(letters)
}

/// The plot command of a table whose columns after SIZE are each a curve. Leading columns
/// without a digit in their name are aggregates (b_eff, and its ring and random averages):
/// bold, the first black. The others are single patterns in distinct colours and dashes,
/// except a numbered family of [`FAMILY`] or more, drawn thin in one muted colour with one
/// legend entry. With several runs, the first curve of each run.
fn curves(series: &[Series], named: bool) -> String {
    let first = &series[0].dat;
    if named || first.columns.len() < 2 {
        return "plot 0 title \"no MEDIAN column\"\n".to_string();
    }
    let mut plots = Vec::new();
    if series.len() > 1 {
        for (i, s) in series.iter().enumerate() {
            let f = quote(&s.file.display().to_string());
            plots.push(format!(
                "\"{f}\" using 1:2 with linespoints pt 7 ps 0.5 lw 3 {} title \"{}: {}\"",
                style(i),
                quote(&s.label),
                quote(&s.dat.columns[1])
            ));
        }
        return format!("plot {}\n", plots.join(", \\\n     "));
    }
    let f = quote(&series[0].file.display().to_string());
    let names = &first.columns[1..];
    let size_of = |fam: &str| names.iter().filter(|n| family(n) == Some(fam)).count();
    let leading = names.iter().take_while(|n| !n.chars().any(|c| c.is_ascii_digit())).count();
    let (mut colour, mut shown) = (0, Vec::new());
    for (i, name) in names.iter().enumerate() {
        let using = format!("\"{f}\" using 1:{} with linespoints pt 7 ps 0.5", i + 2);
        let style = match family(name).filter(|fam| size_of(fam) >= FAMILY) {
            Some(fam) if shown.contains(&fam) => "lw 1 lc rgb \"#c0c0c0\" notitle".to_string(),
            Some(fam) => {
                shown.push(fam);
                let last = names.iter().rev().find(|n| family(n) == Some(fam)).expect("member");
                format!(
                    "lw 1 lc rgb \"#c0c0c0\" title \"{} .. {} ({} patterns)\"",
                    quote(name),
                    quote(last),
                    size_of(fam)
                )
            }
            None if i == 0 => format!("lw 4 lc rgb \"black\" title \"{}\"", quote(name)),
            None => {
                colour += 1;
                let width = if i < leading { "3" } else { "1.5" };
                format!("lw {width} {} title \"{}\"", style(colour - 1), quote(name))
            }
        };
        plots.push(format!("{using} {style}"));
    }
    // The family first, so that the named curves are drawn over it.
    plots.sort_by_key(|p| !p.contains("#c0c0c0"));
    format!("plot {}\n", plots.join(", \\\n     "))
}

/// An IMB CSV table as `.dat` files to draw: per length (0 left out, for the logarithmic
/// axis) the bandwidth where the table has one, written as `target`, and the times t_avg,
/// t_min and t_max (and t_pure, t_cpu where it has them), written as `target` or, after a
/// bandwidth, beside it with `-time` added to its name. A table of one length run at several
/// process counts (IMB's Barrier under -npmin) gives its times per process count. Empty for
/// a table with nothing to draw against a number.
pub fn imb_tables(csv: &Path, target: &Path) -> Result<Vec<(PathBuf, Dat)>, String> {
    let at = |e: csv::Error| format!("{}: {e}", csv.display());
    let mut reader = csv::Reader::from_path(csv).map_err(at)?;
    let names = reader.headers().map_err(at)?.clone();
    let col = |n: &str| names.iter().position(|h| h == n);
    let bandwidth = names.iter().enumerate().find_map(|(i, h)| {
        let (q, unit) = Unit::of_csv_column(h)?;
        (q == "bandwidth").then_some((i, unit.label))
    });
    let times: Vec<(usize, &str)> = [
        imb_csv::T_AVG,
        imb_csv::T_MIN,
        imb_csv::T_MAX,
        imb_csv::T_OVRL_AVG,
        imb_csv::T_OVRL_MIN,
        imb_csv::T_OVRL_MAX,
        imb_csv::T_MESSAGE,
        imb_csv::T_ITER_AVG,
        imb_csv::T_PURE,
        imb_csv::T_CPU,
    ]
    .iter()
    .filter_map(|n| Some((col(n)?, n.trim_end_matches("_us"))))
    .collect();
    let (Some(bytes), Some(bench), Some(np)) =
        (col(imb_csv::BYTES), col(imb_csv::BENCHMARK), col(imb_csv::PROCESSES))
    else {
        return Err(format!(
            "{}: not an IMB table (no bytes, benchmark, processes)",
            csv.display()
        ));
    };
    let mut records: Vec<csv::StringRecord> =
        reader.records().collect::<Result<_, _>>().map_err(at)?;
    let lengths: Vec<&csv::StringRecord> =
        records.iter().filter(|r| r.get(bytes).is_some_and(|b| b != "0")).collect();
    let one_length = lengths.len() <= 1;
    if one_length {
        // The table's other process counts are in files of their own; the largest draws.
        let others = counterparts(csv);
        if others.last().is_some_and(|last| last.file_name() != csv.file_name()) {
            return Ok(Vec::new());
        }
        records.clear();
        for file in others {
            let mut r = csv::Reader::from_path(&file).map_err(at)?;
            if r.headers().map_err(at)? == &names {
                records.extend(r.records().collect::<Result<Vec<_>, _>>().map_err(at)?);
            }
        }
    }
    let lengths: Vec<&csv::StringRecord> =
        records.iter().filter(|r| r.get(bytes).is_some_and(|b| b != "0")).collect();
    let mut counts: Vec<&str> = records.iter().filter_map(|r| r.get(np)).collect();
    counts.dedup();
    // Against the length, or against the process count where the table has one length.
    let (x, x_axis, rows) = if !one_length {
        (bytes, "SIZE = message length [bytes]", lengths)
    } else if records.len() > 1 && counts.len() == records.len() {
        (np, "PROCESSES = processes [count]", records.iter().collect())
    } else {
        return Ok(Vec::new());
    };
    let first = rows[0];
    let mut views = Vec::new();
    if let Some((i, unit)) = bandwidth.filter(|_| x == bytes) {
        views.push(("bandwidth", unit, vec![(i, "bandwidth")], target.to_path_buf()));
    }
    let time_file = match views.is_empty() {
        true => target.to_path_buf(),
        false => {
            let stem = target.file_stem().unwrap_or_default().to_string_lossy();
            target.with_file_name(format!("{stem}-time.dat"))
        }
    };
    views.push(("time per repetition", "usec", times, time_file));
    let name = csv.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let on = match x == np {
        true => format!("{} to {}", &first[np], &rows[rows.len() - 1][np]),
        false => first[np].to_string(),
    };
    let mut head = format!(
        "# paw {} -- {} on {on} processes\n# file: {}\n# tasks: {}\n",
        imb_csv::suite_of(&name).unwrap_or("IMB"),
        &first[bench],
        name.trim_end_matches(".csv"),
        &rows[rows.len() - 1][np],
    );
    if let Some(r) = crate::results::record_of(csv) {
        head += &format!("# hosts: {}\n# date: {}\n", r.hosts_line(), r.date);
    }
    let mut out = Vec::new();
    for (label, unit, cols, file) in views {
        let mut text = head.clone();
        text += &format!(
            "# x: {x_axis}\n# y: {label} [{unit}]\n# columns: {} {}\n",
            x_axis.split(' ').next().unwrap_or("SIZE"),
            cols.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(" ")
        );
        for r in &rows {
            let cells: Vec<&str> = cols.iter().map(|(i, _)| r.get(*i).unwrap_or("nan")).collect();
            text += &format!("{} {}\n", &r[x], cells.join(" "));
        }
        std::fs::write(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
        out.push((file, Dat::parse(&text)?));
    }
    Ok(out)
}

/// The IMB tables of `csv`'s benchmark and mode at every process count, in its folder (the
/// same name with another `np_NNNN`), `csv` among them, by process count.
fn counterparts(csv: &Path) -> Vec<PathBuf> {
    let name = csv.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let Some((head, rest)) = name.split_once("-np_") else { return vec![csv.to_path_buf()] };
    let tail = rest.get(4..).unwrap_or_default().to_string();
    let dir = csv.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.strip_prefix(head)
                .and_then(|r| r.strip_prefix("-np_"))
                .and_then(|r| r.strip_suffix(tail.as_str()))
                .is_some_and(|q| q.len() == 4 && q.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(|n| dir.join(n))
        .collect();
    files.sort();
    if !files.iter().any(|f| f.file_name() == csv.file_name()) {
        return vec![csv.to_path_buf()];
    }
    files
}

/// Runs gnuplot on `script`.
pub(crate) fn gnuplot(script: &str) -> Result<(), String> {
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

/// A `.dat` file, or an IMB CSV table converted into `.dat` files named after `converted`
/// ([`imb_tables`]); empty for a table with nothing to draw.
fn load(file: &Path, converted: &Path) -> Result<Vec<(PathBuf, Dat)>, String> {
    if file.extension().is_some_and(|e| e == "csv") {
        return imb_tables(file, converted);
    }
    let dat = Dat::read(file)?;
    Ok(if dat.rows.is_empty() { Vec::new() } else { vec![(file.to_path_buf(), dat)] })
}

/// The PNG of the `view`-th drawing of `file` (an IMB table's times: `NAME-time.png`).
fn png_of(file: &Path, view: usize) -> PathBuf {
    match view {
        0 => file.with_extension("png"),
        _ => {
            let stem = file.file_stem().unwrap_or_default().to_string_lossy();
            file.with_file_name(format!("{stem}-time.png"))
        }
    }
}

/// A scratch directory for converted tables.
fn scratch() -> Result<tempfile::TempDir, String> {
    tempfile::tempdir().map_err(|e| format!("a scratch directory: {e}"))
}

/// Draws each file (`.dat`, or an IMB CSV table) as a PNG beside it; returns the PNGs.
pub fn plot_files(files: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let tmp = scratch()?;
    let mut done = Vec::new();
    for (k, file) in files.iter().enumerate() {
        let drawn = load(file, &tmp.path().join(format!("{k}.dat")))?;
        if drawn.is_empty() {
            eprintln!("paw-report: {} has nothing to draw; skipped", file.display());
        }
        for (view, (source, dat)) in drawn.into_iter().enumerate() {
            let png = png_of(file, view);
            let series = [Series { label: String::new(), file: source, dat }];
            gnuplot(&gnuplot_script(&series, &png))?;
            done.push(png);
        }
    }
    Ok(done)
}

/// Overlays every `.dat` file and IMB table found in two or more of `dirs`, one PNG per
/// file in `out` (an IMB table's times beside its bandwidth, `NAME-time.png`; the gnuplot
/// script beside each); each run is labelled by its directory's name.
pub fn plot_runs(dirs: &[PathBuf], out: &Path) -> Result<Vec<PathBuf>, String> {
    let mut names: Vec<String> = Vec::new();
    for d in dirs {
        let entries = std::fs::read_dir(d).map_err(|e| format!("{}: {e}", d.display()))?;
        let mut imb: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                imb_csv::suite_of(&p.file_name().unwrap_or_default().to_string_lossy()).is_some()
            })
            .collect();
        imb.sort();
        for f in dat_files(d)?.into_iter().chain(imb) {
            let n = f.file_name().unwrap().to_string_lossy().into_owned();
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut done = Vec::new();
    for name in names {
        // Per drawing of the file (an IMB table's bandwidth, then its times), every run's.
        let mut views: Vec<Vec<Series>> = Vec::new();
        for (k, d) in dirs.iter().enumerate() {
            let file = d.join(&name);
            if file.exists() {
                // An IMB table's drawn form stays beside the script that reads it.
                let stem = name.trim_end_matches(".csv");
                let drawn = load(&file, &out.join(format!("{stem}.run{}.dat", k + 1)))?;
                for (view, (file, dat)) in drawn.into_iter().enumerate() {
                    if views.len() <= view {
                        views.push(Vec::new());
                    }
                    views[view].push(Series { label: label(d, &dat), file, dat });
                }
            }
        }
        for (view, series) in views.iter().enumerate() {
            if series.len() < 2 {
                continue;
            }
            let png = png_of(&out.join(&name), view);
            let script = gnuplot_script(series, &png);
            std::fs::write(png.with_extension("gp"), &script).map_err(|e| e.to_string())?;
            gnuplot(&script)?;
            done.push(png);
        }
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
    fn an_imb_table_draws_its_bandwidth_and_times_and_barrier_its_process_counts() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let pingpong = write(
            "IMB-MPI1-PingPong-np_0002.csv",
            "benchmark,processes,mode,bytes,repetitions,t_min_us,t_max_us,t_avg_us,\
             bandwidth_MiB_per_s\nPingPong,2,,0,1000,0.2,0.2,0.2,0\n\
             PingPong,2,,1,1000,0.25,0.25,0.25,3.8\nPingPong,2,,2,1000,0.26,0.26,0.26,7.3\n",
        );
        let drawn = imb_tables(&pingpong, &dir.path().join("p.dat")).unwrap();
        let ys: Vec<&str> = drawn.iter().map(|(_, d)| d.header_value("y").unwrap()).collect();
        assert_eq!(ys, ["bandwidth [MB/s (MB = 2^20 B)]", "time per repetition [usec]"]);
        assert_eq!(drawn[1].0, dir.path().join("p-time.dat"));
        assert_eq!(drawn[1].1.rows.len(), 2, "0 B left out of the log axis");
        let barrier = "benchmark,processes,mode,bytes,repetitions,t_min_us,t_max_us,t_avg_us\n";
        let two =
            write("IMB-MPI1-Barrier-np_0002.csv", &format!("{barrier}Barrier,2,,0,1000,1,1,1\n"));
        assert!(imb_tables(&two, &dir.path().join("b.dat")).unwrap().is_empty(), "one count");
        let four =
            write("IMB-MPI1-Barrier-np_0004.csv", &format!("{barrier}Barrier,4,,0,1000,3,3,3\n"));
        write(
            "IMB-MPI1-Barrier-np_0008-aggregate.csv",
            &format!("{barrier}Barrier,8,,0,1,9,9,9\n"),
        );
        assert!(
            imb_tables(&two, &dir.path().join("b.dat")).unwrap().is_empty(),
            "the largest draws"
        );
        let drawn = imb_tables(&four, &dir.path().join("b.dat")).unwrap();
        assert_eq!(drawn.len(), 1);
        let dat = &drawn[0].1;
        assert!(dat.header_value("x").unwrap().starts_with("PROCESSES"));
        assert_eq!(dat.cells("PROCESSES"), ["2", "4"], "another mode is another table");
    }

    #[test]
    fn narrow_log_axes_get_ticks_at_1_2_5() {
        assert_eq!(log_ticks(0.23, 3.7).as_deref(), Some("0.5, 1, 2"));
        assert_eq!(log_ticks(0.9, 120.0).as_deref(), Some("1, 2, 5, 10, 20, 50, 100"));
        assert_eq!(log_ticks(1.0, 1e4), None, "four decades: gnuplot's own");
    }

    #[test]
    fn a_table_of_curves_is_drawn_curve_by_curve() {
        let mut text = String::from(
            "# paw b_eff -- t\n# tasks: 4\n# partition: 4 processes; access: write\n\
             # x: SIZE = message length [bytes]\n# y: bandwidth [MB/s (MB = 10^6 B)]\n\
             # columns: SIZE b_eff rings ring1-fix ring2-&+1",
        );
        for k in 1..=12 {
            text += &format!(" random{k:02}");
        }
        text += "\n";
        for size in [1, 2, 4] {
            text += &format!("{size} 1.5 1.2 0.5 4{}\n", " 2".repeat(12));
        }
        let dat = Dat::parse(&text).unwrap();
        let series = [Series { label: "a".into(), file: "d/f.dat".into(), dat }];
        let g = gnuplot_script(&series, Path::new("f.png"));
        let plot = |col: usize| {
            let at = format!("using 1:{col} with linespoints pt 7 ps 0.5 ");
            g.lines().find(|l| l.contains(&at)).unwrap_or_else(|| panic!("{at}\n{g}")).to_string()
        };
        assert!(plot(2).ends_with("lw 4 lc rgb \"black\" title \"b_eff\", \\"), "{g}");
        assert!(plot(3).contains(&format!("lw 3 {} title \"rings\"", style(0))), "{g}");
        assert!(plot(4).contains(&format!("lw 1.5 {} title \"ring1-fix\"", style(1))), "{g}");
        assert!(plot(6).contains("title \"random01 .. random12 (12 patterns)\""), "{g}");
        assert!(plot(7).contains("#c0c0c0\" notitle"), "{g}");
        assert!(g.find("random01 ..").unwrap() < g.find("title \"b_eff\"").unwrap(), "{g}");
        assert!(g.contains("set yrange [0.000000e0:4.320000e0]"), "{g}");
        assert!(g.contains("\\nf   partition: 4 processes; access: write\\n4 tasks\\n"), "{g}");
    }

    #[test]
    fn forty_series_are_told_apart_and_a_log_axis_spans_the_data() {
        let styles: Vec<String> = (0..40).map(style).collect();
        for (i, s) in styles.iter().enumerate() {
            assert!(!styles[..i].contains(s), "{s} twice");
        }
        let (lo, hi) = y_range(extent(&[0.2, 0.095, 375.0]).unwrap(), true);
        assert!(lo > 0.05 && lo < 0.095 && hi > 375.0 && hi < 700.0, "{lo} {hi}");
        assert_eq!(extent(&[f64::NAN, -1.0, 0.0]), None);
        assert_eq!(y_range((2.0, 4.0), false), (0.0, 4.32));
        assert_eq!(
            y_label("bandwidth of the pattern, maximum over methods [MB/s (MB = 10^6 B)]", "MB/s"),
            "bandwidth of the pattern [MB/s]"
        );
        assert_eq!(y_label("one-way time [usec]; AVG MIN", "usec"), "one-way time [usec]");
        assert_eq!(family("random07"), Some("random"));
        assert_eq!(family("ring1-fix"), None);
        assert_eq!(family("b_eff"), None);
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
