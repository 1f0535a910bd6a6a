//! What a run found, its averages (paper §4, Table 1) and how they are written: the
//! protocol, the `.dat` table and the summary on standard output.

use crate::exchange::{METHODS, PING_PONG};
use crate::patterns::{Kind, Pattern};
use crate::plan::{self, LENGTHS};
use paw_core::{Column, SuiteRun, TextFile};

/// One measurement: loops run, the slowest process's time for them and the bandwidth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Steps of the pattern between the two clock reads.
    pub loops: usize,
    /// Maximum over the processes taking part, seconds.
    pub seconds: f64,
    /// The pattern's bandwidth by b_eff 3.6's rule, MB/s (10^6 B/s); see
    /// [`crate::exchange::Timed`].
    pub mb_per_s: f64,
}

/// Everything measured for one pattern.
#[derive(Debug, Clone)]
pub struct PatternResult {
    /// Its name.
    pub name: String,
    /// Which average it belongs to.
    pub kind: Kind,
    /// Messages of one step that the bandwidth credits (b_eff 3.6's count,
    /// [`Pattern::credited`]).
    pub messages: usize,
    /// Per length, per method (one for the ping-pong), per repetition.
    pub samples: Vec<Vec<Vec<Sample>>>,
    /// The method names, in the order of `samples`.
    pub methods: Vec<&'static str>,
}

impl PatternResult {
    /// An empty result for `pattern` (the ping-pong by its one method, else all three).
    pub fn new(pattern: &Pattern) -> PatternResult {
        let methods: Vec<&'static str> =
            if pattern.ping_pong { vec![PING_PONG] } else { METHODS.map(|m| m.name()).to_vec() };
        PatternResult {
            name: pattern.name.clone(),
            kind: pattern.kind,
            messages: pattern.credited(),
            samples: vec![vec![Vec::new(); methods.len()]; LENGTHS],
            methods,
        }
    }

    /// The maximum over methods and repetitions at length index `i`, MB/s.
    pub fn best(&self, i: usize) -> f64 {
        self.samples[i].iter().flatten().map(|s| s.mb_per_s).fold(0.0, f64::max)
    }

    /// The average over the lengths of [`PatternResult::best`], MB/s.
    pub fn average(&self) -> f64 {
        plan::mean(&(0..LENGTHS).map(|i| self.best(i)).collect::<Vec<_>>())
    }
}

/// The run's figures (paper Table 1), MB/s.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// b_eff.
    pub b_eff: f64,
    /// Logarithmic average over the ring patterns of their averages over lengths.
    pub rings: f64,
    /// The same over the random patterns.
    pub random: f64,
    /// b_eff at Lmax (the averages taken of the bandwidth at Lmax alone).
    pub at_lmax: f64,
    /// Logarithmic average over the ring patterns of the bandwidth at Lmax.
    pub rings_at_lmax: f64,
    /// Ping-pong bandwidth at Lmax (one message each way per step).
    pub ping_pong_at_lmax: f64,
}

/// The averages of `results` (the ring, random and additional patterns).
pub fn summarize(results: &[PatternResult]) -> Summary {
    let of = |kind: Kind, f: &dyn Fn(&PatternResult) -> f64| -> Vec<f64> {
        results.iter().filter(|r| r.kind == kind).map(f).collect()
    };
    let last = LENGTHS - 1;
    let average = |r: &PatternResult| r.average();
    let at_lmax = |r: &PatternResult| r.best(last);
    let (ring, random) = (of(Kind::Ring, &average), of(Kind::Random, &average));
    let (ring_l, random_l) = (of(Kind::Ring, &at_lmax), of(Kind::Random, &at_lmax));
    let ping = results.iter().find(|r| r.name == "pingpong").map_or(f64::NAN, at_lmax);
    Summary {
        b_eff: plan::b_eff(&ring, &random),
        rings: plan::logavg(&ring),
        random: plan::logavg(&random),
        at_lmax: plan::b_eff(&ring_l, &random_l),
        rings_at_lmax: plan::logavg(&ring_l),
        ping_pong_at_lmax: ping,
    }
}

