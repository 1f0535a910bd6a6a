//! The suites `paw-report side-by-side` runs: per suite paw's program and the original, the
//! command line both get (at sizes that keep a pair of runs to seconds), and how each
//! side's figures are read. Originals are found as scripts/build-originals lays them out.

use super::read::Read;

/// One side of a pair: a program and how it is run and read.
#[derive(Debug, Clone, Copy)]
pub struct Side {
    /// paw's binary name, or the original's path under the originals' folder.
    pub program: &'static str,
    /// Its arguments, split at spaces; `{dir}` is the run's own scratch folder.
    pub args: &'static str,
    /// Options only this side takes, put before `args` (or `--args`).
    pub own: &'static str,
    /// Environment variables set for it.
    pub env: &'static [(&'static str, &'static str)],
    /// How its figures are read.
    pub read: Read,
    /// The file in its working folder that holds them (None: standard output).
    pub file: Option<&'static str>,
    /// Run without the launcher: a node test and its C counterpart.
    pub alone: bool,
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

/// A side: `program` with `args`, environment `env`, read from standard output by `read`.
const fn side(
    program: &'static str,
    args: &'static str,
    env: &'static [(&'static str, &'static str)],
    read: Read,
) -> Side {
    Side { program, args, own: "", env, read, file: None, alone: false }
}

/// A side run without the launcher (a node test).
const fn node(
    program: &'static str,
    args: &'static str,
    env: &'static [(&'static str, &'static str)],
    read: Read,
) -> Side {
    Side { alone: true, ..side(program, args, env, read) }
}

/// paw's `program` and the original at `original` on one command line, read alike.
const fn same(
    program: &'static str,
    original: &'static str,
    args: &'static str,
    read: Read,
) -> (Side, Side) {
    (side(program, args, &[], read), side(original, args, &[], read))
}

/// The pair with paw's side given `own` options too.
const fn paw_also(own: &'static str, sides: (Side, Side)) -> (Side, Side) {
    (Side { own, ..sides.0 }, sides.1)
}

const fn suite(name: &'static str, figure: &'static str, sides: (Side, Side)) -> Suite {
    Suite { name, figure, paw: sides.0, original: sides.1 }
}

const IMB_TIME: &str = "time per repetition (t_avg, else t, else t_pure), usec";
/// `-sync on -root_shift off`: today's IMB's rules, the same on both (paw's defaults are IMB
/// 3.0's, off and on).
const IMB_MPI1: &str =
    "-msglog 0:22 PingPong Sendrecv Exchange Allreduce Reduce Bcast Allgather Alltoall Barrier";
/// Today's IMB's rules and defaults, where paw's IMB-MPI1 follows 3.0's by default: -sync
/// on, -root_shift off, the untimed run at every length before timing it, message buffers
/// from MPI_Alloc_mem, Mbytes of 10^6 bytes.
const TODAYS_PREPARATION: &str = "-edition 2021";
/// The untimed run alone: paw's IMB-EXT keeps its buffers and windows on the heap.
const TODAYS_ESTIMATE: &str = "-estimate on";
/// `-iter 50,16,10`: settings_io.h's repetitions, paw's defaults; Intel's IMB-IO 2021 parser
/// defaults to IMB-MPI1's 1000,40,100.
const IMB_IO: &str = "-msglog 10:20 -iter 50,16,10 S_Write_indv S_Read_indv S_Write_expl S_Read_expl P_Write_indv P_Read_indv";
const IMB_RMA: &str = "-msglog 0:22 Unidir_put Unidir_get Bidir_put Bidir_get";
/// OSU's command line, and paw's spelling of it (one sample: OSU times one).
const OSU_P2P: (&str, &str) = ("-m 1:1048576 -i 1000 -x 100", "-m 1:1M -i 1000 -x 100");
const OSU_BW: (&str, &str) = ("-m 1:1048576 -i 100 -x 10", "-m 1:1M -i 100 -x 10");
const OSU_COLL: (&str, &str) = ("-m 4:1048576 -i 1000 -x 100", "-m 4:1M -i 1000 -x 100");

/// Every suite, in the order `all` runs them.
pub const SUITES: &[Suite] = &[
    suite(
        "IMB-MPI1",
        IMB_TIME,
        paw_also(TODAYS_PREPARATION, same("IMB-MPI1", "imb/IMB-MPI1", IMB_MPI1, Read::Imb)),
    ),
    suite(
        "IMB-EXT",
        IMB_TIME,
        paw_also(TODAYS_ESTIMATE, same("IMB-EXT", "imb/IMB-EXT", "-msglog 0:20", Read::Imb)),
    ),
    suite("IMB-IO", IMB_TIME, same("IMB-IO", "imb/IMB-IO", IMB_IO, Read::Imb)),
    suite(
        "IMB-NBC",
        IMB_TIME,
        same("IMB-NBC", "imb/IMB-NBC", "-msglog 0:20 Iallreduce Ibcast Ialltoall", Read::Imb),
    ),
    suite("IMB-RMA", IMB_TIME, same("IMB-RMA", "imb/IMB-RMA", IMB_RMA, Read::Imb)),
    suite(
        "IMB-P2P",
        IMB_TIME,
        same("IMB-P2P", "imb/IMB-P2P", "-msglog 0:16 -iter 10000 PingPong PingPing", Read::Imb),
    ),
    // 3.6 takes no options: its short build, for 128 MB per process, writes its line into b_eff.prot.
    suite(
        "b_eff",
        "b_eff, MB/s",
        (
            side("b_eff", "-short -mem 128", &[], Read::Equals("b_eff")),
            Side {
                file: Some("b_eff.prot"),
                ..side("beff/b_eff_SHORT", "", &[], Read::Equals("b_eff"))
            },
        ),
    ),
    suite(
        "b_eff_io",
        "b_eff_io, MB/s",
        same(
            "b_eff_io",
            "beffio/b_eff_io",
            "-MB 16 -MT 32 -T 10 -p {dir} -f t",
            Read::Equals("b_eff_io"),
        ),
    ),
    suite(
        "com",
        "bandwidth, MB/s",
        same("com", "presta/com", "-o 100 -e 4194304", Read::PrestaTable),
    ),
    suite("laten", "latency, usec", same("laten", "presta/laten", "-o 10000", Read::Laten)),
    suite(
        "rma",
        "bandwidth, MB/s",
        same("rma", "presta/rma", "-o 100 -c 10 -e 1048576", Read::PrestaTable),
    ),
    suite("allred", "Op mean, usec", same("allred", "presta/allred", "100 1000 20", Read::Allred)),
    suite(
        "osu_latency",
        "one-way time, usec (paw: p2p_send)",
        (
            side("p2p_send", OSU_P2P.1, &[("NREPS", "1")], Read::DatAvg("send_time-np_NNNN.dat")),
            side("osu/osu_latency", OSU_P2P.0, &[], Read::Osu(1)),
        ),
    ),
    suite(
        "osu_bw",
        "bandwidth, MB/s = 10^6 B/s (paw: p2p_mrate, WINDOW_SIZE=64 RECV_BUFFERS=one)",
        (
            side(
                "p2p_mrate",
                OSU_BW.1,
                &[("NREPS", "1"), ("WINDOW_SIZE", "64"), ("RECV_BUFFERS", "one")],
                Read::DatBandwidth("mrate_time-np_NNNN.dat"),
            ),
            side("osu/osu_bw", OSU_BW.0, &[], Read::Osu(1)),
        ),
    ),
    suite(
        "osu_allreduce",
        "time per call, usec, mean over tasks (paw: col_ardc, PAW_COMBINE=avg)",
        (
            side(
                "col_ardc",
                OSU_COLL.1,
                &[("NREPS", "1"), ("PAW_COMBINE", "avg")],
                Read::DatAvg("ardc_time-np_NNNN.dat"),
            ),
            side("osu/osu_allreduce", OSU_COLL.0, &[], Read::Osu(1)),
        ),
    ),
    suite(
        "osu_iallreduce",
        "pure communication time per call, usec (paw: col_iardc)",
        (
            side(
                "col_iardc",
                OSU_COLL.1,
                &[("NREPS", "1")],
                Read::DatAvg("iardc_time-np_NNNN.dat"),
            ),
            side("osu/osu_iallreduce", OSU_COLL.0, &[], Read::Osu(3)),
        ),
    ),
    // The node tests against plain C (scripts/build-c-refs), every core, no launcher.
    suite(
        "stream",
        "Best Rate, MB/s = 10^6 B/s (C: scripts/c-refs/stream.c)",
        (
            node("stream", "", &[("STREAM_ARRAY_SIZE", "16777216"), ("NREPS", "10")], Read::Stream),
            node("c/stream", "16777216 10", &[], Read::Stream),
        ),
    ),
    suite(
        "dgemm",
        "seconds per call, mean of 5 samples of 3 calls (C: scripts/c-refs/dgemm.c)",
        (
            node(
                "dgemm",
                "",
                &[
                    ("MIN_BLAS_SIZE", "256"),
                    ("MED_BLAS_SIZE", "256"),
                    ("MAX_BLAS_SIZE", "1024"),
                    ("NLOOP", "3"),
                    ("NREPS", "5"),
                ],
                Read::DatAvg("dgemm_time-np_NNNN.dat"),
            ),
            node("c/dgemm", "256 1024 3 5", &[], Read::Osu(1)),
        ),
    ),
];

/// The suite named `name`.
pub fn named(name: &str) -> Option<&'static Suite> {
    SUITES.iter().find(|s| s.name == name)
}
