//! References made from several runs, checked against another run: on this machine, with
//! nothing else running (the measuring tests of one test binary run one after another).

use paw_test::binaries::bin;
use paw_test::Launch;
use std::path::Path;
use std::process::Command;

fn report(args: &[&str]) -> std::process::Output {
    Command::new(bin("paw-report")).args(args).output().expect("paw-report")
}

/// A p2p_send run at its default sample policy up to `max` bytes into `dir`.
fn p2p_send_into(dir: &Path, max: usize, btl: Option<&str>) {
    std::fs::create_dir_all(dir).unwrap();
    let mut l = Launch::mpi(bin("p2p_send"), 2)
        .unset("NREPS")
        .unset("NLOOP_MAX")
        .env("MAX_P2P_SIZE", max)
        .env("PAW_OUTPUT_DIR", dir.display());
    if let Some(btl) = btl {
        l = l.env("OMPI_MCA_btl", btl);
    }
    l.run().success();
}

#[test]
fn a_reference_of_five_runs_passes_a_sixth_and_fails_tcp_bandwidth() {
    let top = tempfile::tempdir().unwrap();
    let run = |name: &str| top.path().join(name).display().to_string();
    // Five runs: their median deviation, which sets the tolerance, is then that of the
    // three closest; with three, one run that went astray here (256 KiB bandwidth moves
    // by 15 % between runs on a noisy VM) widened it enough to pass a TCP run.
    for r in ["r1", "r2", "r3", "r4", "r5", "r6"] {
        p2p_send_into(Path::new(&run(r)), 262144, None);
    }
    let made = report(&["reference", &run("r1"), &run("r2"), &run("r3"), &run("r4"), &run("r5")]);
    let reference = String::from_utf8_lossy(&made.stdout).into_owned();
    assert!(made.status.success(), "{reference}");
    assert!(reference.contains("runs = ["), "{reference}");
    let file = top.path().join("ref.toml");
    std::fs::write(&file, &reference).unwrap();
    let check = |dir: &str| {
        let out = report(&["check", "--reference", file.to_str().unwrap(), dir]);
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, text) = check(&run("r6"));
    assert_eq!(code, Some(0), "{reference}\n{text}");
    eprintln!("measured: a sixth run against the reference of five\n{reference}\n{text}");

    if paw_test::is_open_mpi() {
        p2p_send_into(Path::new(&run("tcp")), 262144, Some("self,tcp"));
        let (code, text) = check(&run("tcp"));
        assert_eq!(code, Some(1), "{text}");
        let failed: Vec<&str> = text.lines().filter(|l| l.starts_with("FAIL  ")).collect();
        assert!(failed.iter().any(|l| l.contains("bandwidth at 262144 B")), "{text}");
    }

    // Other sizes: the missing figure names the setting that differs.
    p2p_send_into(Path::new(&run("small")), 65536, None);
    let (code, text) = check(&run("small"));
    assert_eq!(code, Some(1), "{text}");
    let line = text.lines().find(|l| l.contains("bandwidth at 262144 B")).unwrap();
    assert!(
        line.starts_with("FAIL")
            && line.contains(
                "missing from the run (reference -> run: setting MAX_P2P_SIZE: 262144 -> 65536)"
            ),
        "{text}"
    );
}
