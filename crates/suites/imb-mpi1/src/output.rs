//! The output of guide §6: the general information block, then per benchmark and process
//! count a block header and a table. Column widths follow IMB's (13 characters), so
//! parsers written for IMB (keyed on `# Benchmarking`, `# #processes =` and the column
//! header line) read it unchanged.

use crate::kernels::{Benchmark, Class};
use crate::options::{IterPolicy, Lengths, Options};
use crate::settings::{MSGSPERSAMPLE, N_BARR, N_WARMUP, OVERALL_VOL};

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

/// The general information block and the list of benchmarks (guide §6).
pub fn general(o: &Options, selected: &[&Benchmark]) -> String {
    let [machine, system, release, version] = uname();
    let (major, minor) = paw_core::mpi::environment::version();
    let (min, max) = match &o.lengths {
        Lengths::Log { hi, .. } => (0, 1usize << hi),
        Lengths::List(l) => (*l.iter().min().unwrap(), *l.iter().max().unwrap()),
    };
    let multi = if o.multi.is_some() { "(Multi-)" } else { "" };
    let mut s = format!(
        "{RULE}\n#    paw IMB-MPI1: the MPI-1 benchmarks of the Intel MPI Benchmarks 3.0, re-implemented\n\
         {RULE}\n\
         # Date                  : {}\n\
         # Machine               : {machine}\n\
         # System                : {system}\n\
         # Release               : {release}\n\
         # Version               : {version}\n\
         # MPI Version           : {major}.{minor}\n\
         # MPI Library           : {}\n\
         # MPI Thread Environment: {}\n\
         \n\n\
         # Calling sequence was: \n\n\
         # {} \n\n\
         # Minimum message length in bytes:   {min}\n\
         # Maximum message length in bytes:   {max}\n\
         #\n\
         # MPI_Datatype                   :   MPI_BYTE\n\
         # MPI_Datatype for reductions    :   MPI_FLOAT\n\
         # MPI_Op                         :   MPI_SUM\n\
         # Mbytes/sec                     :   2^20 bytes per second\n\
         # Repetitions                    :   {}\n\
         # Warm-up, synchronisation       :   {N_WARMUP} runs at the largest length, {N_BARR} MPI_Barrier before each timing\n",
        date(),
        paw_core::mpi_library_version(),
        thread_level(),
        calling_sequence(),
        repetition_rule(o),
    );
    if o.per_sample != MSGSPERSAMPLE || o.overall_vol != OVERALL_VOL {
        s += &format!(
            "# MSGSPERSAMPLE, OVERALL_VOL      :   {}, {} MB (-iter; standard {MSGSPERSAMPLE}, {} MB)\n",
            o.per_sample,
            o.overall_vol >> 20,
            OVERALL_VOL >> 20
        );
    }
    if let Some(t) = o.time {
        s += &format!("# Time limit per length          :   {t} s (-time: fewer repetitions)\n");
    }
    if o.check {
        s +=
            "# Results checking               :   on (-check; defects column, timings not valid)\n";
    }
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

/// The repetition rule in words.
fn repetition_rule(o: &Options) -> String {
    match o.iter_policy {
        IterPolicy::Off => format!("{} at every length (-iter_policy off)", o.per_sample),
        IterPolicy::Dynamic => format!(
            "min({}, max(1, {} MB / length)), {} at length 0",
            o.per_sample,
            o.overall_vol >> 20,
            o.per_sample
        ),
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

/// The block header of one benchmark on one process count.
pub fn block(b: &Benchmark, a: &Arrangement) -> String {
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
        s += &format!("# Benchmarking {}\n# #processes = {}\n", b.name, a.q);
        if a.mapped {
            let list: String = a.groups[0].iter().map(|r| format!(" {r}")).collect();
            s += &format!("# rank order (world ranks of ranks 0..{}):{list}\n", a.q - 1);
        }
    }
    if a.idle > 0 {
        s += &format!("# ( {} additional processes waiting in MPI_Barrier)\n", a.idle);
    }
    s += RULE;
    s
}

/// Column layout of a table.
#[derive(Debug, Clone, Copy)]
pub struct Columns {
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
}

impl Columns {
    /// The columns of benchmark `b` under the options.
    pub fn of(b: &Benchmark, o: &Options) -> Columns {
        Columns {
            single_time: b.class == Class::SingleTransfer && o.multi.is_none(),
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
        if self.single_time {
            cols.push("t[usec]");
        } else {
            cols.extend(["t_min[usec]", "t_max[usec]", "t_avg[usec]"]);
        }
        if self.n_msg > 0 {
            cols.push("Mbytes/sec");
        }
        if self.defects {
            cols.push("defects");
        }
        cols.iter().map(|c| format!("{c:>13}")).collect()
    }

    /// The columns of the table's CSV file: every statistic, whatever the text table shows.
    pub fn csv_header(&self) -> Vec<&'static str> {
        let mut cols = vec!["benchmark", "processes", "mode"];
        if self.group {
            cols.push("group");
        }
        cols.extend(["bytes", "repetitions", "t_min_us", "t_max_us", "t_avg_us"]);
        if self.n_msg > 0 {
            cols.push("mbytes_per_s");
        }
        if self.defects {
            cols.push("defects");
        }
        cols
    }

    /// One CSV row, matching [`Columns::csv_header`].
    pub fn csv_row(
        &self,
        b: &str,
        q: usize,
        group: usize,
        x: usize,
        reps: usize,
        t: &Times,
    ) -> Vec<String> {
        let mut cells = vec![b.to_string(), q.to_string(), String::new()];
        if self.group {
            cells.push(group.to_string());
        }
        cells.extend([x.to_string(), reps.to_string()]);
        cells.extend([t.min, t.max, t.avg].map(|v| format!("{v:.4}")));
        if self.n_msg > 0 {
            cells.push(format!("{:.4}", throughput(self.n_msg, x, t.max)));
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
        if self.single_time {
            s += &format!("{:>13.2}", t.max);
        } else {
            s += &format!("{:>13.2}{:>13.2}{:>13.2}", t.min, t.max, t.avg);
        }
        if self.n_msg > 0 {
            s += &format!("{:>13.2}", throughput(self.n_msg, x, t.max));
        }
        if self.defects {
            s += &format!("{:>13}", t.defects);
        }
        s
    }
}

/// Mbytes/sec for `n_msg` messages of `x` bytes in `usec` microseconds (guide §3.3.2).
pub fn throughput(n_msg: usize, x: usize, usec: f64) -> f64 {
    if usec > 0.0 {
        (n_msg * x) as f64 / 1.048576 / usec
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
    /// Defects found by `-check`, summed.
    pub defects: u64,
}

impl Times {
    /// Statistics of (usec, defects) pairs.
    pub fn of(samples: &[(f64, f64)]) -> Times {
        let n = samples.len().max(1) as f64;
        Times {
            min: samples.iter().map(|s| s.0).fold(f64::INFINITY, f64::min),
            max: samples.iter().map(|s| s.0).fold(0.0, f64::max),
            avg: samples.iter().map(|s| s.0).sum::<f64>() / n,
            defects: samples.iter().map(|s| s.1 as u64).sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_thirteen_wide_like_imb() {
        let c = Columns { single_time: true, bytes: true, n_msg: 1, group: false, defects: false };
        assert_eq!(c.header(), "       #bytes #repetitions      t[usec]   Mbytes/sec");
        let t = Times { min: 1.0, max: 2.0, avg: 1.5, defects: 0 };
        assert_eq!(
            c.row(0, 1048576, 40, &t),
            "      1048576           40         2.00    500000.00"
        );
        let c = Columns { single_time: false, bytes: false, n_msg: 0, group: false, defects: true };
        assert_eq!(c.header(), " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]      defects");
    }

    #[test]
    fn throughput_uses_2_20_bytes() {
        assert_eq!(throughput(1, 1 << 20, 1e6), 1.0);
        assert_eq!(throughput(4, 1 << 20, 1e6), 4.0);
        assert_eq!(throughput(2, 0, 3.0), 0.0);
    }
}
