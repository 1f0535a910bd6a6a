//! The output of guide §6: the general information block, then per benchmark, process
//! count and mode a block header (with the `MODE:` line of IMB-EXT and IMB-IO) and a
//! table. Column widths follow IMB's (13 characters), so parsers written for IMB (keyed on
//! `# Benchmarking`, `# #processes =`, `# MODE:` and the column header line) read it
//! unchanged.

use crate::options::{IterPolicy, Lengths, Options};
use crate::suite::{ProcessTimes, Suite};
use crate::table::{Benchmark, Class, Edition, Mode};
use paw_core::schema::imb_csv;

/// A dashed separator line.
const RULE: &str =
    "#----------------------------------------------------------------------------------------";

/// Date as C's asctime prints it, local time.
fn date() -> String {
    let mut buf = [0u8; 64];
    // SAFETY: time(NULL) has no preconditions; localtime_r writes into `tm` we own;
    // strftime writes at most buf.len() bytes into `buf` and returns how many.
    let n = unsafe {
        let t = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        libc::localtime_r(&t, &mut tm);
        libc::strftime(buf.as_mut_ptr().cast(), buf.len(), c"%a %b %e %H:%M:%S %Y".as_ptr(), &tm)
    };
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// uname's machine, system, release and version fields.
fn uname() -> [String; 4] {
    // SAFETY: uname fills the struct we own; its fields are NUL-terminated strings.
    unsafe {
        let mut u: libc::utsname = std::mem::zeroed();
        libc::uname(&mut u);
        let s = |f: &[libc::c_char]| {
            std::ffi::CStr::from_ptr(f.as_ptr()).to_string_lossy().into_owned()
        };
        [s(&u.machine), s(&u.sysname), s(&u.release), s(&u.version)]
    }
}

fn thread_level() -> &'static str {
    use paw_core::mpi::Threading;
    match paw_core::mpi::environment::threading_support() {
        Threading::Single => "MPI_THREAD_SINGLE",
        Threading::Funneled => "MPI_THREAD_FUNNELED",
        Threading::Serialized => "MPI_THREAD_SERIALIZED",
        Threading::Multiple => "MPI_THREAD_MULTIPLE",
    }
}

/// `# Slurm job : …` when Slurm started the run, else nothing.
fn slurm_line() -> String {
    paw_core::SlurmJob::current()
        .map(|job| format!("# Slurm job             : {}\n", job.describe()))
        .unwrap_or_default()
}

/// Header lines for today's IMB's general options set away from their defaults, and where
/// the message buffers come from (`-alloc_mem`, in the suites that take it).
fn general_options<K>(suite: &Suite<K>, o: &Options) -> String {
    let line = |label: &str, value: &str| format!("# {label:<31}:   {value}\n");
    let mut s = String::new();
    if let Some(c) = o.off_cache {
        let value = format!(
            "{} MiB cache, {}-byte lines: each repetition's buffers at a new offset",
            c.size_mib, c.line
        );
        s += &line("Off-cache (-off_cache)", &value);
    }
    for (label, value) in crate::general::header_lines(suite, o) {
        s += &line(&label, &value);
    }
    if !o.inert.is_empty() {
        let value = format!("{} (read by none of {}'s benchmarks)", o.inert.join(" "), suite.name);
        s += &line("Taken, changing nothing", &value);
    }
    s
}

