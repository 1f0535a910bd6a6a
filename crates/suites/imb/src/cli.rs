//! The command line (guide §5.1.2, plus the options today's IMB users type most), one
//! table for every suite ([`flags`]): the parser, the usage line and `-h` come from it.
//! Every rank parses the same [`Line`] (rank 0's arguments and the files they name).

use crate::general::{self, SWITCHES};
use crate::options::{IterPolicy, Lengths, Options, PAUSE_US, WINDOW_SIZE};
use crate::placement::OffCache;
use crate::schedule::{counts_for, windows_need_two};
use crate::table::{Class, Edition, Gen, Mode, Table};
use crate::types::Element;
use paw_core::cli::{self, Flag, Line};
use paw_core::About;

/// Whether `suite` runs its benchmarks on every process at once (IMB-P2P), and so has
/// `-pause`, `-msgwr`, `-msgrd` and `-msgsz`.
fn everyone<K>(suite: &Table<K>) -> bool {
    suite.benchmarks.iter().any(|b| matches!(b.class, Class::Everyone { .. }))
}

/// A length with an optional K, M or G suffix (x 1024, 1048576, 1073741824).
fn sized(v: &str) -> Result<usize, String> {
    let bad = || "takes a length in bytes (K, M, G suffixes) up to 2147483647".to_string();
    paw_core::config::bytes(v).filter(|&x| x <= i32::MAX as u64).map(|x| x as usize).ok_or_else(bad)
}

/// Whether `suite` has windowed benchmarks, and so the `-window_size` option.
fn windowed<K>(suite: &Table<K>) -> bool {
    suite.benchmarks.iter().any(|b| b.class == Class::MessageRate)
}

/// The description of `suite`: its `-h`, the title of its run record and its doc table
/// come from it, every default from the suite's settings. (Its standard output is Intel's
/// layout and does not repeat it.)
pub fn about<K>(suite: &'static Table<K>) -> About {
    let st = &suite.settings;
    let names: Vec<&str> = suite.benchmarks.iter().map(|b| b.name).collect();
    let extra: Vec<&str> = suite.benchmarks.iter().filter(|b| !b.default).map(|b| b.name).collect();
    let default = if extra.is_empty() {
        "default all".to_string()
    } else {
        format!("default all but {}", extra.join(", "))
    };
    About {
        name: suite.name,
        title: format!(
            "the {} of the Intel MPI Benchmarks {} (paw)",
            suite.what,
            suite.edition.version()
        ),
        usage: cli::usage(suite.name, "[benchmark ...]", &flags(suite)),
        summary: format!("benchmarks (case-insensitive; {default}): {}", names.join(" ")),
        timed: suite.timed.into(),
        reported: format!(
            "{} Times in usec (MPI_Wtime); Mbytes/sec with 1 Mbyte = {}.",
            suite.reported,
            suite.edition.mbyte_text()
        ),
        tasks: if everyone(suite) {
            "2 or more; every benchmark on all P processes at once (-npmin, -multi and -map \
             are read but change nothing); one that cannot run on P prints `# !! Benchmark \
             NAME is invalid for P processes !!`"
                .to_string()
        } else {
            format!(
                "{}; each benchmark at P_min, 2 P_min, ..., P processes (-npmin, default {}), \
                 the rest waiting",
                if suite.windows { "2 or more (one-sided windows)" } else { "any number >= 1" },
                st.npmin
            )
        },
        check: "with -check, every received buffer compared with what was sent; the defects \
                column counts differences, and any fails the run."
            .into(),
        files: format!(
            "the tables on standard output in Intel's layout; with -csv or PAW_OUTPUT_DIR, one \
             CSV file per table, {0}-[Multi-]Benchmark-np_NNNN[-mode].csv (mode: aggregate or \
             non-aggregate where a benchmark has modes), and the run record {0}-np_NNNN.json.",
            suite.name
        ),
        options: cli::options(&flags(suite)),
    }
}

