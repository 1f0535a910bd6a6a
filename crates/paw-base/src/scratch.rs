//! Scratch files of I/O benchmarks: registered before they are created, removed at the end
//! of the run, and also when the run is interrupted (SIGINT, SIGTERM, SIGHUP: a launcher
//! ending the job after a rank died sends SIGTERM to the others, which then remove every
//! rank's files). A file registered here must be one the benchmark creates itself.
//!
//! Open MPI 4.1's launcher may follow its SIGTERM with SIGKILL within milliseconds (2 to 3
//! ms measured, where other tasks died of the SIGTERM at once), so the files go at once, and
//! again every millisecond while a creation is still under way (an MPI_File_open stuck on a
//! dead peer may create its file late). Each process then stays a little longer than that
//! wait, still removing the files: MPICH's launcher kills every task once one has died, the
//! first to die must not cut a peer's removal short, and a peer that got no signal may
//! create its file again meanwhile.
//!
//! MPI-IO libraries may put companion files beside a file they open: Open MPI's shared file
//! pointer lock `NAME-JOBID-PID.lock` and the probe `NAME.locktest.RANK` it creates and removes
//! while the file opens, ROMIO's `.NAME.shfp.N`. They remove them on close,
//! but not when a rank is killed; companions that appear after a file is registered are
//! removed with it, those already there are left alone.

use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Whether `dir` can hold an I/O benchmark's scratch files: it exists, is a directory and
/// takes a new file (a probe `.paw-probe-<host>-<pid>` created and removed at once). `named` is
/// how the user gave it (`-p`, `-dir`, `PAW_IO_DIR=`); the error says that, the directory
/// and what is accepted. The one check of b_eff_io, IMB-IO and posix_io; call it on every
/// rank (a directory may be local to a node).
pub fn check_dir(dir: &Path, named: &str) -> Result<(), String> {
    let accepted = "accepted: an existing, writable directory";
    let shown = format!("{named}{:?}", dir.display().to_string());
    match std::fs::metadata(dir) {
        Err(_) => Err(format!("{shown}: no such directory; {accepted}")),
        Ok(m) if !m.is_dir() => Err(format!("{shown}: not a directory; {accepted}")),
        Ok(_) => {
            let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
            let probe = dir.join(format!(".paw-probe-{}-{}", host.trim(), std::process::id()));
            match std::fs::File::options().write(true).create_new(true).open(&probe) {
                Ok(_) => {
                    let _ = std::fs::remove_file(&probe);
                    Ok(())
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
                Err(e) => Err(format!("{shown}: not writable ({e}); {accepted}")),
            }
        }
    }
}

/// A registered file and the companions its directory held when it was registered.
struct Scratch {
    path: PathBuf,
    before: HashSet<OsString>,
}

fn files() -> &'static Mutex<Vec<Scratch>> {
    static FILES: OnceLock<Mutex<Vec<Scratch>>> = OnceLock::new();
    FILES.get_or_init(|| Mutex::new(Vec::new()))
}

/// Registers `paths` for removal at the end of the run or on an interrupting signal.
pub fn register(paths: impl IntoIterator<Item = PathBuf>) {
    let new: Vec<Scratch> =
        paths.into_iter().map(|path| Scratch { before: companions(&path), path }).collect();
    files().lock().unwrap_or_else(|p| p.into_inner()).extend(new);
    static HANDLER: OnceLock<()> = OnceLock::new();
    HANDLER.get_or_init(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        crate::process::at_exit(|_| remove_all());
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        // With SIGKILL milliseconds away, the signal must not wait for the main thread,
        // which may sit in a long file system call (unlinking a large file), so the main
        // thread blocks these signals and this thread takes them.
        set_mask(libc::SIG_BLOCK);
        std::thread::Builder::new()
            .name("paw-scratch".into())
            .spawn(move || {
                set_mask(libc::SIG_UNBLOCK);
                if let Some(sig) = signals.forever().next() {
                    let since = std::time::Instant::now();
                    // Held until the process ends: no new write step starts, and no file is
                    // created after the removal (a creation under way is waited for).
                    let _no_more = step_lock().lock().unwrap_or_else(|p| p.into_inner());
                    // The files held open until the process ends (see remove).
                    let mut held = sweep();
                    let _no_creation =
                        wait_for(create_lock(), CREATION_WAIT, || held.extend(sweep()));
                    held.extend(sweep());
                    // A peer may still be creating a file (a collective open's creator is
                    // its rank 0), and a launcher kills every task once one has died: stay
                    // until the peers' creations have had their time, removing what they
                    // create meanwhile (a peer that got no signal goes on with its work).
                    while since.elapsed() < LINGER {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                        held.extend(sweep());
                    }
                    // Die of the signal, as without the handler.
                    let _ = signal_hook::low_level::emulate_default_handler(sig);
                    std::process::exit(128 + sig);
                }
            })
            .expect("cannot start the signal thread");
    });
}

