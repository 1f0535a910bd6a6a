//! paw-fixture -- a test fixture, not a benchmark: exercises paw-core's failure paths.
//!
//! What it does in each PAW_FIXTURE mode is in SPEC below.
use paw_core::mpi::traits::*;
use paw_core::schema::{BYTES, USEC};
use paw_core::vars::{self, Accepts::Said, Accepts::Whole, Var};
use paw_core::{headline::TIME, Timing};
use paw_core::{Axis, Check, Combine, DatSpec, Error, Family, Files, Paw, Policy, Ranks, Spec};
use std::time::Duration;

const SPEC: Spec = Spec {
    name: "paw-fixture",
    title: "test fixture for paw-core failure paths",
    timed: "\
PAW_FIXTURE=sweep: a P2P-size sweep whose operation sleeps PAW_FIXTURE_SLEEP_US, writing \
fixture_time-np_NNNN.dat row by row; with PAW_CHECK=1 task PAW_FIXTURE_RANK reports \
PAW_FIXTURE_BAD wrong bytes per size. PAW_FIXTURE=panic: every task enters a barrier \
except task PAW_FIXTURE_RANK, which panics. PAW_FIXTURE=hang: every task waits forever.",
    reports: "the sleep time per operation, usec, {ranks}.",
    ranks: Ranks::Any,
    combine: Combine::Max,
    vars: &[
        &[MODE, RANK, SLEEP_US, BAD],
        vars::P2P_SIZES,
        vars::MEASURE,
        vars::COMBINE,
        vars::CHECK,
    ],
    check: Check::Data("task PAW_FIXTURE_RANK reports PAW_FIXTURE_BAD wrong bytes per size"),
    files: Files::Text("fixture_time-np_NNNN.dat (usec), NNNN = tasks"),
    headlines: &[TIME],
};

const MODE: Var = Var::new("PAW_FIXTURE", "-", "panic, hang or sweep", Said);
const RANK: Var = Var::new("PAW_FIXTURE_RANK", "1", "the task that fails", Whole(0, 1 << 20));
const SLEEP_US: Var =
    Var::new("PAW_FIXTURE_SLEEP_US", "1000", "sleep per operation, usec", Whole(0, 10_000_000));
const BAD: Var =
    Var::new("PAW_FIXTURE_BAD", "0", "wrong bytes reported per size", Whole(0, 1 << 20));

fn main() -> std::process::ExitCode {
    paw_core::main(SPEC.name, || {
        let paw = Paw::init(&SPEC)?;
        match paw.text(&MODE).as_deref() {
            Some("panic") => {
                let victim = paw.knob(&RANK)? as i32;
                if paw.rank() == victim {
                    panic!("deliberate panic on rank {victim}");
                }
                paw.world().barrier();
                Ok(())
            }
            Some("hang") => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Some("sweep") => {
                let sleep_us = paw.knob(&SLEEP_US)?;
                let bad_rank = paw.knob(&RANK)? as i32;
                let bad = paw.knob(&BAD)? as usize;
                let sizes = paw.sizes(Family::P2p)?;
                let mut bench = paw.bench(Timing::Batch { ops_per_iter: 1.0 }, Policy::Fewest)?;
                let mut out = paw.dat(
                    &bench,
                    DatSpec {
                        file: paw.np_file("fixture_time", paw.size()),
                        x: Axis::new("size", BYTES),
                        y: Axis::new("sleep time", USEC),
                        notes: vec![],
                        echo: true,
                        extra: vec![],
                    },
                )?;
                for size in sizes.sweep() {
                    let m = bench
                        .measure(size, || std::thread::sleep(Duration::from_micros(sleep_us)))?;
                    let verdict = paw.verdict(if paw.rank() == bad_rank { bad } else { 0 });
                    out.row(size, &m.row(|t| t * 1e6).verdict(verdict));
                }
                paw.checks_passed()
            }
            other => {
                Err(Error::input(format!("PAW_FIXTURE={other:?}; accepted: panic, hang, sweep")))
            }
        }
    })
}
