//! What a program's run printed or wrote, as rows: a name and one figure each. paw's
//! programs and their originals print the same layout for every suite but the OSU pairs,
//! so one reader serves both sides there.

use crate::imb_output;
use crate::Dat;
use std::path::Path;

/// Rows of one run: (row name, figure), in the order the run gave them.
pub type Rows = Vec<(String, f64)>;

/// How a run's rows are read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Read {
    /// IMB's tables: per block and length the time, t_avg[usec] where the table has it,
    /// else t[usec], else t_pure[usec] (IMB-NBC's collective alone); times below
    /// [`IMB_RESOLVED`] are left out.
    Imb,
    /// PRESTA com's and rma's tables: the bandwidth per test, processes and size.
    PrestaTable,
    /// PRESTA laten: the maximum latency per process count.
    Laten,
    /// PRESTA allred: the `Op mean` line.
    Allred,
    /// A `<name> = <MB/s> MB/s` line (b_eff, b_eff_io).
    Equals(&'static str),
    /// OSU's table: per size the figure in column `n` (0 is the size).
    Osu(usize),
    /// A paw `.dat` file in the run's output folder: per SIZE its AVG (OSU times the mean).
    /// `NNNN` in its name stands for the task count, whatever it was.
    DatAvg(&'static str),
    /// A paw `.dat` of time per message: per SIZE its bandwidth SIZE / AVG, MB/s (10^6 B).
    DatBandwidth(&'static str),
    /// STREAM's table: per kernel (`Copy:` ...) its Best Rate MB/s.
    Stream,
}

/// The file of `dir` that `name` names, `NNNN` standing for any task count.
fn written(dir: &Path, name: &str) -> Result<String, String> {
    let Some((head, tail)) = name.split_once("NNNN") else { return Ok(name.to_string()) };
    let found = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut names: Vec<String> = found
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.len() == name.len() && f.starts_with(head) && f.ends_with(tail))
        .collect();
    names.sort();
    names.pop().ok_or_else(|| format!("no {name} in its output"))
}

fn number(w: &str) -> Option<f64> {
    w.parse::<f64>().ok().filter(|x| x.is_finite())
}

impl Read {
    /// The rows of a run that printed `stdout` and wrote its files into `dir`.
    pub fn rows(self, stdout: &str, dir: &Path) -> Result<Rows, String> {
        let rows = match self {
            Read::Imb => imb(stdout)?,
            Read::PrestaTable => stdout.lines().filter_map(presta_row).collect(),
            Read::Laten => stdout
                .lines()
                .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
                    [p, t] => Some((format!("np {}", number(p)?), number(t)?)),
                    _ => None,
                })
                .collect(),
            Read::Allred => stdout
                .lines()
                .filter(|l| l.trim_start().starts_with("Op mean"))
                .filter_map(|l| l.split_once(':')?.1.split_whitespace().next().and_then(number))
                .map(|t| ("Op mean".to_string(), t))
                .collect(),
            Read::Equals(name) => stdout
                .lines()
                .rev()
                .find_map(|l| {
                    // `b_eff = 4038.004 MB/s ...`, or 3.6's `b_effSHORT = ...`.
                    let (left, right) = l.split_once(" = ")?;
                    let rest = left.trim().strip_prefix(name)?;
                    let w = right.split_whitespace().collect::<Vec<_>>();
                    let named =
                        rest.chars().all(|c| c.is_ascii_uppercase()) && w.get(1) == Some(&"MB/s");
                    named.then(|| number(w[0])).flatten().map(|v| (name.to_string(), v))
                })
                .into_iter()
                .collect(),
            Read::Stream => stdout
                .lines()
                .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
                    [kernel, rate, ..] if kernel.ends_with(':') => {
                        Some((kernel.trim_end_matches(':').to_string(), number(rate)?))
                    }
                    _ => None,
                })
                .collect(),
            Read::Osu(column) => stdout
                .lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|l| {
                    let w: Vec<f64> = l.split_whitespace().map(number).collect::<Option<_>>()?;
                    Some((format!("{}", w.first()?), *w.get(column)?))
                })
                .collect(),
            Read::DatAvg(file) | Read::DatBandwidth(file) => {
                let dat = Dat::read(&dir.join(written(dir, file)?))?;
                let sizes = dat.numbers("SIZE");
                let avg = dat.numbers("AVG");
                sizes
                    .iter()
                    .zip(avg)
                    .map(|(&s, t)| {
                        let v = if matches!(self, Read::DatBandwidth(_)) { s / t } else { t };
                        (format!("{s}"), v)
                    })
                    .collect()
            }
        };
        if rows.is_empty() {
            return Err("no rows found in its output".to_string());
        }
        Ok(rows)
    }
}

/// The shortest IMB time compared, usec: IMB prints times to 0.01 usec, and below 0.2 the
/// rounding alone can move a ratio by 5 % (0-byte rows of 0.02-0.07 usec).
pub const IMB_RESOLVED: f64 = 0.2;