/// The options of `suite`, in `-h`'s order, each with its setter.
pub fn flags<K>(suite: &'static Table<K>) -> Vec<Flag<Draft>> {
    let st = &suite.settings;
    let non_aggregate = suite.benchmarks.iter().any(|b| b.modes.contains(&Mode::NonAggregate));
    let (nonaggr, nonaggr_default) = if non_aggregate {
        (", at most nonaggr in non-aggregate mode (MSGS_NONAGGR)", format!(", {}", st.msgs_nonaggr))
    } else {
        ("", String::new())
    };
    let portion = if suite.io { "I/O portions" } else { "message lengths" };
    let mut flags =
        vec![
        Flag::whole(
            &["-npmin"],
            "P_min",
            "smallest process count: P_min, 2 P_min, 4 P_min, ..., P",
            (1, u64::MAX),
            |d: &mut Draft, n| d.o.npmin = n as usize,
        )
        .default(st.npmin),
        Flag::text(
            &["-edition"],
            "3.0|2021",
            "the Intel MPI Benchmarks whose rules and defaults to follow: 3.0 (1 Mbyte = 2^20 \
             bytes, -sync off, -root_shift on, benchmarks in the suite's order) or 2021 \
             (today's: 10^6 bytes, -sync on, -root_shift off, -estimate and -alloc_mem where \
             today's suite has them, benchmarks in the order named)",
            |d: &mut Draft, v| edition(v).map(|e| d.o.edition = e),
        )
        .default(suite.edition.version()),
        Flag::whole(
            &["-multi"],
            "0|1",
            "run the Multi- versions in P/Q disjoint groups at once; 0 shows the worst group, 1 \
             every group",
            (0, 1),
            |d: &mut Draft, n| d.o.multi = Some(n as u8),
        )
        .default("off"),
        Flag::file(
            &["-input"],
            "file",
            "benchmark names, one per line (# starts a comment)",
            move |d: &mut Draft, _, text| {
                for (n, line) in text.lines().enumerate() {
                    let name = line.trim();
                    if !name.is_empty() && !name.starts_with('#') {
                        d.choose(suite, name).map_err(|e| format!("line {}: {e}", n + 1))?;
                    }
                }
                Ok(())
            },
        )
        .default("all"),
        Flag::file(
            &["-msglen"],
            "file",
            format!("{portion} in bytes, one per line"),
            |d: &mut Draft, _, text| {
                d.o.lengths = Lengths::List(length_file(text)?);
                d.msglen = true;
                Ok(())
            },
        )
        .default(format!("0, 1, 2, ..., {}", 1usize << st.max_msg_log)),
        Flag::text(&["-msglog"], "[a:]b", msglog_meaning(everyone(suite)), move |d: &mut Draft, v| {
            d.o.lengths = msglog_range(v, suite.settings.min_msg_log)?;
            d.msglog = true;
            // IMB-P2P: `-msglog a:b` is 2^a .. 2^b, without length 0.
            if let (true, Some(_), Lengths::Log { lo, hi }) =
                (everyone(suite), v.split_once(':'), &d.o.lengths)
            {
                d.o.lengths = Lengths::List((*lo..=*hi).map(|k| 1usize << k).collect());
            }
            Ok(())
        })
        .default(format!("{}:{}", st.min_msg_log, st.max_msg_log)),
        Flag::text(
            &["-map"],
            "PxQ",
            "number the P x Q processes along the rows of a P x Q matrix",
            |d: &mut Draft, v| {
                d.o.map = Some(map(v)?);
                Ok(())
            },
        ),
        Flag::text(
            &["-iter"],
            "n[,vol[,nonaggr[,policy]]]",
            format!(
                "at most n repetitions per length (MSGSPERSAMPLE), at most vol MB moved per \
                 length (OVERALL_VOL){nonaggr}"
            ),
            |d: &mut Draft, v| iter(&mut d.o, v),
        )
        .default(format!(
            "{}, {}{nonaggr_default}, dynamic",
            st.msgs_per_sample,
            st.overall_vol >> 20
        )),
        Flag::text(
            &["-iter_policy"],
            "policy",
            "off: n repetitions at every length; dynamic: the vol rule; multiple_np: n, fewer \
             as the length nears the longest, a multiple of the process count; auto: \
             multiple_np for rooted collectives, dynamic for the rest",
            |d: &mut Draft, v| {
                d.o.iter_policy = policy(v)?;
                Ok(())
            },
        )
        .default("dynamic"),
        Flag::above(
            &["-time"],
            "s",
            "at most about s seconds per length (fewer repetitions)",
            0.0,
            |d: &mut Draft, s| d.o.time = Some(s),
        ),
        Flag::above(
            &["-mem"],
            "GB",
            "refuse a run whose buffers exceed GB gigabytes per process",
            0.0,
            |d: &mut Draft, g| d.o.mem = Some(g),
        ),
        Flag::switch(
            &["-check"],
            "compare every received buffer with what was sent (defects column)",
            |d: &mut Draft| d.o.check = true,
        )
        .default("off"),
    ];
    if windowed(suite) {
        flags.push(
            Flag::whole(
                &["-window_size"],
                "n",
                "messages in flight per pair in each window of Uniband and Biband",
                (1, 65536),
                |d: &mut Draft, n| d.o.window_size = n as usize,
            )
            .default(WINDOW_SIZE),
        );
    }
    if everyone(suite) {
        flags.extend([
            Flag::text(
                &["-msgsz"],
                "size",
                "a message length (K, M, G suffixes); repeat for more",
                |d: &mut Draft, v| {
                    d.msgsz.push(sized(v)?);
                    Ok(())
                },
            ),
            Flag::on_off(
                &["-msgwr"],
                "write one byte per 64-byte line of the send buffer before each send, inside \
                 the timing",
                |d: &mut Draft, on| d.o.msgwr = on,
            )
            .default("on"),
            Flag::on_off(
                &["-msgrd"],
                "read one byte per 64-byte line of the receive buffer after each receive, \
                 inside the timing",
                |d: &mut Draft, on| d.o.msgrd = on,
            )
            .default("on"),
            Flag::whole(
                &["-pause"],
                "us",
                "microseconds of sleep before and after each length",
                (0, u64::MAX),
                |d: &mut Draft, us| d.o.pause_us = us,
            )
            .default(PAUSE_US),
        ]);
    }
    if suite.io {
        flags.extend([
            Flag::text(
                &["-dir"],
                "directory",
                "where the benchmark files go",
                |d: &mut Draft, v| {
                    d.o.dir = Some(v.to_string());
                    Ok(())
                },
            )
            .default("the current directory"),
            Flag::text(
                &["-prefix"],
                "name",
                "the benchmark files' name (_g<group>, _<rank> added)",
                |d: &mut Draft, v| {
                    if v.is_empty() || v.contains('/') {
                        return Err("takes a file name without '/'".into());
                    }
                    d.o.prefix = Some(v.to_string());
                    Ok(())
                },
            )
            .default("IMB_out"),
        ]);
    }
    flags.extend(general(suite));
    flags.extend(paw_flags(
        |d: &mut Draft| d.o.csv = true,
        |d: &mut Draft, s| d.o.timeout = Some(s),
    ));
    flags.extend([
        Flag::switch(
            &["-list"],
            "print the benchmarks, those run only when named tagged (non-default)",
            |d: &mut Draft| d.o.list = true,
        ),
        Flag::help(&["-h", "-help", "--help"], "this help"),
    ]);
    flags
}