/// The general information block and the list of benchmarks (guide §6); `extra` lines
/// (the CPU_Exploit rate of IMB-IO) close it.
pub fn general<K>(
    suite: &Suite<K>,
    o: &Options,
    selected: &[&Benchmark<K>],
    extra: &str,
) -> String {
    let [machine, system, release, version] = uname();
    let (major, minor) = paw_core::mpi::environment::version();
    let (min, max) = match &o.lengths {
        Lengths::Log { lo, hi } => (if o.zero_size { 0 } else { 1usize << lo }, 1usize << hi),
        Lengths::List(l) => (*l.iter().min().unwrap(), *l.iter().max().unwrap()),
    };
    let multi = if o.multi.is_some() { "(Multi-)" } else { "" };
    let st = &suite.settings;
    let (portion, types) = if suite.io {
        ("io portion", "#\n".to_string())
    } else {
        (
            "message length",
            format!(
                "#\n\
                 # MPI_Datatype                   :   {}\n\
                 # MPI_Datatype for reductions    :   {}\n\
                 # MPI_Op                         :   MPI_SUM\n",
                o.data_type.header(),
                o.red_data_type.header()
            ),
        )
    };
    let barrier = if o.imb_barrier { "zero-byte MPI_Sendrecv barriers" } else { "MPI_Barrier" };
    let most = crate::settings::MESSAGE_PASSING.msgs_per_sample;
    let estimate = match o.iter_policy {
        IterPolicy::Dynamic | IterPolicy::Auto => format!(
            "1 + min(n, {most}) repetitions untimed at every length, fewer past 1 ms each \
             (-estimate{})",
            if o.iter_policy == IterPolicy::Auto && suite.has_rooted() {
                "; n untimed for the rooted"
            } else {
                ""
            }
        ),
        IterPolicy::Off | IterPolicy::MultipleNp => {
            "n repetitions untimed at every length (-estimate)".to_string()
        }
    };
    let warmup = match (st.own_warm_up, st.n_warmup, o.estimate) {
        (Some(text), _, false) if o.warm_up => text.to_string(),
        (Some(text), _, true) if o.warm_up => format!("{estimate}, then {text}"),
        (None, n, e) if n > 0 && o.warm_up => {
            let first = if e { format!("{estimate}; ") } else { String::new() };
            format!(
                "{first}{n} runs at the largest length, {} {barrier} before each timing",
                st.n_barr
            )
        }
        (_, _, true) => format!("{estimate}, {} {barrier} before each timing", st.n_barr),
        _ => format!("none, {} {barrier} before each timing", st.n_barr),
    };
    let mut s = format!(
        "{RULE}\n#    paw {}: the {} of the Intel MPI Benchmarks {}, re-implemented\n\
         {RULE}\n\
         # Date                  : {}\n\
         # Machine               : {machine}\n\
         # System                : {system}\n\
         # Release               : {release}\n\
         # Version               : {version}\n\
         # MPI Version           : {major}.{minor}\n\
         # MPI Library           : {}\n\
         # MPI Thread Environment: {}\n\
         {}\
         \n\n\
         # Calling sequence was: \n\n\
         # {} \n\n\
         # Minimum {portion} in bytes:   {min}\n\
         # Maximum {portion} in bytes:   {max}\n\
         {types}\
         # Mbytes/sec                     :   {} per second\n\
         # Repetitions                    :   {}\n\
         # Warm-up, synchronisation       :   {warmup}\n",
        suite.name,
        suite.what,
        o.edition.version(),
        date(),
        paw_core::mpi_library_version(),
        thread_level(),
        slurm_line(),
        calling_sequence(),
        o.edition.mbyte_text(),
        repetition_rule(o, o.per_sample, suite.has_rooted()),
    );
    s += &general_options(suite, o);
    if suite.benchmarks.iter().any(|b| b.modes.contains(&Mode::NonAggregate)) {
        s += &format!(
            "# Non-aggregate repetitions      :   {}\n",
            repetition_rule(o, o.msgs_nonaggr, suite.has_rooted())
        );
    }
    if o.per_sample != st.msgs_per_sample || o.overall_vol != st.overall_vol {
        s += &format!(
            "# MSGSPERSAMPLE, OVERALL_VOL      :   {}, {} MB (-iter; standard {}, {} MB)\n",
            o.per_sample,
            o.overall_vol >> 20,
            st.msgs_per_sample,
            st.overall_vol >> 20
        );
    }
    if selected.iter().any(|b| b.class == Class::MessageRate) {
        s += &format!(
            "# Window (Uniband, Biband)       :   {} messages per pair (-window_size)\n",
            o.window_size
        );
    }
    if let Some(t) = o.time {
        s += &format!("# Time limit per length          :   {t} s (-time: fewer repetitions)\n");
    }
    if o.check {
        s +=
            "# Results checking               :   on (-check; defects column, timings not valid)\n";
    }
    s += extra;
    s += "#\n#\n\n# List of Benchmarks to run:\n\n";
    for b in selected {
        s += &format!("# {multi}{}\n", b.name);
    }
    s
}

