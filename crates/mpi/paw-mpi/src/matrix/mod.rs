//! p2p_matrix's fabric map: `measure` times the links, `verdict` judges them, `retest`
//! measures the suspects again, `report` reads the settings and writes the files, `map`
//! holds the matrices and the rules that find outliers in them.

pub mod map;
pub mod measure;
pub mod report;
pub mod retest;
pub mod verdict;
