//! The measurements of a b_eff run, in b_eff 3.6's order and with its loop lengths.

use crate::exchange::{Exchanger, Method, METHODS};
use crate::options::NAME;
use crate::patterns::Pattern;
use crate::plan::{self, LoopRule, LENGTHS, REPETITIONS};
use crate::report::{self, PatternResult, Sample};
use paw_core::mpi::traits::*;
use paw_core::TextFile;
use std::time::Instant;

/// Measures every pattern at every length by every method, [`REPETITIONS`] times, in
/// b_eff 3.6's order (repetition, length, pattern, method) and with its loop lengths
/// ([`LoopRule`]); fills `results`, writes each length's rows to the protocol `prot` as
/// soon as it is measured (a killed run keeps whole rows), and returns the defective bytes
/// this rank received (when checking). Rank 0 decides the loop counts from its own times
/// and broadcasts them.
pub fn measure(
    ex: &mut Exchanger<'_>,
    all: &[Pattern],
    lengths: &[usize; LENGTHS],
    rule: LoopRule,
    check: bool,
    results: &mut [PatternResult],
    prot: &mut TextFile,
) -> usize {
    let world = ex.world();
    let start = Instant::now();
    let mut defects = 0;
    for rep in 0..REPETITIONS {
        // Calibration at the first length: its time also counts towards that length's.
        let mut totals = vec![[0.0f64; 3]; LENGTHS];
        for pattern in all {
            ex.prepare(pattern, lengths[0]);
            for (m, &method) in methods(pattern).iter().enumerate() {
                totals[0][m] += ex.time(method, plan::CALIBRATION_LOOPS, true, pattern).mine;
            }
        }
        let mut most = [0usize; 3];
        let mut loops = [0usize; 3];
        if world.rank() == 0 {
            most = totals[0].map(|t| rule.most(t));
            loops = most.map(|m| rule.first(m));
        }
        world.process_at_rank(0).broadcast_into(&mut most[..]);
        for (i, &len) in lengths.iter().enumerate() {
            if i > 0 && world.rank() == 0 {
                let ratio = plan::length_factor(i, lengths[LENGTHS - 1]);
                for m in 0..3 {
                    loops[m] = rule.next(loops[m], totals[i - 1][m], ratio, most[m]);
                }
            }
            world.process_at_rank(0).broadcast_into(&mut loops[..]);
            if world.rank() == 0 && start.elapsed().as_secs_f64() > 10.0 {
                eprintln!(
                    "{NAME}: [{:.0} s] repetition {} of {REPETITIONS}, length {len} ({} of {LENGTHS})",
                    start.elapsed().as_secs_f64(),
                    rep + 1,
                    i + 1
                );
            }
            for (n, pattern) in all.iter().enumerate() {
                paw_core::watchdog::step(format!("pattern {} at {len} bytes", pattern.name));
                ex.prepare(pattern, len);
                for (m, &method) in methods(pattern).iter().enumerate() {
                    let t = ex.time(method, loops[m], i < plan::WARM_UP_BELOW, pattern);
                    totals[i][m] += t.mine;
                    if check {
                        defects += ex.checked_step(method, n as u64);
                    }
                    let sample =
                        Sample { loops: t.loops, seconds: t.slowest, mb_per_s: t.mb_per_s };
                    results[n].samples[i][m].push(sample);
                    paw_core::watchdog::alive();
                }
            }
            let rows: String =
                results.iter().map(|r| report::protocol_rows(r, lengths, i, rep)).collect();
            prot.write(&rows);
        }
    }
    defects
}

/// The methods a pattern is measured by: the ping-pong's one, else all three.
fn methods(pattern: &Pattern) -> &'static [Method] {
    if pattern.ping_pong {
        &METHODS[..1]
    } else {
        &METHODS
    }
}
