//! The message-size sweep of a point-to-point or collective test, run once for all: the
//! sizes of the binary's family, the untimed warm-up, each size measured, the data check
//! with PAW_CHECK=1, and the two files its [`SweepFiles`] names. A binary gives its set-up,
//! the timed calls and the check.

use crate::collective::{collective_bench, Roots};
use crate::memory::Memory;
use mpi_ext::region::{Bytes, BytesMut};
use paw_core::schema::{Unit, BYTES, NONE, USEC};
use paw_core::{
    check, vars, Axis, Bench, Column, DatFile, DatSpec, Error, Extra, Family, Files, Measurement,
    Paw, Policy, Second, SizeRange, SweepFiles, Timing, World, MB,
};

/// One data check's place: the size, its bytes as an index, its position in the sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    /// The message size.
    pub size: u64,
    /// The same, as a buffer length.
    pub n: usize,
    /// The size's position in the sweep (the check patterns' sequence number).
    pub seq: u64,
}

/// A test's sweep, set up: its bench, sizes and open files (see the module).
#[derive(Debug)]
pub struct Sweep<'a> {
    paw: &'a Paw,
    bench: Bench<'a, World>,
    sizes: SizeRange,
    warm_up: bool,
    rounds: bool,
    files: SweepFiles,
    time: DatFile,
    second: DatFile,
    third: Option<DatFile>,
    scale: f64,
    memory: Memory,
}

/// The `main` of a blocking collective test: `body(paw, sweep, roots)` with the sweep and
/// roots of [`Sweep::collective`], its error ending the program as [`paw_core::main`] does.
pub fn collective_main(
    spec: &'static paw_core::Spec,
    body: impl for<'a> FnOnce(&'a Paw, Sweep<'a>, Roots) -> paw_core::Result<()>,
) -> std::process::ExitCode {
    paw_core::main(spec.name, || {
        let paw = Paw::init(spec)?;
        let (sweep, roots) = Sweep::collective(&paw, &[])?;
        body(&paw, sweep, roots)
    })
}

impl<'a> Sweep<'a> {
    /// The sizes of the binary's family: point-to-point or collective, as its Spec's
    /// variables say, with the warm-up size where it reads one (MED_P2P_SIZE ...).
    pub fn sizes(paw: &Paw) -> paw_core::Result<SizeRange> {
        let family =
            if paw.spec().reads_var(vars::MIN_COL_SIZE.name) { Family::Col } else { Family::P2p };
        if paw.spec().reads_var(family.vars()[1].name) {
            paw.sizes(family)
        } else {
            paw.sweep(family)
        }
    }

    /// [`Sweep::start`] with the family's sizes and no notes.
    pub fn new(paw: &'a Paw, timing: Timing) -> paw_core::Result<Sweep<'a>> {
        Sweep::start(paw, Sweep::sizes(paw)?, timing, &[])
    }

    /// The sweep of a point-to-point test: `timing`, NLOOP calibrated, the files headed by
    /// `notes`.
    pub fn start(
        paw: &'a Paw,
        sizes: SizeRange,
        timing: Timing,
        notes: &[&str],
    ) -> paw_core::Result<Sweep<'a>> {
        let bench = paw.bench(timing, Policy::Calibrated)?;
        Sweep::with_bench(paw, sizes, bench, notes)
    }

    /// The sweep of a blocking collective test and the roots of its calls (see
    /// [`collective_bench`]).
    pub fn collective(paw: &'a Paw, notes: &[&str]) -> paw_core::Result<(Sweep<'a>, Roots)> {
        let sizes = Sweep::sizes(paw)?;
        let (bench, roots) = collective_bench(paw)?;
        Ok((Sweep::with_bench(paw, sizes, bench, notes)?, roots))
    }

