//! paw-report on real result directories: summary, compare as a regression gate, and the
//! overlay plot of two runs.

use paw_core::schema::{BYTES, USEC};
use paw_core::{Axis, DatFile, DatSpec, Row, Stats};
use paw_test::binaries::bin;
use paw_test::{Dat, Launch};
use std::path::Path;
use std::process::Command;
use std::rc::Rc;

/// A fixture sweep (1 ms sleeps: stable times) into `dir`.
fn sweep_into(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    Launch::mpi(bin("paw-fixture"), 2)
        .env("PAW_FIXTURE", "sweep")
        .env("PAW_FIXTURE_SLEEP_US", 1000)
        .env("MAX_P2P_SIZE", 8)
        .env("PAW_OUTPUT_DIR", dir.display())
        .run()
        .success();
}

fn report(args: &[&str]) -> std::process::Output {
    Command::new(bin("paw-report")).args(args).output().expect("paw-report")
}

/// Writes `name` into `dir` through paw's own writer: per size the statistics of the
/// given samples (usec), as a benchmark would.
fn write_sweep(dir: &Path, name: &str, rows: &[(usize, Vec<f64>)]) {
    use paw_core::check::Verdict;
    use paw_core::dat::{Layout, Place};
    use paw_core::record::{Ledger, Record};
    fn fail(e: &str) -> ! {
        panic!("{e}")
    }
    let place =
        Place { dir: dir.to_path_buf(), ledger: Rc::new(Ledger::new(Record::default())), fail };
    let spec = DatSpec {
        file: name.into(),
        x: Axis::new("message size", BYTES),
        y: Axis::new("one-way time", USEC),
        notes: vec![],
        echo: false,
        extra: vec![],
    };
    let head = ["paw fixture -- crafted samples".to_string(), "tasks: 2".to_string()];
    let layout = Layout { check_column: false, tolerance: 0.05 };
    let mut file = DatFile::create(&place, &head, &spec, layout).unwrap();
    for (size, samples) in rows {
        let row = Row {
            stats: Stats::of(samples),
            nloop: 10,
            nreps: samples.len(),
            check: Verdict::Unchecked,
            measurement: 0,
        };
        file.row(size, &row);
    }
}

/// 20 samples around `median` (a 2 % spread), one of them `stray` times the median.
fn samples(median: f64, stray: f64, seed: usize) -> Vec<f64> {
    let mut v: Vec<f64> =
        (0..19).map(|k| median * (0.99 + 0.02 * ((k * 7 + seed) % 19) as f64 / 18.0)).collect();
    v.insert(seed % 20, median * stray);
    v
}

#[test]
fn a_doubled_median_with_stray_samples_is_slower_and_the_same_distribution_is_same() {
    let (base, same, twice) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let name = "fixture_time-np_0002.dat";
    write_sweep(base.path(), name, &[(8, samples(1000.0, 100.0, 3))]);
    write_sweep(same.path(), name, &[(8, samples(1000.0, 100.0, 11))]);
    // Twice the time, its stray sample 100 times below: the MIN..MAX ranges overlap.
    write_sweep(twice.path(), name, &[(8, samples(2000.0, 0.01, 5))]);
    let dat = |d: &Path| Dat::read(&d.join(name)).unwrap();
    let (b, t) = (dat(base.path()), dat(twice.path()));
    let [bmin, bmax, tmin, tmax] =
        [(&b, "MIN"), (&b, "MAX"), (&t, "MIN"), (&t, "MAX")].map(|(d, c)| d.numbers(c)[0]);
    assert!(tmin < bmax && bmin < tmax, "the fixture's MIN..MAX ranges overlap");

    let args = |new: &Path| {
        ["compare".to_string(), base.path().display().to_string(), new.display().to_string()]
    };
    let run = |new: &Path| {
        let out = report(&args(new).iter().map(String::as_str).collect::<Vec<_>>());
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, text) = run(twice.path());
    assert_eq!(code, Some(1), "{text}");
    let row: Vec<&str> = text
        .lines()
        .find(|l| l.trim_start().starts_with("8 "))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(row[row.len() - 2..], ["apart", "slower"], "{text}");
    assert!(
        text.contains("+100.0%") || text.contains("+99.") || text.contains("+100.1%"),
        "{text}"
    );
    assert!(text.contains(&format!("{name}: SLOWER (1 of 1 rows slower")), "{text}");
    let (code, text) = run(same.path());
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains(&format!("{name}: same (0 of 1 rows slower, 0 faster")), "{text}");
}