/// Runs `f` as one step that an interrupting signal does not cut: the signal thread waits
/// for it before it removes the scratch files and ends the process. For writes that must
/// be whole (a row in a `.dat` file and its CSV twin, the run record and its rename).
pub fn undivided<R>(f: impl FnOnce() -> R) -> R {
    let _held = step_lock().lock().unwrap_or_else(|p| p.into_inner());
    f()
}

fn step_lock() -> &'static Mutex<()> {
    static STEP: Mutex<()> = Mutex::new(());
    &STEP
}

/// Runs `f`, which may create a registered file (an MPI_File_open with MPI_MODE_CREATE),
/// so that no creation outlives an interrupting signal's removal: while a creation is under
/// way the signal thread removes the files again every millisecond until it ends (at most
/// [`CREATION_WAIT`], in case it hangs on a dead peer), and a later one waits for the
/// process to end.
pub fn creating<R>(f: impl FnOnce() -> R) -> R {
    let _held = create_lock().lock().unwrap_or_else(|p| p.into_inner());
    f()
}

/// How long the signal thread keeps removing the files while a creation is under way.
pub const CREATION_WAIT: std::time::Duration = std::time::Duration::from_millis(200);

/// How long after an interrupting signal a process stays at the least, so that its peers'
/// signal threads remove what their creations left before a launcher kills them.
const LINGER: std::time::Duration = std::time::Duration::from_millis(300);

fn create_lock() -> &'static Mutex<()> {
    static CREATE: Mutex<()> = Mutex::new(());
    &CREATE
}

/// `lock` taken within `limit`, or None; `meanwhile` runs every millisecond it is held.
fn wait_for(
    lock: &Mutex<()>,
    limit: std::time::Duration,
    mut meanwhile: impl FnMut(),
) -> Option<std::sync::MutexGuard<'_, ()>> {
    let start = std::time::Instant::now();
    loop {
        match lock.try_lock() {
            Ok(guard) => return Some(guard),
            Err(std::sync::TryLockError::Poisoned(p)) => return Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) if start.elapsed() < limit => {
                std::thread::sleep(std::time::Duration::from_millis(1));
                meanwhile();
            }
            Err(std::sync::TryLockError::WouldBlock) => return None,
        }
    }
}

/// Blocks or unblocks (`how`) SIGINT, SIGTERM and SIGHUP in the calling thread.
fn set_mask(how: libc::c_int) {
    // SAFETY: an empty set filled by sigemptyset/sigaddset, then pthread_sigmask on the
    // calling thread; no memory is shared.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, sig);
        }
        libc::pthread_sigmask(how, &set, std::ptr::null_mut());
    }
}

/// Removes every registered file that exists (a missing one is no error) and the companions
/// that appeared beside it since it was registered.
pub fn remove_all() {
    let registered: Vec<Scratch> =
        files().lock().unwrap_or_else(|p| p.into_inner()).drain(..).collect();
    drop(remove(&registered));
}

/// Removes every registered file that exists and its new companions, keeping them
/// registered (a creation under way may bring them back). The removed files, still open.
fn sweep() -> Vec<std::fs::File> {
    remove(files().lock().unwrap_or_else(|p| p.into_inner()).iter())
}