/// The program and its arguments, as typed.
fn calling_sequence() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
}

/// The repetition rule in words, `n` being the mode's MSGSPERSAMPLE or MSGS_NONAGGR
/// (`off` and `multiple_np` take MSGSPERSAMPLE in every mode); `rooted`: the suite has
/// benchmarks that `auto` counts as `multiple_np` does.
fn repetition_rule(o: &Options, n: usize, rooted: bool) -> String {
    let volume = format!("min({n}, max(1, {} MB / length)), {n} at length 0", o.overall_vol >> 20);
    let (most, m) = (o.per_sample, o.max_msg_log);
    let multiple = format!(
        "round({most} 2^{m} / (P max(length, 4) + 2^{m})) down to a multiple of the process \
         count P, at least P"
    );
    match o.iter_policy {
        IterPolicy::Off => format!("{most} at every length (-iter_policy off)"),
        IterPolicy::Dynamic => volume,
        IterPolicy::Auto if !rooted => format!("{volume} (-iter_policy auto: no rooted benchmark)"),
        IterPolicy::MultipleNp => format!("{multiple} (-iter_policy multiple_np)"),
        IterPolicy::Auto => {
            format!("rooted collectives {multiple}; the others {volume} (-iter_policy auto)")
        }
    }
}

/// How a block's processes are arranged, for its header.
#[derive(Debug)]
pub struct Arrangement {
    /// Processes per group (Q).
    pub q: usize,
    /// World ranks of each group's members, in group-rank order.
    pub groups: Vec<Vec<i32>>,
    /// Started processes not in any group (waiting in MPI_Barrier).
    pub idle: usize,
    /// Whether Multi- versions run.
    pub multi: bool,
    /// Whether `-map` renumbered the processes.
    pub mapped: bool,
}

/// The block header of one benchmark on one process count (`shape` after its name), with
/// its `MODE:` line when the benchmark has modes (IMB-EXT, IMB-IO, IMB-RMA).
pub fn block<K>(b: &Benchmark<K>, shape: &str, a: &Arrangement, mode: Mode) -> String {
    let mut s = format!("\n{RULE}\n");
    if a.multi {
        s += &format!("# Benchmarking Multi-{}\n", b.name);
        s += &format!(
            "# ( {} groups of {} processes each running simultaneous )\n",
            a.groups.len(),
            a.q
        );
        for (g, ranks) in a.groups.iter().enumerate() {
            let list: String = ranks.iter().map(|r| format!("{r:>6}")).collect();
            s += &format!("# Group {g:>2}:{list}\n");
        }
    } else {
        s += &format!("# Benchmarking {}{shape}\n# #processes = {}\n", b.name, a.q);
        if a.mapped {
            let list: String = a.groups[0].iter().map(|r| format!(" {r}")).collect();
            s += &format!("# rank order (world ranks of ranks 0..{}):{list}\n", a.q - 1);
        }
    }
    if a.idle > 0 {
        s += &format!("# ( {} additional processes waiting in MPI_Barrier)\n", a.idle);
    }
    s += RULE;
    if let Some(name) = mode.heading() {
        s += &format!("\n#\n#    MODE: {name} \n#");
    }
    s
}

