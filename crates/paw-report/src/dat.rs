//! Reading paw `.dat` files back: header lines, columns, rows.

/// A parsed data file: header lines, column names, rows of cells.
#[derive(Debug, Clone, PartialEq)]
pub struct Dat {
    /// Header lines without the leading `# `.
    pub header: Vec<String>,
    /// Column names from the `# columns:` line.
    pub columns: Vec<String>,
    /// Data rows, one cell per column.
    pub rows: Vec<Vec<String>>,
}

impl Dat {
    /// Parses a file's text. Fails on a missing `# columns:` line or a row whose cell
    /// count differs from the column count (a torn row).
    pub fn parse(text: &str) -> Result<Dat, String> {
        let mut header = Vec::new();
        let mut columns: Option<Vec<String>> = None;
        let mut rows = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.chars().any(|c| c.is_control() && c != '\t') {
                return Err(format!("line {}: control character in {line:?}", i + 1));
            }
            if let Some(h) = line.strip_prefix('#') {
                let h = h.trim().to_string();
                if let Some(c) = h.strip_prefix("columns:") {
                    columns = Some(c.split_whitespace().map(String::from).collect());
                }
                header.push(h);
            } else if !line.trim().is_empty() {
                let cols = columns
                    .as_ref()
                    .ok_or_else(|| format!("line {}: data before the '# columns:' line", i + 1))?;
                let cells: Vec<String> = line.split_whitespace().map(String::from).collect();
                if cells.len() != cols.len() {
                    return Err(format!(
                        "line {}: {} cells, {} columns: {line:?}",
                        i + 1,
                        cells.len(),
                        cols.len()
                    ));
                }
                rows.push(cells);
            }
        }
        let columns = columns.ok_or("no '# columns:' line")?;
        Ok(Dat { header, columns, rows })
    }

    /// The text after `key:` on the first header line that starts with it.
    pub fn header_value(&self, key: &str) -> Option<&str> {
        let prefix = format!("{key}:");
        self.header.iter().find_map(|h| h.strip_prefix(prefix.as_str())).map(str::trim)
    }

    /// Index of a column; panics if absent.
    pub fn col(&self, name: &str) -> usize {
        self.columns
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("no column {name} in {:?}", self.columns))
    }

    /// Reads and parses the file at `path`.
    pub fn read(path: &std::path::Path) -> Result<Dat, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Dat::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The title line's benchmark name (`paw <name> -- title`).
    pub fn benchmark(&self) -> Option<&str> {
        self.header.first()?.strip_prefix("paw ")?.split(" -- ").next()
    }

    /// The unit of the measured quantity, from the `y:` line (`[usec]`).
    pub fn y_unit(&self) -> Option<&str> {
        let y = self.header_value("y")?;
        let start = y.find('[')? + 1;
        let end = start + y[start..].find(']')?;
        Some(&y[start..end])
    }

    /// Index of a column, if present.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// Every value of a numeric column; panics on a cell that is not a number.
    pub fn numbers(&self, name: &str) -> Vec<f64> {
        let c = self.col(name);
        self.rows
            .iter()
            .map(|r| {
                r[c].parse().unwrap_or_else(|_| panic!("column {name}: {:?} is not a number", r[c]))
            })
            .collect()
    }

    /// Every cell of a column as text.
    pub fn cells(&self, name: &str) -> Vec<String> {
        let c = self.col(name);
        self.rows.iter().map(|r| r[c].clone()).collect()
    }

    /// Checks the invariants of a paw row set: every statistic positive and finite,
    /// MIN <= CI_LO <= MEDIAN <= CI_HI <= MAX, MIN <= AVG <= MAX, NOISY 0 or 1 and as the
    /// interval's width says (5% of MEDIAN by default), NLOOP >= 1, NREPS as expected.
    /// Returns a description of the first violation.
    pub fn check_stats(&self, nreps: usize) -> Result<(), String> {
        if self.rows.is_empty() {
            return Err("no rows".into());
        }
        use paw_base::schema::sweep::*;
        let [avg, min, max, sd, med, nloop, reps] =
            [AVG, MIN, MAX, STDDEV, MEDIAN, NLOOP, NREPS].map(|c| self.numbers(c));
        let [lo, hi, noisy] = [CI_LO, CI_HI, NOISY].map(|c| self.numbers(c));
        for i in 0..self.rows.len() {
            let row = &self.rows[i];
            for (name, v) in [(AVG, avg[i]), (MIN, min[i]), (MAX, max[i]), (MEDIAN, med[i])] {
                if !(v.is_finite() && v > 0.0) {
                    return Err(format!("row {row:?}: {name} = {v} is not positive and finite"));
                }
            }
            if !(sd[i].is_finite() && sd[i] >= 0.0) {
                return Err(format!("row {row:?}: STDDEV = {} is negative or not finite", sd[i]));
            }
            // Values are printed with six significant digits: allow that much rounding.
            let le = |a: f64, b: f64| a <= b * (1.0 + 1e-5);
            if !(le(min[i], med[i])
                && le(med[i], max[i])
                && le(min[i], avg[i])
                && le(avg[i], max[i]))
            {
                return Err(format!("row {row:?}: MIN <= AVG, MEDIAN <= MAX does not hold"));
            }
            if !(le(min[i], lo[i]) && le(lo[i], med[i]) && le(med[i], hi[i]) && le(hi[i], max[i])) {
                return Err(format!(
                    "row {row:?}: MIN <= CI_LO <= MEDIAN <= CI_HI <= MAX does not hold"
                ));
            }
            let wide = (hi[i] - lo[i]) > 0.05 * med[i] * (1.0 + 1e-4);
            let narrow = (hi[i] - lo[i]) < 0.05 * med[i] * (1.0 - 1e-4);
            let flag_ok = match noisy[i] {
                0.0 => !wide,
                1.0 => !narrow,
                _ => false,
            };
            if !flag_ok {
                return Err(format!("row {row:?}: NOISY does not match the interval's width"));
            }
            if nloop[i] < 1.0 {
                return Err(format!("row {row:?}: NLOOP < 1"));
            }
            if reps[i] != nreps as f64 {
                return Err(format!("row {row:?}: NREPS = {}, expected {nreps}", reps[i]));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "# paw x -- t\n# y: time [usec]\n\
        # columns: SIZE AVG MIN MAX STDDEV MEDIAN NLOOP NREPS CI_LO CI_HI NOISY\n\
        1 2.0 1.0 3.0 1.0 2.0 1000 3 1.0 3.0 1\n2 4.0 4.0 4.0 0 4.0 500 3 4.0 4.0 0\n";

    #[test]
    fn parses_and_checks() {
        let d = Dat::parse(GOOD).unwrap();
        assert_eq!(d.rows.len(), 2);
        assert_eq!(d.numbers("SIZE"), vec![1.0, 2.0]);
        assert_eq!(d.header_value("y"), Some("time [usec]"));
        d.check_stats(3).unwrap();
        assert!(d.check_stats(4).is_err());
    }

    #[test]
    fn control_characters_are_rejected() {
        let nul = GOOD.replace("t\n", "t\0\n");
        assert!(Dat::parse(&nul).unwrap_err().contains("control character"));
    }

    #[test]
    fn interval_and_noisy_are_checked() {
        let out = GOOD.replace("1.0 3.0 1\n", "0.5 3.0 1\n");
        assert!(Dat::parse(&out).unwrap().check_stats(3).unwrap_err().contains("CI_LO"));
        let quiet = GOOD.replace("1.0 3.0 1\n", "1.0 3.0 0\n");
        assert!(Dat::parse(&quiet).unwrap().check_stats(3).unwrap_err().contains("NOISY"));
    }

    #[test]
    fn torn_row_is_rejected() {
        let torn = format!("{GOOD}4 1.0 1.0");
        assert!(Dat::parse(&torn).unwrap_err().contains("3 cells"));
    }

    #[test]
    fn bad_statistics_are_caught() {
        let bad = GOOD.replace("1 2.0 1.0 3.0", "1 5.0 1.0 3.0");
        assert!(Dat::parse(&bad).unwrap().check_stats(3).is_err());
        let neg = GOOD.replace("1 2.0 1.0", "1 2.0 -1.0");
        assert!(Dat::parse(&neg).unwrap().check_stats(3).is_err());
        let nan = GOOD.replace("2 4.0 4.0", "2 NaN 4.0");
        assert!(Dat::parse(&nan).unwrap().check_stats(3).is_err());
    }
}
