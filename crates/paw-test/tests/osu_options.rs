//! OSU's options on paw's binaries: each gives the same settings as its environment twin,
//! the header says where a value came from, and a variable set both ways differently stops
//! the run on every task.

use paw_test::binaries::bin;
use paw_test::{Launch, Outcome};

/// The header's `settings:` line of `file` (but the run's own directory) and its
/// `options:` line.
fn header(out: &Outcome, file: &str) -> (String, Option<String>) {
    let dat = out.dat(file);
    let settings = dat.header_value("settings").expect("a settings line");
    let words: Vec<&str> =
        settings.split_whitespace().filter(|w| !w.starts_with("PAW_OUTPUT_DIR=")).collect();
    let settings = words.join(" ");
    (settings, dat.header_value("options").map(String::from))
}

#[test]
fn each_option_gives_the_settings_of_its_environment_twin() {
    let by_options = Launch::mpi(bin("p2p_send"), 2)
        .unset("MIN_P2P_SIZE")
        .unset("MED_P2P_SIZE")
        .unset("MAX_P2P_SIZE")
        .args(["-m", "2:8", "-i", "5", "-x", "3", "-c"])
        .run();
    by_options.success();
    let by_env = Launch::mpi(bin("p2p_send"), 2)
        .unset("MED_P2P_SIZE")
        .env("MIN_P2P_SIZE", 2)
        .env("MAX_P2P_SIZE", 8)
        .env("NLOOP", 5)
        .env("PAW_WARMUP", 3)
        .env("PAW_CHECK", 1)
        .run();
    by_env.success();
    let (opt_settings, options) = header(&by_options, "send_time-np_0002.dat");
    let (env_settings, none) = header(&by_env, "send_time-np_0002.dat");
    assert_eq!(opt_settings, env_settings);
    for v in ["MIN_P2P_SIZE=2", "MAX_P2P_SIZE=8", "NLOOP=5", "PAW_WARMUP=3", "PAW_CHECK=1"] {
        assert!(opt_settings.split_whitespace().any(|w| w == v), "{v}: {opt_settings}");
    }
    assert_eq!(
        options.as_deref(),
        Some("PAW_CHECK from -c; NLOOP from -i 5; PAW_WARMUP from -x 3; MIN_P2P_SIZE, MAX_P2P_SIZE from -m 2:8")
    );
    assert_eq!(none, None, "nothing came from an option");
    let dat = by_options.dat("send_time-np_0002.dat");
    assert_eq!(dat.numbers("SIZE"), [2.0, 4.0, 8.0]);
    assert!(dat.numbers("NLOOP").iter().all(|&n| n == 5.0));
    assert!(dat.cells("CHECK").iter().all(|c| c == "pass"), "{:?}", dat.cells("CHECK"));

    // -z is PAW_TAIL=1000 (on a binary with tail columns), long forms are taken too.
    let tail = Launch::mpi(bin("latency"), 2).args(["-z", "--iterations=20"]).run();
    tail.success();
    let twin = Launch::mpi(bin("latency"), 2).env("PAW_TAIL", 1000).env("NLOOP", 20).run();
    twin.success();
    assert_eq!(header(&tail, "latency.dat").0, header(&twin, "latency.dat").0);
    assert!(tail.dat("latency.dat").numbers("P99").iter().all(|&p| p > 0.0));

    // -d cuda SRC DST is PAW_BUFFER: H H is host, ...
    let host = Launch::mpi(bin("latency"), 2).args(["-d", "cuda", "H", "H"]).run();
    host.success();
    let twin = Launch::mpi(bin("latency"), 2).env("PAW_BUFFER", "host").run();
    twin.success();
    let (settings, options) = header(&host, "latency.dat");
    assert_eq!(settings, header(&twin, "latency.dat").0);
    assert!(settings.split_whitespace().any(|w| w == "PAW_BUFFER=host"), "{settings}");
    assert_eq!(options.as_deref(), Some("PAW_BUFFER from -d cuda H H"));
    // ... and D H asks for GPU memory, which a library that is not CUDA-aware, or a machine
    // without a GPU, refuses on every task.
    let device = Launch::mpi(bin("latency"), 2).args(["-d", "cuda", "D", "H"]).run();
    if device.code == Some(0) {
        let (settings, _) = header(&device, "latency.dat");
        assert!(settings.split_whitespace().any(|w| w == "PAW_BUFFER=device,host"), "{settings}");
    } else {
        device.failure("PAW_BUFFER");
        assert_eq!(device.code, Some(2), "{}", device.report());
    }
}

#[test]
fn a_variable_set_both_ways_differently_is_one_line_and_exit_2() {
    let out = Launch::mpi(bin("p2p_send"), 2).env("NLOOP", 6).args(["-i", "5"]).run();
    out.failure("NLOOP=6 in the environment and -i 5 (NLOOP=5) differ");
    assert_eq!(out.code, Some(2), "{}", out.report());
    assert_eq!(out.stderr_lines("error:").len(), 1, "one line, from rank 0\n{}", out.report());
    assert!(out.dat_files().is_empty(), "nothing measured: {:?}", out.dat_files());

    // The same value both ways is no conflict (4K and 4096 are one size).
    let same = Launch::mpi(bin("p2p_send"), 2).env("MAX_P2P_SIZE", "4K").args(["-m", "4096"]);
    same.run().success();

    // An option the binary does not take names what it takes.
    let out = Launch::mpi(bin("latency"), 2).args(["-m", "4"]).run();
    out.failure(
        "unknown argument \"-m\"; latency takes -i N, -x N, -z, -c, -d cuda [SRC DST], -f and -h",
    );
    assert_eq!(out.code, Some(2), "{}", out.report());
    let out = Launch::mpi(bin("p2p_send"), 2).args(["-z50,95"]).run();
    out.failure("-z50,95: paw's tail columns are always P50, P90, P99 and PMAX");
}

#[test]
fn help_lists_the_options_under_the_variables() {
    let out = Launch::direct(bin("col_ardc")).arg("-h").run();
    out.success();
    let options = out.stdout.split("Options (OSU's spellings").nth(1).expect("an options section");
    assert!(options.contains("-m [MIN:]MAX") && options.contains("MIN_COL_SIZE=MIN"), "{options}");
    assert!(options.contains("-i N") && options.contains("-x N"), "{options}");
}
