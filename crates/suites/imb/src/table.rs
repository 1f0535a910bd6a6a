//! What a suite is, as data: its benchmarks ([`Benchmark`]) and their [`Class`] and
//! [`Mode`]s, the IMB [`Edition`] whose rules it follows, the general options it takes
//! ([`General`]) and its whole description ([`Table`]), which the command line and the
//! output read.

use crate::settings::Settings;

/// IMB's classes (guide §3.3.1, §4.2.1): they decide the process counts and the columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Two active processes (one for I/O); time and throughput of one transfer.
    SingleTransfer,
    /// Every process transfers; throughput from the slowest process's time.
    ParallelTransfer,
    /// MPI collectives; times only.
    Collective,
    /// Windows of messages between pairs (today's Uniband, Biband): even process counts,
    /// half of them sending; Mbytes/sec and Msg/sec.
    MessageRate,
    /// One element between two processes (today's Fetch_and_op, Compare_and_swap): one
    /// row, at the element's length; time and throughput.
    SingleElement,
    /// One origin, every other process a target (today's One_put_all ...): every process
    /// count; the origin's time and throughput.
    MultPassive,
    /// Today's Truly_passive_put: two processes; t_pure and t_ovrl columns.
    TrulyPassive,
    /// Every started process at once, one table (today's IMB-P2P): `t[usec]` (the mean
    /// process time per repetition over `n_msg`, halved when `half`: PingPong's one-way
    /// time), Mbytes/sec and Msg/sec from the slowest process.
    Everyone {
        /// Report half the time per message (a round trip's one way).
        half: bool,
    },
    /// Overheads (Window, Open_Close); times only.
    Other,
}

/// Which IMB defines a suite's shared rules: IMB-MPI1, IMB-EXT and IMB-IO re-create 3.0;
/// the suites 3.0 did not have follow today's IMB (2021).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edition {
    /// The 3.0 guide: Mbytes of 2^20 bytes; overlap over min(t_pure, t_CPU), each time the
    /// largest over the processes.
    V3,
    /// Today's IMB: Mbytes of 10^6 bytes; overlap over max(t_pure, t_CPU), all three times
    /// from the process with the largest t_ovrl.
    V2021,
}

impl Edition {
    /// The version as IMB names it.
    pub fn version(self) -> &'static str {
        match self {
            Edition::V3 => "3.0",
            Edition::V2021 => "2021",
        }
    }

    /// The unit of the Mbytes/sec columns.
    pub fn mbyte_unit(self) -> paw_core::schema::Unit {
        match self {
            Edition::V3 => paw_core::schema::MIB_PER_S,
            Edition::V2021 => paw_core::schema::MB_PER_S,
        }
    }

    /// Bytes in one Mbyte of the Mbytes/sec columns.
    pub fn mbyte(self) -> f64 {
        match self {
            Edition::V3 => paw_core::schema::MIB_PER_S.factor,
            Edition::V2021 => 1e6,
        }
    }

    /// The Mbyte in words.
    pub fn mbyte_text(self) -> &'static str {
        match self {
            Edition::V3 => "2^20 bytes",
            Edition::V2021 => "10^6 bytes",
        }
    }
}

/// How a one-sided or write benchmark completes its transfers (guide §4.2.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// No modes (IMB-MPI1, reads): no `MODE:` line.
    Plain,
    /// M = n_sample transfers, then one completion.
    Aggregate,
    /// Every transfer completed (M = 1), MSGS_NONAGGR repetitions.
    NonAggregate,
}

impl Mode {
    /// The name on the block's `MODE:` line, if it has one.
    pub fn heading(self) -> Option<&'static str> {
        match self {
            Mode::Plain => None,
            Mode::Aggregate => Some("AGGREGATE"),
            Mode::NonAggregate => Some("NON-AGGREGATE"),
        }
    }

    /// The mode in CSV cells and file names ("" for none).
    pub fn csv(self) -> &'static str {
        match self {
            Mode::Plain => "",
            Mode::Aggregate => "aggregate",
            Mode::NonAggregate => "non-aggregate",
        }
    }
}

