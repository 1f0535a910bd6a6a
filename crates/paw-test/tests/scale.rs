//! A qualification's steps at P = 256 tasks on this machine (oversubscribed, each task
//! yielding its core when idle): the plan for 256 one-task nodes, then core, the
//! all-to-all family of col at the planned sizes, the planned quick map of the tasks
//! (MATRIX_PER_TASK=1), the fan tests and IMB-MPI1's Alltoall at the planned lengths; node 0's peak memory and
//! the headers' size held below stated bounds. Each step's time, memory and header size
//! are printed (`--nocapture`), for doc/scale.md.

use paw_test::binaries::{bin, workspace};
use paw_test::{is_open_mpi, Launch, Outcome};
use std::collections::BTreeMap;
use std::process::Command;
use std::time::{Duration, Instant};

const P: usize = 256;

/// The plan's settings for `P` one-task nodes sharing this machine's memory.
fn plan() -> BTreeMap<String, String> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").expect("/proc/meminfo");
    let kib: f64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("MemTotal");
    let per_node = format!("{:.3}", kib / (1u64 << 20) as f64 / P as f64);
    let args = ["plan", "--nodes", "256", "--tasks-per-node", "1", "--memory", &per_node];
    let out = Command::new(bin("paw-report")).args(args).output().expect("paw-report runs");
    eprintln!("{}", String::from_utf8_lossy(&out.stdout));
    let env = Command::new(bin("paw-report")).args(args).args(["--format", "env"]).output();
    let env = env.expect("paw-report runs");
    assert!(env.status.success(), "{}", String::from_utf8_lossy(&env.stderr));
    String::from_utf8_lossy(&env.stdout)
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.trim_matches('\'').to_string()))
        .collect()
}

/// `program` on P tasks, crowded onto this machine's cores.
fn crowded(program: &str) -> Launch {
    Launch::mpi(bin(program), P)
        .launcher_args(["--mca", "mpi_yield_when_idle", "1"])
        .env("NREPS", 3)
        .env("NLOOP", 1)
        .timeout(Duration::from_secs(900))
}

/// Runs a step, printing its time, rank 0's peak memory and its headers' size.
fn step(name: &str, launch: Launch) -> Outcome {
    let start = Instant::now();
    let out = launch.run();
    out.success();
    let records: Vec<serde_json::Value> = out
        .files()
        .iter()
        .filter(|f| f.ends_with(".json") && !f.starts_with("matrix_verdict"))
        .map(|f| std::fs::read_to_string(out.dir.path().join(f)).expect("a record"))
        .map(|t| serde_json::from_str(&t).expect("a JSON record"))
        .collect();
    let peak = records.iter().filter_map(|r| r["peak_memory_mib"].as_f64()).fold(0.0, f64::max);
    let header = out
        .dat_files()
        .iter()
        .map(|f| std::fs::read_to_string(out.dir.path().join(f)).expect("a .dat file"))
        .map(|t| t.lines().take_while(|l| l.starts_with('#')).map(|l| l.len() + 1).sum::<usize>())
        .max()
        .unwrap_or(0);
    eprintln!(
        "measured: {name} at {P} tasks: {:.1} s, rank 0's peak memory {peak:.1} MiB, largest \
         header {header} B",
        start.elapsed().as_secs_f64()
    );
    assert!(peak > 0.0 && peak < 512.0, "{name}: rank 0's peak memory {peak} MiB");
    assert!(header < 16 << 10, "{name}: a header of {header} B");
    out
}

#[test]
#[ignore = "long: make test-long"]
fn two_hundred_fifty_six_tasks_run_a_qualifications_steps() {
    if !is_open_mpi() {
        eprintln!("skipped: {P} tasks on this machine's cores need Open MPI's yield when idle");
        return;
    }
    let planned = plan();
    let size = planned.get("PLAN_MAX_COL_SIZE").filter(|s| !s.is_empty());
    let size: usize = size.map_or(100_000, |s| s.parse().expect("a size"));
    // 2 P size per task at the planned size within the plan's share, or the default.
    assert!(size <= 100_000, "{planned:?}");

    let results = tempfile::tempdir().expect("a directory");
    let core = Command::new("sh")
        .arg(workspace().join("scripts/run-core"))
        .env("NP", P.to_string())
        .env("MPIFLAGS", "--oversubscribe --mca mpi_yield_when_idle 1")
        .env("BINDIR", bin("latency").parent().expect("a directory"))
        .env("RESULTS", results.path())
        .env("CORE_BLAS_SIZE", "200")
        .env("MAX_P2P_SIZE", "4096")
        .env("NREPS", "3")
        .status()
        .expect("run-core starts");
    assert!(core.success(), "run-core at {P} tasks");

    // The planned size alone: the buffers it needs are what the plan sized.
    for b in ["col_a2a", "col_agtr", "col_gtr"] {
        let out = step(
            b,
            crowded(b)
                .env("MAX_COL_SIZE", size)
                .env("MED_COL_SIZE", size)
                .env("MIN_COL_SIZE", size),
        );
        let np = format!("{P:04}");
        let stem = b.trim_start_matches("col_");
        assert!(out.files().iter().any(|f| f.ends_with(&format!("-np_{np}.dat"))), "{stem}");
    }

    // The quick map the plan chooses above 64 nodes.
    let shifts = planned.get("PLAN_MATRIX_SHIFTS").cloned().unwrap_or_default();
    assert_eq!(shifts, "32", "{planned:?}");
    let map = step(
        "p2p_matrix",
        crowded("p2p_matrix")
            .env("MATRIX_SHIFTS", shifts)
            .env("MATRIX_PER_TASK", 1)
            .env("MATRIX_SIZE", 4096)
            .env("MATRIX_SAMPLES", 1)
            .env("MATRIX_LAT_ITERS", 10),
    );
    let dat = map.dat("matrix_bw-np_0256.dat");
    assert_eq!(dat.rows.len(), P, "a row per task\n{}", map.report());
    let verdict =
        map.stdout.lines().filter(|l| l.starts_with("uniformly") || l.starts_with("slow "));
    eprintln!("p2p_matrix at {P}: {}", verdict.collect::<Vec<_>>().join("\n"));

    for b in ["p2p_fan_in", "p2p_fan_out"] {
        let out = step(b, crowded(b).env("MIN_P2P_SIZE", 32768).env("MAX_P2P_SIZE", 65536));
        let stem = b.trim_start_matches("p2p_");
        assert_eq!(out.dat(&format!("{stem}_bw-np_0256.dat")).rows.len(), 2, "32, 64 KiB");
    }

    let planned_imb = planned.get("PLAN_IMB_MPI1_ARGS").cloned().unwrap_or_default();
    assert!(planned_imb.contains("-msglog"), "Alltoall sized by the plan: {planned_imb:?}");
    let mut args: Vec<String> = planned_imb.split_whitespace().map(String::from).collect();
    if !args.iter().any(|a| a == "-npmin") {
        args.extend(["-npmin".into(), P.to_string()]);
    }
    args.extend(["-iter".into(), "20".into(), "-time".into(), "0.5".into(), "Alltoall".into()]);
    let imb = step("IMB-MPI1 Alltoall", crowded("IMB-MPI1").args(&args));
    assert!(imb.stdout.contains(&format!("#processes = {P}")), "{}", imb.report());
}
