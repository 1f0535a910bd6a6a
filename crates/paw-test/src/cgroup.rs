//! A CPU-throttled control group for making a host slow in a test: cgroup v2's `cpu.max`
//! where the cpu controller is on the unified hierarchy, else cgroup v1's CFS quota. It is
//! removed when dropped, also when the test fails.

use std::path::{Path, PathBuf};

/// A control group whose processes together get at most a fraction of one CPU.
#[derive(Debug)]
pub struct Throttle {
    dir: PathBuf,
    parent_procs: PathBuf,
}

impl Throttle {
    /// A new group limited to `fraction` (at most 1) of one CPU, with the shortest period
    /// the kernel takes (quota at least 1 ms), so that even a sample of a few milliseconds
    /// sees the limit. Needs root.
    pub fn new(fraction: f64) -> Result<Throttle, String> {
        let name = format!("paw-test-slow-{}", std::process::id());
        let quota = 1000u64;
        let period = (quota as f64 / fraction.clamp(0.01, 1.0)).round() as u64;
        let v2 = Path::new("/sys/fs/cgroup");
        let v1 = Path::new("/sys/fs/cgroup/cpu");
        let controllers =
            std::fs::read_to_string(v2.join("cgroup.subtree_control")).unwrap_or_default();
        let (root, files) = if controllers.split_whitespace().any(|c| c == "cpu") {
            (v2, vec![("cpu.max", format!("{quota} {period}"))])
        } else if v1.join("cpu.cfs_quota_us").exists() {
            (
                v1,
                vec![
                    ("cpu.cfs_period_us", period.to_string()),
                    ("cpu.cfs_quota_us", quota.to_string()),
                ],
            )
        } else {
            return Err(
                "no cgroup with the cpu controller (v2 cpu.max or v1 cpu.cfs_quota_us)".into()
            );
        };
        let dir = root.join(name);
        std::fs::create_dir(&dir).map_err(|e| format!("{}: {e} (needs root)", dir.display()))?;
        let throttle = Throttle { dir, parent_procs: root.join("cgroup.procs") };
        for (file, value) in files {
            std::fs::write(throttle.dir.join(file), &value)
                .map_err(|e| format!("{}/{file} = {value}: {e}", throttle.dir.display()))?;
        }
        Ok(throttle)
    }

    /// The file a process writes its pid into to join the group.
    pub fn procs(&self) -> PathBuf {
        self.dir.join("cgroup.procs")
    }
}

impl Drop for Throttle {
    fn drop(&mut self) {
        // Whatever is left in the group goes back to the parent; then the group goes.
        let left = std::fs::read_to_string(self.procs()).unwrap_or_default();
        for pid in left.split_whitespace() {
            let _ = std::fs::write(&self.parent_procs, pid);
        }
        if let Err(e) = std::fs::remove_dir(&self.dir) {
            eprintln!("cannot remove {}: {e}", self.dir.display());
        }
    }
}