/// Column layout of a table.
#[derive(Debug, Clone, Copy)]
pub struct Columns {
    /// Non-blocking I/O: t_ovrl, t_pure, t_CPU and overlap columns.
    pub overlap: bool,
    /// Single transfer outside Multi mode: one time column `t[usec]` (t_max).
    pub single_time: bool,
    /// A length column (not Barrier).
    pub bytes: bool,
    /// A Mbytes/sec column with this turnover factor.
    pub n_msg: usize,
    /// A leading group column (`-multi 1`).
    pub group: bool,
    /// A trailing defects column (`-check`).
    pub defects: bool,
    /// Windowed benchmarks: messages per repetition, over all pairs (Mbytes/sec and
    /// Msg/sec columns instead of times); 0 for the others.
    pub rate: usize,
    /// The IMB whose Mbyte and overlap rule the columns follow.
    pub edition: Edition,
    /// Truly_passive_put: `t_pure[usec] t_ovrl[usec]`, each the maximum over processes.
    pub passive: bool,
    /// Every process at once (IMB-P2P): (`half`, processes): `t[usec] Mbytes/sec Msg/sec`.
    pub everyone: Option<(bool, usize)>,
}

impl Columns {
    /// The columns of benchmark `b` of a suite of `edition` on `q` processes under the
    /// options.
    pub fn of<K>(b: &Benchmark<K>, edition: Edition, o: &Options, q: usize) -> Columns {
        let windowed = b.class == Class::MessageRate;
        // One origin's time: a single transfer's (range columns in Multi- runs, as IMB's),
        // or one origin's towards all the others (always).
        let one_time = match b.class {
            Class::SingleTransfer | Class::SingleElement => o.multi.is_none(),
            Class::MultPassive => true,
            _ => false,
        };
        Columns {
            edition,
            passive: b.class == Class::TrulyPassive,
            everyone: match b.class {
                Class::Everyone { half } => Some((half, q)),
                _ => None,
            },
            rate: if windowed { b.n_msg * o.window_size * (q / 2) } else { 0 },
            overlap: b.overlap,
            single_time: one_time,
            bytes: b.has_bytes,
            n_msg: b.n_msg,
            group: o.multi == Some(1),
            defects: o.check,
        }
    }

    /// The column header line.
    pub fn header(&self) -> String {
        let mut cols: Vec<&str> = Vec::new();
        if self.group {
            cols.push("#group");
        }
        if self.bytes {
            cols.push("#bytes");
        }
        cols.push("#repetitions");
        if self.rate > 0 {
            cols.extend(["Mbytes/sec", "Msg/sec"]);
        } else if self.everyone.is_some() {
            cols.extend(["t[usec]", "Mbytes/sec", "Msg/sec"]);
        } else if self.passive {
            cols.extend(["t_pure[usec]", "t_ovrl[usec]"]);
        } else if self.overlap {
            cols.extend(["t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", "overlap[%]"]);
        } else if self.single_time {
            cols.push("t[usec]");
        } else {
            cols.extend(["t_min[usec]", "t_max[usec]", "t_avg[usec]"]);
        }
        if self.n_msg > 0 && !self.overlap && self.rate == 0 && self.everyone.is_none() {
            cols.push("Mbytes/sec");
        }
        if self.defects {
            cols.push("defects");
        }
        cols.iter().map(|c| format!("{c:>13}")).collect()
    }

