//! The `-i` hints file of b_eff_io 2.1: MPI-IO hints for chosen partitions, access methods,
//! pattern types and chunk sizes, given to MPI_File_open (`on_open`, `all`) and to the
//! view of each pattern (`all`, `Lmax`, a chunk size: MPI_File_set_view where the pattern
//! sets a view, else MPI_File_set_info).

use crate::plan::{Access, Pattern, Type, ACCESSES, KB, MB};
use mpi_ext::io::Info;

/// MPI_MAX_INFO_KEY of the MPI standard's minimum: the longest key accepted.
const MAX_KEY: usize = 255;

/// The chunk sizes a hint line may name (the chunks on disk of Table 2 but MPART).
const SIZES: [usize; 6] = [KB, KB + 8, 32 * KB, 32 * KB + 8, MB, MB + 8];

/// Which patterns' views a hint is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chunk {
    /// The open and every view.
    All,
    /// The open only.
    OnOpen,
    /// The views of the MPART patterns.
    Lmax,
    /// The views of the patterns with this chunk on disk.
    Bytes(usize),
}

/// One hint line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Hint {
    partition: Option<usize>,
    access: Option<Access>,
    kind: Option<Type>,
    chunk: Chunk,
    key: String,
    value: String,
}

/// The hints of a run (none without `-i`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    hints: Vec<Hint>,
    /// The lines as read (without comments), for sharing with every rank.
    text: String,
}

impl Hints {
    /// Reads a hints file's text: one hint a line, `#` lines and blank lines skipped.
    pub fn parse(text: &str) -> Result<Hints, String> {
        let mut h = Hints::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let at = |what: String| format!("line {}: {what}", i + 1);
            // Five words, then the value: the rest of the line.
            let mut fields = Vec::new();
            let mut rest = line.trim_start();
            for name in ["proc_num", "access", "pat_type", "chunk_size", "info key"] {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                if end == 0 {
                    return Err(at(format!(
                        "no {name}; a line is: proc_num access pat_type chunk_size key value"
                    )));
                }
                fields.push(&rest[..end]);
                rest = rest[end..].trim_start();
            }
            let (n, a, t, c, key) = (fields[0], fields[1], fields[2], fields[3], fields[4]);
            let value = rest.to_string();
            let partition =
                match n {
                    "all" => None,
                    _ => Some(n.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| {
                        at(format!("proc_num {n:?}: takes all or a process count"))
                    })?),
                };
            let access = match a {
                "all" => None,
                _ => Some(ACCESSES.into_iter().find(|x| x.name() == a).ok_or_else(|| {
                    at(format!("access {a:?}: takes all, write, rewrite or read"))
                })?),
            };
            let kind = match t {
                "all" => None,
                _ => Some(Type::by_name(t).ok_or_else(|| {
                    at(format!("pat_type {t:?}: takes all, scatter, shared, separated, segmented or seg_coll"))
                })?),
            };
            let chunk = match c {
                "all" => Chunk::All,
                "on_open" => Chunk::OnOpen,
                "Lmax" => Chunk::Lmax,
                _ => match c.parse::<usize>() {
                    Ok(b) if SIZES.contains(&b) => Chunk::Bytes(b),
                    _ => {
                        return Err(at(format!(
                            "chunk_size {c:?}: takes all, on_open, Lmax or one of 1024, 1032, 32768, 32776, 1048576, 1048584"
                        )))
                    }
                },
            };
            if key.len() > MAX_KEY {
                return Err(at(format!("the info key is longer than {MAX_KEY} characters")));
            }
            if value.is_empty() {
                return Err(at(format!("no value for the info key {key:?}")));
            }
            h.hints.push(Hint { partition, access, kind, chunk, key: key.into(), value });
            h.text += line;
            h.text += "\n";
        }
        Ok(h)
    }

    /// Refuses a hint for a partition the run does not have.
    pub fn check_partitions(&self, partitions: &[usize]) -> Result<(), String> {
        match self.hints.iter().find_map(|h| h.partition.filter(|n| !partitions.contains(n))) {
            Some(n) => Err(format!("-i: a hint names partition {n}, which this run does not have (partitions {partitions:?})")),
            None => Ok(()),
        }
    }

    /// The hint lines, for the header.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.text.lines()
    }

    fn select(
        &self,
        n: usize,
        access: Access,
        kind: Type,
        chunk: impl Fn(Chunk) -> bool,
    ) -> Option<Info> {
        let mut info: Option<Info> = None;
        for h in &self.hints {
            if h.partition.is_none_or(|p| p == n)
                && h.access.is_none_or(|a| a == access)
                && h.kind.is_none_or(|t| t == kind)
                && chunk(h.chunk)
            {
                info.get_or_insert_with(Info::new).set(&h.key, &h.value);
            }
        }
        info
    }

    /// The hints for MPI_File_open of `kind`'s file in partition `n`, `access`.
    pub fn on_open(&self, n: usize, access: Access, kind: Type) -> Option<Info> {
        self.select(n, access, kind, |c| matches!(c, Chunk::All | Chunk::OnOpen))
    }

    /// The hints for `pattern`'s view in partition `n`, `access` (`mpart`: MPART).
    pub fn on_view(
        &self,
        n: usize,
        access: Access,
        pattern: &Pattern,
        mpart: usize,
    ) -> Option<Info> {
        self.select(n, access, pattern.kind, |c| match c {
            Chunk::All => true,
            Chunk::OnOpen => false,
            Chunk::Lmax => !pattern.fill && pattern.l == mpart,
            Chunk::Bytes(b) => !pattern.fill && pattern.l == b,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hint_lines() {
        let h = Hints::parse(
            "# proc_num access pat_type chunk_size key value\n\
             all all scatter all striping_factor 5\n\
             \n\
             2 read all 1032 collective_buffering true\n\
             all write seg_coll on_open access_style write_once, sequential  \n",
        )
        .unwrap();
        assert_eq!(h.lines().count(), 3);
        assert_eq!(h.hints[2].value, "write_once, sequential");
        assert_eq!(h.hints[1].chunk, Chunk::Bytes(1032));
        assert!(h.check_partitions(&[1, 2]).is_ok());
        assert!(h.check_partitions(&[1, 4]).unwrap_err().contains("partition 2"));
        for (line, want) in [
            ("all all all", "line 1: no chunk_size"),
            ("x all all all k v", "proc_num \"x\""),
            ("all all nothing all k v", "pat_type \"nothing\""),
            ("all all all 2048 k v", "chunk_size \"2048\""),
            ("all all all all key", "no value for the info key \"key\""),
        ] {
            let e = Hints::parse(line).unwrap_err();
            assert!(e.contains(want), "{line}: {e}");
        }
    }
}
