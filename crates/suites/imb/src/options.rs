//! The options of one run, as the command line ([`crate::cli`]) set them, and the rules
//! they decide: the lengths, the element types, the repetitions at each length
//! ([`IterPolicy`]), where buffers start ([`Options::spreads`]) and the barrier before
//! timings.

use crate::placement::{OffCache, Spread};
use crate::settings::FLOAT;
use crate::settings::{lengths_for_unit, standard_lengths};
use crate::table::{Benchmark, Edition, Mode};
use crate::types::Element;

/// Where the message lengths come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Lengths {
    /// 0 and 2^lo .. 2^hi (standard: 0..22; `-msglog`).
    Log {
        /// Smallest exponent.
        lo: u32,
        /// Largest exponent.
        hi: u32,
    },
    /// Exactly these lengths, in this order (`-msglen` file).
    List(Vec<usize>),
}

impl Lengths {
    /// The lengths a benchmark of elements of `unit` bytes runs: with log lengths, whole
    /// elements from the first at or above 2^lo up to MAXMSG = floor(2^hi / unit) x unit,
    /// today's IMB's rule (so only 0 where 2^hi is less than one element).
    pub fn for_benchmark(&self, unit: usize) -> Vec<usize> {
        match self {
            Lengths::Log { lo, hi } => {
                let most = (1usize << hi) / unit * unit;
                let all = lengths_for_unit(&standard_lengths(*lo, *hi), unit);
                all.into_iter().filter(|&x| x <= most).collect()
            }
            Lengths::List(l) => l.clone(),
        }
    }
}

/// How repetitions follow the length (today's IMB `-iter_policy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IterPolicy {
    /// `dynamic`: the 3.0 rule, min(MSGSPERSAMPLE, max(1, OVERALL_VOL / length)) (MSGS_NONAGGR
    /// in non-aggregate mode); where taken, today's estimate and `-time` may lower it.
    Dynamic,
    /// `off`: MSGSPERSAMPLE at every length, in every mode.
    Off,
    /// `multiple_np`: MSGSPERSAMPLE scaled down along the lengths to a multiple of the
    /// process count ([`settings::multiple_of_np`](crate::settings::multiple_of_np)).
    MultipleNp,
    /// `auto`: `multiple_np` for the benchmarks today's IMB marks as rooted
    /// ([`Suite::rooted`](crate::Suite::rooted)), `dynamic` for the others; resolved
    /// per benchmark by [`Options::for_benchmark`].
    Auto,
}

/// Everything the command line chose.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// `-list`: print the benchmarks and stop.
    pub list: bool,
    /// Indices into the suite's benchmark table, in table order.
    pub benchmarks: Vec<usize>,
    /// `-npmin`: smallest process count (default 2; 1 for IMB-IO).
    pub npmin: usize,
    /// `-multi 0|1`: run the Multi- versions; the flag is the output mode.
    pub multi: Option<u8>,
    /// Message lengths.
    pub lengths: Lengths,
    /// `-map PxQ`: renumber processes along the rows of a P x Q matrix.
    pub map: Option<(usize, usize)>,
    /// MSGSPERSAMPLE (`-iter`).
    pub per_sample: usize,
    /// OVERALL_VOL in bytes (`-iter N,V`: V MB).
    pub overall_vol: usize,
    /// MSGS_NONAGGR (`-iter N,V,M`), for the suites with non-aggregate modes.
    pub msgs_nonaggr: usize,
    /// `-iter_policy` (or the fourth `-iter` field).
    pub iter_policy: IterPolicy,
    /// Today's IMB's max_msg_log: `-msglog`'s upper exponent, else the suite's, also with
    /// `-msglen` or `-msgsz`; 2^it is the longest length of `multiple_np`'s rule.
    pub max_msg_log: u32,
    /// `-timeout`: seconds one length may take before the watchdog ends the job.
    pub timeout: Option<u64>,
    /// `-csv`: write each table as a CSV file (also when PAW_OUTPUT_DIR is set).
    pub csv: bool,
    /// IMB-IO `-dir`: where the benchmark files go (default: the current directory).
    pub dir: Option<String>,
    /// IMB-IO `-prefix`: the benchmark files' name (default IMB_out, as settings_io.h).
    pub prefix: Option<String>,
    /// `-time`: seconds a length may take at most (fewer repetitions).
    pub time: Option<f64>,
    /// `-mem`: GB of message buffers per process allowed.
    pub mem: Option<f64>,
    /// `-check`: compare every received buffer with what was sent.
    pub check: bool,
    /// `-window_size`: messages in flight per pair in a window (Uniband, Biband).
    pub window_size: usize,
    /// `-pause`: microseconds of sleep before and after each length (IMB-P2P).
    pub pause_us: u64,
    /// `-msgwr`: write one byte per 64-byte line of the send buffer before each send
    /// (IMB-P2P).
    pub msgwr: bool,
    /// `-msgrd`: read one byte per 64-byte line of the receive buffer after each receive
    /// (IMB-P2P).
    pub msgrd: bool,
    /// `-off_cache`: each repetition's buffers at a new offset, past the cache.
    pub off_cache: Option<OffCache>,
    /// `-zero_size`: the length-0 row runs (off: dropped).
    pub zero_size: bool,
    /// `-warm_up`: the untimed runs before the measurements.
    pub warm_up: bool,
    /// `-estimate`: today's IMB's untimed run at every length before its timing.
    pub estimate: bool,
    /// `-alloc_mem`: message buffers from MPI_Alloc_mem (else the heap).
    pub alloc_mem: bool,
    /// `-root_shift`: rooted collectives move the root at every repetition.
    pub root_shift: bool,
    /// `-sync`: collectives time each repetition alone, a barrier after it.
    pub sync: bool,
    /// `-imb_barrier`: barriers are zero-byte MPI_Sendrecv ([`crate::sendrecv_barrier`]).
    pub imb_barrier: bool,
    /// `-msg_pause`: sleep max(t/10, 0.1 s) after each length, t its wall time.
    pub msg_pause: bool,
    /// `-data_type`: the elements of every message that is not a reduction (IMB-MPI1).
    pub data_type: Element,
    /// `-red_data_type`: the elements of the reductions (IMB-MPI1).
    pub red_data_type: Element,
    /// The general options given that this suite takes but none of its benchmarks reads
    /// ([`crate::Suite::inert`]), as typed (`-sync off`).
    pub inert: Vec<String>,
    /// `-edition 3.0|2021`: the IMB whose rules and defaults the run follows (the suite's
    /// own unless given): the Mbyte, `-sync`, `-root_shift`, `-estimate`, `-alloc_mem`, the
    /// title, and the run order (2021: the order the benchmarks are named in).
    pub edition: Edition,
}

