//! paw across hosts: a cluster of network namespaces on this machine (scripts/netns-cluster),
//! with a rate-limited link as the ground truth of every bandwidth formula.
//!
//! Without root, `ip` or `tc` each test prints one line saying why and passes.

use paw_test::binaries::{bin, bin_dir, workspace};
use paw_test::cluster::{tcp_goodput, Cluster};
use paw_test::{Launch, Outcome};
use std::process::Command;
use std::time::Duration;

const MIB: f64 = 1048576.0;
/// The ground-truth link: every host sends at most this many bits per second.
const RATE_BITS: f64 = 400e6;
/// The message length of the bandwidth checks: long enough that the link, not latency or
/// the protocol's start-up, sets the time (87 ms per message at the goodput below).
const LEN: usize = 4 << 20;

/// A cluster for a test that checks what runs, not how fast: beside other such tests.
fn cluster(hosts: usize, rate: Option<&str>) -> Option<Held> {
    held(false, || Cluster::up(hosts, rate))
}

/// A cluster for a test that measures: no other test runs beside it. Another test's
/// traffic beside one host's run made it look slow (STREAM at 13 930 against 22 940-24 900
/// MB/s), and a 16-host map beside the others read their links 40 % low.
fn measured(up: impl FnOnce() -> Result<Cluster, String>) -> Option<Held> {
    held(true, up)
}

/// Taken shared by the clusters of tests that do not measure, alone by those that do.
static TURN: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// A cluster, and this test's turn beside the others.
struct Held {
    cluster: Cluster,
    _turn: Box<dyn std::any::Any>,
}

impl std::ops::Deref for Held {
    type Target = Cluster;
    fn deref(&self) -> &Cluster {
        &self.cluster
    }
}

/// The cluster `up` brings up in this test's turn (`alone`, or beside others), or `None`
/// and the line saying why the test is skipped.
fn held(alone: bool, up: impl FnOnce() -> Result<Cluster, String>) -> Option<Held> {
    let turn: Box<dyn std::any::Any> = if alone {
        Box::new(TURN.write().unwrap_or_else(|p| p.into_inner()))
    } else {
        Box::new(TURN.read().unwrap_or_else(|p| p.into_inner()))
    };
    let cluster = up().map_err(|why| eprintln!("cluster test skipped: {why}")).ok()?;
    Some(Held { cluster, _turn: turn })
}

/// Asserts `got` within `tolerance` (a fraction) of `expect`.
fn assert_near(what: &str, got: f64, expect: f64, tolerance: f64, out: &Outcome) {
    let off = got / expect - 1.0;
    assert!(
        off.abs() <= tolerance,
        "{what}: {got:.2} against the link's {expect:.2} ({:+.1} %, allowed {:.0} %)\n{}",
        off * 100.0,
        tolerance * 100.0,
        out.report()
    );
    eprintln!("{what}: {got:.2}, link {expect:.2} ({:+.1} %)", off * 100.0);
}

