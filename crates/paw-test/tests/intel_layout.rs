//! The parser of IMB output that paw's tests use reads Intel's IMB 2021.11 output and
//! paw's alike: for the same benchmarks and process count, the same names (with a
//! stencil's grid), process counts, modes, column heads and invalid-count lines. The
//! excerpts in intel-2021/ are blocks of Intel's programs' output (built outside the
//! project, run with Open MPI 4.1; IMB-MPI4 with MPICH 4), kept with two rows each; IMB-MT's
//! and IMB-MPI4's in full.

use paw_test::binaries::bin;
use paw_test::imb::parse;
use paw_test::Launch;

/// (binary, excerpt, processes, arguments of paw's run).
const CASES: [(&str, &str, usize, &str); 7] = [
    ("IMB-MPI1", "mpi1-np2.txt", 2, "Uniband Biband -msglog 0:1"),
    ("IMB-NBC", "nbc-np2.txt", 2, "Ialltoall Iallreduce Ibarrier -msglog 0:2"),
    (
        "IMB-RMA",
        "rma-np2.txt",
        2,
        "Unidir_put One_put_all All_put_all Fetch_and_op Truly_passive_put -msglog 0:1",
    ),
    (
        "IMB-P2P",
        "p2p-np2.txt",
        2,
        "PingPong Unirandom Stencil2D Stencil3D -msglog 1 -pause 0 -iter 100",
    ),
    ("IMB-P2P", "p2p-np4.txt", 4, "Stencil2D Stencil3D -msglog 1 -pause 0 -iter 100"),
    (
        "IMB-MT",
        "mt-np2.txt",
        2,
        "PingPongMT UniBandMT BarrierMT AllReduceMT -count 1,2 -repeat 100",
    ),
    (
        "IMB-MPI4",
        "mpi4-np2.txt",
        2,
        "Bcast_persist Allreduce_persist Barrier_persist Allreduce_persist_pure -msglog 0:2",
    ),
];

type Shape = (String, usize, usize, String, Vec<String>);

fn shapes(text: &str) -> (Vec<Shape>, Vec<String>) {
    let blocks = parse(text)
        .into_iter()
        .map(|b| (b.name, b.processes, b.threads, b.mode, b.columns))
        .collect();
    let invalid =
        text.lines().filter(|l| l.starts_with("# !! Benchmark")).map(|l| l.trim().to_string());
    (blocks, invalid.collect())
}

#[test]
fn intel_and_paw_outputs_read_alike() {
    for (name, excerpt, np, args) in CASES {
        if name == "IMB-MPI4" && !paw_test::has_mpi4() {
            eprintln!("IMB-MPI4: the library under test has no MPI-4 collectives; skipped");
            continue;
        }
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/intel-2021").join(excerpt);
        let intel = std::fs::read_to_string(&path).unwrap();
        let out = Launch::mpi(bin(name), np).args(args.split_whitespace()).run();
        out.success();
        let (theirs, ours) = (shapes(&intel), shapes(&out.stdout));
        assert!(!theirs.0.is_empty(), "{excerpt}: no block");
        assert_eq!(ours, theirs, "{name} {args} against {excerpt}\n{}", out.report());
        for b in parse(&intel).iter().chain(&parse(&out.stdout)) {
            assert!(!b.rows.is_empty(), "{}: rows read", b.name);
        }
        // The lengths (IMB-MT: the repetitions) are Intel's too.
        let first = |text: &str| -> Vec<Vec<f64>> {
            parse(text).iter().map(|b| b.rows.iter().map(|r| r[0]).collect()).collect()
        };
        // The excerpts keep each block's first rows (IMB-MT's all of them).
        let (ours, theirs) = (first(&out.stdout), first(&intel));
        assert_eq!(ours.len(), theirs.len(), "{name}: blocks");
        for (o, t) in ours.iter().zip(&theirs) {
            let keep = if name == "IMB-MT" { o.len() } else { t.len().min(o.len()) };
            assert_eq!((o.len() >= t.len(), &o[..keep]), (true, &t[..keep]), "{name}: #bytes");
        }
    }
}

/// The general options each of Intel's 2021.11 suites declares (src_cpp/<suite>/
/// <suite>_suite.cpp), those paw's suite reads, and those it takes changing nothing because
/// no kernel of Intel's suite reads them.
const GENERAL: [(&str, &[&str], &[&str]); 6] = [
    (
        "IMB-MPI1",
        &[
            "-off_cache",
            "-zero_size",
            "-warm_up",
            "-root_shift",
            "-sync",
            "-imb_barrier",
            "-msg_pause",
        ],
        &[],
    ),
    (
        "IMB-NBC",
        &["-off_cache", "-zero_size", "-warm_up", "-root_shift", "-sync", "-msg_pause"],
        &["-imb_barrier"],
    ),
    (
        "IMB-MPI4",
        &["-zero_size", "-warm_up", "-sync", "-imb_barrier", "-msg_pause"],
        &["-off_cache", "-root_shift"],
    ),
    (
        "IMB-RMA",
        &["-off_cache", "-warm_up", "-msg_pause"],
        &["-root_shift", "-sync", "-imb_barrier"],
    ),
    ("IMB-EXT", &["-off_cache", "-warm_up", "-msg_pause"], &["-imb_barrier"]),
    ("IMB-IO", &["-msg_pause"], &["-off_cache", "-warm_up", "-imb_barrier"]),
];

/// Every general option Intel's suite takes, paw's takes: `-h` lists exactly those, each
/// one no kernel reads says so, and no other general option is taken.
#[test]
fn every_suite_takes_intels_general_options() {
    // IMB-MPI1 reads them all.
    const ALL: &[&str] = GENERAL[0].1;
    for (name, read, inert) in GENERAL {
        let out = Launch::direct(bin(name)).arg("-h").run();
        out.success();
        // An option's entry: its line and the indented lines of its meaning below.
        let line = |option: &str| {
            let lines: Vec<&str> = out.stdout.lines().collect();
            let at =
                lines.iter().position(|l| l.trim_start().starts_with(&format!("{option} ")))?;
            let more = lines[at + 1..].iter().take_while(|l| l.starts_with("        "));
            Some(std::iter::once(lines[at]).chain(more.copied()).collect::<Vec<_>>().join(" "))
        };
        for option in ALL {
            let listed = line(option);
            let nothing = listed.as_deref().is_some_and(|l| l.contains("changes nothing"));
            match (read.contains(option), inert.contains(option)) {
                (true, _) => assert!(listed.is_some() && !nothing, "{name} {option}: {listed:?}"),
                (_, true) => assert!(nothing, "{name} {option} should change nothing: {listed:?}"),
                _ => assert!(listed.is_none(), "{name} takes {option}, Intel's does not"),
            }
        }
    }
}
