//! What b_eff_io writes: the protocol rows (every pattern and type), per partition 2.1's
//! summary (bandwidth by chunk size and type, the weighted averages, the partition's
//! figure, the validity criteria), the final line in 2.1's form, and the `.dat` tables.

use crate::options::Options;
use crate::plan::{self, Access, Type, ACCESSES, TYPES, VALID_TN};
use crate::run::{PartitionDone, TypeDone};
use paw_core::dat::np_file;
use paw_core::schema::{Unit, MB_PER_S};
use paw_core::{Column, SuiteRun};

/// The protocol's column lines.
pub const PROTOCOL_COLUMNS: &str = "\
# columns: partition access type pattern Tp_s l L calls bytes seconds decide_s sync_s MB_per_s
#   (a pattern: its scheduled time Tp, chunk on disk l and in memory L, calls per process,
#   bytes of all processes, its time t_pat, of which the per-call decisions and MPI_File_sync)
# type rows (pattern 'all'): partition access type all open_s close_s - calls bytes seconds - - MB_per_s
#   (the type from open to close: its bandwidth, with MPI_File_open's and MPI_File_close's times)";

/// The protocol rows of one type in one access of partition `n`; `tn`: the partition's
/// scheduled time, seconds.
pub fn protocol_rows(n: usize, access: Access, t: &TypeDone, tn: f64, rewrite_all: bool) -> String {
    let mut out = String::new();
    let (a, k) = (access.name(), t.kind.number());
    for (p, d) in &t.patterns {
        out += &format!(
            "{n} {a} {k} {} {:.4} {} {} {} {} {:.6e} {:.6e} {:.6e} {:.4}\n",
            p.number,
            plan::pattern_time(tn, p.units, rewrite_all),
            p.l,
            p.big_l,
            d.calls,
            d.bytes,
            d.seconds,
            d.decide,
            d.sync,
            MB_PER_S.of(d.bytes as f64 / d.seconds)
        );
    }
    let calls: u64 = t.patterns.iter().map(|(_, d)| d.calls).sum();
    out += &format!(
        "{n} {a} {k} all {:.6e} {:.6e} - {calls} {} {:.6e} - - {:.4}\n",
        t.open,
        t.close,
        t.bytes(),
        t.seconds(),
        t.bandwidth()
    );
    out
}

/// A partition's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    /// Release 2.1's: sqrt(mean(write types, rewrite type 0) x weighted read), MB/s.
    pub release_21: f64,
    /// The paper's (§5.1): 25 % write, 25 % rewrite, 50 % read, each weighted, MB/s.
    pub paper: f64,
    /// The weighted averages of write, rewrite and read, MB/s.
    pub weighted: [f64; 3],
}

/// The figures of partition `d` from its types' bandwidths (types not run count 0).
pub fn figures(d: &PartitionDone) -> Figures {
    let by = |a: Access| TYPES.map(|t| d.bandwidth(a, t).unwrap_or(0.0));
    let (w, rw, r) = (by(Access::Write), by(Access::Rewrite), by(Access::Read));
    // Rewrite of type 0 alone (2.1 without -rewrite): its weighted average is type 0.
    let rewrite = if d.of(Access::Rewrite).len() == 1 { rw[0] } else { plan::weighted(&rw) };
    let weighted = [plan::weighted(&w), rewrite, plan::weighted(&r)];
    Figures {
        release_21: plan::release_21(&w, rw[0], &r),
        paper: plan::paper(weighted[0], weighted[1], weighted[2]),
        weighted,
    }
}

/// Why a partition's result is not valid for comparing systems (2.1's three criteria, as
/// 2.1 words them, and paw's fourth: no byte-by-byte check inside the timed reads); empty
/// when valid.
pub fn criteria(s: &Setting, errors: u64) -> Vec<String> {
    let (tn, shared) = (s.tn, s.shared);
    if tn >= VALID_TN && shared && errors == 0 && !s.check {
        return Vec::new();
    }
    let reached = |ok: bool| if ok { "reached" } else { "NOT reached" };
    vec![
        format!(
            "  criterion 1: scheduled time {:.1} min >= {:.0} min -- {}",
            tn / 60.0,
            VALID_TN / 60.0,
            reached(tn >= VALID_TN)
        ),
        format!(
            "  criterion 2: shared file pointers must be used for pattern type 1 -- {}",
            reached(shared)
        ),
        format!("  criterion 3: error count ({errors}) == 0 -- {}", reached(errors == 0)),
        format!(
            "  criterion 4 (paw): no -check, whose every-byte comparison slows the timed reads -- {}",
            reached(!s.check)
        ),
    ]
}

/// The bandwidth of the pattern in summary row `row` (1-7) of `t`, MB/s.
fn at_row(t: &TypeDone, row: usize) -> Option<f64> {
    t.patterns
        .iter()
        .find(|(p, _)| p.row == Some(row))
        .map(|(_, d)| MB_PER_S.of(d.bytes as f64 / d.seconds))
}