/// One pair across the link, each benchmark at 4 MiB: its bandwidth must be the TCP goodput
/// of the configured rate (twice that where both directions carry data), within 5 % (IMB's
/// PingPong within 10 %: it is the mean of round trips, and TCP ramps up again after each
/// change of direction). A formula off by any factor (2, 2^20/10^6, a round trip counted as
/// one message) fails here.
#[test]
#[ignore = "long: make test-long"]
fn bandwidth_on_a_rate_limited_link_is_the_link_goodput() {
    let Some(c) = measured(|| Cluster::up(2, Some("400mbit"))) else { return };
    let goodput = tcp_goodput(RATE_BITS); // bytes/s

    // Open MPI 4.1's TCP transport lets the receiver pull a long message in fragments
    // (its put flag); those requests queue behind the receiver's own outgoing data, so two
    // messages crossing on a slow link take turns (MPI_Sendrecv of 4 MiB: half the link
    // each way). The sender-driven pipeline keeps both directions busy. MPICH's UCX: its
    // rendezvous protocol loses 6 % one way and a third both ways; eager sends do not.
    let open_mpi = paw_test::is_open_mpi();
    let tuning: &[&str] = if open_mpi { &["--mca", "btl_tcp_flags", "send,inplace"] } else { &[] };
    let launch = |name: &str| {
        let l = c.launch(bin(name), 2, 1, tuning);
        if open_mpi {
            l
        } else {
            l.env("UCX_RNDV_THRESH", "inf")
        }
    };
    let len = LEN.to_string();

    // PAW's tests with PAW_COMBINE=max: the time of the task that waited for the last
    // message. (PAW's default minimum takes the task whose last send returned as soon as its
    // data sat in the socket buffer: 4 % fast here with 4 round trips a sample.)
    for (name, file, directions) in [
        ("p2p_send", "send_bw", 1.0),
        ("p2p_isend", "isend_bw", 1.0),
        ("p2p_isend_bidir", "isend_bidir_bw", 2.0),
        ("p2p_put", "put_bw", 1.0),
    ] {
        // Intel MPI's exchange both ways over libfabric's TCP (Debian's 1.17) stalls 84 ms
        // now and then when exchanges follow one another: 1-5 times in 8 samples of 4
        // exchanges, and once in all 3 of a run's. Intel's own IMB-MPI1 Sendrecv stalls
        // alike (4 MiB: 100 ms per exchange over 8 in two of three runs; the link: 89).
        // Exchanges that each start after the sample's barrier stall far less (2 in 160):
        // here each sample is one exchange, and there are 8.
        let stalls = paw_test::is_intel_mpi() && directions == 2.0;
        let (nloop, nreps) = if stalls { (1, 8) } else { (4, 3) };
        let out = launch(name)
            .env("MIN_P2P_SIZE", LEN)
            .env("MAX_P2P_SIZE", LEN)
            .env("NLOOP_MAX", nloop)
            .env("MED_P2P_SIZE", LEN)
            .env("NREPS", nreps)
            .env("PAW_COMBINE", "max")
            .timeout(Duration::from_secs(60))
            .run();
        out.success();
        let dat = out.dat(&format!("{file}-np_0002.dat"));
        assert!(dat.y_unit().unwrap_or("").contains("MB = 2^20 B"), "{}", out.report());
        let got = dat.numbers("MEDIAN")[0];
        // Both ways at once, the two TCP stacks and the shaping of both directions share
        // the machine's two cores: 2026-12-02, 81.7 and 78.6 against 91.2 (samples 92.6-115
        // ms an exchange), where one way read the link within 1 %.
        let tolerance = if directions == 2.0 { 0.15 } else { 0.05 };
        assert_near(name, got, directions * goodput / MIB, tolerance, &out);
    }

    // IMB-MPI1 PingPong: Mbytes/sec with MB = 2^20 B.
    let lengths = tempfile::NamedTempFile::new().expect("temporary file");
    std::fs::write(lengths.path(), format!("{LEN}\n")).expect("lengths file");
    let imb = launch("IMB-MPI1")
        .args(["PingPong", "-iter", "10", "-msglen"])
        .arg(lengths.path().display())
        .timeout(Duration::from_secs(60))
        .run();
    imb.success();
    let row = imb
        .stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|w| w.len() == 4 && w[0] == len)
        .unwrap_or_else(|| panic!("no PingPong row for {LEN} B\n{}", imb.report()));
    let mbytes: f64 = row[3].parse().expect("Mbytes/sec");
    assert_near("IMB-MPI1 PingPong", mbytes, goodput / MIB, 0.10, &imb);

    // b_eff's ping-pong and first ring pattern at Lmax = 512 MiB / 128 = 4 MiB (MB = 10^6 B).
    // With two processes the ring sends each way twice a step: both directions are busy.
    let beff = launch("b_eff")
        .args(["-short", "-mem", "512", "-pattern", "pingpong,ring1"])
        .timeout(Duration::from_secs(60))
        .run();
    beff.success();
    let at_lmax = |pattern: &str| -> f64 {
        let line = beff.stdout.lines().find(|l| l.starts_with(pattern));
        let line = line.unwrap_or_else(|| panic!("no {pattern} line\n{}", beff.report()));
        line.split_whitespace().last().and_then(|v| v.parse().ok()).expect("MB/s at Lmax")
    };
    assert_near("b_eff pingpong at Lmax", at_lmax("pingpong"), goodput / 1e6, 0.05, &beff);
    assert_near("b_eff ring1 at Lmax", at_lmax("ring1-"), 2.0 * goodput / 1e6, 0.05, &beff);

    // PRESTA com: MB = 10^6 B; 8 messages per sample and, by PRESTA's definition, one
    // sample per size. With both directions busy over TCP on this link, a single sample of
    // 8 exchanges now and then loses 40-120 ms (6-13 % low; 8 of 27 samples in 20 runs
    // here, no retransmission counted), with PRESTA's own com as much as with paw's
    // (doc/presta.md); p2p_isend_bidir's single samples do the same, and its median hides
    // it. So com runs until a bidirectional sample reaches 95 % of the link, at most 8
    // times (all eight low by chance: below 1 in 10^4), and that sample must be within 5 %
    // of the link, so a formula off either way still fails.
    let link = 2.0 * goodput / 1e6;
    let mut samples = Vec::new();
    for attempt in 1..=8 {
        let out = launch("com")
            .args(["-o", "8", "-b", &len, "-e", &len])
            .timeout(Duration::from_secs(60))
            .run();
        out.success();
        if attempt == 1 {
            let uni = out.dat("com_unidirectional_bw-np_0002.dat").numbers("P2")[0];
            assert_near("com unidirectional", uni, goodput / 1e6, 0.05, &out);
        }
        let bi = out.dat("com_bidirectional_bw-np_0002.dat").numbers("P2")[0];
        samples.push(bi);
        if bi >= 0.95 * link || attempt == 8 {
            eprintln!("com bidirectional samples: {samples:.2?}");
            assert_near("com bidirectional", bi, link, 0.05, &out);
            break;
        }
    }
}

