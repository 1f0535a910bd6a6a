//! `paw-report html DIR`: the report of a run as one self-contained HTML page: the figures,
//! verdicts and node table of every section, each figure linked to its file, and the run's
//! plots embedded as PNG data (no network, no JavaScript).

use crate::figures::Report;
use crate::plot::{gnuplot, gnuplot_script, Series};
use crate::summary::short;
use crate::Dat;
use base64::Engine;
use std::path::Path;

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A PNG file as an `<img>` with its data inline.
fn image(png: &[u8], alt: &str) -> String {
    let data = base64::engine::general_purpose::STANDARD.encode(png);
    format!("<img alt=\"{}\" src=\"data:image/png;base64,{data}\">", esc(alt))
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:70em}\
table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #bbb;padding:2px 8px}\
td.v{text-align:right;font-family:monospace}th{background:#eee}.slow{color:#b00;font-weight:bold}\
figure{display:inline-block;margin:0.5em}img{width:32em}figcaption{font-size:small}";

/// The page of `report`. Links to the files are relative to the run's directory (where the
/// page is meant to be kept); `scratch` is an empty directory for drawing the plots.
pub fn html(report: &Report, scratch: &Path) -> Result<String, String> {
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
            body += "<table class=\"figures\">\n<tr><th>figure</th><th>value</th><th>unit</th><th>file</th></tr>\n";
            for f in &s.figures {
                let source = esc(&f.source);
                body += &format!(
                    "<tr><td>{}</td><td class=\"v\">{}</td><td>{}</td><td><a href=\"{source}\">{source}</a></td></tr>\n",
                    esc(&f.name),
                    short(f.value),
                    esc(&f.unit)
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
            body += &figure(&data, &relative(report, png));
        }
        for dat in &s.plots {
            plotted += 1;
            let png = scratch.join(format!("plot{plotted}.png"));
            let drawn = Dat::read(dat).and_then(|d| {
                let series = [Series { label: String::new(), file: dat.clone(), dat: d }];
                gnuplot(&gnuplot_script(&series, &png))?;
                std::fs::read(&png).map_err(|e| format!("{}: {e}", png.display()))
            });
            match drawn {
                Ok(data) => body += &figure(&data, &relative(report, dat)),
                // The page goes on without the plot (no gnuplot on this node, say).
                Err(e) => {
                    body += &format!(
                        "<p class=\"slow\">no plot of {}: {}</p>\n",
                        esc(&relative(report, dat)),
                        esc(&e)
                    )
                }
            }
        }
        body += "</section>\n";
    }
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        esc(&title)
    ))
}

/// An embedded image with its file's name below it.
fn figure(png: &[u8], name: &str) -> String {
    format!("<figure>{}<figcaption>{}</figcaption></figure>\n", image(png, name), esc(name))
}

/// `path` relative to the run's directory.
fn relative(report: &Report, path: &Path) -> String {
    path.strip_prefix(&report.dir).unwrap_or(path).display().to_string()
}
