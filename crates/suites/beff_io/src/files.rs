//! b_eff_io's data files: release 2.1's names, one set per partition (the access methods
//! are outermost, so every partition's files live from its write to its read), and the
//! check before a run that no file of those names exists (the directory itself:
//! paw_core::scratch::check_dir).

use crate::plan::Type;
use std::path::{Path, PathBuf};

/// The data files of a run in one directory.
#[derive(Debug, Clone)]
pub struct Files {
    dir: PathBuf,
    partitions: Vec<usize>,
}

impl Files {
    /// The files of `partitions` in `dir`.
    pub fn new(dir: &Path, partitions: &[usize]) -> Files {
        Files { dir: dir.to_path_buf(), partitions: partitions.to_vec() }
    }

    /// The file of `kind` in partition number `i` (of `n` processes) for process `rank`:
    /// `b_eff_io_data_iII_NNN_T`, type 2 `..._2.RRR` (one per process), as 2.1 names them.
    pub fn path(&self, i: usize, n: usize, kind: Type, rank: usize) -> PathBuf {
        let t = kind.number();
        let name = match kind {
            Type::Separate => format!("b_eff_io_data_i{i:02}_{n:03}_{t}.{rank:03}"),
            _ => format!("b_eff_io_data_i{i:02}_{n:03}_{t}"),
        };
        self.dir.join(name)
    }

    /// The files process `rank` may create: rank 0 the shared files of every partition,
    /// each process its type-2 file in every partition it belongs to.
    pub fn of_rank(&self, rank: usize) -> Vec<PathBuf> {
        let mut v = Vec::new();
        for (i, &n) in self.partitions.iter().enumerate() {
            if rank == 0 {
                for t in [Type::Scatter, Type::Shared, Type::Segmented, Type::SegmentedCollective] {
                    v.push(self.path(i, n, t, 0));
                }
            }
            if rank < n {
                v.push(self.path(i, n, Type::Separate, rank));
            }
        }
        v
    }
}

/// Refuses names that exist: b_eff_io never writes or deletes a file it did not create
/// (2.1 deleted them; paw stops instead).
pub fn absent(names: &[PathBuf]) -> Result<(), String> {
    match names.iter().find(|n| n.exists()) {
        Some(n) => Err(format!(
            "{} exists; b_eff_io writes only files it creates (remove it, or choose another -p)",
            n.display()
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_2_1() {
        let f = Files::new(Path::new("/d"), &[1, 2]);
        assert_eq!(f.path(0, 1, Type::Scatter, 0), Path::new("/d/b_eff_io_data_i00_001_0"));
        assert_eq!(f.path(1, 2, Type::Separate, 1), Path::new("/d/b_eff_io_data_i01_002_2.001"));
        assert_eq!(f.of_rank(0).len(), 2 * 4 + 2);
        let one: Vec<String> = f.of_rank(1).iter().map(|p| p.display().to_string()).collect();
        assert_eq!(one, ["/d/b_eff_io_data_i01_002_2.001"]);
    }
}