    /// The columns of the table's CSV file: every statistic, whatever the text table shows
    /// (names from [`imb_csv`]; the bandwidth's carries the edition's Mbyte).
    pub fn csv_header(&self) -> Vec<String> {
        use imb_csv::*;
        let mut cols = vec![BENCHMARK, PROCESSES, MODE];
        if self.group {
            cols.push(GROUP);
        }
        cols.extend([BYTES, REPETITIONS]);
        // The times over the processes, named for what they time.
        cols.extend(match (self.overlap, self.everyone.is_some()) {
            (true, _) => [T_OVRL_MIN, T_OVRL_MAX, T_OVRL_AVG],
            (_, true) => [T_ITER_MIN, T_ITER_MAX, T_ITER_AVG],
            _ => [T_MIN, T_MAX, T_AVG],
        });
        let mut cols: Vec<String> = cols.into_iter().map(String::from).collect();
        let bandwidth = imb_csv::bandwidth(self.edition.mbyte_unit());
        if self.everyone.is_some() {
            cols.extend([T_MESSAGE.to_string(), bandwidth, MSGS.to_string()]);
        } else if self.rate > 0 {
            cols.extend([bandwidth, MSGS.to_string()]);
        } else if self.passive {
            cols.push(T_PURE.to_string());
        } else if self.overlap {
            cols.extend([T_PURE, T_CPU, OVERLAP].map(String::from));
        } else if self.n_msg > 0 {
            cols.push(bandwidth);
        }
        if self.defects {
            cols.push(DEFECTS.to_string());
        }
        cols
    }

    /// One CSV row of benchmark `b` on `q` processes in `mode`, matching
    /// [`Columns::csv_header`].
    pub fn csv_row(
        &self,
        (b, q, mode): (&str, usize, Mode),
        group: usize,
        x: usize,
        reps: usize,
        t: &Times,
    ) -> Vec<String> {
        let mut cells = vec![b.to_string(), q.to_string(), mode.csv().to_string()];
        if self.group {
            cells.push(group.to_string());
        }
        cells.extend([x.to_string(), reps.to_string()]);
        cells.extend([t.min, t.max, t.avg].map(|v| format!("{v:.4}")));
        if self.rate > 0 {
            let cols = [self.throughput(self.rate, x, t.max), messages(self.rate, t.max)];
            cells.extend(cols.map(|v| format!("{v:.4}")));
        } else if let Some((half, q)) = self.everyone {
            let n = self.n_msg * q;
            let cols =
                [self.per_message(half, t), self.throughput(n, x, t.max), messages(n, t.max)];
            cells.extend(cols.map(|v| format!("{v:.4}")));
        } else if self.passive {
            cells.push(format!("{:.4}", t.pure));
        } else if self.overlap {
            let (_, pure, cpu, percent) = self.overlap(t);
            cells.extend([pure, cpu, percent].map(|v| format!("{v:.4}")));
        } else if self.n_msg > 0 {
            cells.push(format!("{:.4}", self.throughput(self.n_msg, x, t.max)));
        }
        if self.defects {
            cells.push(t.defects.to_string());
        }
        cells
    }

    /// One row: `group` (with the group column), length, repetitions, statistics in usec.
    pub fn row(&self, group: usize, x: usize, reps: usize, t: &Times) -> String {
        let mut s = String::new();
        if self.group {
            s += &format!("{group:>13}");
        }
        if self.bytes {
            s += &format!("{x:>13}");
        }
        s += &format!("{reps:>13}");
        if self.rate > 0 {
            let (mb, msgs) = (self.throughput(self.rate, x, t.max), messages(self.rate, t.max));
            s += &format!("{mb:>13.2}{msgs:>13.0}");
        } else if let Some((half, q)) = self.everyone {
            let n = self.n_msg * q;
            let per_message = self.per_message(half, t);
            let (mb, msgs) = (self.throughput(n, x, t.max), messages(n, t.max));
            s += &format!("{per_message:>13.2}{mb:>13.2}{msgs:>13.0}");
        } else if self.passive {
            s += &format!("{:>13.2}{:>13.2}", t.pure, t.max);
        } else if self.overlap {
            let (ovrl, pure, cpu, percent) = self.overlap(t);
            s += &format!("{ovrl:>13.2}{pure:>13.2}{cpu:>13.2}{percent:>13.2}");
        } else if self.single_time {
            s += &format!("{:>13.2}", t.max);
        } else {
            s += &format!("{:>13.2}{:>13.2}{:>13.2}", t.min, t.max, t.avg);
        }
        if self.n_msg > 0 && !self.overlap && self.rate == 0 && self.everyone.is_none() {
            s += &format!("{:>13.2}", self.throughput(self.n_msg, x, t.max));
        }
        if self.defects {
            s += &format!("{:>13}", t.defects);
        }
        s
    }
}

