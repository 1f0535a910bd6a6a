//! A small file system for tests of a full disk: a tmpfs of a few pages mounted on a
//! temporary directory (root only), unmounted and removed when dropped, also when the
//! test fails.

use std::path::Path;
use std::process::Command;
use tempfile::TempDir;

/// A mounted tmpfs of a fixed size.
#[derive(Debug)]
pub struct SmallDisk {
    dir: TempDir,
}

impl SmallDisk {
    /// Mounts a tmpfs of `kib` KiB, or says why it cannot (not root, no mount).
    pub fn mount(kib: u32) -> Result<SmallDisk, String> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Err("mounting a small tmpfs needs root".into());
        }
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k,mode=0777"), "paw-small-disk"])
            .arg(dir.path())
            .output()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if !out.status.success() {
            return Err(format!("mount failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
        }
        Ok(SmallDisk { dir })
    }

    /// Makes it read-only (remount), for tests of a directory nobody may write.
    pub fn read_only(&self) -> Result<(), String> {
        let out = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(self.dir.path())
            .output()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if !out.status.success() {
            return Err(format!("remount failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
        }
        Ok(())
    }

    /// Where it is mounted.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}
