//! paw-report on real result directories: summary, compare as a regression gate, and the
//! overlay plot of two runs.

use paw_test::binaries::bin;
use paw_test::{Dat, Launch};
use std::path::Path;
use std::process::Command;

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

/// Sets the row of `size` in `file` to a median of `m` with a 1 % spread (MIN, CI_LO 0.99
/// m; MAX, CI_HI 1.01 m): a measured row's own spread (a late wake-up of the fixture's sleep)
/// must not decide whether a doubled time counts.
fn set_row(file: &Path, size: &str, m: f64) {
    let text = std::fs::read_to_string(file).unwrap();
    let dat = Dat::parse(&text).unwrap();
    let value = |c: &str| match c {
        "AVG" | "MEDIAN" => Some(m),
        "MIN" | "CI_LO" => Some(0.99 * m),
        "MAX" | "CI_HI" => Some(1.01 * m),
        "STDDEV" => Some(0.01 * m),
        _ => None,
    };
    let out: Vec<String> = text
        .lines()
        .map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            if l.starts_with('#') || cells.first() != Some(&size) {
                return l.to_string();
            }
            let cells: Vec<String> = cells
                .iter()
                .zip(&dat.columns)
                .map(|(c, name)| value(name).map_or(c.to_string(), |v| v.to_string()))
                .collect();
            cells.join(" ")
        })
        .collect();
    std::fs::write(file, out.join("\n") + "\n").unwrap();
}

#[test]
fn compare_flags_exactly_the_slowed_row_and_lists_unmatched_files() {
    let (base, new) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    sweep_into(base.path());
    for f in std::fs::read_dir(base.path()).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), new.path().join(f.file_name())).unwrap();
    }
    let (b, n) = (base.path().to_str().unwrap(), new.path().to_str().unwrap());
    let same = report(&["compare", b, n]);
    let text = String::from_utf8_lossy(&same.stdout);
    assert!(same.status.success(), "{text}");
    assert!(text.contains("4 rows compared: 0 slower, 0 faster"), "{text}");
    assert!(text.contains("fixture_time-np_0002.dat: same (0 of 4 rows slower"), "{text}");
    assert!(!text.contains("settings that differ"), "{text}");

    // Twice the time at one size, and the new run made with another transport.
    let file = new.path().join("fixture_time-np_0002.dat");
    set_row(&base.path().join("fixture_time-np_0002.dat"), "4", 1000.0);
    set_row(&file, "4", 2000.0);
    let head = std::fs::read_to_string(&file).unwrap();
    let env = "# environment: OMPI_MCA_btl=self,tcp";
    let head = match head.find("# environment: ") {
        Some(_) => head.replacen("# environment:", env, 1),
        None => head.replacen("# x:", &format!("{env}\n# x:"), 1),
    };
    std::fs::write(&file, head).unwrap();
    // A bandwidth that halves: slower reads the same as for a time.
    for (dir, mbs) in [(b, 200.0), (n, 100.0)] {
        let (lo, hi) = (mbs * 0.99, mbs * 1.01);
        std::fs::write(
            Path::new(dir).join("bw.dat"),
            format!(
                "# paw bw -- crafted\n# tasks: 2\n# y: bandwidth [MB/s (MB = 2^20 B)]\n\
                 # columns: SIZE AVG MIN MAX STDDEV MEDIAN NLOOP NREPS CI_LO CI_HI NOISY\n\
                 1024 {mbs} {lo} {hi} 1 {mbs} 10 5 {lo} {hi} 0\n"
            ),
        )
        .unwrap();
    }
    let slow = report(&["compare", b, n]);
    let text = String::from_utf8_lossy(&slow.stdout);
    assert_eq!(slow.status.code(), Some(1), "{text}");
    let flagged: Vec<&str> = text.lines().filter(|l| l.ends_with(" slower")).collect();
    assert_eq!(flagged.len(), 2, "{text}");
    assert_eq!(flagged[0].split_whitespace().next(), Some("1024"), "{text}");
    assert_eq!(flagged[1].split_whitespace().next(), Some("4"), "{text}");
    assert!(flagged.iter().all(|l| l.contains("+100.0%")), "{text}");
    assert!(text.contains("bw.dat: SLOWER (1 of 1 rows slower"), "{text}");
    assert!(text.contains("fixture_time-np_0002.dat: SLOWER (1 of 4 rows slower"), "{text}");
    let settings = text.lines().skip_while(|l| !l.starts_with("settings that differ"));
    let changed: Vec<&str> = settings.skip(1).take_while(|l| !l.is_empty()).collect();
    assert_eq!(changed.len(), 1, "{text}");
    assert!(
        changed[0].contains("environment OMPI_MCA_btl  (unset) -> self,tcp  (1 of 2 files)"),
        "{text}"
    );

    // Different benchmarks: the unmatched files are listed, not an error.
    let other = tempfile::tempdir().unwrap();
    Launch::mpi(bin("latency"), 2).env("PAW_OUTPUT_DIR", other.path().display()).run().success();
    let apart = report(&["compare", b, other.path().to_str().unwrap()]);
    let text = String::from_utf8_lossy(&apart.stdout);
    assert!(apart.status.success(), "{text}");
    assert!(text.contains(&format!("only in {b}: fixture_time-np_0002.dat")), "{text}");
    assert!(text.contains("latency.dat") && text.contains("0 rows compared"), "{text}");
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