/// The protocol's column line for [`protocol_rows`].
pub const PROTOCOL_COLUMNS: &str =
    "pattern kind messages length loops method repetition seconds MB_per_s";

/// The protocol rows of one pattern at length index `i` in repetition `rep` (from 0): one
/// per method.
pub fn protocol_rows(r: &PatternResult, lengths: &[usize], i: usize, rep: usize) -> String {
    let mut out = String::new();
    for (m, reps) in r.samples[i].iter().enumerate() {
        if let Some(s) = reps.get(rep) {
            out += &format!(
                "{} {} {} {} {} {} {} {:.6e} {:.4}\n",
                r.name,
                r.kind.name(),
                r.messages,
                lengths[i],
                s.loops,
                r.methods[m],
                rep + 1,
                s.seconds,
                s.mb_per_s
            );
        }
    }
    out
}

/// The heading of [`pattern_line`]s.
pub fn pattern_heading() -> String {
    format!(
        "{:<22} {:>7} {:>9} {:>16} {:>16}",
        "pattern", "kind", "messages", "average_MB_per_s", "at_Lmax_MB_per_s"
    )
}

/// A pattern's line: its average over lengths and its bandwidth at Lmax, MB/s.
pub fn pattern_line(r: &PatternResult) -> String {
    format!(
        "{:<22} {:>7} {:>9} {:>16.3} {:>16.3}",
        r.name,
        r.kind.name(),
        r.messages,
        r.average(),
        r.best(LENGTHS - 1)
    )
}

/// The paper's Table 1 columns, as `name = value` lines (MB/s unless said).
pub fn table1(s: &Summary, p: usize, lmax: usize) -> String {
    let pf = p as f64;
    [
        format!("number of processes             = {p}"),
        format!("b_eff                           = {:.3} MB/s", s.b_eff),
        format!("b_eff per process               = {:.3} MB/s", s.b_eff / pf),
        format!("Lmax                            = {lmax} bytes"),
        format!("ping-pong bandwidth at Lmax     = {:.3} MB/s", s.ping_pong_at_lmax),
        format!("b_eff at Lmax                   = {:.3} MB/s", s.at_lmax),
        format!("b_eff at Lmax per process       = {:.3} MB/s", s.at_lmax / pf),
        format!("at Lmax per process, rings only = {:.3} MB/s", s.rings_at_lmax / pf),
        format!("logavg of the ring patterns     = {:.3} MB/s", s.rings),
        format!("logavg of the random patterns   = {:.3} MB/s", s.random),
    ]
    .map(|l| l + "\n")
    .concat()
}

/// What a run prints at its end: a line per pattern, the paper's Table 1 and 3.6's final
/// line (or why b_eff was not computed).
pub fn summary(results: &[PatternResult], s: &crate::setup::Setup, p: usize) -> String {
    let lines: Vec<String> = results.iter().map(pattern_line).collect();
    let (table1, last) = if s.complete {
        let summary = summarize(results);
        (table1(&summary, p, s.lmax), final_line(&summary, p, s.mem_mib, &paw_core::uname()))
    } else {
        let why = format!(
            "b_eff not computed: -pattern ran {} of the {} patterns, and b_eff averages every \
             ring and random pattern",
            results.len(),
            s.total
        );
        (String::new(), why)
    };
    format!("\n{}\n{}\n\n{table1}\n{last}", pattern_heading(), lines.join("\n"))
}

/// The original's final line.
pub fn final_line(s: &Summary, p: usize, mem_mib: u64, system: &str) -> String {
    format!(
        "b_eff = {:.3} MB/s = {:.3} * {p} PEs with {mem_mib} MB/PE on {system}",
        s.b_eff,
        s.b_eff / p as f64
    )
}