    /// The sweep with a bench of the binary's own making.
    pub fn with_bench(
        paw: &'a Paw,
        sizes: SizeRange,
        bench: Bench<'a, World>,
        notes: &[&str],
    ) -> paw_core::Result<Sweep<'a>> {
        let Files::Sweep(files) = paw.spec().files else {
            return Err(Error::runtime(format!(
                "{}: its Spec names no sweep files",
                paw.spec().name
            )));
        };
        let memory = Memory::new(paw)?;
        let mut notes: Vec<String> = notes.iter().map(|n| n.to_string()).collect();
        notes.extend(memory.notes());
        let mut extra = vec![];
        if files.extra == Extra::Spread {
            notes.push(
                "TASK_MIN, TASK_MAX: medians over the repetitions of the minimum and the maximum \
                 over tasks of the time per call, usec"
                    .to_string(),
            );
            extra.extend(SPREAD);
        }
        let rounds = files.extra == Extra::Rounds;
        if rounds != matches!(bench.timing(), Timing::Rounds { .. }) {
            return Err(Error::runtime(format!(
                "{}: ROUNDS column and Timing::Rounds go together",
                paw.spec().name
            )));
        }
        if rounds {
            extra.push(Column::fixed("ROUNDS", NONE));
        }
        extra.extend(bench.tail_columns());
        let size = Axis::new("message size", BYTES);
        // A file of the second quantity (and the third's): `<stem>_<name>`, not echoed.
        let other = |(name, label, unit): (&str, &str, Unit)| {
            let file = paw.np_file(&format!("{}_{name}", files.stem), paw.size());
            let y = Axis::new(label, unit);
            let spec = DatSpec {
                file,
                x: size.clone(),
                y,
                notes: notes.clone(),
                echo: false,
                extra: vec![],
            };
            paw.dat(&bench, spec)
        };
        // The second file first: its line names it above the time table the terminal shows.
        let second = other(files.second.file())?;
        let third = files.second.third().map(other).transpose()?;
        let time = paw.dat(
            &bench,
            DatSpec {
                file: paw.np_file(&format!("{}_time", files.stem), paw.size()),
                x: size,
                y: Axis::new(files.time, USEC),
                notes,
                echo: true,
                extra,
            },
        )?;
        let warm_up = paw.spec().reads().any(|v| is_warm_up(v.name));
        Ok(Sweep {
            paw,
            bench,
            sizes,
            warm_up,
            rounds,
            files,
            time,
            second,
            third,
            scale: 1.0,
            memory,
        })
    }

    /// The sizes measured.
    pub fn range(&self) -> &SizeRange {
        &self.sizes
    }

    /// Where the message buffers are (PAW_BUFFER, where the binary reads it).
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// The largest buffer the sweep and its warm-up need, bytes.
    pub fn largest(&self) -> usize {
        self.sizes.largest() as usize
    }

    /// Multiplies the second quantity: the messages or bytes one timed operation moves for
    /// one SIZE (2 for an exchange both ways, the pairs of a message rate).
    pub fn scaled(mut self, factor: f64) -> Sweep<'a> {
        self.scale = factor;
        self
    }

    /// Runs `timed(state, n)` once untimed at the warm-up size, then measures it at every
    /// size; with PAW_CHECK=1, `check` runs after each size and returns the wrong bytes
    /// this task found. Writes a row per size to both files.
    pub fn run<S>(
        self,
        state: &mut S,
        mut timed: impl FnMut(&mut S, usize),
        check: impl FnMut(&mut S, Probe) -> usize,
    ) -> paw_core::Result<()> {
        if self.warm_up {
            timed(state, self.sizes.med as usize);
        }
        let measure = |s: &mut S, bench: &mut Bench<'a, World>, p: Probe| {
            bench.measure(p.size, || timed(s, p.n))
        };
        self.run_measured(state, measure, check)
    }

    /// [`Sweep::run`] for a test that measures a size itself (`measure(state, bench, probe)`,
    /// e.g. inside an epoch that spans the whole measurement); no warm-up.
    pub fn run_measured<S>(
        mut self,
        state: &mut S,
        mut measure: impl FnMut(&mut S, &mut Bench<'a, World>, Probe) -> paw_core::Result<Measurement>,
        mut check: impl FnMut(&mut S, Probe) -> usize,
    ) -> paw_core::Result<()> {
        let paw = self.paw;
        let usec = |t: f64| t * 1e6;
        for (seq, size) in self.sizes.sweep().into_iter().enumerate() {
            let probe = Probe { size, n: size as usize, seq: seq as u64 };
            let m = measure(state, &mut self.bench, probe)?;
            let wrong = if paw.checking() { check(state, probe) } else { 0 };
            let verdict = paw.verdict(wrong);
            let mut extra =
                if self.files.extra == Extra::Spread { m.spread(usec).to_vec() } else { vec![] };
            if self.rounds {
                extra.push(self.bench.rounds() as f64);
            }
            extra.extend(m.tail(usec));
            self.time.row_with(size, &m.row(usec).verdict(verdict), &extra);
            // A 0-byte row (MIN_P2P_SIZE=0) is a time and a rate; a bandwidth of nothing is
            // no figure, and its file starts at 1 byte.
            let (scale, bytes) = (self.scale, size as f64);
            let bandwidth = || m.row(|t| scale * bytes / t / MB).verdict(verdict);
            match self.files.second {
                Second::Bandwidth(_) if size == 0 => {}
                Second::Bandwidth(_) => self.second.row(size, &bandwidth()),
                Second::Rate(_) | Second::RateAndBandwidth(..) => {
                    self.second.row(size, &m.row(|t| scale / t).verdict(verdict))
                }
            }
            if let Some(third) = self.third.as_mut().filter(|_| size > 0) {
                third.row(size, &bandwidth());
            }
        }
        paw.checks_passed()
    }
}

impl Sweep<'_> {
    /// Runs a pair test: `kernel(send, recv)` is one timed operation of a SIZE between this
    /// task and its partner ([`Paw::pair`]), on buffers of that length in the memory
    /// PAW_BUFFER names. The check fills `send` with this task's pattern, runs `kernel` once
    /// more and compares `recv` with the partner's pattern: on both tasks where data moves
    /// `both_ways`, else on the partner (the receiver) only.
    pub fn run_pair(
        self,
        both_ways: bool,
        kernel: impl FnMut(Bytes<'_>, BytesMut<'_>),
    ) -> paw_core::Result<()> {
        let (pair, rank) = (self.paw.pair(), self.paw.rank());
        let most = self.largest();
        let mut state = (self.memory.alloc(most)?, self.memory.alloc(most)?, kernel);
        self.run(
            &mut state,
            |(send, recv, kernel), n| kernel(send.at(n), recv.at_mut(n)),
            |(send, recv, kernel), p| {
                send.write(p.n, |s| check::fill(s, rank, p.size, p.seq));
                kernel(send.at(p.n), recv.at_mut(p.n));
                if both_ways || !pair.leader {
                    check::mismatches(&recv.read(p.n), pair.partner, p.size, p.seq)
                } else {
                    0
                }
            },
        )
    }
}

/// Whether `name` is a warm-up size variable.
fn is_warm_up(name: &str) -> bool {
    [Family::P2p, Family::Col].iter().any(|f| f.vars()[1].name == name)
}

/// The extra columns of a collective's time file (before PAW_TAIL's).
pub const SPREAD: [Column; 2] = [Column::fixed("TASK_MIN", USEC), Column::fixed("TASK_MAX", USEC)];
