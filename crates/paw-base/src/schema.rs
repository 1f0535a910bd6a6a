//! What paw's result files hold, written once for the programs that write them and for
//! paw-report, which reads them back: the units (label, CSV suffix, which way is better),
//! the columns of a sweep, the columns and names of the IMB suites' CSV tables, the header
//! keys that describe a run and the settings that only say where files went.

/// Which way a quantity improves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    /// Times: less is better.
    Lower,
    /// Bandwidths, rates, overlap: more is better.
    Higher,
    /// Sizes, counts: neither (a key, not a figure).
    Neither,
}

/// A unit as paw writes it: the label in `.dat` headers and the suffix of CSV column names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    /// As headers and summaries print it: `usec`, `MB/s (MB = 2^20 B)`.
    pub label: &'static str,
    /// The suffix of a CSV column in this unit: `us`, `MiB_per_s`.
    pub csv: &'static str,
    /// Which way the quantity improves.
    pub better: Better,
    /// One unit in the base quantity (bytes per second, seconds, bytes, flop/s, messages
    /// per second, a fraction): `value = base / factor` ([`Unit::of`]).
    pub factor: f64,
}

/// 2^20 bytes: PAW's and IMB 3.0's MB, and b_eff_io's chunk sizes.
pub const MIB: u64 = 1 << 20;

/// Microseconds.
pub const USEC: Unit = Unit { label: "usec", csv: "us", better: Better::Lower, factor: 1e-6 };
/// Seconds.
pub const SECONDS: Unit = Unit { label: "s", csv: "s", better: Better::Lower, factor: 1.0 };
/// Bytes (a size).
pub const BYTES: Unit = Unit { label: "bytes", csv: "bytes", better: Better::Neither, factor: 1.0 };
/// PAW's and IMB 3.0's bandwidth: MB of 2^20 bytes per second.
pub const MIB_PER_S: Unit = Unit {
    label: "MB/s (MB = 2^20 B)",
    csv: "MiB_per_s",
    better: Better::Higher,
    factor: MIB as f64,
};
/// b_eff's, PRESTA's, STREAM's and IMB 2021's bandwidth: MB of 10^6 bytes per second.
pub const MB_PER_S: Unit =
    Unit { label: "MB/s (MB = 10^6 B)", csv: "MB_per_s", better: Better::Higher, factor: 1e6 };
/// GB of 10^9 bytes per second.
pub const GB_PER_S: Unit =
    Unit { label: "GB/s (1e9 B/s)", csv: "GB_per_s", better: Better::Higher, factor: 1e9 };
/// Floating-point rate.
pub const GFLOP_PER_S: Unit =
    Unit { label: "GFLOP/s (1e9 flop/s)", csv: "GFLOP_per_s", better: Better::Higher, factor: 1e9 };
/// Message rate.
pub const MSG_PER_S: Unit =
    Unit { label: "messages/s", csv: "msg_per_s", better: Better::Higher, factor: 1.0 };
/// A percentage (overlap of communication and computation: more is better).
pub const PERCENT: Unit = Unit { label: "%", csv: "percent", better: Better::Higher, factor: 0.01 };

/// No unit: counts, names, flags (no CSV suffix).
pub const NONE: Unit = Unit { label: "", csv: "", better: Better::Neither, factor: 1.0 };
/// Matrix orders and other element counts.
pub const ELEMENTS: Unit =
    Unit { label: "elements", csv: "elements", better: Better::Neither, factor: 1.0 };
/// Thread counts.
pub const THREADS: Unit =
    Unit { label: "threads", csv: "threads", better: Better::Neither, factor: 1.0 };
/// A name on an axis (STREAM's kernels).
pub const NAME: Unit = Unit { label: "name", csv: "name", better: Better::Neither, factor: 1.0 };

/// Every unit paw writes, in the order a suffix is matched (longer suffixes first).
pub const UNITS: [Unit; 9] =
    [MIB_PER_S, MB_PER_S, GB_PER_S, GFLOP_PER_S, MSG_PER_S, PERCENT, BYTES, USEC, SECONDS];

