//! p2p_matrix's fabric map: `measure` times the links, `verdict` judges them, `retest`
//! measures the suspects again, `report` reads the settings and writes the files, `map`
//! holds the matrices and the rules that find outliers in them.

pub mod links;
pub mod map;
pub mod measure;
pub mod report;
pub mod retest;
pub mod verdict;

use paw_core::schema::{MIB_PER_S, USEC};
use paw_core::{Headline, Pick};

/// What users quote from the map: the median link of each matrix, over all its cells.
pub const HEADLINES: [Headline; 2] = [
    Headline::of_table(
        "matrix_bw",
        "median link bandwidth, {x} nodes",
        Pick::Cells,
        "",
        MIB_PER_S.label,
    ),
    Headline::of_table("matrix_lat", "median link latency, {x} nodes", Pick::Cells, "", USEC.label),
];
