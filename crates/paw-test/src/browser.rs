//! A real browser for tests: Debian's Chromium, headless, installed when missing (as root on
//! Debian, with apt-get, as the test's set-up). A page is loaded from its file and what the
//! browser made of it comes back: the document after loading and every image's decoded width.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";

/// The browser, installed if missing; Err says why there is none (the test then skips).
pub fn chromium() -> Result<PathBuf, String> {
    let path = PathBuf::from(CHROMIUM);
    if path.exists() {
        return Ok(path);
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 || !Path::new("/etc/debian_version").exists() {
        return Err(format!("{CHROMIUM} is missing and only root on Debian installs it here"));
    }
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let install = ["install", "-y", "-q", "chromium"];
    let installed = apt(&install) || (apt(&["update", "-q"]) && apt(&install));
    if !installed {
        return Err("apt-get install chromium failed".into());
    }
    Ok(path)
}

/// What the browser made of a page.
#[derive(Debug)]
pub struct Rendered {
    /// The document after loading (`--dump-dom`).
    pub dom: String,
    /// Per `<img>`, in document order, its decoded width in pixels (0: not decoded).
    pub image_widths: Vec<u32>,
    /// Per `<img>` shown, its width on a page [`WIDTH`] pixels wide (0: not shown).
    pub shown_widths: Vec<u32>,
    /// Every link's target as the browser resolved it (`file:///...`, or the page's own
    /// `#anchor`), in document order.
    pub links: Vec<String>,
}

/// The width of the browser's window, pixels.
pub const WIDTH: u32 = 1280;

/// Undoes `encodeURIComponent` (and the browser's own escapes of a file URL).
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Loads `page` (a file) in headless Chromium, in a window [`WIDTH`] pixels wide, with a
/// probe script appended to a copy of it beside it (so that its relative links resolve as
/// the page's) that records each image's decoded and shown width and every link's target;
/// at most `timeout`. The copy is removed.
pub fn render(browser: &Path, page: &Path, timeout: Duration) -> Result<Rendered, String> {
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let copy = tempfile::Builder::new()
        .prefix(".paw-probe-")
        .suffix(".html")
        .tempfile_in(page.parent().unwrap_or(Path::new(".")))
        .map_err(|e| e.to_string())?;
    let mut text = std::fs::read_to_string(page).map_err(|e| format!("{}: {e}", page.display()))?;
    text += "<script>const b = document.body, im = Array.from(document.images);\
             b.setAttribute('data-paw-images', im.map(i => i.complete ? i.naturalWidth : 0).join(','));\
             b.setAttribute('data-paw-shown', im.map(i => Math.round(i.getBoundingClientRect().width)).join(','));\
             b.setAttribute('data-paw-links', Array.from(document.links).map(a => encodeURIComponent(a.href)).join(' '));\
             </script>\n";
    std::fs::write(copy.path(), text).map_err(|e| e.to_string())?;
    let profile = scratch.path().join("profile");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--window-size={WIDTH},1000"))
        .arg("--dump-dom")
        .arg(format!("file://{}", copy.path().display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        // Its own process group: a timeout ends the renderers and helpers too.
        .process_group(0)
        .spawn()
        .map_err(|e| format!("{}: {e}", browser.display()))?;
    let mut out = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut dom = String::new();
        std::io::Read::read_to_string(&mut out, &mut dom).map(|_| dom)
    });
    let start = Instant::now();
    while child.try_wait().map_err(|e| e.to_string())?.is_none() {
        if start.elapsed() > timeout {
            // SAFETY: kill(2) of the child's own process group; no memory is involved.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            return Err(format!("the browser did not finish within {timeout:?}"));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // Helpers that outlive the browser would keep its output open: end the group.
    // SAFETY: kill(2) of the child's own process group; no memory is involved.
    unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
    let dom = reader.join().expect("reader").map_err(|e| e.to_string())?;
    let attribute = |name: &str| {
        dom.split(&format!("{name}=\"")[..])
            .nth(1)
            .and_then(|s| s.split('"').next())
            .map(String::from)
            .ok_or_else(|| format!("the probe did not run; the browser printed:\n{dom}"))
    };
    let numbers = |list: String| -> Vec<u32> {
        list.split(',').filter(|w| !w.is_empty()).map(|w| w.parse().unwrap_or(0)).collect()
    };
    let image_widths = numbers(attribute("data-paw-images")?);
    let shown_widths = numbers(attribute("data-paw-shown")?);
    let links =
        attribute("data-paw-links")?.split(' ').filter(|l| !l.is_empty()).map(decode).collect();
    Ok(Rendered { dom, image_widths, shown_widths, links })
}