impl Unit {
    /// The unit of a header label: exact, or a label that adds words inside the parentheses
    /// (`MB/s (MB = 10^6 B, as STREAM)`).
    pub fn of_label(label: &str) -> Option<Unit> {
        let label = label.trim();
        UNITS.iter().copied().find(|u| {
            u.label == label
                || u.label.strip_suffix(')').is_some_and(|open| {
                    label.strip_prefix(open).is_some_and(|rest| rest.starts_with(','))
                })
        })
    }

    /// The quantity and unit of a CSV column name (`median_us` -> `median`, [`USEC`]).
    pub fn of_csv_column(column: &str) -> Option<(&str, Unit)> {
        UNITS.iter().find_map(|u| {
            let name = column.strip_suffix(u.csv)?.strip_suffix('_')?;
            Some((name, *u))
        })
    }

    /// A quantity in its base (bytes per second, seconds ...) expressed in this unit.
    pub fn of(&self, base: f64) -> f64 {
        base / self.factor
    }

    /// Whether the unit is a time.
    pub fn is_time(&self) -> bool {
        self.better == Better::Lower
    }
}

/// The columns of a sweep file (`.dat`), each row one size's statistics over its samples.
pub mod sweep {
    /// The row's size (message, matrix order, thread count ...).
    pub const SIZE: &str = "SIZE";
    /// Mean over the samples.
    pub const AVG: &str = "AVG";
    /// Smallest sample.
    pub const MIN: &str = "MIN";
    /// Largest sample.
    pub const MAX: &str = "MAX";
    /// Sample standard deviation.
    pub const STDDEV: &str = "STDDEV";
    /// Median of the samples: the row's figure.
    pub const MEDIAN: &str = "MEDIAN";
    /// Iterations per sample.
    pub const NLOOP: &str = "NLOOP";
    /// Samples.
    pub const NREPS: &str = "NREPS";
    /// Lower end of the median's 95 % interval.
    pub const CI_LO: &str = "CI_LO";
    /// Upper end of the median's 95 % interval.
    pub const CI_HI: &str = "CI_HI";
    /// 1 when the interval is wider than PAW_TOLERANCE of the median.
    pub const NOISY: &str = "NOISY";
    /// The data check's verdict (`pass`, `fail`, `-`), with PAW_CHECK=1.
    pub const CHECK: &str = "CHECK";
    /// Non-blocking collectives: the overall loop's time with computation, usec.
    pub const OVERALL: &str = "OVERALL";
    /// Non-blocking collectives: the computation's time inside the overall loop, usec.
    pub const COMPUTE: &str = "COMPUTE";
    /// Non-blocking collectives: the overlap of communication and computation, %.
    pub const OVERLAP: &str = "OVERLAP";
    /// Every sweep file's columns, in order, before its extra columns and CHECK.
    pub const COLUMNS: [&str; 11] =
        [SIZE, AVG, MIN, MAX, STDDEV, MEDIAN, NLOOP, NREPS, CI_LO, CI_HI, NOISY];
    /// The columns of the measured quantity (the y unit), in [`COLUMNS`] order.
    pub const STATISTICS: [&str; 7] = [AVG, MIN, MAX, STDDEV, MEDIAN, CI_LO, CI_HI];
}

/// Header keys (`# key: value` lines of `.dat` files).
pub mod header {
    /// The x axis: `SIZE = label [unit]`.
    pub const X: &str = "x";
    /// The y axis: `label [unit]; ...`.
    pub const Y: &str = "y";
    /// The columns, space-separated.
    pub const COLUMNS: &str = "columns";
    /// The run's start, UTC.
    pub const DATE: &str = "date";
    /// The task count.
    pub const TASKS: &str = "tasks";
    /// The hosts and their task counts.
    pub const HOSTS: &str = "hosts";
    /// How tasks were bound to cores.
    pub const BINDING: &str = "binding";
    /// The MPI library.
    pub const LIBRARY: &str = "library";
    /// Open MPI's parameter file.
    pub const MCA_FILE: &str = "mca file";
    /// Settings given by the user: `NAME=value ...`.
    pub const SETTINGS: &str = "settings";
    /// Settings left at their defaults.
    pub const DEFAULTS: &str = "defaults";
    /// Tuning variables of the MPI and threading libraries.
    pub const ENVIRONMENT: &str = "environment";
    /// Lines that describe the run as a whole and are compared whole between two runs.
    pub const RUN: [&str; 5] = [TASKS, HOSTS, BINDING, LIBRARY, MCA_FILE];
}

