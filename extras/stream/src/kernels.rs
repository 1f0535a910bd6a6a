//! The four STREAM kernels, compiled for three instruction sets and chosen at run time from
//! the CPU's features: the binary stays portable (built for baseline x86-64 on a login node,
//! it runs on any compute node) and still uses the widest vector unit the node has.
//! STREAM_KERNEL forces a choice, e.g. the baseline on a CPU with AVX-512.

use paw_base::{Error, Node, Result, Var};

/// STREAM_KERNEL: which compiled kernels to run.
pub const KERNEL: Var = Var {
    name: "STREAM_KERNEL",
    default: "auto",
    meaning: "kernels' instruction set: auto (the widest this CPU has), avx512, avx2 or baseline",
    accepts: paw_base::vars::Accepts::Said,
};

/// One compiled set of the four kernels, each over one thread's block of the arrays.
#[derive(Debug, Clone, Copy)]
pub struct Kernels {
    /// The instruction set, as STREAM_KERNEL spells it.
    pub name: &'static str,
    /// c = a.
    pub copy: fn(c: &mut [f64], a: &[f64]),
    /// b = s c.
    pub scale: fn(b: &mut [f64], c: &[f64], s: f64),
    /// c = a + b.
    pub add: fn(c: &mut [f64], a: &[f64], b: &[f64]),
    /// a = b + s c.
    pub triad: fn(a: &mut [f64], b: &[f64], c: &[f64], s: f64),
}

/// The loops, written once; `$feature` is what they are compiled for ("" for the baseline).
macro_rules! kernels {
    ($module:ident, $name:literal $(, $feature:literal)?) => {
        mod $module {
            $(#[target_feature(enable = $feature)])?
            fn copy(c: &mut [f64], a: &[f64]) {
                for (c, a) in c.iter_mut().zip(a) {
                    *c = *a;
                }
            }
            $(#[target_feature(enable = $feature)])?
            fn scale(b: &mut [f64], c: &[f64], s: f64) {
                for (b, c) in b.iter_mut().zip(c) {
                    *b = s * c;
                }
            }
            $(#[target_feature(enable = $feature)])?
            fn add(c: &mut [f64], a: &[f64], b: &[f64]) {
                for ((c, a), b) in c.iter_mut().zip(a).zip(b) {
                    *c = a + b;
                }
            }
            $(#[target_feature(enable = $feature)])?
            fn triad(a: &mut [f64], b: &[f64], c: &[f64], s: f64) {
                for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
                    *a = b + s * c;
                }
            }

            /// The set; only handed out once the CPU is known to have the features.
            #[allow(unused_unsafe)]
            pub(super) const KERNELS: super::Kernels = super::Kernels {
                name: $name,
                // SAFETY: `available` hands this set out only on a CPU with its features.
                copy: |c, a| unsafe { copy(c, a) },
                // SAFETY: `available` hands this set out only on a CPU with its features.
                scale: |b, c, s| unsafe { scale(b, c, s) },
                // SAFETY: `available` hands this set out only on a CPU with its features.
                add: |c, a, b| unsafe { add(c, a, b) },
                // SAFETY: `available` hands this set out only on a CPU with its features.
                triad: |a, b, c, s| unsafe { triad(a, b, c, s) },
            };
        }
    };
}

#[cfg(target_arch = "x86_64")]
kernels!(avx512, "avx512", "avx512f");
#[cfg(target_arch = "x86_64")]
kernels!(avx2, "avx2", "avx2,fma");
kernels!(baseline, "baseline");

/// The sets this CPU can run, widest first (the baseline always; on a CPU other than x86-64,
/// the baseline alone: the loops as compiled for that target).
pub fn available() -> Vec<Kernels> {
    let mut sets = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            sets.push(avx512::KERNELS);
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            sets.push(avx2::KERNELS);
        }
    }
    sets.push(baseline::KERNELS);
    sets
}

/// The set STREAM_KERNEL asks for (the widest available by default), recorded in the
/// headers; a set this CPU cannot run is refused.
pub fn choose(node: &mut Node) -> Result<Kernels> {
    let sets = available();
    let asked = node.text(&KERNEL).unwrap_or_else(|| KERNEL.default.to_string());
    let chosen = match asked.trim() {
        "auto" => sets[0],
        name => match sets.iter().find(|k| k.name == name) {
            Some(k) => *k,
            None => {
                let known = ["auto", "avx512", "avx2", "baseline"];
                let accepted = known
                    .iter()
                    .filter(|n| **n == "auto" || sets.iter().any(|k| k.name == **n))
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", ");
                let why = if known.contains(&name) { "this CPU lacks it" } else { "unknown" };
                return Err(Error::input(format!(
                    "STREAM_KERNEL={name}: {why}; accepted here: {accepted}"
                )));
            }
        },
    };
    node.add_library(format!(
        "kernels: {} (of {} this CPU can run; STREAM_KERNEL)",
        chosen.name,
        sets.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
    ));
    Ok(chosen)
}
