//! The watchdog: a thread that ends the job when one measurement step takes longer than
//! PAW_TIMEOUT seconds (a lost message, a broken network path, a rank stuck in a
//! collective the others never entered).
//!
//! The measuring thread calls [`step`] once per step and [`alive`] between samples, both
//! outside any timed region (a lock and a notification per size, one atomic increment per
//! sample, nothing per iteration). The watchdog thread sleeps until the deadline; if the
//! step made no progress since (no sample finished), it prints one line naming the step and
//! how long it waited, and aborts the job (MPI_Abort from this thread: the MPI standard
//! allows that only above MPI_THREAD_SINGLE, but Open MPI and MPICH honour it, and the job
//! is stuck anyway).

use crate::process;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Exit status of a job the watchdog ended (as `timeout(1)`).
pub const EXIT_CODE: i32 = 124;

/// Samples finished so far: progress within a step.
static HEARTBEAT: AtomicU64 = AtomicU64::new(0);

#[derive(Debug)]
struct State {
    timeout: Option<Duration>,
    step: String,
    since: Instant,
    generation: u64,
    beat: u64,
}

struct Watchdog {
    state: Mutex<State>,
    wake: Condvar,
}

fn watchdog() -> &'static Watchdog {
    static W: OnceLock<Watchdog> = OnceLock::new();
    W.get_or_init(|| Watchdog {
        state: Mutex::new(State {
            timeout: None,
            step: "start-up".into(),
            since: Instant::now(),
            generation: 0,
            beat: 0,
        }),
        wake: Condvar::new(),
    })
}

/// Arms the watchdog with `seconds` per step (0 disarms it) and starts its thread once.
pub fn start(seconds: u64) {
    let w = watchdog();
    {
        let mut s = w.state.lock().unwrap_or_else(|p| p.into_inner());
        s.timeout = (seconds > 0).then(|| Duration::from_secs(seconds));
        s.since = Instant::now();
        s.generation += 1;
    }
    static THREAD: OnceLock<()> = OnceLock::new();
    THREAD.get_or_init(|| {
        std::thread::Builder::new()
            .name("paw-watchdog".into())
            .spawn(watch)
            .expect("cannot start the watchdog thread");
        // The end of the run is a step of its own, with a fresh deadline: a slow last step's
        // deadline must not fire during the untimed work after it or MPI_Finalize.
        process::at_exit(|_| step("the end of the run (MPI_Finalize)"));
    });
    w.wake.notify_all();
}

/// Tells the watchdog the current step made progress (a sample finished): its deadline
/// starts again. One relaxed atomic increment.
pub fn alive() {
    HEARTBEAT.fetch_add(1, Ordering::Relaxed);
}

/// Marks the start of a new step, described by `label` (a size, a pattern, an operation).
///
/// The watchdog thread is not woken: a new step only moves the deadline later, which the
/// thread finds when it wakes at the old one. Waking it at every step (thousands of times
/// in a b_eff run) put a third thread on two cores busy with MPI and slowed whole
/// repetitions of the measurements around it.
pub fn step(label: impl Into<String>) {
    let w = watchdog();
    let mut s = w.state.lock().unwrap_or_else(|p| p.into_inner());
    s.step = label.into();
    s.since = Instant::now();
    s.beat = HEARTBEAT.load(Ordering::Relaxed);
    s.generation += 1;
}

/// The watchdog thread: sleeps until the current step's deadline, fires if it passed.
fn watch() {
    let w = watchdog();
    let mut s = w.state.lock().unwrap_or_else(|p| p.into_inner());
    loop {
        let Some(timeout) = s.timeout else {
            s = w.wake.wait(s).unwrap_or_else(|p| p.into_inner());
            continue;
        };
        let deadline = s.since + timeout;
        let now = Instant::now();
        let beat = HEARTBEAT.load(Ordering::Relaxed);
        if now >= deadline && beat != s.beat {
            // Progress since the deadline was set: give the step another period.
            s.beat = beat;
            s.since = now;
            continue;
        }
        if now < deadline {
            s = w.wake.wait_timeout(s, deadline - now).unwrap_or_else(|p| p.into_inner()).0;
            continue;
        }
        let waited = now.duration_since(s.since).as_secs();
        let r = process::rank();
        let who = if r >= 0 { format!("rank {r}: ") } else { String::new() };
        eprintln!(
            "{}: {who}watchdog: {} made no progress for {waited} s (PAW_TIMEOUT={}); aborting the job",
            process::name(),
            s.step,
            timeout.as_secs()
        );
        drop(s);
        process::abort(EXIT_CODE);
    }
}

/// The test-only hang hook: `PAW_TEST_HANG=<rank>:<step>` makes that rank stop for good at
/// the start of that measurement step (counted from 0), as a lost message would, so the
/// watchdog can be seen to end the job.
pub(crate) fn test_hang() -> Option<(i32, usize)> {
    let v = std::env::var("PAW_TEST_HANG").ok()?;
    let (rank, step) = v.split_once(':')?;
    Some((rank.trim().parse().ok()?, step.trim().parse().ok()?))
}

/// Stops the calling thread for good (the test-only hang hook's lost message).
pub(crate) fn hang_forever() -> ! {
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}
