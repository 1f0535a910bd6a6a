//! `paw-report html DIR`: the report of a run as one self-contained HTML page: the figures,
//! verdicts and node table of every section, each figure linked to its file (relative to
//! where the page is written), and a plot of every table of the run embedded as PNG data at
//! the page's width, a click away from full size (no network, no JavaScript).

use crate::figures::Report;
use crate::plot::{gnuplot, gnuplot_script, imb_tables, Series};
use crate::summary::short;
use crate::Dat;
use base64::Engine;
use std::path::{Path, PathBuf};

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The page's style: plots at the page's width; a clicked plot (the page's target) shows at
/// its full size over the page, with a link back.
const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:80em;padding:0 1em}\
table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #bbb;padding:2px 8px}\
td.v{text-align:right;font-family:monospace}th{background:#eee}.slow{color:#b00;font-weight:bold}\
figure{margin:1em 0}figure img{width:100%;height:auto;border:1px solid #ddd}\
figcaption{font-size:small}figcaption .back{display:none}\
figure:target{position:fixed;inset:0;margin:0;padding:1em;overflow:auto;background:#fff;z-index:9}\
figure:target img{width:auto;max-width:none}figure:target .back{display:inline}";

/// The page of `report`, to be written at `page`: links to the files are relative to the
/// page's directory. `scratch` is an empty directory for drawing the plots.
pub fn html(report: &Report, page: &Path, scratch: &Path) -> Result<String, String> {
    let base = page_dir(page)?;
    // A path as found on disk (the plots' files), relative to the page.
    let on_disk = |target: &Path| -> String {
        let absolute = std::fs::canonicalize(target).unwrap_or(target.to_path_buf());
        pathdiff::diff_paths(&absolute, &base).unwrap_or(absolute).display().to_string()
    };
    // A path relative to the run's directory (a figure's source), relative to the page.
    let link = |path: &Path| on_disk(&report.dir.join(path));
    let title = format!("paw report of {}", report.dir.display());
    let mut body = format!("<h1>{}</h1>\n<p>Sections:", esc(&title));
    for s in &report.sections {
        body += &format!(" <a href=\"#{0}\">{0}</a>", esc(&s.name));
    }
    body += "</p>\n";
    let mut plotted = 0;
    for s in &report.sections {
        body += &format!("<section id=\"{0}\">\n<h2>{0}</h2>\n", esc(&s.name));
        if !s.figures.is_empty() {
            body += "<table class=\"figures\">\n<tr><th>figure</th><th>value</th><th>95% interval</th><th>unit</th><th>file</th></tr>\n";
            for f in &s.figures {
                let interval = f
                    .interval
                    .map_or(String::new(), |(a, b)| format!("{} .. {}", short(a), short(b)));
                body += &format!(
                    "<tr><td>{}</td><td class=\"v\">{}</td><td class=\"v\">{interval}</td><td>{}</td><td><a href=\"{}\">{}</a></td></tr>\n",
                    esc(&f.name),
                    short(f.value),
                    esc(&f.unit),
                    esc(&link(Path::new(&f.source))),
                    esc(&f.source),
                );
            }
            body += "</table>\n";
        }
        if let Some(t) = &s.nodes {
            body += "<table class=\"nodes\">\n<tr><th>figure</th>";
            for h in &t.hosts {
                body += &format!("<th>{}</th>", esc(h));
            }
            body += "<th>median</th><th>unit</th></tr>\n";
            for r in &t.rows {
                body += &format!("<tr><td>{}</td>", esc(&r.name));
                for v in &r.values {
                    let slow = v.is_some_and(|v| r.fraction(v) < t.low);
                    let class = if slow { " slow" } else { "" };
                    body += &format!("<td class=\"v{class}\">{}</td>", v.map_or("-".into(), short));
                }
                body += &format!(
                    "<td class=\"v\">{}</td><td>{}</td></tr>\n",
                    short(r.median),
                    esc(&r.unit)
                );
            }
            body += "</table>\n";
        }
        if !s.notes.is_empty() {
            body += "<ul class=\"notes\">\n";
            for n in &s.notes {
                let class = if n.starts_with("slow ") || n.contains("NOT VALID") {
                    " class=\"slow\""
                } else {
                    ""
                };
                body += &format!("<li{class}>{}</li>\n", esc(n));
            }
            body += "</ul>\n";
        }
        for png in &s.images {
            let data = std::fs::read(png).map_err(|e| format!("{}: {e}", png.display()))?;
            plotted += 1;
            body += &figure(plotted, &s.name, &data, &relative(report, png), &on_disk(png));
        }
        for table in &s.plots {
            let png = scratch.join(format!("plot{}.png", plotted + 1));
            match draw(table, &png) {
                Ok(drawn) => {
                    for (view, data) in drawn.iter().enumerate() {
                        plotted += 1;
                        let mut name = relative(report, table);
                        if view > 0 {
                            name += " (times)";
                        }
                        body += &figure(plotted, &s.name, data, &name, &on_disk(table));
                    }
                }
                // The page goes on without the plot (no gnuplot on this node, say).
                Err(e) => {
                    body += &format!(
                        "<p class=\"slow\">no plot of {}: {}</p>\n",
                        esc(&relative(report, table)),
                        esc(&e)
                    )
                }
            }
        }
        body += "</section>\n";
    }
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        esc(&title)
    ))
}

/// The directory the page will be written in, absolute.
fn page_dir(page: &Path) -> Result<PathBuf, String> {
    let dir = match page.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::canonicalize(&dir)
        .map_err(|e| format!("{}: {e} (the page's directory)", dir.display()))
}

/// Draws `table` (a `.dat` file, or an IMB CSV table) into PNGs named after `png`; returns
/// their bytes: one for a `.dat` file, for an IMB table its bandwidth and its times, or its
/// times alone, or none (a Barrier at one process count).
fn draw(table: &Path, png: &Path) -> Result<Vec<Vec<u8>>, String> {
    let drawn = if table.extension().is_some_and(|e| e == "csv") {
        imb_tables(table, &png.with_extension("dat"))?
    } else {
        vec![(table.to_path_buf(), Dat::read(table)?)]
    };
    let mut out = Vec::new();
    for (view, (file, dat)) in drawn.into_iter().enumerate() {
        let png = png
            .with_file_name(format!("view{view}-{}", png.file_name().unwrap().to_string_lossy()));
        gnuplot(&gnuplot_script(&[Series { label: String::new(), file, dat }], &png))?;
        out.push(std::fs::read(&png).map_err(|e| format!("{}: {e}", png.display()))?);
    }
    Ok(out)
}

/// An embedded plot at the page's width with its file's name (linked) below it; a click on
/// it makes it the page's target, shown at full size, with a link back to its section.
fn figure(n: usize, section: &str, png: &[u8], name: &str, href: &str) -> String {
    let data = base64::engine::general_purpose::STANDARD.encode(png);
    let alt = esc(name);
    format!(
        "<figure id=\"plot-{n}\"><a href=\"#plot-{n}\" title=\"full size\"><img alt=\"{alt}\" \
         src=\"data:image/png;base64,{data}\"></a><figcaption><a href=\"{}\">{alt}</a> \
         <a class=\"back\" href=\"#{}\">back to the page</a></figcaption></figure>\n",
        esc(href),
        esc(section)
    )
}

/// `path` relative to the run's directory.
fn relative(report: &Report, path: &Path) -> String {
    path.strip_prefix(&report.dir).unwrap_or(path).display().to_string()
}