/// One benchmark of a suite's table; `K` is what the suite needs to run it.
#[derive(Debug, Clone, Copy)]
pub struct Benchmark<K: 'static> {
    /// Name as the guide spells it (matched case-insensitively).
    pub name: &'static str,
    /// Its class.
    pub class: Class,
    /// Transfers per sample counted by the throughput column; 0: no throughput.
    pub n_msg: usize,
    /// Smallest non-zero length: sizeof(float) for reductions and Accumulate, 1 otherwise.
    pub unit: usize,
    /// Whether the table has a length column (all but Barrier).
    pub has_bytes: bool,
    /// The modes, each its own table, in output order.
    pub modes: &'static [Mode],
    /// Non-blocking I/O: t_ovrl, t_pure, t_CPU and overlap columns.
    pub overlap: bool,
    /// Whether it runs when no benchmark is named.
    pub default: bool,
    /// Today's IMB marks it rooted (HAS_ROOT): `-iter_policy auto` runs it under
    /// `multiple_np`. Today's IMB leaves out some rooted ones (Ireduce_pure,
    /// Reduce_persist_pure), and so does paw.
    pub has_root: bool,
    /// (send, receive) buffer bytes per process for length `x` on `q` processes and
    /// `reps` repetitions, for `-mem` (guide §7.1).
    pub memory: fn(q: usize, x: usize, reps: usize) -> (usize, usize),
    /// The suite's description of the kernel.
    pub kernel: K,
}

impl<K> Benchmark<K> {
    /// A benchmark of `class` counting `n_msg` transfers per sample, with IMB's usual
    /// traits: lengths of whole bytes, one table (no modes), run by default, not rooted,
    /// X bytes sent and received per length.
    pub const fn new(name: &'static str, class: Class, n_msg: usize, kernel: K) -> Self {
        Benchmark {
            name,
            class,
            n_msg,
            unit: 1,
            has_bytes: true,
            modes: &[Mode::Plain],
            overlap: false,
            default: true,
            has_root: false,
            memory: |_, x, _| (x, x),
            kernel,
        }
    }

    /// The same benchmark with lengths of whole `unit`s ([`Benchmark::unit`]).
    pub const fn in_units(mut self, unit: usize) -> Self {
        self.unit = unit;
        self
    }

    /// The same benchmark with a table per mode of `modes`.
    pub const fn in_modes(mut self, modes: &'static [Mode]) -> Self {
        self.modes = modes;
        self
    }

    /// The same benchmark holding `memory(q, x, reps)` bytes ([`Benchmark::memory`]).
    pub const fn holding(mut self, memory: fn(usize, usize, usize) -> (usize, usize)) -> Self {
        self.memory = memory;
        self
    }

    /// The same benchmark marked rooted ([`Benchmark::has_root`]).
    pub const fn rooted(mut self) -> Self {
        self.has_root = true;
        self
    }

    /// The same benchmark run only when named ([`Benchmark::default`] false).
    pub const fn when_named(mut self) -> Self {
        self.default = false;
        self
    }
}

/// Today's IMB's general options (IMB 2021's `-off_cache`, `-zero_size` ...): the on|off
/// ones declared in [`crate::general::SWITCHES`], `-off_cache` and the data types in cli.rs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gen {
    /// `-off_cache`: each repetition's buffers at a new offset.
    OffCache,
    /// `-zero_size off`: no length-0 row.
    ZeroSize,
    /// `-warm_up off`: no warm-up runs (`-estimate` is apart).
    WarmUp,
    /// paw's `-estimate`: the untimed run today's IMB makes at every length to estimate its
    /// repetitions (IMB_init_buffers_iter), whatever `-warm_up` says.
    Estimate,
    /// paw's `-alloc_mem`: message buffers from MPI_Alloc_mem, as today's IMB takes them.
    AllocMem,
    /// `-root_shift`: the root of rooted collectives moves at every repetition.
    RootShift,
    /// `-sync`: collectives time each repetition alone, a barrier after it.
    Sync,
    /// `-imb_barrier`: the suite's barriers are zero-byte MPI_Sendrecv.
    ImbBarrier,
    /// `-data_type`, `-red_data_type` and `-contig_type` (IMB-MPI1's own).
    DataTypes,
    /// `-msg_pause`: a sleep after each length.
    MsgPause,
}