impl Columns {
    /// IMB-P2P's t[usec]: the mean time per iteration over the messages of one process's
    /// share, halved for a round trip's one way.
    fn per_message(&self, half: bool, t: &Times) -> f64 {
        t.avg / self.n_msg as f64 / if half { 2.0 } else { 1.0 }
    }

    /// Mbytes/sec for `n_msg` messages of `x` bytes in `usec` microseconds (guide §3.3.2),
    /// in the edition's Mbytes.
    pub fn throughput(&self, n_msg: usize, x: usize, usec: f64) -> f64 {
        if usec > 0.0 {
            (n_msg * x) as f64 * 1e6 / self.edition.mbyte() / usec
        } else {
            0.0
        }
    }

    /// t_ovrl, t_pure, t_CPU and the overlap in percent, by the edition's rule.
    pub fn overlap(&self, t: &Times) -> (f64, f64, f64, f64) {
        match self.edition {
            Edition::V3 => (t.max, t.pure, t.cpu, overlap(t)),
            Edition::V2021 => {
                let s = t.slowest;
                let most = s.pure.max(s.cpu);
                let percent = if most > 0.0 {
                    (100.0 * (s.pure + s.cpu - s.t) / most).clamp(0.0, 100.0)
                } else {
                    0.0
                };
                (s.t, s.pure, s.cpu, percent)
            }
        }
    }
}

/// Messages per second for `n_msg` messages in `usec` microseconds.
pub fn messages(n_msg: usize, usec: f64) -> f64 {
    if usec > 0.0 {
        n_msg as f64 * 1e6 / usec
    } else {
        0.0
    }
}

/// The overlap of non-blocking I/O with computation, percent (guide §4.2.5.2):
/// (t_pure + t_CPU - t_ovrl) / min(t_pure, t_CPU), t_ovrl the slowest process's, held to
/// 0..100 as today's IMB shows it (t_ovrl beyond t_pure + t_CPU, or below the longer of
/// the two, is noise in the CPU_Exploit period, not more than none or full overlap).
pub fn overlap(t: &Times) -> f64 {
    let least = t.pure.min(t.cpu);
    if least > 0.0 {
        (100.0 * (t.pure + t.cpu - t.max) / least).clamp(0.0, 100.0)
    } else {
        0.0
    }
}

/// Statistics over a set of processes: times in usec and summed defects.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Times {
    /// Fastest process.
    pub min: f64,
    /// Slowest process.
    pub max: f64,
    /// Mean over processes.
    pub avg: f64,
    /// The largest t_pure over the processes (each maximum on its own: IMB 3.0's rule).
    pub pure: f64,
    /// The largest t_CPU over the processes.
    pub cpu: f64,
    /// Defects found by `-check`, summed.
    pub defects: u64,
    /// The figures of the process with the largest time (today's IMB reports its t_pure
    /// and t_CPU beside its t_ovrl).
    pub slowest: ProcessTimes,
}