/// Two hosts: the header names both and where every task ran; a collective spread over the
/// hosts (two tasks on each) passes its data check; and the one-way latency over the link
/// is that of TCP between hosts, not shared memory.
#[test]
fn two_hosts_appear_in_the_header_and_collectives_span_them() {
    let Some(c) = cluster(2, None) else { return };
    let (h1, h2) = (c.host_name(1), c.host_name(2));

    let out = c.launch(bin("latency"), 2, 1, &[]).timeout(Duration::from_secs(60)).run();
    out.success();
    let dat = out.dat("latency.dat");
    assert_eq!(
        dat.header_value("hosts"),
        Some(format!("{h1} (1 task), {h2} (1 task)").as_str()),
        "{}",
        out.report()
    );
    let placement = dat.header_value("placement").expect("placement line");
    assert!(placement.starts_with(&format!("{h1} cpus=")), "{placement}");
    assert!(placement.contains(&format!("; {h2} cpus=")), "{placement}");
    // Over TCP through two veth links and a bridge: tens of microseconds here, against a
    // fraction of one over shared memory.
    let median = dat.numbers("MEDIAN")[0];
    assert!(median > 2.0 && median < 5000.0, "latency {median} usec\n{}", out.report());
    eprintln!("2-host latency: {median:.1} usec");

    // Two tasks a host where the machine has the cores for four busy-polling tasks.
    let (np, slots) = if paw_test::crowded(4) { (2, 1) } else { (4, 2) };
    let out = c
        .launch(bin("col_ardc"), np, slots, &[])
        .env("PAW_CHECK", 1)
        .timeout(Duration::from_secs(60))
        .run();
    out.success();
    let dat = out.dat(&format!("ardc_time-np_{np:04}.dat"));
    let per = |n: usize| format!("{n} task{}", if n == 1 { "" } else { "s" });
    assert_eq!(
        dat.header_value("hosts"),
        Some(format!("{h1} ({}), {h2} ({})", per(slots), per(slots)).as_str()),
        "{}",
        out.report()
    );
    assert!(dat.cells("CHECK").iter().all(|c| c == "pass"), "{}", out.report());
    assert_eq!(dat.numbers("SIZE").len(), 13, "{}", out.report());
}

