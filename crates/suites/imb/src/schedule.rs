//! The process counts a benchmark runs on (guide §3.3.1, `-npmin`, `-multi`) and the counts
//! a suite refuses.

use crate::options::Options;
use crate::settings::process_counts;
use crate::table::Class;

/// Refuses a one-sided suite's run with a group of one process: Open MPI 4.1's default
/// one-sided components cannot create a window on one process (MPI_ERR_WIN, fatal), so it is
/// refused with one line, whatever the library, rather than ended by MPI.
pub fn windows_need_two(o: &Options, np: usize) -> Result<(), String> {
    if np == 1 || o.npmin == 1 {
        return Err(format!(
            "one-sided windows need 2 or more processes per group (this run: {np} processes, \
             -npmin {}); start 2 or more and use -npmin 2 or more",
            o.npmin
        ));
    }
    Ok(())
}

/// The process counts benchmark class `class` runs on among `np` processes, when a single
/// transfer runs on `single` processes.
pub fn counts_for(class: Class, single: usize, np: usize, npmin: usize) -> Vec<usize> {
    match class {
        Class::SingleTransfer | Class::SingleElement | Class::TrulyPassive if np >= single => {
            vec![single]
        }
        Class::SingleTransfer | Class::SingleElement | Class::TrulyPassive => vec![],
        // Pairs: the largest even count at most np, from the smallest even count >= npmin.
        Class::MessageRate if np >= 2 => process_counts(np & !1, npmin.max(2).next_multiple_of(2)),
        Class::MessageRate => vec![],
        Class::Everyone { .. } => vec![np],
        _ => process_counts(np, npmin),
    }
}