/// The columns of the plain tables (not sweeps) that paw-report reads a figure from.
pub mod table {
    /// p2p_matrix: the sending host, a row per host and a column per receiving host.
    pub const HOST: &str = "HOST";
    /// PRESTA laten: the process count.
    pub const PROCESSES: &str = "PROCESSES";
    /// PRESTA laten: the slowest pair's latency, usec.
    pub const LATENCY: &str = "LATENCY";
    /// PRESTA allred: the sample.
    pub const SAMPLE: &str = "SAMPLE";
    /// PRESTA allred: the computation alone, usec per sample.
    pub const BASE: &str = "BASE";
    /// PRESTA allred: computation and Allreduce, usec per sample.
    pub const OP: &str = "OP";
    /// PRESTA globalop: the operation.
    pub const OPERATION: &str = "OPERATION";
    /// PRESTA globalop: `yes` with a compute phase before each call.
    pub const COMPUTE: &str = "COMPUTE";
    /// PRESTA globalop: the repetition of the set.
    pub const SET: &str = "SET";
    /// col_init and initest: the task count.
    pub const TASKS: &str = "TASKS";
    /// col_init: the slowest task's start-up time, s.
    pub const TMAX: &str = "TMAX";
    /// col_init: the fastest task's start-up time, s.
    pub const TMIN: &str = "TMIN";
    /// col_init: the mean over tasks, s.
    pub const TAVG: &str = "TAVG";

    /// PRESTA com and rma: the column of `count` processes.
    pub fn processes(count: usize) -> String {
        format!("P{count}")
    }
}

/// The last CSV column of a table that gathers rows of several runs (start-up times): the
/// run's date.
pub const RUN_COLUMN: &str = "run";

/// Settings that only say where files went: two runs that differ in them alone are the
/// same run.
pub const LOCATIONS: [&str; 1] = [crate::vars::PAW_OUTPUT_DIR.name];

/// The CSV tables of the IMB suites (`IMB-MPI1`, `IMB-NBC` ...): one file per benchmark,
/// process count and mode.
pub mod imb_csv {
    use super::Unit;

    /// Benchmark name, as Intel spells it.
    pub const BENCHMARK: &str = "benchmark";
    /// Processes in the table.
    pub const PROCESSES: &str = "processes";
    /// `aggregate`, `non-aggregate` or empty.
    pub const MODE: &str = "mode";
    /// The group (`-multi 1`).
    pub const GROUP: &str = "group";
    /// Threads per process (IMB-MT).
    pub const THREADS: &str = "threads";
    /// Message length.
    pub const BYTES: &str = "bytes";
    /// Repetitions.
    pub const REPETITIONS: &str = "repetitions";
    /// Fastest process's time per repetition, usec.
    pub const T_MIN: &str = "t_min_us";
    /// Slowest process's time per repetition, usec.
    pub const T_MAX: &str = "t_max_us";
    /// Average over processes of the time per repetition, usec: the figure compared.
    pub const T_AVG: &str = "t_avg_us";
    /// Overlap tables (non-blocking collectives and I/O): fastest process's t_ovrl, usec.
    pub const T_OVRL_MIN: &str = "t_ovrl_min_us";
    /// Slowest process's t_ovrl, usec.
    pub const T_OVRL_MAX: &str = "t_ovrl_max_us";
    /// Average over processes of t_ovrl, usec: the figure compared.
    pub const T_OVRL_AVG: &str = "t_ovrl_avg_us";
    /// IMB-P2P: fastest process's time per iteration of the pattern, usec.
    pub const T_ITER_MIN: &str = "t_iter_min_us";
    /// IMB-P2P: slowest process's time per iteration, usec.
    pub const T_ITER_MAX: &str = "t_iter_max_us";
    /// IMB-P2P: average over processes of the time per iteration, usec.
    pub const T_ITER_AVG: &str = "t_iter_avg_us";
    /// IMB-P2P: the table's t[usec], time per message (PingPong: one way), usec: the figure
    /// compared.
    pub const T_MESSAGE: &str = "t_message_us";
    /// The columns a table's figure is read from, the first present counting.
    pub const FIGURES: &[&str] = &[T_AVG, T_OVRL_AVG, T_MESSAGE];