/// The options paw adds to every IMB suite (IMB-MT's too): `-csv` and `-timeout`.
pub fn paw_flags<D: 'static>(
    csv: impl Fn(&mut D) + 'static,
    timeout: impl Fn(&mut D, u64) + 'static,
) -> [Flag<D>; 2] {
    [
        Flag::switch(
            &["-csv"],
            "also write each table as a CSV file into PAW_OUTPUT_DIR (or .), with a JSON run \
             record; setting PAW_OUTPUT_DIR does the same",
            csv,
        )
        .default("off"),
        Flag::whole(
            &["-timeout"],
            "s",
            "end the job when one length takes over s seconds (0: never)",
            (0, u64::MAX),
            timeout,
        )
        .default(format!("PAW_TIMEOUT, else {}", paw_core::vars::PAW_TIMEOUT.default)),
    ]
}

/// Today's IMB's general options that `suite` takes ([`General`]), with Intel's
/// meaning; a suite that follows IMB 3.0 says where its default is 3.0's. Those Intel's
/// suite takes but never reads ([`Table::inert`]) are taken and change nothing.
fn general<K>(suite: &'static Table<K>) -> Vec<Flag<Draft>> {
    let (g, inert) = (suite.general, suite.inert);
    let taken = |gen: Gen| g.has(gen) || inert.has(gen);
    let none = format!(
        "taken as Intel's {} takes it; none of its benchmarks reads it, so it changes nothing",
        suite.name
    );
    let mut flags = Vec::new();
    if taken(Gen::OffCache) {
        let live = g.has(Gen::OffCache);
        let meaning = "keep each repetition's buffers out of a last-level cache of size MiB and \
                       line bytes (-1: 8 MiB, 64-byte lines): repetition i uses the buffers from \
                       (i mod k) x d, d = the bytes rounded up to lines plus one line, k = \
                       min(repetitions, (2 x size + d - 1) / d)";
        flags.push(
            Flag::text(
                &["-off_cache"],
                "size[,line]",
                if live { meaning.into() } else { none.clone() },
                move |d: &mut Draft, v| {
                    let cache = off_cache(v)?;
                    if live {
                        d.o.off_cache = Some(cache);
                    } else {
                        d.o.inert.push(format!("-off_cache {v}"));
                    }
                    Ok(())
                },
            )
            .default("off"),
        );
    }
    for s in SWITCHES.iter().filter(|s| taken(s.gen)) {
        if s.gen == Gen::MsgPause && g.has(Gen::DataTypes) {
            flags.extend(data_types()); // where Intel's -h lists them
        }
        let live = g.has(s.gen);
        let meaning = if live { (s.meaning)(&suite.settings, suite.edition) } else { none.clone() };
        let default = if (s.default)(suite.edition) { "on" } else { "off" };
        flags.push(switch(s.names, meaning, live.then_some(s.field)).default(default));
    }
    if g.has(Gen::DataTypes) && !taken(Gen::MsgPause) {
        flags.extend(data_types());
    }
    flags
}

/// `-edition`'s value.
fn edition(v: &str) -> Result<Edition, String> {
    match v {
        "3.0" | "3" => Ok(Edition::V3),
        "2021" => Ok(Edition::V2021),
        _ => Err(format!("{v:?} is not an edition; accepted: 3.0 or 2021")),
    }
}

/// `-data_type`'s default: bytes.
const DATA_TYPE: Element = Element::Byte;
/// `-red_data_type`'s default: floats.
const RED_DATA_TYPE: Element = Element::Float;

/// IMB-MPI1's `-data_type`, `-red_data_type` and `-contig_type` (only its base layout).
fn data_types() -> [Flag<Draft>; 3] {
    [
        Flag::text(
            &["-data_type"],
            "type",
            "the elements of every message but the reductions' (byte, char, int, float, double); \
             lengths are whole elements",
            |d: &mut Draft, v| {
                d.o.data_type = Element::parse(v, false)?;
                Ok(())
            },
        )
        .default(DATA_TYPE.name()),
        Flag::text(
            &["-red_data_type"],
            "type",
            "the elements the reductions sum (char, int, float, double); lengths are whole \
             elements",
            |d: &mut Draft, v| {
                d.o.red_data_type = Element::parse(v, true)?;
                Ok(())
            },
        )
        .default(RED_DATA_TYPE.name()),
        Flag::text(
            &["-contig_type"],
            "base",
            "the elements' layout: base (today's IMB's derived layouts base_vec, resize and \
             resize_vec are not taken)",
            |_: &mut Draft, v| match v {
                "base" => Ok(()),
                _ => Err("takes base; base_vec, resize and resize_vec are not taken".into()),
            },
        )
        .default("base"),
    ]
}