#[test]
fn nothing_compared_exits_2_with_one_line_saying_why() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (pa, pb) = (a.path().to_str().unwrap(), b.path().to_str().unwrap());
    let out = report(&["compare", pa, pb]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("nothing compared: no result file in common")
            && err.contains("holds no result file"),
        "{err}"
    );

    sweep_into(a.path());
    Launch::mpi(bin("latency"), 2).env("PAW_OUTPUT_DIR", pb).run().success();
    let out = report(&["compare", pa, pb]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("holds fixture_time-np_0002.dat") && err.contains("holds latency.dat"),
        "{err}"
    );
}

#[test]
fn imb_pingpong_over_tcp_is_slower_at_large_lengths() {
    let (base, tcp) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (dir, btl) in [(base.path(), None), (tcp.path(), Some("self,tcp"))] {
        let mut l = Launch::mpi(bin("IMB-MPI1"), 2)
            .args(["PingPong", "-msglog", "16:19", "-iter", "200"])
            .env("PAW_OUTPUT_DIR", dir.display());
        if let Some(btl) = btl {
            if !paw_test::is_open_mpi() {
                eprintln!("not Open MPI: no btl to choose; skipping");
                return;
            }
            l = l.env("OMPI_MCA_btl", btl);
        }
        l.run().success();
    }
    let out = report(&["compare", base.path().to_str().unwrap(), tcp.path().to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("environment OMPI_MCA_btl  (unset) -> self,tcp  (all files)"), "{text}");
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("IMB-MPI1-PingPong-np_0002.csv [usec]"))
        .skip(1)
        .take_while(|l| !l.starts_with("IMB-MPI1"))
        .collect();
    let large: Vec<&&str> = rows
        .iter()
        .filter(|l| l.split_whitespace().next().unwrap().parse::<u64>().unwrap() >= 1 << 16)
        .collect();
    assert_eq!(large.len(), 4, "{text}");
    // 64-512 KiB: over loopback TCP 2-5x shared memory's time. From 1 MiB the VM's other
    // state brings shared memory near TCP (2 MiB at 329 usec against TCP's 293 once), and
    // one length of one launch may stall: three of the four suffice.
    let slower = large.iter().filter(|l| l.ends_with(" slower")).count();
    assert!(slower >= 3, "{slower} of 4 large lengths slower: {text}");
    assert!(text.contains("IMB-MPI1-PingPong-np_0002.csv: SLOWER"), "{text}");
}