/// scripts/initest over 1, 2 and 4 hosts (a task each): one row per count in the gathered
/// files, each run naming as many hosts as it had tasks. (Under MPICH on a machine with
/// fewer than 4 cores, 1 and 2: its tasks poll without yielding and 4 crowd 2 cores.)
#[test]
fn initest_sweeps_one_two_and_four_hosts() {
    let counts = paw_test::task_counts(&[1, 2, 4]);
    let Some(c) = cluster(*counts.last().expect("one task fits"), None) else { return };
    let runner = format!("{} run", paw_test::cluster::script().display());
    let out = Launch::direct(workspace().join("scripts/initest"))
        .args(counts.iter().map(|n| n.to_string()))
        .env("MPIRUN", runner)
        .env("NETNS_MPIRUN", paw_test::launcher())
        .env("NETNS_CLUSTER", c.prefix())
        .env("BINDIR", bin_dir().display())
        .timeout(Duration::from_secs(180))
        .run();
    out.success();
    for stem in ["init", "init_th"] {
        let all = out.dat(&format!("time_{stem}.dat"));
        let tasks: Vec<f64> = counts.iter().map(|&n| n as f64).collect();
        assert_eq!(all.numbers("TASKS"), tasks, "{}", out.report());
        assert!(all.numbers("TMAX").iter().all(|&t| t > 0.0 && t < 60.0), "{}", out.report());
    }
    let text = std::fs::read_to_string(out.dir.path().join("time_init.dat")).expect("gathered");
    let runs: Vec<&str> = text.lines().filter(|l| l.starts_with("# run: ")).collect();
    assert_eq!(runs.len(), counts.len(), "{text}");
    for (line, &n) in runs.iter().zip(&counts) {
        let hosts = line.split("hosts ").nth(1).unwrap_or("");
        let each: Vec<String> = (1..=n).map(|i| format!("{} (1 task)", c.host_name(i))).collect();
        assert_eq!(hosts, each.join(", "), "{line}");
    }
}