    /// The column of a table's figure among `headers`: its index and name.
    pub fn figure<'h>(headers: impl IntoIterator<Item = &'h str>) -> Option<(usize, &'static str)> {
        let headers: Vec<&str> = headers.into_iter().collect();
        FIGURES.iter().find_map(|f| Some((headers.iter().position(|h| h == f)?, *f)))
    }
    /// Message rate.
    pub const MSGS: &str = "rate_msg_per_s";
    /// Time of the operation alone, usec (overlap and passive tables).
    pub const T_PURE: &str = "t_pure_us";
    /// Time of the computation alone, usec.
    pub const T_CPU: &str = "t_cpu_us";
    /// Overlap of communication and computation, percent.
    pub const OVERLAP: &str = "overlap_percent";
    /// Data check defects (`-check`).
    pub const DEFECTS: &str = "defects";

    /// The bandwidth column in the suite's Mbytes (its name carries the unit).
    pub fn bandwidth(mbyte: Unit) -> String {
        format!("bandwidth_{}", mbyte.csv)
    }

    /// A table's file name: `IMB-MPI1-PingPong-np_0002.csv`, `IMB-EXT-Multi-Unidir_Put-
    /// np_0004-aggregate.csv`.
    pub fn file_name(suite: &str, multi: bool, benchmark: &str, q: usize, mode: &str) -> String {
        let multi = if multi { "Multi-" } else { "" };
        let mode = if mode.is_empty() { String::new() } else { format!("-{mode}") };
        format!("{suite}-{multi}{benchmark}-np_{q:04}{mode}.csv")
    }

    /// The suite of an IMB table's file name (`IMB-NBC`), if it is one.
    pub fn suite_of(file: &str) -> Option<&str> {
        let rest = file.strip_prefix("IMB-")?;
        let end = 4 + rest.find('-')?;
        file.ends_with(".csv").then(|| &file[..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_read_back_from_labels_and_csv_names() {
        assert_eq!(Unit::of_label("usec"), Some(USEC));
        assert_eq!(Unit::of_label("MB/s (MB = 10^6 B, as STREAM)"), Some(MB_PER_S));
        assert_eq!(Unit::of_label("MB/s (MB = 2^20 B)"), Some(MIB_PER_S));
        assert_eq!(Unit::of_label("threads"), None);
        assert_eq!(Unit::of_csv_column("median_us"), Some(("median", USEC)));
        assert_eq!(Unit::of_csv_column("ring1-1*2fix_MB_per_s"), Some(("ring1-1*2fix", MB_PER_S)));
        assert_eq!(Unit::of_csv_column("bandwidth_MiB_per_s"), Some(("bandwidth", MIB_PER_S)));
        assert_eq!(Unit::of_csv_column("tmax_s"), Some(("tmax", SECONDS)));
        assert_eq!(Unit::of_csv_column("operation"), None);
        assert_eq!(Unit::of_csv_column("overlap_percent"), Some(("overlap", PERCENT)));
    }

    #[test]
    fn imb_file_names() {
        let name = imb_csv::file_name("IMB-EXT", true, "Unidir_Put", 4, "aggregate");
        assert_eq!(name, "IMB-EXT-Multi-Unidir_Put-np_0004-aggregate.csv");
        assert_eq!(imb_csv::suite_of(&name), Some("IMB-EXT"));
        assert_eq!(imb_csv::suite_of("IMB-MPI1-PingPong-np_0002.csv"), Some("IMB-MPI1"));
        assert_eq!(imb_csv::suite_of("IMB-MPI1-np_0002.json"), None);
        assert_eq!(imb_csv::bandwidth(MB_PER_S), "bandwidth_MB_per_s");
        let p2p = ["bytes", "t_iter_avg_us", "t_message_us"];
        assert_eq!(imb_csv::figure(p2p), Some((2, imb_csv::T_MESSAGE)));
        assert_eq!(imb_csv::figure(["t_avg_us"]), Some((0, imb_csv::T_AVG)));
        assert_eq!(imb_csv::figure(["bytes"]), None);
    }
}