/// An on|off general option: its `field` set where the suite reads it, else (none) noted
/// in [`Options::inert`] as typed.
fn switch(
    names: &'static [&'static str],
    meaning: String,
    field: Option<fn(&mut Options) -> &mut bool>,
) -> Flag<Draft> {
    Flag::on_off(names, meaning, move |d: &mut Draft, on| match field {
        Some(field) => *field(&mut d.o) = on,
        None => d.o.inert.push(format!("{} {}", names[0], if on { "on" } else { "off" })),
    })
}

/// `-off_cache size[,line]`: `-1` (or any negative size) for IMB's defaults.
fn off_cache(v: &str) -> Result<OffCache, String> {
    let bad = || {
        "takes size[,line]: a cache size in MiB (-1: 8 MiB) and optionally its line in bytes, \
         a multiple of 4 from 4 to 4096"
            .to_string()
    };
    let (size, line) = match v.split_once(',') {
        Some((s, l)) => (s, Some(l)),
        None => (v, None),
    };
    let size: f64 = size.trim().parse().ok().filter(|s: &f64| s.is_finite()).ok_or_else(bad)?;
    let line = match line {
        None => OffCache::DEFAULT.line,
        Some(l) => l
            .trim()
            .parse()
            .ok()
            .filter(|&l: &usize| (4..=4096).contains(&l) && l % 4 == 0)
            .ok_or_else(bad)?,
    };
    if size < 0.0 {
        return Ok(OffCache { line, ..OffCache::DEFAULT });
    }
    if size > 1e6 {
        return Err(bad());
    }
    Ok(OffCache { size_mib: size, line })
}

/// The options while the command line is read, and what the reading has seen.
#[derive(Debug)]
pub struct Draft {
    o: Options,
    msgsz: Vec<usize>,
    msglen: bool,
    msglog: bool,
    /// The benchmarks named, in the order named (each once).
    chosen: Vec<usize>,
}

impl Draft {
    /// Selects the benchmark `name` (any case) of `suite`.
    fn choose<K>(&mut self, suite: &Table<K>, name: &str) -> Result<(), String> {
        let i = suite.benchmarks.iter().position(|b| b.name.eq_ignore_ascii_case(name));
        let i =
            i.ok_or_else(|| format!("unknown benchmark {name:?}; valid names: {}", names(suite)))?;
        if !self.chosen.contains(&i) {
            self.chosen.push(i);
        }
        Ok(())
    }
}

/// What `-list` prints: every benchmark in run order, those run only when named tagged.
pub fn list<K>(suite: &Table<K>) -> String {
    let mut out = "List of benchmarks:\n".to_string();
    for b in suite.benchmarks {
        out += &format!("{}{}\n", b.name, if b.default { "" } else { " (non-default)" });
    }
    out
}

fn names<K>(suite: &Table<K>) -> String {
    suite.benchmarks.iter().map(|b| b.name).collect::<Vec<_>>().join(", ")
}

/// Reads `line` for `suite` on `np` processes (the same on every rank); `None` for `-h`.
pub fn parse<K>(
    suite: &'static Table<K>,
    line: &Line,
    np: usize,
) -> Result<Option<Options>, String> {
    let st = &suite.settings;
    // The edition decides defaults, so it is read before the rest.
    let given = line.args.iter().position(|a| a.eq_ignore_ascii_case("-edition"));
    let given = given.and_then(|i| line.args.get(i + 1)).map(|v| edition(v));
    let edition = given.transpose().map_err(|e| format!("-edition: {e}"))?.unwrap_or(suite.edition);
    let o = Options {
        list: false,
        benchmarks: Vec::new(),
        npmin: st.npmin,
        multi: None,
        lengths: Lengths::Log { lo: st.min_msg_log, hi: st.max_msg_log },
        map: None,
        per_sample: st.msgs_per_sample,
        overall_vol: st.overall_vol,
        msgs_nonaggr: st.msgs_nonaggr,
        iter_policy: IterPolicy::Dynamic,
        max_msg_log: st.max_msg_log,
        timeout: None,
        csv: false,
        dir: None,
        prefix: None,
        time: None,
        mem: None,
        check: false,
        window_size: WINDOW_SIZE,
        pause_us: PAUSE_US,
        msgwr: true,
        msgrd: true,
        off_cache: None,
        // The switches: general::defaults below.
        zero_size: true,
        warm_up: true,
        estimate: false,
        alloc_mem: false,
        root_shift: false,
        sync: false,
        imb_barrier: false,
        msg_pause: false,
        data_type: DATA_TYPE,
        red_data_type: RED_DATA_TYPE,
        inert: Vec::new(),
        edition,
    };
    let mut d = Draft { o, msgsz: Vec::new(), msglen: false, msglog: false, chosen: Vec::new() };
    general::defaults(&mut d.o, suite.general);
    if cli::parse(&flags(suite), line, &mut d, |d, name| d.choose(suite, name))? {
        return Ok(None);
    }
    let Draft { mut o, msgsz, msglen, msglog, chosen } = d;
    if !msgsz.is_empty() {
        if msglen || msglog {
            return Err(
                "-msgsz with -msglen or -msglog: give one way of setting the lengths".into()
            );
        }
        o.lengths = Lengths::List(msgsz);
    }
    if let Lengths::Log { hi, .. } = o.lengths {
        o.max_msg_log = hi;
    }
    if msglen && msglog {
        return Err("-msglen and -msglog both set the message lengths; give one".to_string());
    }
    let size = o.data_type.size();
    if let (Lengths::List(l), true) = (&o.lengths, size > 1) {
        if let Some(x) = l.iter().find(|&&x| x % size != 0) {
            return Err(format!(
                "-msglen: length {x} is not a whole number of -data_type {} elements ({size} \
                 bytes each)",
                o.data_type.name()
            ));
        }
    }
    let widest = o.data_type.size().max(o.red_data_type.size());
    if let Some(c) = o.off_cache.filter(|c| c.line % widest != 0) {
        return Err(format!(
            "-off_cache: a {}-byte line does not keep {widest}-byte elements aligned; give a \
             line that is a multiple of {widest}",
            c.line
        ));
    }
    if let Some((p, q)) = o.map {
        if p * q != np {
            return Err(format!("-map {p}x{q} needs {} processes, this run has {np}", p * q));
        }
    }
    // 3.0 runs the named benchmarks in the suite's order, today's IMB in the order named.
    o.benchmarks = match o.edition {
        Edition::V3 => (0..suite.benchmarks.len()).filter(|i| chosen.contains(i)).collect(),
        Edition::V2021 => chosen,
    };
    if suite.refuse_unrunnable {
        for &i in &o.benchmarks {
            let b = &suite.benchmarks[i];
            if counts_for(b.class, suite.settings.single_q, np, o.npmin).is_empty() {
                return Err(format!(
                    "{} is a single transfer between {} processes; this run has {np} (start \
                     it with mpirun -np {} or more)",
                    b.name, suite.settings.single_q, suite.settings.single_q
                ));
            }
        }
    }
    if o.benchmarks.is_empty() {
        o.benchmarks =
            (0..suite.benchmarks.len()).filter(|&i| suite.benchmarks[i].default).collect();
    }
    if suite.windows && !o.list {
        windows_need_two(&o, np)?;
    }
    check_memory(suite, &o, np)?;
    Ok(Some(o))
}

