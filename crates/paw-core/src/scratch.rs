//! Scratch files of I/O benchmarks: registered before they are created, removed at the end
//! of the run, and also when the run is interrupted (SIGINT, SIGTERM, SIGHUP: a launcher
//! ending the job after a rank died sends SIGTERM to the others, which then remove every
//! rank's files). A file registered here must be one the benchmark creates itself.

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

fn files() -> &'static Mutex<Vec<PathBuf>> {
    static FILES: OnceLock<Mutex<Vec<PathBuf>>> = OnceLock::new();
    FILES.get_or_init(|| Mutex::new(Vec::new()))
}

/// Registers `paths` for removal at the end of the run or on an interrupting signal.
pub fn register(paths: impl IntoIterator<Item = PathBuf>) {
    files().lock().unwrap_or_else(|p| p.into_inner()).extend(paths);
    static HANDLER: OnceLock<()> = OnceLock::new();
    HANDLER.get_or_init(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        crate::process::at_exit(|_| remove_all());
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::Builder::new()
            .name("paw-scratch".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    remove_all();
                    // Die of the signal, as without the handler.
                    let _ = signal_hook::low_level::emulate_default_handler(sig);
                    std::process::exit(128 + sig);
                }
            })
            .expect("cannot start the signal thread");
    });
}

/// Removes every registered file that exists (a missing one is no error).
pub fn remove_all() {
    for path in files().lock().unwrap_or_else(|p| p.into_inner()).drain(..) {
        let _ = std::fs::remove_file(path);
    }
}