/// Removes each file and the companions that appeared beside it since it was registered.
/// Each file is held open while its name goes: the last unlink of a closed file frees its
/// blocks inside the call (about a second for 4 GB on ext4 here), time in which a launcher's
/// SIGKILL ends the process with the other names still there; held open, every name goes at
/// once and the blocks are freed when the files close, also in a killed process. The files
/// it held, still open.
#[must_use]
fn remove<'a>(files: impl IntoIterator<Item = &'a Scratch>) -> Vec<std::fs::File> {
    let files: Vec<&Scratch> = files.into_iter().collect();
    let held = files.iter().filter_map(|f| std::fs::File::open(&f.path).ok()).collect();
    for file in files {
        let _ = std::fs::remove_file(&file.path);
        let dir = file.path.parent().unwrap_or(Path::new("."));
        for name in companions(&file.path).difference(&file.before) {
            let _ = std::fs::remove_file(dir.join(name));
        }
    }
    held
}

/// The names in `path`'s directory that an MPI-IO library may create for it.
fn companions(path: &Path) -> HashSet<OsString> {
    let (Some(name), dir) = (path.file_name(), path.parent()) else {
        return HashSet::new();
    };
    let name = name.to_string_lossy();
    let dir = match dir {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return HashSet::new();
    };
    entries
        .flatten()
        .map(|e| e.file_name())
        .filter(|e| is_companion(&name, &e.to_string_lossy()))
        .collect()
}

/// Whether `entry` is Open MPI's `NAME-JOBID-PID.lock` or `NAME.locktest.RANK`, or ROMIO's
/// `.NAME.shfp.N`, for `name`.
fn is_companion(name: &str, entry: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let lock = entry
        .strip_prefix(name)
        .and_then(|r| r.strip_prefix('-'))
        .and_then(|r| r.strip_suffix(".lock"))
        .and_then(|r| r.split_once('-'))
        .is_some_and(|(job, pid)| digits(job) && digits(pid));
    let probe =
        entry.strip_prefix(name).and_then(|r| r.strip_prefix(".locktest.")).is_some_and(digits);
    let shfp = entry
        .strip_prefix('.')
        .and_then(|r| r.strip_prefix(name))
        .and_then(|r| r.strip_prefix(".shfp."))
        .is_some_and(digits);
    lock || probe || shfp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn companions_are_named_exactly() {
        assert!(is_companion("IMB_out", "IMB_out-1306263553-8486.lock"));
        assert!(is_companion("IMB_out", ".IMB_out.shfp.42"));
        assert!(is_companion("IMB_out", "IMB_out.locktest.1"));
        for other in [
            "IMB_out",
            "IMB_out_1",
            "IMB_out_1-1-2.lock",
            "IMB_out-1-2.lock.bak",
            "IMB_out-x-2.lock",
            "IMB_out--2.lock",
            "IMB_out-12.lock",
            ".IMB_out.shfp.",
            ".IMB_out_g0.shfp.1",
            "IMB_out.locktest.",
            "IMB_out_1.locktest.0",
        ] {
            assert!(!is_companion("IMB_out", other), "{other}");
        }
    }

    #[test]
    fn the_signal_side_waits_for_a_creation_but_not_for_ever() {
        let lock = Mutex::new(());
        let (taken, release) = (std::sync::Barrier::new(2), std::sync::Barrier::new(2));
        std::thread::scope(|s| {
            s.spawn(|| {
                let _held = lock.lock().unwrap();
                taken.wait();
                std::thread::sleep(std::time::Duration::from_millis(30));
                drop(_held);
                release.wait();
            });
            taken.wait();
            let start = std::time::Instant::now();
            let mut passes = 0;
            assert!(wait_for(&lock, std::time::Duration::from_secs(5), || passes += 1).is_some());
            assert!(start.elapsed() >= std::time::Duration::from_millis(25));
            assert!(passes >= 1, "nothing ran while the lock was held");
            release.wait();
        });
        let _kept = lock.lock().unwrap();
        let start = std::time::Instant::now();
        assert!(wait_for(&lock, std::time::Duration::from_millis(20), || ()).is_none());
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn only_new_companions_go_with_their_file() {
        let dir = std::env::temp_dir().join(format!("paw-scratch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let old = dir.join("f-1-1.lock");
        std::fs::write(&old, "").unwrap();
        // Not the process's list: other tests register files of their own meanwhile.
        let f = Scratch { before: companions(&dir.join("f")), path: dir.join("f") };
        for name in ["f", "f-7-8.lock", ".f.shfp.3", "g-7-8.lock"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        drop(remove([&f]));
        let mut left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(left, ["f-1-1.lock", "g-7-8.lock"]);
    }
}