/// `-iter N[,V[,M[,policy]]]`: MSGSPERSAMPLE, OVERALL_VOL in MB, MSGS_NONAGGR, policy.
fn iter(o: &mut Options, v: &str) -> Result<(), String> {
    let accepted = "takes n[,vol[,nonaggr[,policy]]]: n repetitions >= 1, vol MB >= 1, \
                    nonaggr >= 1, policy off|dynamic|multiple_np|auto";
    let bad = || accepted.to_string();
    let fields: Vec<&str> = v.split(',').map(str::trim).collect();
    if fields.len() > 4 {
        return Err(bad());
    }
    let whole = |s: &str| s.parse::<usize>().ok().filter(|&n| n >= 1).ok_or_else(bad);
    o.per_sample = whole(fields[0])?;
    if let Some(vol) = fields.get(1) {
        o.overall_vol = whole(vol)?.checked_mul(1 << 20).ok_or_else(bad)?;
    }
    if let Some(m) = fields.get(2) {
        o.msgs_nonaggr = whole(m)?;
    }
    if let Some(p) = fields.get(3) {
        o.iter_policy = policy(p).map_err(|_| bad())?;
    }
    Ok(())
}

fn policy(v: &str) -> Result<IterPolicy, String> {
    match v.to_ascii_lowercase().as_str() {
        "off" => Ok(IterPolicy::Off),
        "dynamic" => Ok(IterPolicy::Dynamic),
        "multiple_np" => Ok(IterPolicy::MultipleNp),
        "auto" => Ok(IterPolicy::Auto),
        _ => Err("takes off, dynamic, multiple_np or auto".into()),
    }
}

fn map(v: &str) -> Result<(usize, usize), String> {
    let bad = || "takes PxQ with whole numbers P, Q >= 1".to_string();
    let (p, q) = v
        .to_ascii_lowercase()
        .split_once('x')
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .ok_or_else(bad)?;
    match (p.parse::<usize>(), q.parse::<usize>()) {
        (Ok(p), Ok(q)) if p >= 1 && q >= 1 => Ok((p, q)),
        _ => Err(bad()),
    }
}

/// What `-msglog` gives: IMB-P2P's `a:b` leaves length 0 out, as today's IMB-P2P does.
fn msglog_meaning(everyone: bool) -> &'static str {
    match everyone {
        true => "lengths 2^a .. 2^b; b alone: 0, 1, 2, ..., 2^b",
        false => "lengths 0 and 2^a .. 2^b",
    }
}

fn msglog_range(v: &str, min_msg_log: u32) -> Result<Lengths, String> {
    let bad = || "takes [a:]b with 0 <= a <= b <= 30".to_string();
    let (lo, hi) = match v.split_once(':') {
        Some((a, b)) => {
            (a.parse::<u32>().map_err(|_| bad())?, b.parse::<u32>().map_err(|_| bad())?)
        }
        None => (min_msg_log, v.parse::<u32>().map_err(|_| bad())?),
    };
    if lo > hi || hi > 30 {
        return Err(bad());
    }
    Ok(Lengths::Log { lo, hi })
}

fn length_file(text: &str) -> Result<Vec<usize>, String> {
    let mut lengths = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let x = t.parse::<usize>().ok().filter(|&x| x <= i32::MAX as usize).ok_or_else(|| {
            format!(
                "line {}: {t:?} is not a length (a whole number of bytes, 0 to 2147483647)",
                n + 1
            )
        })?;
        lengths.push(x);
    }
    if lengths.is_empty() {
        return Err("it holds no length".into());
    }
    Ok(lengths)
}