/// The `.dat` table (and its CSV twin): per length the best bandwidth of every pattern,
/// after b_eff and the ring and random averages at that length.
pub fn write_dat(
    run: &SuiteRun,
    results: &[PatternResult],
    lengths: &[usize; LENGTHS],
    p: usize,
    prot: &TextFile,
    averages: bool,
) -> paw_core::Result<()> {
    const UNIT: paw_core::schema::Unit = paw_core::schema::MB_PER_S;
    let mut columns = vec![Column::new(paw_core::schema::sweep::SIZE, paw_core::schema::BYTES)];
    if averages {
        columns.extend(["b_eff", "rings", "random"].map(|n| Column::new(n, UNIT)));
    }
    columns.extend(results.iter().map(|r| Column::new(r.name.clone(), UNIT)));
    let notes = [
        "x: SIZE = message length [bytes]".to_string(),
        format!(
            "y: bandwidth of the pattern, maximum over methods and repetitions [{}]",
            UNIT.label
        ),
        if averages {
            "b_eff: logavg(rings, random) at this length; rings, random: logavg over the ring \
             and the random patterns"
                .to_string()
        } else {
            "a column per pattern -pattern selected (no averages: they need every pattern)"
                .to_string()
        },
        format!(
            "every measurement: {}",
            prot.path().map_or("the .prot file".into(), |f| f.display().to_string())
        ),
    ];
    let file = paw_core::dat::np_file("b_eff_bw", p);
    let mut table = run.table(&file, &notes, &columns)?;
    for (i, &len) in lengths.iter().enumerate() {
        let best = |kind: Kind| -> Vec<f64> {
            results.iter().filter(|r| r.kind == kind).map(|r| r.best(i)).collect()
        };
        let (rings, random) = (plan::logavg(&best(Kind::Ring)), plan::logavg(&best(Kind::Random)));
        let mut row = vec![len.to_string()];
        if averages {
            row.extend([plan::logavg(&[rings, random]), rings, random].map(|v| format!("{v:.4}")));
        }
        row.extend(results.iter().map(|r| format!("{:.4}", r.best(i))));
        table.row(&row);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patterns;

    fn result(pattern: &Pattern, per_len: impl Fn(usize) -> f64) -> PatternResult {
        let mut r = PatternResult::new(pattern);
        // The last method's second repetition is the best.
        let methods = r.methods.len();
        r.samples = (0..LENGTHS)
            .map(|i| {
                let at = |mb_per_s| Sample { loops: 1, seconds: 1.0, mb_per_s };
                let mut per_method = vec![vec![at(per_len(i) / 2.0); 3]; methods];
                per_method[methods - 1][1] = at(per_len(i));
                per_method
            })
            .collect();
        r
    }

    #[test]
    fn the_averages_follow_the_formula() {
        let lengths = plan::lengths(1 << 20);
        let rings = patterns::ring_patterns(4);
        let random = patterns::random_pattern(1, &[2, 0, 3, 1]);
        let ping = patterns::extra_patterns(4, &[2, 2], &[2, 2, 1]).pop().unwrap();
        let mut results: Vec<PatternResult> =
            rings.iter().map(|p| result(p, |i| 10.0 + i as f64)).collect();
        results.push(result(&random, |_| 40.0));
        results.push(result(&ping, |i| 100.0 * (i + 1) as f64));
        let s = summarize(&results);
        let ring_avg = plan::mean(&(0..21).map(|i| 10.0 + i as f64).collect::<Vec<_>>());
        assert!((s.rings - ring_avg).abs() < 1e-9);
        assert!((s.random - 40.0).abs() < 1e-9);
        assert!((s.b_eff - (ring_avg * 40.0).sqrt()).abs() < 1e-9);
        assert!((s.at_lmax - (30.0f64 * 40.0).sqrt()).abs() < 1e-9);
        assert!((s.rings_at_lmax - 30.0).abs() < 1e-9);
        assert!((s.ping_pong_at_lmax - 2100.0).abs() < 1e-9);
        let line = final_line(&s, 4, 128, "host");
        assert!(line.starts_with("b_eff = ") && line.ends_with(" * 4 PEs with 128 MB/PE on host"));
        assert_eq!(protocol_rows(&results[0], &lengths, 20, 1).lines().count(), 3);
    }
}