fn imb(stdout: &str) -> Result<Rows, String> {
    let mut rows = Vec::new();
    for b in imb_output::parse(stdout)? {
        let Some(t) = ["t_avg[usec]", "t[usec]", "t_pure[usec]"].iter().find_map(|c| b.find(c))
        else {
            continue;
        };
        let bytes = b.find("#bytes");
        let mode = if b.mode.is_empty() { String::new() } else { format!(" {}", b.mode) };
        for r in b.rows.iter().filter(|r| r[t] >= IMB_RESOLVED) {
            let length = bytes.map_or(String::new(), |i| format!(" {}", r[i]));
            rows.push((format!("{}{mode} np {}{length}", b.name, b.processes), r[t]));
        }
    }
    Ok(rows)
}

/// A row of com's or rma's table: words, then only numbers (processes, size, [operations
/// per epoch,] bandwidth, op time); the bandwidth.
fn presta_row(line: &str) -> Option<(String, f64)> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let first = w.iter().position(|x| number(x).is_some())?;
    let n: Vec<f64> = w[first..].iter().map(|x| number(x)).collect::<Option<_>>()?;
    if first == 0 || n.len() < 4 {
        return None;
    }
    let key: Vec<String> = n[..n.len() - 2].iter().map(|x| x.to_string()).collect();
    Some((format!("{} {}", w[..first].join(" "), key.join(" ")), n[n.len() - 2]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presta_and_equals_lines() {
        let com = "  Unidirectional          2                    32            5.447         2.937\n\
                   Max Unidirectional Bandwith :         663.86 for message size of    1024 bytes\n\
                   Operations per measurement :       10\n\
                   Rank id    0 (vm) communicated with rank id    1 (vm)\n\
                   Unidir. Put            2             32           10           27.540          1.162\n";
        let rows = Read::PrestaTable.rows(com, Path::new(".")).unwrap();
        assert_eq!(
            rows,
            vec![("Unidirectional 2 32".to_string(), 5.447), ("Unidir. Put 2 32 10".into(), 27.54)]
        );
        let beff = "b_eff per process  = 2019.002 MB/s\nb_eff at Lmax = 12724.624 MB/s\n\
                    b_effSHORT =   4023.711 MB/s = 2011.855 *   2 PEs with 128 MB/PE on Linux\n";
        let rows = Read::Equals("b_eff").rows(beff, Path::new(".")).unwrap();
        assert_eq!(rows, vec![("b_eff".to_string(), 4023.711)]);
        let io = " b_eff_io = 1054.565 MB/s on 1 processes with  16 MByte/PE\n";
        assert_eq!(Read::Equals("b_eff_io").rows(io, Path::new(".")).unwrap()[0].1, 1054.565);
        let allred = "  Op mean                    :       1.783 us\nOp mean (us) : 0.8408\n";
        assert_eq!(Read::Allred.rows(allred, Path::new(".")).unwrap().len(), 2);
        let laten = "             Processes    Max Latency (us)\n  2               2.186\n";
        assert_eq!(Read::Laten.rows(laten, Path::new(".")).unwrap(), vec![("np 2".into(), 2.186)]);
        assert!(Read::Laten.rows("nothing\n", Path::new(".")).is_err());
    }

    #[test]
    fn stream_tables() {
        let table = "Function    Best Rate MB/s  Avg time     Min time     Max time\n\
                     Copy:           38885.8     0.001756     0.001646     0.002110\n\
                     Triad:          40460.5     0.002513     0.002373     0.002658\n\
                     result check: every element of a, b and c as expected\n";
        let rows = Read::Stream.rows(table, Path::new(".")).unwrap();
        assert_eq!(rows, vec![("Copy".into(), 38885.8), ("Triad".into(), 40460.5)]);
    }

    #[test]
    fn osu_and_imb_tables() {
        let osu =
            "# OSU MPI Latency Test v7.4\n# Size          Latency (us)\n1    0.20\n2    0.21\n";
        assert_eq!(Read::Osu(1).rows(osu, Path::new(".")).unwrap()[1], ("2".into(), 0.21));
        let imb = "# Benchmarking PingPong\n# #processes = 2\n\
                   #bytes #repetitions      t[usec]   Mbytes/sec\n\
                   0         1000         0.20         0.00\n\
                   1024      1000         0.50      2048.00\n";
        let rows = Read::Imb.rows(imb, Path::new(".")).unwrap();
        assert_eq!(rows, vec![("PingPong np 2 0".into(), 0.2), ("PingPong np 2 1024".into(), 0.5)]);
    }

    #[test]
    fn a_paw_file_is_found_whatever_its_task_count() {
        let dir = tempfile::tempdir().unwrap();
        let dat = "# paw p2p_send -- test\n# columns: SIZE AVG\n1 2.0\n1000000 4.0\n";
        std::fs::write(dir.path().join("send_time-np_0004.dat"), dat).unwrap();
        let rows = Read::DatAvg("send_time-np_NNNN.dat").rows("", dir.path()).unwrap();
        assert_eq!(rows, vec![("1".into(), 2.0), ("1000000".into(), 4.0)]);
        let bw = Read::DatBandwidth("send_time-np_NNNN.dat").rows("", dir.path()).unwrap();
        assert_eq!(bw[1], ("1000000".into(), 250000.0));
        let missing = Read::DatAvg("ardc_time-np_NNNN.dat").rows("", dir.path());
        assert_eq!(missing, Err("no ardc_time-np_NNNN.dat in its output".into()));
    }
}