/// The script refuses what it cannot do with one line, and `down` leaves nothing behind.
#[test]
fn the_script_refuses_bad_input_and_cleans_up() {
    let Some(c) = cluster(1, None) else { return };
    for (args, needle) in [
        (vec!["up", "0"], "host count 0 is not accepted; use 1 to 250"),
        (vec!["up", "2", "--speed", "1"], "unknown argument '--speed' to up"),
        (vec!["up", "1"], "is already up"),
        (vec!["frobnicate"], "unknown command 'frobnicate'"),
        (vec!["run", "--slots", "x", "true"], "--slots 'x' is not accepted"),
    ] {
        let out = c.script_command().args(&args).output().expect("run the script");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let ns = || {
        String::from_utf8_lossy(
            &Command::new("ip").args(["netns", "list"]).output().unwrap().stdout,
        )
        .into_owned()
    };
    assert!(ns().contains(&c.host_name(1)), "{}", ns());
    let prefix = c.prefix().to_string();
    drop(c);
    let left: Vec<String> =
        ns().lines().filter(|l| l.starts_with(&format!("{prefix}-"))).map(String::from).collect();
    assert!(left.is_empty(), "namespaces left: {left:?}");
    assert!(!std::path::Path::new(&format!("/run/paw-netns/{prefix}")).exists());
}

/// A node test launched over two hosts, one copy each, runs without MPI in each copy and
/// writes one result set per host, in a directory named after it; two copies on one host
/// are refused by both.
#[test]
fn a_node_test_over_two_hosts_writes_a_result_set_per_host() {
    let Some(c) = cluster(2, None) else { return };
    let stream = |np, slots| {
        c.launch(bin("stream"), np, slots, &[])
            .env("STREAM_ARRAY_SIZE", 1_000_000)
            .env("NREPS", 3)
            .env("RAYON_NUM_THREADS", 1)
            .timeout(Duration::from_secs(60))
            .run()
    };
    let out = stream(2, 1);
    out.success();
    for i in [1, 2] {
        let host = c.host_name(i);
        let dat = out.dat(&format!("{host}/stream_bw-np_0001.dat"));
        assert_eq!(dat.header_value("hosts"), Some(format!("{host} (1 task)").as_str()));
        assert_eq!(dat.numbers("MAX").len(), 4, "four kernels\n{}", out.report());
        let said = |l: &str| l.starts_with("stream: one of 2 copies") && l.ends_with(&host);
        assert!(out.stdout.lines().any(said), "{}", out.report());
    }
    assert!(!out.files().iter().any(|f| f.ends_with(".dat")), "{:?}", out.files());

    let out = stream(2, 2);
    out.failure("2 copies of stream were started on host");
    assert!(out.files().is_empty(), "{:?}", out.files());
}

/// The fabric map on 4 hosts: with host 3's link at a quarter of the others' rate, p2p_matrix
/// names host 3 as a slow node and nothing else, and the links' bandwidth is the TCP goodput
/// of their slower end's rate (their median within 10 %, each link between 60 % and 110 %);
/// with every link alike, nothing is named after the retest.
#[test]
#[ignore = "long: make test-long"]
fn the_fabric_map_names_the_slow_host_and_only_it() {
    const SLOW_BITS: f64 = 100e6;
    let Some(tuning) = map_tuning() else { return };
    let map = |c: &Cluster, retest: bool| {
        let out = c
            .launch(bin("p2p_matrix"), 4, 1, &tuning)
            // The single pass's figures and verdict, or with the retest, the verdict a user
            // gets: a single pass on two shared cores can read one link 30 % low.
            .env("MATRIX_RETEST", retest as u8)
            // 8 MiB a sample: TCP's ramp after each idle spell stays a small part of it.
            .env("MATRIX_SIZE", 1 << 20)
            .env("MATRIX_WINDOW", 8)
            .env("MATRIX_SAMPLES", 5)
            .env("MATRIX_LAT_ITERS", 20)
            .timeout(Duration::from_secs(120))
            .run();
        out.success();
        let dat = out.dat("matrix_bw-np_0004.dat");
        let hosts: Vec<String> = (1..=4).map(|i| c.host_name(i)).collect();
        assert_eq!(dat.cells("HOST"), hosts, "rows named by host\n{}", out.report());
        assert_eq!(&dat.columns[1..], &hosts[..], "columns named by host\n{}", out.report());
        for f in ["matrix_bw-np_0004.png", "matrix_lat-np_0004.png", "matrix_lat-np_0004.csv"] {
            assert!(out.files().contains(&f.to_string()), "{f}\n{}", out.report());
        }
        (out, dat, hosts)
    };
    let value = |dat: &paw_report::Dat, i: usize, j: usize| -> f64 {
        dat.rows[i][j + 1]
            .parse()
            .unwrap_or_else(|_| panic!("row {i} column {j}: {:?}", dat.rows[i]))
    };

    let Some(c) = measured(|| Cluster::up_with_slow(4, Some("400mbit"), &[(3, "100mbit")])) else {
        return;
    };
    let (out, dat, hosts) = map(&c, false);
    let named: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("slow ")).collect();
    assert_eq!(named.len(), 1, "one slow node and nothing else named\n{}", out.report());
    assert!(named[0].starts_with(&format!("slow node: {} (", hosts[2])), "{}", out.report());
    eprintln!(
        "measured: fabric map, MB/s\n{}",
        dat.rows.iter().map(|r| r.join(" ")).collect::<Vec<_>>().join("\n")
    );
    // The median of the fast and of the slow links within 10 % of their goodput; each link
    // at most 10 % above it (the shaping's bound) and above 60 % of it (never near a slower
    // rate): four tasks and their TCP stacks share two cores, and single fast links read
    // 15-25 % low in some runs here (h4 -> h1, 34.5 against 45.6) while the medians stayed
    // within 6 %.
    let mut by_rate: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for i in 0..4 {
        for j in (0..4).filter(|&j| j != i) {
            let slow = i == 2 || j == 2;
            let goodput = tcp_goodput(if slow { SLOW_BITS } else { RATE_BITS }) / MIB;
            let got = value(&dat, i, j);
            let what =
                format!("{} -> {}: {got:.2} against the link's {goodput:.2}", hosts[i], hosts[j]);
            assert!(got <= 1.10 * goodput && got >= 0.60 * goodput, "{what}\n{}", out.report());
            eprintln!("{what} ({:+.1} %)", (got / goodput - 1.0) * 100.0);
            by_rate[slow as usize].push(got);
        }
    }
    for (links, rate) in by_rate.iter().zip([RATE_BITS, SLOW_BITS]) {
        let median = paw_core::median(links);
        assert_near("median link", median, tcp_goodput(rate) / MIB, 0.10, &out);
    }
    drop(c);

    let Some(c) = measured(|| Cluster::up(4, Some("400mbit"))) else { return };
    let (out, _, _) = map(&c, true);
    assert!(out.stdout.lines().all(|l| !l.starts_with("slow ")), "{}", out.report());
    assert!(out.stdout.contains("no slow node or link"), "{}", out.report());
}

