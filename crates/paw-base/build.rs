//! Records the git revision of the checkout paw is built from (PAW_GIT_REVISION), for the
//! run record. Rebuilds when the checkout's HEAD moves; a build outside a checkout records
//! none.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let Some(git) = manifest.ancestors().map(|d| d.join(".git")).find(|g| g.is_dir()) else {
        return;
    };
    watch(&git.join("HEAD"));
    watch(&git.join("packed-refs"));
    if let Ok(head) = std::fs::read_to_string(git.join("HEAD")) {
        if let Some(reference) = head.trim().strip_prefix("ref: ") {
            watch(&git.join(reference));
        }
    }
    let revision = Command::new("git")
        .arg("-C")
        .arg(&manifest)
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    if let Some(r) = revision.filter(|r| !r.is_empty()) {
        println!("cargo:rustc-env=PAW_GIT_REVISION={r}");
    }
}

fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