impl Gen {
    /// Every general option.
    pub const EVERY: [Gen; 10] = [
        Gen::OffCache,
        Gen::ZeroSize,
        Gen::WarmUp,
        Gen::Estimate,
        Gen::AllocMem,
        Gen::RootShift,
        Gen::Sync,
        Gen::ImbBarrier,
        Gen::DataTypes,
        Gen::MsgPause,
    ];
}

/// A set of general options: those a suite takes ([`Table::general`]) or takes without
/// reading ([`Table::inert`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct General(u16);

impl General {
    /// None.
    pub const NONE: General = General(0);
    /// Every general option.
    pub const ALL: General = General::of(&Gen::EVERY);

    /// The set of `options`.
    pub const fn of(options: &[Gen]) -> General {
        let mut bits = 0;
        let mut i = 0;
        while i < options.len() {
            bits |= 1 << options[i] as u16;
            i += 1;
        }
        General(bits)
    }

    /// The set without `options`.
    pub const fn without(self, options: &[Gen]) -> General {
        General(self.0 & !General::of(options).0)
    }

    /// Whether it holds `option`.
    pub const fn has(self, option: Gen) -> bool {
        self.0 & (1 << option as u16) != 0
    }
}

/// What one of the IMB suites is: its name, rules and benchmarks (the [`crate::Suite`]
/// adds how it runs).
pub struct Table<K: 'static> {
    /// Executable name (IMB-MPI1, IMB-NBC, ...).
    pub name: &'static str,
    /// What it re-implements, for the title line ("MPI-1 benchmarks").
    pub what: &'static str,
    /// The IMB whose shared rules it follows.
    pub edition: Edition,
    /// What its benchmarks time (`-h` and doc/binaries.md).
    pub timed: &'static str,
    /// What its tables report.
    pub reported: &'static str,
    /// Its repetition and length settings (settings.h, settings_io.h, or today's IMB's).
    pub settings: Settings,
    /// Every benchmark, in output order.
    pub benchmarks: &'static [Benchmark<K>],
    /// IMB-IO: the `-dir` and `-prefix` options, "io portion" in the header.
    pub io: bool,
    /// Today's IMB's general options it takes.
    pub general: General,
    /// The general options Intel's suite takes although none of its benchmarks reads them
    /// (IMB-IO's `-off_cache`, IMB-RMA's `-sync` ...): taken, and said to change nothing.
    pub inert: General,
    /// Its benchmarks use one-sided windows (IMB-EXT, IMB-RMA): a run with a group of one
    /// process is refused ([`crate::schedule::windows_need_two`]).
    pub windows: bool,
    /// A named benchmark that cannot run on this many processes is refused (true) or
    /// skipped with a note in the output (false, IMB-MPI1's way).
    pub refuse_unrunnable: bool,
    /// Whether benchmark `b` can run on `q` processes, and if so what follows its name on
    /// the `# Benchmarking` line (IMB-P2P's stencils name their grid, `(2 x 2)`); where it
    /// cannot, a `# !! Benchmark NAME is invalid for Q processes !!` line stands for its
    /// table.
    pub shape: fn(&Benchmark<K>, usize) -> Option<String>,
}

impl<K> std::fmt::Debug for Table<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({})", self.name)
    }
}

impl<K> Table<K> {
    /// Whether any of its benchmarks is rooted ([`Benchmark::has_root`]).
    pub fn has_rooted(&self) -> bool {
        self.benchmarks.iter().any(|b| b.has_root)
    }
}