/// The lines of a fabric map's verdict that name something.
fn named(out: &Outcome) -> Vec<&str> {
    out.stdout.lines().filter(|l| l.starts_with("slow ")).collect()
}

/// Open MPI's settings for a map over the namespace cluster; `None` (and a line) on MPICH.
fn map_tuning() -> Option<[&'static str; 6]> {
    if !paw_test::is_open_mpi() {
        // Seen here with p2p_matrix and IMB-MPI1 alike: 1 run in 3 to 6 never leaves
        // MPI_Finalize, one task polling UCX's TCP transport, the others in the PMI barrier.
        eprintln!(
            "fabric map test skipped: it runs on Open MPI only (MPICH's UCX TCP transport \
             hangs now and then in MPI_Finalize once every pair of 4 hosts has talked, \
             openucx/ucx#8738; Intel MPI's libfabric TCP is not tried here)"
        );
        return None;
    }
    // Both directions of every host carry data at once: see the goodput test above. The
    // tasks share this machine's two cores, and a task polling for its messages must not
    // keep the CPU from one that has data to push into its socket.
    Some(["--mca", "btl_tcp_flags", "send,inplace", "--mca", "mpi_yield_when_idle", "1"])
}

/// The retest: on 4 hosts with host 3 slow, link 1 -> 2 runs at an eighth of its rate
/// during the first shift only (a burst of other traffic on it). Judged in one pass, the
/// map names that healthy link beside host 3; with the retest, the link is measured again
/// after the burst, cleared, and only host 3 is named.
#[test]
#[ignore = "long: make test-long"]
fn a_burst_during_the_first_pass_is_cleared_by_the_retest() {
    let Some(tuning) = map_tuning() else { return };
    let Some(c) = measured(|| {
        Cluster::up_with(4, Some("400mbit"), &[(3, "100mbit")], &[(1, 2, "50mbit")], &[])
    }) else {
        return;
    };
    let link = |rate: &str| {
        let out =
            c.script_command().args(["link", "1", "2", rate]).output().expect("netns-cluster");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    let (h1, h2, h3) = (c.host_name(1), c.host_name(2), c.host_name(3));
    let map = |retest: u8| {
        link("50mbit");
        let out = c
            .launch(bin("p2p_matrix"), 4, 1, &tuning)
            .env("MATRIX_RETEST", retest)
            .env("MATRIX_SIZE", 512 << 10)
            .env("MATRIX_WINDOW", 2)
            .env("MATRIX_SAMPLES", 3)
            .env("MATRIX_LAT_ITERS", 20)
            .timeout(Duration::from_secs(120))
            // The burst ends when the first shift (node i to i+1: 1 -> 2 among them) does.
            .run_reacting(|err| {
                let done = err.contains("bandwidth shift 2 of 3");
                if done {
                    link("400mbit");
                }
                done
            });
        out.success();
        eprintln!("MATRIX_RETEST={retest}:\n{}", out.stdout);
        out
    };
    let single = map(0);
    let lines = named(&single);
    assert_eq!(lines.len(), 2, "host 3 and the burst's link\n{}", single.report());
    assert!(lines[0].starts_with(&format!("slow node: {h3} (")), "{}", single.report());
    assert!(lines[1].starts_with(&format!("slow link: {h1} -> {h2} (")), "{}", single.report());

    let retested = map(1);
    let lines = named(&retested);
    assert_eq!(lines.len(), 1, "host 3 alone\n{}", retested.report());
    assert!(lines[0].starts_with(&format!("slow node: {h3} (")), "{}", retested.report());
    let cleared = format!("retested {h1} -> {h2}: first pass ");
    let line = retested.stdout.lines().find(|l| l.starts_with(&cleared));
    assert!(line.is_some_and(|l| l.ends_with(": cleared")), "{}", retested.report());
    let json = std::fs::read_to_string(retested.dir.path().join("matrix_verdict-np_0004.json"));
    let json: serde_json::Value = serde_json::from_str(&json.expect("the verdict's JSON")).unwrap();
    // The burst's link among the first pass's suspects (two shared cores may add a noisy
    // one, which the retest clears as well), none after the retest.
    let first = json["first_pass"]["bandwidth"]["slow_links"].as_array().cloned();
    let burst = serde_json::json!([h1, h2]);
    assert!(first.is_some_and(|f| f.contains(&burst)), "{}", retested.report());
    assert_eq!(json["bandwidth"]["slow_links"], serde_json::json!([]));
    assert_eq!(json["bandwidth"]["slow_nodes"], serde_json::json!([h3]));
}

/// Sixteen hosts at 100 Mbit/s, with host 7 at 25 Mbit/s both ways and link 3 -> 12 at
/// 25 Mbit/s one way: five maps name exactly host 7 and that link; with every link equal,
/// five maps name nothing. Quick settings: 128 KiB a sample, 3 samples, so the links'
/// burst is 16 KiB (with 64 KiB, a sample that starts with a full bucket reads up to twice
/// the rate, and an 8-host map once named a healthy host against that inflated median).
#[test]
#[ignore = "long: make test-long"]
fn sixteen_hosts_name_the_slow_host_and_link_and_nothing_else() {
    const BURST: [&str; 2] = ["--burst", "16kb"];
    let Some(tuning) = map_tuning() else { return };
    let maps = |c: &Cluster, check: &dyn Fn(&Outcome)| {
        for run in 1..=5 {
            let out = c
                .launch(bin("p2p_matrix"), 16, 1, &tuning)
                .env("MATRIX_SIZE", 64 << 10)
                .env("MATRIX_WINDOW", 2)
                .env("MATRIX_SAMPLES", 3)
                .env("MATRIX_LAT_ITERS", 10)
                .timeout(Duration::from_secs(120))
                .run();
            out.success();
            eprintln!("16 hosts, run {run} ({:.1?}):\n{}", out.elapsed, out.stdout);
            check(&out);
        }
    };
    let Some(c) = measured(|| {
        Cluster::up_with(16, Some("100mbit"), &[(7, "25mbit")], &[(3, 12, "25mbit")], &BURST)
    }) else {
        return;
    };
    let (h3, h7, h12) = (c.host_name(3), c.host_name(7), c.host_name(12));
    maps(&c, &|out| {
        let lines = named(out);
        assert_eq!(lines.len(), 2, "host 7 and link 3 -> 12\n{}", out.report());
        assert!(lines[0].starts_with(&format!("slow node: {h7} (")), "{}", out.report());
        assert!(lines[1].starts_with(&format!("slow link: {h3} -> {h12} (")), "{}", out.report());
    });
    drop(c);
    let Some(c) = measured(|| Cluster::up_with(16, Some("100mbit"), &[], &[], &BURST)) else {
        return;
    };
    maps(&c, &|out| {
        assert!(named(out).is_empty(), "{}", out.report());
        assert!(out.stdout.contains("no slow node or link"), "{}", out.report());
    });
}

/// Fan-in across 8 hosts at 100 Mbit/s, host 1's link limited both ways as the others',
/// its switch port queueing up to 100 ms (at 10 ms, TCP's losses among 7 senders cost
/// 4-14 % in a third of the runs): what task 0 receives from the 7 others, and what it
/// sends them, is its link's TCP goodput within 5 %; every task's share is printed.
#[test]
#[ignore = "long: make test-long"]
fn fan_in_across_eight_hosts_is_the_receivers_link() {
    let Some(tuning) = map_tuning() else { return };
    let Some(c) = measured(|| {
        Cluster::up_with(8, Some("100mbit"), &[(1, "100mbit")], &[], &["--queue", "100ms"])
    }) else {
        return;
    };
    let goodput = tcp_goodput(100e6) / MIB;
    for (name, stem) in [("p2p_fan_in", "fan_in"), ("p2p_fan_out", "fan_out")] {
        let out = c
            .launch(bin(name), 8, 1, &tuning)
            .env("MIN_P2P_SIZE", 1 << 20)
            .env("MAX_P2P_SIZE", 1 << 20)
            // Two messages in flight from each sender: with one, a sender's 1 MiB fits in
            // its socket and the switch's queue, and its share read 25.7 MiB/s.
            .env("WINDOW_SIZE", 14)
            .env("NLOOP_MAX", 1)
            .env("NREPS", 5)
            .env("PAW_COMBINE", "max")
            .timeout(Duration::from_secs(120))
            .run();
        out.success();
        let got = out.dat(&format!("{stem}_bw-np_0008.dat")).numbers("MEDIAN")[0];
        let shares = out.dat(&format!("{stem}_share-np_0008.dat"));
        let each: Vec<f64> = (1..8).map(|p| shares.numbers(&format!("TASK{p}"))[0]).collect();
        assert!(each.iter().all(|&v| v > 0.0 && v < 2.0 * goodput), "{each:?}\n{}", out.report());
        eprintln!("{name}: {got:.2} MB/s through task 0, link {goodput:.2}; shares {each:.2?}");
        assert_near(name, got, goodput, 0.05, &out);
    }
}

/// Node outliers on 4 hosts: STREAM and DGEMM started once per host write a directory per
/// host; with host 3's processes in a control group at half a CPU, `paw-report summary`
/// names host 3 as a slow node and no other. The copies take turns (a lock), so that each
/// measures this machine alone, as each node of a real cluster measures its own.
#[test]
#[ignore = "long: make test-long"]
fn node_outliers_name_the_slow_host_and_only_it() {
    let Some(c) = measured(|| Cluster::up(4, None)) else { return };
    let throttle = match paw_test::cgroup::Throttle::new(0.5) {
        Ok(t) => t,
        Err(why) => {
            eprintln!("node outlier test skipped: {why}");
            return;
        }
    };
    let results = tempfile::tempdir().expect("results directory");
    let slow = c.host_name(3);
    let wrapper = results.path().join("one-at-a-time");
    let lock = results.path().join("lock");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\n[ \"$(hostname)\" = {slow} ] && echo $$ > {}\nexec flock {} \"$@\"\n",
            throttle.procs().display(),
            lock.display()
        ),
    )
    .unwrap();
    let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&wrapper, executable).unwrap();
    let nodes = results.path().join("nodes");
    std::fs::create_dir(&nodes).unwrap();
    for test in ["stream", "blas_dgemm_single"] {
        c.launch(&wrapper, 4, 1, &[])
            .arg(bin(test).display())
            .env("PAW_OUTPUT_DIR", nodes.display())
            // Each sample long against the 1 ms quota period: 240 MB a Triad pass.
            .env("STREAM_ARRAY_SIZE", 10_000_000)
            .env("MAX_BLAS_SIZE", 800)
            // The best of many samples: this machine's memory bandwidth varies a lot.
            .env("NREPS", 20)
            .timeout(Duration::from_secs(240))
            .run()
            .success();
    }
    for i in 1..=4 {
        assert!(nodes.join(c.host_name(i)).is_dir(), "no directory of {}", c.host_name(i));
    }
    let out = Command::new(bin("paw-report")).arg("summary").arg(&nodes).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    eprintln!("measured: node table\n{text}");
    let named: Vec<&str> =
        text.lines().map(str::trim).filter(|l| l.starts_with("slow node")).collect();
    // Where each copy ran, should a healthy host read slow (its CPUs, its threads).
    let mut placed = String::new();
    for i in 1..=4 {
        for entry in std::fs::read_dir(nodes.join(c.host_name(i))).unwrap().flatten() {
            let file = std::fs::read_to_string(entry.path()).unwrap_or_default();
            let lines =
                file.lines().filter(|l| l.starts_with("# placement") || l.contains("thread"));
            lines
                .for_each(|l| placed += &format!("{}: {l}\n", entry.file_name().to_string_lossy()));
        }
    }
    assert_eq!(named.len(), 1, "one slow node and nothing else named\n{text}\n{placed}");
    assert!(named[0].starts_with(&format!("slow node: {slow} (")), "{text}");
}