impl Times {
    /// Statistics of the processes' figures.
    /// Processes that report a negative time took no part in the timing (IMB-RMA's targets)
    /// and are left out of the times, as today's IMB leaves them out; their defects count.
    pub fn of(samples: &[ProcessTimes]) -> Times {
        let timed: Vec<ProcessTimes> = samples.iter().copied().filter(|s| s.t >= 0.0).collect();
        let n = timed.len().max(1) as f64;
        let most = |f: fn(&ProcessTimes) -> f64| timed.iter().map(f).fold(0.0, f64::max);
        Times {
            min: timed.iter().map(|s| s.t).reduce(f64::min).unwrap_or(0.0),
            max: most(|s| s.t),
            avg: timed.iter().map(|s| s.t).sum::<f64>() / n,
            pure: most(|s| s.pure),
            cpu: most(|s| s.cpu),
            defects: samples.iter().map(|s| s.defects as u64).sum(),
            slowest: timed.iter().copied().max_by(|a, b| a.t.total_cmp(&b.t)).unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// IMB-MPI1 PingPong's columns under IMB 3.0.
    const PLAIN: Columns = Columns {
        overlap: false,
        single_time: true,
        bytes: true,
        n_msg: 1,
        group: false,
        defects: false,
        rate: 0,
        edition: Edition::V3,
        passive: false,
        everyone: None,
    };

    #[test]
    fn columns_are_thirteen_wide_like_imb() {
        let c = PLAIN;
        assert_eq!(c.header(), "       #bytes #repetitions      t[usec]   Mbytes/sec");
        let t = Times {
            min: 1.0,
            max: 2.0,
            avg: 1.5,
            pure: 0.0,
            cpu: 0.0,
            defects: 0,
            slowest: ProcessTimes::default(),
        };
        assert_eq!(
            c.row(0, 1048576, 40, &t),
            "      1048576           40         2.00    500000.00"
        );
        let c = Columns { single_time: false, bytes: false, n_msg: 0, defects: true, ..PLAIN };
        assert_eq!(c.header(), " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]      defects");
        let c = Columns { overlap: true, ..PLAIN };
        assert_eq!(
            c.header(),
            "       #bytes #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]"
        );
        // Perfect overlap: t_ovrl = max(t_pure, t_CPU) gives 100%; none gives 0%.
        let t = Times {
            min: 10.0,
            max: 10.0,
            avg: 10.0,
            pure: 4.0,
            cpu: 10.0,
            defects: 0,
            slowest: ProcessTimes::default(),
        };
        assert_eq!(overlap(&t), 100.0);
        let t = Times { max: 14.0, ..t };
        assert_eq!(overlap(&t), 0.0);
    }

    #[test]
    fn throughput_and_overlap_follow_the_edition() {
        let mut c = Columns { overlap: true, single_time: false, ..PLAIN };
        assert_eq!(c.throughput(1, 1 << 20, 1e6), 1.0);
        assert_eq!(c.throughput(4, 1 << 20, 1e6), 4.0);
        assert_eq!(c.throughput(2, 0, 3.0), 0.0);
        // Process 1 is the slowest: today's IMB reports its three times together.
        let samples = [
            ProcessTimes { t: 12.0, pure: 10.0, cpu: 9.0, defects: 0.0 },
            ProcessTimes { t: 15.0, pure: 8.0, cpu: 10.0, defects: 0.0 },
        ];
        let t = Times::of(&samples);
        assert_eq!(c.overlap(&t), (15.0, 10.0, 10.0, 50.0), "3.0: maxima, over the minimum");
        c.edition = Edition::V2021;
        assert_eq!(c.throughput(1, 1_000_000, 1e6), 1.0);
        // A process that took no part (t < 0) is left out of the times, not of the defects.
        let idle = ProcessTimes { t: -1.0, pure: 0.0, cpu: 0.0, defects: 2.0 };
        let with_idle = Times::of(&[samples[0], samples[1], idle]);
        assert_eq!((with_idle.min, with_idle.avg, with_idle.defects), (12.0, 13.5, 2));
        // (8 + 10 - 15) / max(8, 10) = 30 %.
        let (ovrl, pure, cpu, percent) = c.overlap(&t);
        assert_eq!((ovrl, pure, cpu), (15.0, 8.0, 10.0));
        assert!((percent - 30.0).abs() < 1e-9, "{percent}");
    }
}