/// Refuses a run whose buffers exceed `-mem` or a count MPI cannot express (guide §7.1:
/// the per-process demand is that of the largest length on the largest process count).
fn check_memory<K>(suite: &Table<K>, o: &Options, np: usize) -> Result<(), String> {
    let mut worst = (0usize, "", 0usize, 0usize);
    for &i in &o.benchmarks {
        let b = &suite.benchmarks[i];
        let o = &o.for_benchmark(b.has_root);
        let xmax = o.lengths_for(b.unit).into_iter().max().unwrap_or(0);
        for q in counts_for(b.class, suite.settings.single_q, np, o.npmin) {
            let (send, recv) = (b.memory)(q, xmax, o.most_repetitions(xmax, q));
            if send.max(recv) > i32::MAX as usize {
                return Err(format!(
                    "{}: length {xmax} on {q} processes needs a buffer of {} bytes, beyond the \
                     MPI count range (2147483647)",
                    b.name,
                    send.max(recv)
                ));
            }
            // -off_cache: the buffers span their repetitions' offsets.
            let spread = |len: usize| match o.off_cache {
                Some(c) => c.spread(len, o.most_repetitions(xmax, q)).bytes(len),
                None => len,
            };
            let (send, recv) = (spread(send), spread(recv));
            if send + recv > worst.0 {
                worst = (send + recv, b.name, q, xmax);
            }
        }
    }
    if let Some(gb) = o.mem {
        let allowed = gb * (1u64 << 30) as f64;
        let (need, name, q, x) = worst;
        if need as f64 > allowed {
            return Err(format!(
                "-mem {gb} is too small: {name} on {q} processes needs {:.1} MiB of message \
                 buffers per process at length {x} (guide §7.1), more than {:.1} MiB",
                need as f64 / (1u64 << 20) as f64,
                allowed / (1u64 << 20) as f64
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::Spread;
    use crate::settings::FLOAT;
    use crate::table::{Benchmark, General};

    #[test]
    fn help_gives_back_every_option_as_written() {
        assert_eq!(about(&TEST).help_misreads(), None);
    }

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    const fn bench(
        name: &'static str,
        class: Class,
        unit: usize,
        memory: fn(usize, usize, usize) -> (usize, usize),
    ) -> Benchmark<()> {
        Benchmark {
            name,
            class,
            n_msg: 0,
            unit,
            has_bytes: true,
            modes: &[Mode::Plain],
            overlap: false,
            default: true,
            has_root: false,
            memory,
            kernel: (),
        }
    }

    /// A suite with some of IMB-MPI1's benchmarks, for the parser.
    const TEST: Table<()> = Table {
        name: "IMB-TEST",
        what: "test benchmarks",
        edition: Edition::V3,
        timed: "the test patterns",
        reported: "their times",
        settings: crate::settings::MESSAGE_PASSING,
        benchmarks: &[
            bench("PingPong", Class::SingleTransfer, 1, |_, x, _| (x, x)),
            bench("PingPing", Class::SingleTransfer, 1, |_, x, _| (x, x)),
            bench("Sendrecv", Class::ParallelTransfer, 1, |_, x, _| (x, x)),
            bench("Exchange", Class::ParallelTransfer, 1, |_, x, _| (x, 2 * x)),
            bench("Bcast", Class::Collective, 1, |_, x, _| (x, x)).rooted(),
            bench("Alltoall", Class::Collective, 1, |q, x, _| (q * x, q * x)),
            bench("Allreduce", Class::Collective, 4, |_, x, _| (x, x)),
            bench("Barrier", Class::Collective, 1, |_, _, _| (0, 0)),
        ],
        windows: false,
        io: false,
        general: General::ALL,
        inert: General::NONE,
        refuse_unrunnable: false,
        shape: |_, _| Some(String::new()),
    };

    #[test]
    fn off_cache_moves_each_repetitions_buffer_as_intels_rule() {
        let c = OffCache::DEFAULT;
        // 4 MiB: offset 65537 lines of 64 bytes; (16 MiB + offset - 1) / offset = 4.
        let big = c.spread(4 << 20, 10);
        assert_eq!(big, Spread { offset: 4_194_368, cycle: 4 });
        assert_eq!([0, 1, 3, 4, 5].map(|i| big.at(i)), [0, 4_194_368, 12_583_104, 0, 4_194_368]);
        assert_eq!(big.bytes(4 << 20), 4 * 4_194_368);
        // Small messages: one line apart, as many as the repetitions.
        assert_eq!(c.spread(0, 1000), Spread { offset: 64, cycle: 1000 });
        assert_eq!(c.spread(1000, 1000), Spread { offset: 1088, cycle: 1000 });
        assert_eq!(c.spread(1000, 1000).bytes(1000), 1_088_000);
        let custom = OffCache { size_mib: 2.5, line: 128 };
        assert_eq!(custom.spread(1 << 20, 1000), Spread { offset: 1_048_704, cycle: 5 });
        assert_eq!(OffCache { size_mib: 0.0, line: 64 }.spread(8, 1000), Spread::NONE);
        let o = |a: &str| parse(&args(a), 2, no_files).map(|o| o.off_cache);
        assert_eq!(o("-off_cache -1"), Ok(Some(OffCache::DEFAULT)));
        assert_eq!(o("-off_cache 16,128"), Ok(Some(OffCache { size_mib: 16.0, line: 128 })));
        assert_eq!(o("-off_cache 2.5"), Ok(Some(OffCache { size_mib: 2.5, line: 64 })));
        assert_eq!(o(""), Ok(None));
        for bad in ["-off_cache x", "-off_cache 16,0", "-off_cache 16,66"] {
            assert!(o(bad).unwrap_err().contains("takes size[,line]"), "{bad}");
        }
    }

    #[test]
    fn general_options_keep_imb_3_0s_defaults_and_zero_size_off_drops_length_0() {
        let o = parse(&[], 2, no_files).unwrap();
        assert!(o.zero_size && o.warm_up && o.root_shift && !o.sync && !o.imb_barrier);
        assert!(!o.estimate, "IMB 3.0 makes no repetition estimate");
        assert!(!o.alloc_mem, "IMB 3.0 takes its buffers from malloc");
        assert_eq!(o.lengths_for(1)[..3], [0, 1, 2]);
        let line = "-zero_size off -root_shift off -sync on -warm_up 0 -estimate on -alloc_mem on";
        let o = parse(&args(line), 2, no_files).unwrap();
        assert!(o.estimate && o.alloc_mem);
        assert_eq!(o.lengths_for(1)[..2], [1, 2]);
        assert_eq!(o.lengths_for(4)[..2], [4, 8], "reductions start at a float");
        assert!(!o.root_shift && o.sync && !o.warm_up);
        let e = parse(&args("-sync maybe"), 2, no_files).unwrap_err();
        assert!(e.starts_with("-sync maybe"), "{e}");
    }

    #[test]
    fn data_types_set_the_elements_and_lengths_are_whole_elements() {
        let o = parse(&args("-data_type double -red_data_type int"), 2, no_files).unwrap();
        assert_eq!((o.element(1), o.element(FLOAT)), (Element::Double, Element::Int));
        assert_eq!(o.lengths_for(1)[..4], [0, 8, 16, 32], "transfers in doubles");
        assert_eq!(o.lengths_for(FLOAT)[..3], [0, 4, 8], "sums of ints");
        let o = parse(&args("-msglog 0:1"), 2, no_files).unwrap();
        assert_eq!(o.lengths_for(FLOAT), [0], "MAXMSG = floor(2 / 4) x 4 = 0, as Intel's");
        assert_eq!(o.lengths_for(1), [0, 1, 2]);
        let o =
            parse(&args("-data_type char -red_data_type double -contig_type base"), 2, no_files);
        assert_eq!(o.unwrap().lengths_for(FLOAT)[..2], [0, 8]);
        let err = |a: &str| parse(&args(a), 2, no_files).unwrap_err();
        assert!(err("-data_type float16").contains("MPIX_C_FLOAT16"));
        assert!(err("-red_data_type byte").starts_with("-red_data_type byte: takes char, int"));
        assert!(err("-contig_type resize").contains("takes base"));
        assert!(err("-data_type double -off_cache 1,12").contains("a multiple of 8"));
        let list = |_: &str| Ok("8\n10\n".to_string());
        let e = parse(&args("-data_type int -msglen l"), 2, list).unwrap_err();
        assert!(e.contains("length 10 is not a whole number of -data_type int"), "{e}");
        assert!(parse(&args("-data_type double -msglen l"), 2, list).is_err());
        assert!(parse(&args("-msglen l"), 2, list).is_ok(), "bytes take any length");
    }

    fn parse(
        a: &[String],
        np: usize,
        read: impl Fn(&str) -> std::io::Result<String>,
    ) -> Result<Options, String> {
        let line = Line::read(a.to_vec(), &flags(&TEST), read);
        super::parse(&TEST, &line, np).map(|o| o.expect("no -h"))
    }

    const BENCHMARKS: &[Benchmark<()>] = TEST.benchmarks;

    fn no_files(_: &str) -> std::io::Result<String> {
        Err(std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory"))
    }

    #[test]
    fn defaults_select_everything_in_table_order() {
        let o = parse(&[], 4, no_files).unwrap();
        assert_eq!(o.benchmarks, (0..BENCHMARKS.len()).collect::<Vec<_>>());
        assert_eq!((o.npmin, o.multi, o.per_sample, o.check), (2, None, 1000, false));
        assert_eq!(o.lengths, Lengths::Log { lo: 0, hi: 22 });
    }

    #[test]
    fn names_are_case_insensitive_and_options_go_anywhere() {
        let o = parse(&args("barrier -npmin 3 PINGPONG -multi 1 allreduce -map 2x2"), 4, no_files)
            .unwrap();
        let names: Vec<_> = o.benchmarks.iter().map(|&i| BENCHMARKS[i].name).collect();
        assert_eq!(names, ["PingPong", "Allreduce", "Barrier"]);
        assert_eq!((o.npmin, o.multi, o.map), (3, Some(1), Some((2, 2))));
    }

    #[test]
    fn files_give_benchmarks_and_lengths() {
        let read = |f: &str| match f {
            "sel" => Ok("# comment\nSendrecv\n\n#Barrier\nbcast\n".to_string()),
            "len" => Ok("0\n100\n  1000 \n".to_string()),
            _ => no_files(f),
        };
        let o = parse(&args("-input sel -msglen len"), 2, read).unwrap();
        let names: Vec<_> = o.benchmarks.iter().map(|&i| BENCHMARKS[i].name).collect();
        assert_eq!(names, ["Sendrecv", "Bcast"]);
        assert_eq!(o.lengths, Lengths::List(vec![0, 100, 1000]));
    }

    #[test]
    fn bad_input_is_named() {
        let read = |f: &str| match f {
            "neg" => Ok("0\n-5\n".to_string()),
            "sel" => Ok("PingPang\n".to_string()),
            _ => no_files(f),
        };
        let err = |a: &str, np| parse(&args(a), np, read).unwrap_err();
        assert!(err("Pingpang", 2).contains("valid names: PingPong, PingPing"));
        assert!(err("-dir /tmp", 2).contains("unknown option \"-dir\""), "only IMB-IO has -dir");
        assert!(err("-npmin 0", 2).contains("-npmin 0: takes a whole number >= 1"));
        assert!(err("-npmin two", 2).contains("-npmin two: takes"));
        assert!(err("-multi 2", 2).contains("-multi 2: takes 0 or 1"));
        assert!(err("-msglen nofile", 2).contains("-msglen nofile: cannot read it"));
        assert!(err("-msglen neg", 2).contains("line 2: \"-5\" is not a length"));
        assert!(err("-input sel", 2).contains("line 1: unknown benchmark \"PingPang\""));
        assert!(err("-map 2x3", 4).contains("-map 2x3 needs 6 processes, this run has 4"));
        assert!(err("-map 2by2", 4).contains("-map 2by2: takes PxQ"));
        assert!(err("-mem 0.001", 4).contains("-mem 0.001 is too small: Alltoall on 4 processes"));
        assert!(err("-npmin", 2).contains("-npmin needs a value"));
        assert!(err("-fast", 2).contains("unknown option \"-fast\""));
        assert!(err("-msglog 5:3", 2).contains("-msglog 5:3: takes"));
    }

    #[test]
    fn windows_run_on_even_counts() {
        let rate = |np, npmin| counts_for(Class::MessageRate, 2, np, npmin);
        assert_eq!(rate(2, 2), [2]);
        assert_eq!(rate(3, 2), [2]);
        assert_eq!(rate(6, 2), [2, 4, 6]);
        assert_eq!(rate(7, 3), [4, 6]);
        assert_eq!(rate(1, 2), Vec::<usize>::new());
    }

    #[test]
    fn iter_takes_todays_forms() {
        let o = parse(&args("-iter 1000,40"), 2, no_files).unwrap();
        assert_eq!(
            (o.per_sample, o.overall_vol, o.iter_policy),
            (1000, 40 << 20, IterPolicy::Dynamic)
        );
        let o = parse(&args("-iter 200,4,10,off"), 2, no_files).unwrap();
        assert_eq!((o.per_sample, o.overall_vol, o.msgs_nonaggr), (200, 4 << 20, 10));
        assert_eq!(o.iter_policy, IterPolicy::Off);
        let o = parse(&args("-iter 50 -iter_policy multiple_np"), 2, no_files).unwrap();
        assert_eq!((o.per_sample, o.iter_policy), (50, IterPolicy::MultipleNp));
        for bad in
            ["-iter 0", "-iter 10,x", "-iter 1,2,3,4,5", "-iter 5,1,1,never", "-iter_policy x"]
        {
            assert!(parse(&args(bad), 2, no_files).is_err(), "{bad}");
        }
    }

    #[test]
    fn iter_policies_count_as_todays_imb() {
        let reps = |line: &str, has_root: bool, mode: Mode, x: usize, q: usize| {
            let o = parse(&args(line), 4, no_files).unwrap().for_benchmark(has_root);
            (o.repetitions(mode, x, q), o.adapts())
        };
        let (agg, nonagg) = (Mode::Aggregate, Mode::NonAggregate);
        // dynamic: the volume rule, MSGS_NONAGGR in non-aggregate mode; estimate and -time.
        assert_eq!(reps("", true, agg, 1 << 20, 2), (40, true));
        assert_eq!(reps("", false, nonagg, 4, 2), (100, true));
        // off: MSGSPERSAMPLE at every length and in every mode, as Intel's IMB-EXT prints.
        assert_eq!(reps("-iter_policy off", false, nonagg, 1 << 22, 2), (1000, false));
        // multiple_np: a multiple of the process count, to 2^max_msg_log (-msglog's).
        assert_eq!(reps("-iter_policy multiple_np", false, agg, 1 << 22, 2), (332, false));
        assert_eq!(reps("-iter_policy multiple_np", false, nonagg, 1 << 22, 3), (249, false));
        assert_eq!(
            reps("-iter_policy multiple_np -msglog 0:20", false, agg, 1 << 20, 2),
            (332, false)
        );
        // auto: multiple_np where the suite marks the benchmark rooted, else dynamic.
        assert_eq!(reps("-iter_policy auto", true, agg, 1 << 22, 2), (332, false));
        assert_eq!(reps("-iter_policy auto", false, agg, 1 << 22, 2), (10, true));
        let o = parse(&args("-iter_policy auto"), 2, no_files).unwrap();
        let rooted = |name: &str| TEST.benchmarks.iter().any(|b| b.name == name && b.has_root);
        assert!(rooted("Bcast") && !rooted("Allreduce"));
        assert_eq!(o.repetitions(agg, 1 << 22, 2), 10, "unresolved auto counts as dynamic");
    }

    #[test]
    fn memory_follows_section_7_1() {
        // Alltoall on 4 at 4 MiB: 2 x 4 x 4 MiB = 32 MiB; 0.03125 GB is exactly that.
        assert!(parse(&args("-mem 0.03125"), 4, no_files).is_ok());
        assert!(parse(&args("-mem 0.031"), 4, no_files).is_err());
        assert!(parse(&args("-mem 0.001 -msglog 10"), 4, no_files).is_ok());
    }
}
