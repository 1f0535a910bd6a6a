//! The suites `paw-report side-by-side` runs: per suite paw's program and the original, the
//! command line both get (at sizes that keep a pair of runs to seconds), and how each
//! side's figures are read. Originals are found in build-refs' layout.

use super::read::Read;

/// One side of a pair: a program and how it is run and read.
#[derive(Debug, Clone, Copy)]
pub struct Side {
    /// paw's binary name, or the original's path under the originals' folder.
    pub program: &'static str,
    /// Its arguments; `{dir}` is the run's own scratch folder.
    pub args: &'static [&'static str],
    /// Environment variables set for it.
    pub env: &'static [(&'static str, &'static str)],
    /// How its figures are read.
    pub read: Read,
    /// The file in its working folder that holds them (None: standard output).
    pub file: Option<&'static str>,
}

/// A suite: paw's program beside its original.
#[derive(Debug, Clone, Copy)]
pub struct Suite {
    /// The name given on the command line.
    pub name: &'static str,
    /// What each row's ratio divides: the figure and its unit.
    pub figure: &'static str,
    /// paw's side.
    pub paw: Side,
    /// The original's side.
    pub original: Side,
}

const fn same(
    program: &'static str,
    original: &'static str,
    args: &'static [&'static str],
    read: Read,
) -> (Side, Side) {
    (
        Side { program, args, env: &[], read, file: None },
        Side { program: original, args, env: &[], read, file: None },
    )
}

const fn suite(name: &'static str, figure: &'static str, sides: (Side, Side)) -> Suite {
    Suite { name, figure, paw: sides.0, original: sides.1 }
}

const IMB_TIME: &str = "time per repetition (t_avg, else t, else t_pure), usec";

/// Every suite, in the order `all` runs them.
pub const SUITES: &[Suite] = &[
    suite(
        "IMB-MPI1",
        IMB_TIME,
        same(
            "IMB-MPI1",
            "imb/IMB-MPI1",
            &[
                "-msglog",
                "0:22",
                "PingPong",
                "Sendrecv",
                "Exchange",
                "Allreduce",
                "Reduce",
                "Bcast",
                "Allgather",
                "Alltoall",
                "Barrier",
            ],
            Read::Imb,
        ),
    ),
    suite("IMB-EXT", IMB_TIME, same("IMB-EXT", "imb/IMB-EXT", &["-msglog", "0:20"], Read::Imb)),
    suite(
        "IMB-IO",
        IMB_TIME,
        same(
            "IMB-IO",
            "imb/IMB-IO",
            &[
                "-msglog",
                "10:20",
                "S_Write_indv",
                "S_Read_indv",
                "S_Write_expl",
                "S_Read_expl",
                "P_Write_indv",
                "P_Read_indv",
            ],
            Read::Imb,
        ),
    ),
    suite(
        "IMB-NBC",
        IMB_TIME,
        same(
            "IMB-NBC",
            "imb/IMB-NBC",
            &["-msglog", "0:20", "Iallreduce", "Ibcast", "Ialltoall"],
            Read::Imb,
        ),
    ),
    suite(
        "IMB-RMA",
        IMB_TIME,
        same(
            "IMB-RMA",
            "imb/IMB-RMA",
            &["-msglog", "0:22", "Unidir_put", "Unidir_get", "Bidir_put", "Bidir_get"],
            Read::Imb,
        ),
    ),
    suite(
        "IMB-P2P",
        IMB_TIME,
        same(
            "IMB-P2P",
            "imb/IMB-P2P",
            &["-msglog", "0:16", "-iter", "10000", "PingPong", "PingPing"],
            Read::Imb,
        ),
    ),
    suite(
        "b_eff",
        "b_eff, MB/s",
        (
            Side {
                program: "b_eff",
                args: &["-short", "-mem", "128"],
                env: &[],
                read: Read::Equals("b_eff"),
                file: None,
            },
            Side {
                program: "beff/b_eff_SHORT",
                args: &[],
                env: &[],
                read: Read::Equals("b_eff"),
                file: Some("b_eff.prot"),
            },
        ),
    ),
    suite(
        "b_eff_io",
        "b_eff_io, MB/s",
        same(
            "b_eff_io",
            "beffio/b_eff_io",
            &["-MB", "16", "-MT", "32", "-T", "10", "-p", "{dir}", "-f", "t"],
            Read::Equals("b_eff_io"),
        ),
    ),
    suite(
        "com",
        "bandwidth, MB/s",
        same("com", "presta/com", &["-o", "100", "-e", "4194304"], Read::PrestaTable),
    ),
    suite("laten", "latency, usec", same("laten", "presta/laten", &["-o", "10000"], Read::Laten)),
    suite(
        "rma",
        "bandwidth, MB/s",
        same("rma", "presta/rma", &["-o", "100", "-c", "10", "-e", "1048576"], Read::PrestaTable),
    ),
    suite(
        "allred",
        "Op mean, usec",
        same("allred", "presta/allred", &["100", "1000", "20"], Read::Allred),
    ),
    suite(
        "osu_latency",
        "one-way time, usec (paw: p2p_send)",
        (
            Side {
                program: "p2p_send",
                args: &["-m", "1:1M", "-i", "1000", "-x", "100"],
                env: &[("NREPS", "1")],
                read: Read::DatAvg("send_time-np_0002.dat"),
                file: None,
            },
            Side {
                program: "osu/osu_latency",
                args: &["-m", "1:1048576", "-i", "1000", "-x", "100"],
                env: &[],
                read: Read::Osu(1),
                file: None,
            },
        ),
    ),
    suite(
        "osu_bw",
        "bandwidth, MB/s = 10^6 B/s (paw: p2p_mrate, WINDOW_SIZE=64)",
        (
            Side {
                program: "p2p_mrate",
                args: &["-m", "1:1M", "-i", "100", "-x", "10"],
                env: &[("NREPS", "1"), ("WINDOW_SIZE", "64")],
                read: Read::DatBandwidth("mrate_time-np_0002.dat"),
                file: None,
            },
            Side {
                program: "osu/osu_bw",
                args: &["-m", "1:1048576", "-i", "100", "-x", "10"],
                env: &[],
                read: Read::Osu(1),
                file: None,
            },
        ),
    ),
    suite(
        "osu_allreduce",
        "time per call, usec, mean over tasks (paw: col_ardc, PAW_COMBINE=avg)",
        (
            Side {
                program: "col_ardc",
                args: &["-m", "4:1M", "-i", "1000", "-x", "100"],
                env: &[("NREPS", "1"), ("PAW_COMBINE", "avg")],
                read: Read::DatAvg("ardc_time-np_0002.dat"),
                file: None,
            },
            Side {
                program: "osu/osu_allreduce",
                args: &["-m", "4:1048576", "-i", "1000", "-x", "100"],
                env: &[],
                read: Read::Osu(1),
                file: None,
            },
        ),
    ),
    suite(
        "osu_iallreduce",
        "pure communication time per call, usec (paw: col_iardc)",
        (
            Side {
                program: "col_iardc",
                args: &["-m", "4:1M", "-i", "1000", "-x", "100"],
                env: &[("NREPS", "1")],
                read: Read::DatAvg("iardc_time-np_0002.dat"),
                file: None,
            },
            Side {
                program: "osu/osu_iallreduce",
                args: &["-m", "4:1048576", "-i", "1000", "-x", "100"],
                env: &[],
                read: Read::Osu(3),
                file: None,
            },
        ),
    ),
];

/// The suite named `name`.
pub fn named(name: &str) -> Option<&'static Suite> {
    SUITES.iter().find(|s| s.name == name)
}
