//! A cluster of hosts on this machine (`scripts/netns-cluster`: network namespaces on a
//! bridge, 198.18.0.0/24), brought up for a test and removed when dropped, also when the
//! test fails.

use crate::binaries::workspace;
use crate::launch::{launch_lock, Launch};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// Hosts that exist while this value lives.
#[derive(Debug)]
pub struct Cluster {
    prefix: String,
    hosts: usize,
}

impl Cluster {
    /// Brings up `hosts` hosts, their sending rate limited to `rate` (tc's syntax, e.g.
    /// `400mbit`) if given; says why it cannot when this machine lacks root, `ip` or `tc`.
    /// Panics when the script fails where it should work.
    pub fn up(hosts: usize, rate: Option<&str>) -> Result<Cluster, String> {
        Cluster::up_with_slow(hosts, rate, &[])
    }

    /// [`Cluster::up`], each host of `slow` (`(host number from 1, rate)`) with a slower
    /// link both ways (netns-cluster's `--slow`).
    pub fn up_with_slow(
        hosts: usize,
        rate: Option<&str>,
        slow: &[(usize, &str)],
    ) -> Result<Cluster, String> {
        Cluster::up_with(hosts, rate, slow, &[], &[])
    }

    /// [`Cluster::up_with_slow`], and each link of `links` (`(from, to, rate)`, host
    /// numbers from 1) limited one way (netns-cluster's `--slow-link`; `link` changes it),
    /// and `more` arguments to `up` (`--queue 100ms`, `--burst 16kb`).
    pub fn up_with(
        hosts: usize,
        rate: Option<&str>,
        slow: &[(usize, &str)],
        links: &[(usize, usize, &str)],
        more: &[&str],
    ) -> Result<Cluster, String> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Err("network namespaces need root".into());
        }
        for tool in ["ip", "tc", "nsenter", "unshare"] {
            let found = Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .output()
                .is_ok_and(|o| o.status.success());
            if !found {
                return Err(format!(
                    "'{tool}' is not installed (scripts/install-deps installs it)"
                ));
            }
        }
        // A name of this process and call, so that no cluster of a user's is touched.
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let prefix = format!("t{}{}", base36(std::process::id()), base36(n));
        let cluster = Cluster { prefix, hosts };
        let mut args = vec!["up".to_string(), hosts.to_string()];
        if let Some(rate) = rate {
            args.extend(["--rate".to_string(), rate.to_string()]);
        }
        for (host, rate) in slow {
            args.extend(["--slow".to_string(), host.to_string(), rate.to_string()]);
        }
        for (from, to, rate) in links {
            args.extend(["--slow-link".into(), from.to_string(), to.to_string(), rate.to_string()]);
        }
        args.extend(more.iter().map(|a| a.to_string()));
        // Exclusive, as a launch: making namespaces and links stalls a measurement's TCP
        // (Intel MPI's bidirectional 4 MiB exchange lost a fifth of the link to another
        // test's cluster coming up).
        let lock = launch_lock(false);
        let out = cluster.script_command().args(&args).output().expect("run netns-cluster");
        drop(lock);
        assert!(
            out.status.success(),
            "netns-cluster up failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        Ok(cluster)
    }

    /// `program` on `np` tasks across the hosts, `slots` tasks per host (filled in order),
    /// the launcher given `launcher_args` as well.
    pub fn launch(
        &self,
        program: impl AsRef<Path>,
        np: usize,
        slots: usize,
        launcher_args: &[&str],
    ) -> Launch {
        let mut via = vec![script().display().to_string(), "run".into(), "--slots".into()];
        via.push(slots.to_string());
        via.extend(launcher_args.iter().map(|a| a.to_string()));
        Launch::mpi(program, np).via(via).env("NETNS_CLUSTER", &self.prefix)
    }

    /// The name host `i` (1-based) reports.
    pub fn host_name(&self, i: usize) -> String {
        assert!((1..=self.hosts).contains(&i), "host {i} of {}", self.hosts);
        format!("{}-h{i}", self.prefix)
    }

    /// The cluster's name (`NETNS_CLUSTER`).
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// A command running `scripts/netns-cluster` for this cluster.
    pub fn script_command(&self) -> Command {
        let mut c = Command::new(script());
        c.env("NETNS_CLUSTER", &self.prefix);
        c
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let lock = launch_lock(false);
        let out = self.script_command().arg("down").output();
        drop(lock);
        if !out.as_ref().is_ok_and(|o| o.status.success()) {
            eprintln!("netns-cluster down failed for {}: {out:?}", self.prefix);
        }
    }
}

/// The script.
pub fn script() -> PathBuf {
    workspace().join("scripts/netns-cluster")
}

/// TCP goodput in bytes per second of a link limited to `bits_per_s` at the Ethernet layer:
/// each full frame of 1514 bytes (1500 MTU + 14 header) carries 1448 bytes of payload (1500
/// minus 20 IP, 20 TCP and 12 timestamp option bytes).
pub fn tcp_goodput(bits_per_s: f64) -> f64 {
    bits_per_s / 8.0 * 1448.0 / 1514.0
}

fn base36(mut n: u32) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut s = Vec::new();
    loop {
        s.push(digits[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    s.reverse();
    String::from_utf8(s).expect("ascii")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_and_plain() {
        assert_eq!(base36(0), "0");
        assert_eq!(base36(35), "z");
        assert_eq!(base36(36), "10");
        // The largest pid (2^22) and a few calls stay within the script's 8 characters.
        assert!(format!("t{}{}", base36(1 << 22), base36(99)).len() <= 8);
    }

    #[test]
    fn goodput_of_400_mbit() {
        assert!((tcp_goodput(400e6) - 47.82e6).abs() < 0.01e6);
    }
}
