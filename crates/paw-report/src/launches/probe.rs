//! The machine's state, probed without MPI: the round trip of one cache line between two
//! threads pinned to the first two CPUs this process may use. A VM whose two virtual CPUs
//! move between physical places (two cores of one complex, two complexes, the two threads
//! of one core) changes this figure by 2-5x, and the small-message times of every MPI
//! test with it (doc/methodology.md, "Launches").

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Round trips per batch, and batches: about 3-15 ms in all on a 2-core VM.
const TRIPS: u32 = 10_000;
const BATCHES: usize = 3;

/// Two probes are of one state when the larger is at most this factor of the smaller: one
/// state's probes spread over up to 2.4x here (60-146 ns), the states lie 3-5x apart (the
/// other state's 400-850 ns).
pub const SAME_STATE: f64 = 2.0;

/// One cache line, alone on it.
#[repr(align(64))]
struct Line(AtomicU32);

/// The cache-line round trip between the first two CPUs of this process's affinity mask,
/// nanoseconds (the median of three batches); None with fewer than two CPUs or when the
/// partner thread does not answer within a second.
pub fn round_trip_ns() -> Option<f64> {
    let cpus = allowed_cpus();
    let (&first, &second) = (cpus.first()?, cpus.get(1)?);
    let line = Arc::new(Line(AtomicU32::new(0)));
    let stop = Arc::new(AtomicBool::new(false));
    let partner = {
        let (line, stop) = (line.clone(), stop.clone());
        std::thread::spawn(move || {
            pin(second);
            // Answers every odd value with the next even one until told to stop.
            while !stop.load(Ordering::Relaxed) {
                let v = line.0.load(Ordering::Acquire);
                if v % 2 == 1 {
                    line.0.store(v + 1, Ordering::Release);
                } else {
                    std::hint::spin_loop();
                }
            }
        })
    };
    let mine = current_affinity();
    pin(first);
    let deadline = Instant::now() + Duration::from_secs(1);
    let mut batches = Vec::with_capacity(BATCHES);
    let mut value = 0u32;
    'outer: for _ in 0..BATCHES {
        let start = Instant::now();
        for _ in 0..TRIPS {
            value += 1;
            line.0.store(value, Ordering::Release);
            value += 1;
            let mut spins = 0u32;
            while line.0.load(Ordering::Acquire) != value {
                spins = spins.wrapping_add(1);
                if spins.is_multiple_of(4096) && Instant::now() > deadline {
                    break 'outer;
                }
                std::hint::spin_loop();
            }
        }
        batches.push(start.elapsed().as_secs_f64() * 1e9 / f64::from(TRIPS));
    }
    stop.store(true, Ordering::Relaxed);
    let _ = partner.join();
    if let Some(set) = mine {
        restore(&set);
    }
    (batches.len() == BATCHES).then(|| paw_base::median(&batches))
}

/// Whether two probes saw one state ([`SAME_STATE`]).
pub fn same_state(a: f64, b: f64) -> bool {
    a > 0.0 && b > 0.0 && a.max(b) <= SAME_STATE * a.min(b)
}

/// The CPUs this process may run on, in order.
fn allowed_cpus() -> Vec<usize> {
    let Some(set) = current_affinity() else { return Vec::new() };
    // SAFETY: CPU_ISSET reads a cpu_set_t that sched_getaffinity filled.
    (0..libc::CPU_SETSIZE as usize).filter(|&c| unsafe { libc::CPU_ISSET(c, &set) }).collect()
}

fn current_affinity() -> Option<libc::cpu_set_t> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity fills it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        (libc::sched_getaffinity(0, size, &mut set) == 0).then_some(set)
    }
}

/// Pins the calling thread to `cpu`.
fn pin(cpu: usize) {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET marks one CPU below
    // CPU_SETSIZE; sched_setaffinity(0) applies to the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

fn restore(set: &libc::cpu_set_t) {
    // SAFETY: `set` came from sched_getaffinity.
    unsafe {
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states() {
        assert!(same_state(90.0, 170.0) && same_state(430.0, 300.0));
        assert!(!same_state(90.0, 430.0) && !same_state(0.0, 90.0));
    }

    #[test]
    fn the_probe_measures_a_round_trip_where_two_cpus_are_allowed() {
        match round_trip_ns() {
            Some(ns) => assert!(ns > 1.0 && ns < 1e6, "{ns} ns"),
            None => assert!(allowed_cpus().len() < 2, "two CPUs and no figure"),
        }
    }
}