/// Partition `d`'s summary, as 2.1's summary file lays it out: per access a row per
/// chunk size and a total row by type, pattern 2, the weighted averages, the data
/// moved, the partition's figures and its validity.
pub fn summary(d: &PartitionDone, s: &Setting, errors: u64) -> String {
    let n = d.n;
    let mut out = format!(
        "\nSummary of file I/O bandwidth accumulated on {n:3} processes with {:4} MByte/PE\n{}\n\n",
        s.mem_mib,
        "-".repeat(77)
    );
    out += " number pos chunk-   access   type=0   type=1   type=2   type=3   type=4\n";
    out += " of PEs     size (l) methode scatter  shared  separate segmened seg-coll\n";
    out += "            [bytes]  methode  [MB/s]   [MB/s]   [MB/s]   [MB/s]   [MB/s]\n";
    out += &format!(" {}\n\n", "-".repeat(71));
    let cell = |v: Option<f64>| v.map_or("        -".to_string(), |v| format!(" {v:8.3}"));
    for access in ACCESSES {
        let types = d.of(access);
        let by_type = |f: &dyn Fn(&TypeDone) -> Option<f64>| -> String {
            TYPES.iter().map(|&k| cell(types.iter().find(|t| t.kind == k).and_then(f))).collect()
        };
        for (row, l) in plan::rows(s.mpart).iter().enumerate() {
            out += &format!("{n:4} PEs {} {l:8} {:<7}", row + 1, access.name());
            out += &by_type(&|t| at_row(t, row + 1));
            out += "\n";
        }
        out += &format!("{n:4} PEs      total-{:<7}", access.name());
        out += &by_type(&|t| Some(t.bandwidth()));
        out += "\n\n";
    }
    let pattern2 = |a: Access| -> f64 {
        let t = d.of(a).iter().find(|t| t.kind == Type::Scatter);
        t.and_then(|t| t.patterns.iter().find(|(p, _)| p.number == 2))
            .map_or(f64::NAN, |(_, x)| MB_PER_S.of(x.bytes as f64 / x.seconds))
    };
    out += "This table shows all results, except pattern 2 (scatter, l=1MBytes, L=2MBytes): \n";
    out += &format!(
        "  bw_pat2= {:8.3} MB/s write, {:8.3} MB/s rewrite, {:8.3} MB/s read\n\n",
        pattern2(Access::Write),
        pattern2(Access::Rewrite),
        pattern2(Access::Read)
    );
    let f = figures(d);
    for (a, w) in ACCESSES.iter().zip(f.weighted) {
        out += &format!(
            "weighted average bandwidth for {:<7} : {w:8.3} MB/s on {n} processes\n",
            a.name()
        );
    }
    out += "(type=0 is weighted double)\n";
    let moved: u64 = d.of(Access::Write).iter().map(TypeDone::bytes).sum();
    out += &format!(
        "\nTotal amount of data written/read with each access method: {:8.3} MBytes\n",
        moved as f64 / (1u64 << 20) as f64
    );
    out += &format!(
        "  = {:4.1} percent of the total memory ({} MBytes)\n",
        100.0 * moved as f64 / (s.total_mib << 20) as f64,
        s.total_mib
    );
    out += &format!(
        "\nb_eff_io of these measurements = {:8.3} MB/s on {n} processes with {:3} MByte/PE and scheduled time={:.1} min",
        f.release_21,
        s.mem_mib,
        s.tn / 60.0
    );
    if errors > 0 {
        out += &format!(", with {errors} ERRORS --!--!--!--");
    }
    out += &format!(
        "\nb_eff_io by the paper's weighting (section 5.1: 25 % write, 25 % rewrite, 50 % read) = {:8.3} MB/s\n\n",
        f.paper
    );
    let why = criteria(s, errors);
    out += if why.is_empty() { "VALID" } else { "NOT VALID" };
    out += " for comparison of different systems\n";
    for line in why {
        out += &line;
        out += "\n";
    }
    out
}

/// The end of a run (rank 0): every partition's summary, then the maximum over them and
/// the final line, as 2.1 ends its summary file.
pub fn finish(done: &[PartitionDone], errors: &[u64], s: &Setting) -> String {
    let mut text = String::new();
    let mut best: Option<(f64, usize, u64)> = None;
    for (d, &e) in done.iter().zip(errors) {
        text += &summary(d, s, e);
        let value = figures(d).release_21;
        if best.is_none_or(|(b, _, _)| value > b) {
            best = Some((value, d.n, e));
        }
    }
    let (value, n, e) = best.unwrap_or((f64::NAN, done.len(), 0));
    text + &format!(
        "\nMaximum over all number of PEs\n------------------------------\n\n {}\n",
        final_line(value, n, s, e)
    )
}

/// What the summary and the final line need to know of the run.
#[derive(Debug, Clone)]
pub struct Setting {
    /// Memory per process, MiB.
    pub mem_mib: u64,
    /// Memory of the system, MiB.
    pub total_mib: u64,
    /// MPART, bytes.
    pub mpart: usize,
    /// Scheduled time per partition, seconds.
    pub tn: f64,
    /// Whether type 1 used the shared file pointer.
    pub shared: bool,
    /// Whether `-check` compared every byte read.
    pub check: bool,
}