impl Options {
    /// The lengths a benchmark with element size `unit` runs: [`Lengths::for_benchmark`],
    /// without 0 under `-zero_size off`.
    pub fn lengths_for(&self, unit: usize) -> Vec<usize> {
        let all = self.lengths.for_benchmark(self.element(unit).size());
        all.into_iter().filter(|&x| self.zero_size || x > 0).collect()
    }

    /// The element type of a benchmark whose table gives it elements of `unit` bytes: a
    /// float's are the reductions' (`-red_data_type`), a byte's the others'
    /// (`-data_type`).
    pub fn element(&self, unit: usize) -> Element {
        match unit {
            FLOAT => self.red_data_type,
            _ => self.data_type,
        }
    }

    /// Where each repetition's send and receive buffers of (`send`, `recv`) bytes start
    /// over `reps` repetitions: moved past the cache with `-off_cache`, else at the start.
    pub fn spreads(&self, (send, recv): (usize, usize), reps: usize) -> (Spread, Spread) {
        match self.off_cache {
            Some(c) => (c.spread(send, reps), c.spread(recv, reps)),
            None => (Spread::NONE, Spread::NONE),
        }
    }

    /// The send and receive buffer bytes benchmark `b` needs on `q` processes at its
    /// longest length, with `-off_cache` the room its repetitions' offsets take.
    pub fn buffers<K>(&self, b: &Benchmark<K>, q: usize) -> (usize, usize) {
        let (mut send, mut recv) = (0, 0);
        for x in self.lengths.for_benchmark(self.element(b.unit).size()) {
            let (s, r) = (b.memory)(q, x, 1);
            let (ss, rs) = self.spreads((s, r), self.most_repetitions(x, q));
            (send, recv) = (send.max(ss.bytes(s)), recv.max(rs.bytes(r)));
        }
        (send, recv)
    }

    /// The barrier before timings: MPI_Barrier, or today's IMB's own (`-imb_barrier`).
    pub fn barrier(&self, comm: &paw_core::mpi::topology::SimpleCommunicator) {
        use paw_core::mpi::traits::*;
        if self.imb_barrier {
            crate::barrier::sendrecv_barrier(comm);
        } else {
            comm.barrier();
        }
    }
}

/// The most repetitions any mode runs at length `x`.
impl Options {
    /// These options for one benchmark: `-iter_policy auto` becomes `multiple_np` where
    /// today's IMB marks the benchmark as rooted (`has_root`), else `dynamic`.
    pub fn for_benchmark(&self, has_root: bool) -> Options {
        let iter_policy = match self.iter_policy {
            IterPolicy::Auto if has_root => IterPolicy::MultipleNp,
            IterPolicy::Auto => IterPolicy::Dynamic,
            p => p,
        };
        Options { iter_policy, ..self.clone() }
    }

    /// The most repetitions length `x` can take on `q` processes in any mode.
    pub fn most_repetitions(&self, x: usize, q: usize) -> usize {
        self.repetitions(Mode::Aggregate, x, q).max(self.repetitions(Mode::NonAggregate, x, q))
    }

    /// Repetitions at length `x` on `q` processes in `mode`, before any estimate or `-time`
    /// ([`IterPolicy`]; `auto`, unresolved, counts as `dynamic`).
    pub fn repetitions(&self, mode: Mode, x: usize, q: usize) -> usize {
        let per_sample = match mode {
            Mode::NonAggregate => self.msgs_nonaggr,
            Mode::Plain | Mode::Aggregate => self.per_sample,
        };
        match self.iter_policy {
            IterPolicy::Off => self.per_sample,
            IterPolicy::MultipleNp => {
                crate::settings::multiple_of_np(x, self.per_sample, q, 1 << self.max_msg_log)
            }
            IterPolicy::Dynamic | IterPolicy::Auto => {
                crate::settings::repetitions(x, per_sample, self.overall_vol)
            }
        }
    }

    /// Whether today's estimate (`-estimate`) and `-time` may lower the repetitions: under
    /// `dynamic` only; the other policies run their count once untimed instead (with
    /// `-estimate`), as today's IMB does.
    pub fn adapts(&self) -> bool {
        matches!(self.iter_policy, IterPolicy::Dynamic | IterPolicy::Auto)
    }
}

/// Today's IMB-P2P default of `-pause`, microseconds.
pub const PAUSE_US: u64 = 100_000;

/// Today's IMB default of `-window_size` (64 before 2021.2).
pub const WINDOW_SIZE: usize = 256;
