//! paw-fixture -- a test fixture, not a benchmark: exercises paw-core's failure paths.
//!
//! PAW_FIXTURE=panic  every task enters a barrier except task PAW_FIXTURE_RANK, which
//!                    panics; without abort-on-panic the job would hang.
//! PAW_FIXTURE=hang   every task waits forever (a deadlocked job), for the harness timeout.
//! PAW_FIXTURE=sweep  a P2P-size sweep whose operation sleeps PAW_FIXTURE_SLEEP_US,
//!                    writing fixture_time-np_NNNN.dat row by row. With PAW_CHECK=1 each
//!                    size is "checked": task PAW_FIXTURE_RANK reports PAW_FIXTURE_BAD
//!                    wrong bytes (default 0), as a receiver that found corrupt data would.
use paw_core::mpi::traits::*;
use paw_core::{Axis, Combine, DatSpec, Family, Paw, Policy, Ranks, Spec, Timing};
use std::time::Duration;

const SPEC: Spec = Spec {
    name: "paw-fixture",
    title: "test fixture for paw-core failure paths",
    help: "Not a benchmark. PAW_FIXTURE=panic|sweep, PAW_FIXTURE_RANK, PAW_FIXTURE_SLEEP_US.",
    ranks: Ranks::Any,
};

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        match std::env::var("PAW_FIXTURE").as_deref() {
            Ok("panic") => {
                let victim = paw.knob("PAW_FIXTURE_RANK", 1, 0..=1 << 20)? as i32;
                if paw.rank() == victim {
                    panic!("deliberate panic on rank {victim}");
                }
                paw.world().barrier();
                Ok(())
            }
            Ok("hang") => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Ok("sweep") => {
                let sleep_us = paw.knob("PAW_FIXTURE_SLEEP_US", 1000, 0..=10_000_000)?;
                let mut bench =
                    paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Combine::Max, Policy::Fewest);
                let mut out = paw.dat(
                    &bench,
                    DatSpec {
                        file: paw.np_file("fixture_time"),
                        x: Axis::new("size", "bytes"),
                        y: Axis::new("sleep time", "usec"),
                        notes: vec![],
                        echo: true,
                        extra: vec![],
                    },
                )?;
                let bad_rank = paw.knob("PAW_FIXTURE_RANK", 1, 0..=1 << 20)? as i32;
                let bad = paw.knob("PAW_FIXTURE_BAD", 0, 0..=1 << 20)? as usize;
                for size in paw.sizes(Family::P2p)?.sweep() {
                    let m = bench.measure(|| std::thread::sleep(Duration::from_micros(sleep_us)));
                    let verdict = paw.verdict(if paw.rank() == bad_rank { bad } else { 0 });
                    out.row(size, &m.row(|t| t * 1e6).verdict(verdict));
                }
                paw.checks_passed()
            }
            other => Err(paw_core::Error::input(format!(
                "PAW_FIXTURE={other:?}; accepted: panic, hang, sweep"
            ))),
        }
    })
}