/// The final line in 2.1's form: the largest partition figure.
pub fn final_line(value: f64, n: usize, s: &Setting, errors: u64) -> String {
    let mut line = format!(
        "b_eff_io = {value:8.3} MB/s on {n} processes with {:3} MByte/PE, scheduled time={:.1} Min, on {}",
        s.mem_mib,
        s.tn / 60.0,
        paw_core::uname()
    );
    if !criteria(s, errors).is_empty() {
        line += ", NOT VALID (see above)";
    }
    if errors > 0 {
        line += &format!(", with {errors} ERRORS --!--!--!--");
    }
    line
}

/// Per access a `.dat` of bandwidth against chunk size (the summary table's rows), a
/// column per type; rank 0 holds the results (collective).
pub fn write_dats(
    run: &SuiteRun,
    p: usize,
    d: Option<&PartitionDone>,
    n: usize,
    mpart: usize,
) -> paw_core::Result<()> {
    const UNIT: Unit = MB_PER_S;
    for access in ACCESSES {
        let mut columns = vec![Column::new(paw_core::schema::sweep::SIZE, paw_core::schema::BYTES)];
        columns.extend(TYPES.map(|t| Column::new(format!("type{}", t.number()), UNIT)));
        let notes = [
            format!("partition: {n} processes; access: {}", access.name()),
            "x: SIZE = chunk size on disk l [bytes]".to_string(),
            format!("y: bandwidth of the type's pattern with that chunk size (pattern 2 left out, as in 2.1's summary) [{}]; nan: not run", UNIT.label),
        ];
        let file = np_file(&format!("b_eff_io_{}-part_{n:04}", access.name()), p);
        let mut table = run.table(&file, &notes, &columns)?;
        let Some(d) = d else { continue };
        let types = d.of(access);
        for (row, l) in plan::rows(mpart).iter().enumerate() {
            let mut cells = vec![l.to_string()];
            for k in TYPES {
                let v = types.iter().find(|t| t.kind == k).and_then(|t| at_row(t, row + 1));
                cells.push(v.map_or("nan".into(), |v| format!("{v:.4}")));
            }
            table.row(&cells);
        }
    }
    Ok(())
}

/// The run's own header lines (after paw's common ones): time split, partitions, memory,
/// files, modes.
pub fn header(o: &Options, s: &Setting, partitions: &[usize], p: usize) -> Vec<String> {
    let list = |v: &[usize]| v.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ");
    let units = plan::units_per_partition(o.rewrite_all);
    let mut head = vec![
        format!(
            "scheduled time: T = {} s for the whole run; Tn = T / {} partitions = {:.1} s ({:.1} min) each; a pattern Tn x U / {units}",
            o.t,
            partitions.len(),
            s.tn,
            s.tn / 60.0
        ),
        format!(
            "partitions: {}{}",
            list(partitions),
            if o.partitions.is_empty() { format!(" (2.1's defaults for {p} processes)") } else { " (-N)".into() }
        ),
        format!(
            "memory per process: {} MiB ({}); MPART = max(2 MB, memory / 128) = {} bytes{}; system memory {} MiB ({})",
            s.mem_mib,
            if o.mem_mib.is_some() { "-MB" } else { "default: host memory / its processes" },
            s.mpart,
            if s.mpart == plan::MPART_CAP { " (capped at 1 GiB)" } else { "" },
            s.total_mib,
            if o.total_mib.is_some() { "-MT" } else { "default: memory per process x processes" }
        ),
        format!(
            "files: {}/b_eff_io_data_iII_NNN_T[.RRR]; {}",
            o.dir.display(),
            if o.keep { "kept (-keep)" } else { "each read deletes its file on close (MPI_MODE_DELETE_ON_CLOSE, timed)" }
        ),
        format!(
            "modes: rewrite {}; type 1 {}; {}",
            if o.rewrite_all { "of every type (-rewrite)" } else { "of type 0 only" },
            if o.shared { "shared file pointer (MPI_File_write_ordered)" } else { "individual file pointers (-noshared)" },
            if o.unique { "MPI_MODE_UNIQUE_OPEN" } else { "without MPI_MODE_UNIQUE_OPEN (-nounique)" }
        ),
        "timed per type (2.1): barrier, open, barrier; per pattern barrier, then view, calls, \
         [barrier, MPI_File_sync], barrier; close, barrier. The initial write of types 0-2 \
         decides after every call: a barrier, then rank 0 broadcasts whether another call fits \
         (time so far x (calls + 1) / calls <= Tp)"
            .to_string(),
        format!(
            "read check: {} (inside the timed read, as 2.1's)",
            if o.check { "every byte (-check)" } else { "first and last 8 bytes of each chunk" }
        ),
        "MB/s = 10^6 B/s; chunk sizes binary (1 MB = 2^20 B)".into(),
    ];
    head.extend(o.hints.lines().map(|l| format!("hint (-i): {l}")));
    head
}