/// Each suite's step directory, and the headline figure names its section must hold.
fn every_suite(top: &Path) -> Vec<(&'static str, &'static [&'static str])> {
    let steps: Vec<(&str, &str, Vec<&str>, &[&str])> = vec![
        (
            "imb-mpi1",
            "IMB-MPI1",
            vec!["PingPong", "Allreduce", "Barrier", "-msglog", "10", "-iter", "50"],
            &[
                "IMB-MPI1 PingPong: time at 0 B",
                "IMB-MPI1 PingPong: bandwidth at 1024 B",
                "IMB-MPI1 Allreduce: time at 8 B",
                "IMB-MPI1 Barrier: time, 2 processes",
            ],
        ),
        (
            "imb-ext",
            "IMB-EXT",
            vec!["Unidir_Put", "-msglog", "10", "-iter", "50"],
            &["IMB-EXT Unidir_Put: best bandwidth at 1024 B"],
        ),
        (
            "imb-io",
            "IMB-IO",
            vec!["P_Read_Priv", "-msglog", "10", "-iter", "20"],
            &["IMB-IO P_Read: best bandwidth at 1024 B"],
        ),
        (
            "imb-nbc",
            "IMB-NBC",
            vec!["Iallreduce", "-msglog", "10", "-iter", "50"],
            &["IMB-NBC Iallreduce: overlap at 1024 B"],
        ),
        (
            "imb-rma",
            "IMB-RMA",
            vec!["Unidir_put", "Fetch_and_op", "-msglog", "10", "-iter", "50"],
            &["IMB-RMA Unidir_put: best bandwidth at 1024 B", "IMB-RMA Fetch_and_op: time at 4 B"],
        ),
        (
            "imb-p2p",
            "IMB-P2P",
            vec!["PingPong", "-msglog", "10"],
            &[
                "IMB-P2P PingPong: best bandwidth at 1024 B",
                "IMB-P2P PingPong: message rate at 1 B",
            ],
        ),
        ("b_eff", "b_eff", vec!["-short"], &["b_eff ", "b_eff per process"]),
        ("b_eff_io", "b_eff_io", vec!["-T", "2", "-N", "2", "-p"], &["b_eff_io "]),
        ("presta", "com", vec!["-o", "10"], &["com: peak unidirectional bandwidth, 2 processes"]),
        ("presta", "laten", vec!["-o", "100"], &["laten: latency at 2 processes"]),
        (
            "presta",
            "rma",
            vec!["-o", "4", "-c", "2", "-e", "4096"],
            &["rma: peak unidir put bandwidth, 2 processes"],
        ),
        ("presta", "allred", vec!["100", "1000", "5"], &["allred: Op mean (one Allreduce)"]),
        ("presta", "globalop", vec![], &["globalop: Allreduce time"]),
    ];
    let mut expected = Vec::new();
    // PAW binaries with a tail (PAW_TAIL) and an overlap (OVERALL, COMPUTE, OVERLAP).
    let p2p = top.join("p2p");
    std::fs::create_dir_all(&p2p).unwrap();
    Launch::mpi(bin("p2p_send"), 2)
        .env("PAW_TAIL", 100)
        .env("PAW_OUTPUT_DIR", p2p.display())
        .run()
        .success();
    Launch::mpi(bin("latency"), 2).env("PAW_OUTPUT_DIR", p2p.display()).run().success();
    expected.push((
        "p2p",
        &["p2p_send: P99 at 1 B", "p2p_send: time at 1 B", "latency: one-way latency at 1 B"][..],
    ));
    let col = top.join("col");
    std::fs::create_dir_all(&col).unwrap();
    Launch::mpi(bin("col_iardc"), 2).env("PAW_OUTPUT_DIR", col.display()).run().success();
    expected.push(("col", &["col_iardc: overlap at 4096 B", "col_iardc: time at 1 B"][..]));
    for (step, binary, mut args, names) in steps {
        let dir = top.join(step);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.display().to_string();
        if binary == "b_eff_io" {
            args.push(&path);
        }
        Launch::mpi(bin(binary), 2).args(args).env("PAW_OUTPUT_DIR", &path).run().success();
        expected.push((step, names));
    }
    expected
}

/// The HTML page of the run in `top`, written elsewhere, as Chromium shows it: every link
/// resolves to a file that exists, every plot is at least 900 px wide on a 1280 px page,
/// every section is there, and each kind of table has its plot.
fn html_page_holds_up(top: &Path, steps: &[&str]) {
    let elsewhere = tempfile::tempdir().unwrap();
    let page = elsewhere.path().join("pages").join("r.html");
    std::fs::create_dir_all(page.parent().unwrap()).unwrap();
    let out = report(&["html", "-o", page.to_str().unwrap(), top.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"));
    for plotted in [
        "p2p/send_time-np_0002.dat",
        "p2p/send_bw-np_0002.dat",
        "col/iardc_time-np_0002.dat",
        "imb-mpi1/IMB-MPI1-PingPong-np_0002.csv",
        "imb-mpi1/IMB-MPI1-PingPong-np_0002.csv (times)",
        "imb-nbc/IMB-NBC-Iallreduce-np_0002.csv",
        "b_eff/b_eff_bw-np_0002.dat",
        "b_eff_io/b_eff_io_write-part_0002-np_0002.dat",
        "presta/com_unidirectional_bw-np_0002.dat",
    ] {
        assert!(
            html.contains("<figcaption><a href=") && html.contains(&format!(">{plotted}</a>")),
            "no plot of {plotted}"
        );
    }
    // The run named relatively, from its parent folder: every link, the plots' captions too,
    // resolves from the page's folder.
    let name = top.file_name().unwrap().to_str().unwrap();
    let again = Command::new(bin("paw-report"))
        .current_dir(top.parent().unwrap())
        .args(["html", "-o", page.to_str().unwrap(), name])
        .output()
        .unwrap();
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    let text = std::fs::read_to_string(&page).unwrap();
    let links: Vec<&str> = text
        .split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|l| !l.starts_with('#'))
        .collect();
    assert!(links.len() > 20, "{} links", links.len());
    for l in links {
        assert!(page.parent().unwrap().join(l).exists(), "dead link {l} in {}", page.display());
    }
    let browser = match paw_test::browser::chromium() {
        Ok(b) => b,
        Err(why) => {
            eprintln!("browser check skipped: {why}");
            return;
        }
    };
    let seen = paw_test::browser::render(&browser, &page, std::time::Duration::from_secs(120))
        .unwrap_or_else(|e| panic!("{e}"));
    for step in steps {
        assert!(seen.dom.contains(&format!("<section id=\"{step}\">")), "no section {step}");
    }
    let images = html.matches("<img ").count();
    assert!(images >= 20, "{images} images");
    assert_eq!(seen.image_widths.len(), images);
    assert!(seen.image_widths.iter().all(|w| *w >= 900), "decoded {:?}", seen.image_widths);
    assert_eq!(seen.shown_widths.len(), images);
    assert!(seen.shown_widths.iter().all(|w| *w >= 900), "shown {:?}", seen.shown_widths);
    let mut files = 0;
    for link in &seen.links {
        let path = link.strip_prefix("file://").unwrap_or_else(|| panic!("{link}"));
        let (path, anchor) = path.split_once('#').unwrap_or((path, ""));
        let path = paw_test::browser::decode(path);
        if anchor.is_empty() {
            assert!(Path::new(&path).is_file(), "a link to {path}, which does not exist");
            files += 1;
        } else {
            assert!(path.contains(".paw-probe-"), "{link}: an anchor of another page");
            assert!(html.contains(&format!("id=\"{anchor}\"")), "{link}: no such anchor");
        }
    }
    assert!(files >= 20, "{files} links to files");
    eprintln!("measured: report page {} bytes, {images} plots, {files} links to files", html.len());
}

#[test]
fn every_suite_appears_in_summary_with_its_headline_and_in_the_html_page() {
    let top = tempfile::tempdir().unwrap();
    let expected = every_suite(top.path());
    let out = report(&["summary", top.path().to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    for (step, names) in expected.iter().copied() {
        let section: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != format!("== {step}"))
            .skip(1)
            .take_while(|l| !l.starts_with("=="))
            .collect();
        for name in names {
            let line = section.iter().find(|l| l.trim_start().starts_with(name));
            let line = line.unwrap_or_else(|| panic!("{step}: no {name:?}\n{text}"));
            let value = line[name.len()..].split_whitespace().find_map(|w| w.parse::<f64>().ok());
            let value = value.unwrap_or_else(|| panic!("no value: {line}"));
            // An overlap may be none (0 %); every other figure is a time or a rate.
            let least = if name.contains("overlap") { 0.0 } else { f64::MIN_POSITIVE };
            assert!(value.is_finite() && value >= least, "{line}");
        }
    }
    let steps: Vec<&str> = expected.iter().map(|(s, _)| *s).collect();
    html_page_holds_up(top.path(), &steps);
    // The same run against itself: every suite's rows compared, nothing slower.
    for step in std::fs::read_dir(top.path()).unwrap() {
        let step = step.unwrap();
        let out =
            report(&["compare", step.path().to_str().unwrap(), step.path().to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {text}{}",
            step.path().display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!text.contains(" slower\n") && text.contains(" rows compared in "), "{text}");
    }
}

#[test]
fn summary_and_overlay_plot_of_two_runs() {
    if Command::new("gnuplot").arg("--version").output().is_err() {
        eprintln!("gnuplot not installed: scripts/install-deps installs it; skipping");
        return;
    }
    let top = tempfile::tempdir().unwrap();
    let (a, b, out) =
        (top.path().join("monday"), top.path().join("tuesday"), top.path().join("plots"));
    sweep_into(&a);
    sweep_into(&b);
    let summary = report(&["summary", a.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&summary.stdout);
    assert!(summary.status.success() && text.contains("fixture_time-np_0002.dat"), "{text}");
    let plot =
        report(&["plot", "-o", out.to_str().unwrap(), a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(plot.status.success(), "{}", String::from_utf8_lossy(&plot.stderr));
    let png = std::fs::read(out.join("fixture_time-np_0002.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 5000, "{} bytes", png.len());
    let script = std::fs::read_to_string(out.join("fixture_time-np_0002.gp")).unwrap();
    assert!(script.contains("monday (") && script.contains("tuesday ("), "{script}");
    let bad = report(&["compare", a.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
}
