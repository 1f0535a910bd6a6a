//! IMB's standard output read the way IMB parsers read it: blocks start at `# Benchmarking`,
//! carry `# #processes` (or the Multi- groups) and `# MODE:`, and their table starts at the
//! column header line. The same reader serves paw's IMB suites and Intel's programs.

/// One `# Benchmarking` block.
#[derive(Debug, Default, Clone)]
pub struct Block {
    /// Benchmark name, with its `Multi-` prefix.
    pub name: String,
    /// Processes per group.
    pub processes: usize,
    /// Threads per process (IMB-MT's `(threads: T)`; 1 elsewhere).
    pub threads: usize,
    /// Processes waiting in MPI_Barrier.
    pub idle: usize,
    /// World ranks of each group (Multi- runs).
    pub groups: Vec<Vec<usize>>,
    /// World ranks of the active processes in their `-map` order.
    pub rank_order: Vec<usize>,
    /// `AGGREGATE`, `NON-AGGREGATE`, or empty.
    pub mode: String,
    /// Column heads.
    pub columns: Vec<String>,
    /// Rows of numbers.
    pub rows: Vec<Vec<f64>>,
}

impl Block {
    /// The index of column `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The values of column `name`; panics naming the block when it has no such column.
    pub fn col(&self, name: &str) -> Vec<f64> {
        let i = self.find(name);
        let i =
            i.unwrap_or_else(|| panic!("{}: no column {name} in {:?}", self.name, self.columns));
        self.rows.iter().map(|r| r[i]).collect()
    }
}

fn numbers(s: &str) -> Vec<usize> {
    s.split_whitespace().filter_map(|w| w.parse().ok()).collect()
}

/// The blocks of an IMB output; Err names the first line that is not IMB's.
pub fn parse(stdout: &str) -> Result<Vec<Block>, String> {
    let mut blocks: Vec<Block> = Vec::new();
    for line in stdout.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("# Benchmarking ") {
            blocks.push(Block { name: name.trim().to_string(), threads: 1, ..Block::default() });
            continue;
        }
        let Some(b) = blocks.last_mut() else { continue };
        let bad = || format!("not an IMB line: {t:?}");
        if let Some(q) = t.strip_prefix("# #processes = ") {
            // IMB-MT: `2 (threads: 1)`.
            let (p, threads) = match q.split_once(" (threads: ") {
                Some((p, t)) => (p, t.trim_end_matches(')').trim().parse().map_err(|_| bad())?),
                None => (q, 1),
            };
            b.processes = p.trim().parse().map_err(|_| bad())?;
            b.threads = threads;
        } else if let Some(rest) = t.strip_prefix("# ( ") {
            let n = numbers(rest);
            if rest.contains("groups of") {
                b.processes = *n.get(1).ok_or_else(bad)?;
            } else if rest.contains("additional") {
                b.idle = *n.first().ok_or_else(bad)?;
            }
        } else if let Some(rest) = t.strip_prefix("# Group ") {
            b.groups.push(numbers(rest.split_once(':').ok_or_else(bad)?.1));
        } else if let Some(rest) = t.strip_prefix("# rank order") {
            b.rank_order = numbers(rest.split_once(':').ok_or_else(bad)?.1);
        } else if let Some(mode) = t.strip_prefix("#    MODE: ") {
            b.mode = mode.trim().to_string();
        } else if t.starts_with("#bytes")
            || t.starts_with("#repetitions")
            || t.starts_with("#group")
        {
            b.columns = t.split_whitespace().map(String::from).collect();
        } else if !t.is_empty() && !t.starts_with('#') && !b.columns.is_empty() {
            let row: Vec<f64> = t
                .split_whitespace()
                .map(|c| c.parse().map_err(|_| bad()))
                .collect::<Result<_, _>>()?;
            if row.len() != b.columns.len() {
                return Err(format!("torn row {t:?} under {:?}", b.columns));
            }
            b.rows.push(row);
        }
    }
    Ok(blocks)
}
