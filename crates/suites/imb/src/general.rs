//! Today's IMB's on|off general options, one declaration each ([`SWITCHES`]): its name,
//! its typed default (applied before the command line is read, and shown by `-h`), its
//! meaning, the field it sets and its header line. The suites name which they take with a
//! [`General`] set; `-off_cache` and the data types take values and are cli.rs's own.

use crate::options::Options;
use crate::settings::Settings;
use crate::table::{Edition, Gen, General, Table};

/// When a switch has a line in the header of the standard output.
#[derive(Debug, Clone, Copy)]
pub enum Header {
    /// Never: another line says it, or nothing needs to.
    None,
    /// `label (-name) : on|off` where it differs from its default.
    Changed(&'static str),
    /// `label (-name) : text` where it is on.
    On(&'static str, &'static str),
    /// `label (-name) : on text|off text` always.
    Always(&'static str, &'static str, &'static str),
}

/// One on|off general option.
#[derive(Debug)]
pub struct Switch {
    /// Which option: a suite takes it where its [`crate::General`] holds this.
    pub gen: Gen,
    /// Its name as typed.
    pub names: &'static [&'static str],
    /// Its value when not given, under an edition's rules.
    pub default: fn(Edition) -> bool,
    /// Its value in a suite that does not read it, where that is not its default (paw's
    /// additions: off where today's suite has none).
    pub unread: Option<bool>,
    /// What it does, under a suite's settings and edition (`-h`).
    pub meaning: fn(&Settings, Edition) -> String,
    /// The option it sets.
    pub field: fn(&mut Options) -> &mut bool,
    /// Its header line.
    pub header: Header,
}

/// The default of a paw option that does what today's IMB does (`-estimate`, `-alloc_mem`):
/// on under today's rules, off under 3.0's.
fn as_today(edition: Edition) -> bool {
    edition != Edition::V3
}

/// `text`, with `rule` after it under IMB 3.0's rules.
fn under_v3(edition: Edition, text: String, rule: &str) -> String {
    if edition == Edition::V3 {
        format!("{text}{rule}")
    } else {
        text
    }
}

/// Every on|off general option, in `-h`'s order.
pub const SWITCHES: [Switch; 8] = [
    Switch {
        gen: Gen::ZeroSize,
        names: &["-zero_size"],
        default: |_| true,
        meaning: |_, _| "off: no length-0 row".into(),
        unread: None,
        field: |o| &mut o.zero_size,
        header: Header::None,
    },
    Switch {
        gen: Gen::WarmUp,
        names: &["-warm_up"],
        default: |_| true,
        meaning: |settings, _| match settings.own_warm_up {
            Some(text) => format!("off: no warm-up runs ({text})"),
            None => format!(
                "off: no warm-up runs (IMB 3.0's N_WARMUP = {} runs at \
                 the largest length; today's IMB warms up at every length)",
                settings.n_warmup
            ),
        },
        unread: None,
        field: |o| &mut o.warm_up,
        header: Header::None,
    },
    Switch {
        gen: Gen::Estimate,
        names: &["-estimate"],
        default: as_today,
        meaning: |_, edition| {
            let text = "at every length, before its timing, one repetition and then min(n, \
                        MSGSPERSAMPLE) more untimed, as today's IMB runs them to estimate its \
                        repetitions (fewer when one repetition took over 1 ms: about 1 s of them)";
            under_v3(edition, text.into(), "; IMB 3.0 has none, hence off")
        },
        unread: Some(false),
        field: |o| &mut o.estimate,
        header: Header::None,
    },
    Switch {
        gen: Gen::AllocMem,
        names: &["-alloc_mem"],
        default: as_today,
        meaning: |_, edition| {
            let text = "the message buffers come from MPI_Alloc_mem, as today's IMB takes them \
                        (off: the heap)";
            under_v3(edition, text.into(), "; IMB 3.0 used malloc, hence off")
        },
        unread: Some(false),
        field: |o| &mut o.alloc_mem,
        header: Header::Always("Message buffers", "MPI_Alloc_mem", "the heap (malloc)"),
    },
    Switch {
        gen: Gen::RootShift,
        names: &["-root_shift"],
        default: |edition| edition == Edition::V3,
        meaning: |_, edition| {
            let text = "the root of the rooted collectives moves to the next process at every \
                        repetition";
            under_v3(edition, text.into(), " (IMB 3.0's rule, hence on; today's IMB: off)")
        },
        unread: None,
        field: |o| &mut o.root_shift,
        header: Header::Changed("Root shift"),
    },
    Switch {
        gen: Gen::Sync,
        names: &["-sync"],
        default: |edition| edition != Edition::V3,
        meaning: |_, edition| match edition {
            Edition::V3 => "collectives: each repetition timed alone, a barrier after it \
                            outside the timing (IMB 3.0 times the repetitions back to back, \
                            hence off; today's IMB: on)"
                .into(),
            Edition::V2021 => {
                "a barrier after each repetition, outside the timing (off: none)".into()
            }
        },
        unread: None,
        field: |o| &mut o.sync,
        header: Header::Changed("Sync"),
    },
    Switch {
        gen: Gen::ImbBarrier,
        names: &["-imb_barrier"],
        default: |_| false,
        meaning: |_, _| {
            "the barriers before each timing (and -sync's) are zero-byte MPI_Sendrecv to \
             rank + 2^k from rank - 2^k, not MPI_Barrier"
                .into()
        },
        unread: None,
        field: |o| &mut o.imb_barrier,
        header: Header::None,
    },
    Switch {
        gen: Gen::MsgPause,
        names: &["-msg_pause"],
        default: |_| false,
        meaning: |_, _| "sleep max(t/10, 0.1 s) after each length, t the wall time it took".into(),
        unread: None,
        field: |o| &mut o.msg_pause,
        header: Header::On("Pause", "max(t/10, 0.1 s) after each length"),
    },
];

/// Sets every switch of `o` to its default under `o.edition`'s rules, or, where the suite
/// does not read it (`general` lacks it), to [`Switch::unread`] if it has one: the kernels
/// read every switch.
pub fn defaults(o: &mut Options, general: General) {
    for s in &SWITCHES {
        let unread = s.unread.filter(|_| !general.has(s.gen));
        *(s.field)(o) = unread.unwrap_or((s.default)(o.edition));
    }
}

/// The header lines (label, value) of the switches `suite` reads, as [`Switch::header`]
/// says against `o.edition`'s defaults: those set away from their default or on, then those
/// always shown.
pub fn header_lines<K>(suite: &Table<K>, o: &Options) -> Vec<(String, String)> {
    let mut values = o.clone();
    let mut lines: Vec<(bool, String, String)> = Vec::new();
    for s in SWITCHES.iter().filter(|s| suite.general.has(s.gen)) {
        let on = *(s.field)(&mut values);
        let label = |l: &str| format!("{l} ({})", s.names[0]);
        let on_off = if on { "on" } else { "off" };
        match s.header {
            Header::Changed(l) if on != (s.default)(o.edition) => {
                lines.push((false, label(l), on_off.into()))
            }
            Header::On(l, text) if on => lines.push((false, label(l), text.into())),
            Header::Always(l, yes, no) => {
                lines.push((true, label(l), if on { yes } else { no }.into()))
            }
            Header::None | Header::Changed(_) | Header::On(..) => {}
        }
    }
    lines.sort_by_key(|(always, ..)| *always);
    lines.into_iter().map(|(_, label, value)| (label, value)).collect()
}
