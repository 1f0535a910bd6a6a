//! The rayon constructs whose overhead is timed, and the serial delay each runs.

use paw_base::schema::sweep::MEDIAN;
use paw_base::{Headline, Pick};
use rayon::prelude::*;
use std::hint::black_box;

/// What users quote: the parallel for's overhead in a pool of one thread.
pub const HEADLINE: Headline =
    Headline::new("rayon_par_for", "par_for overhead at {x} threads", Pick::First, MEDIAN);

/// A construct run in a pool of T threads with the delay.
pub type Construct = fn(&rayon::ThreadPool, usize, u64);

/// The constructs timed: name, the code run, the construct.
pub const CONSTRUCTS: &[(&str, &str, Construct)] = &[
    ("par_for", "(0..T).into_par_iter().for_each(delay)", |pool, t, d| {
        pool.install(|| (0..t).into_par_iter().for_each(|_| delay(d)))
    }),
    ("join", "rayon::join(delay, delay)", |pool, _, d| {
        pool.install(|| rayon::join(|| delay(d), || delay(d)));
    }),
    ("scope", "scope with T x spawn(delay)", |pool, t, d| {
        pool.scope(|s| {
            for _ in 0..t {
                s.spawn(move |_| delay(d));
            }
        })
    }),
    ("reduction", "(0..T).into_par_iter().map(delay; 1).sum()", |pool, t, d| {
        let n: usize = pool.install(|| {
            (0..t)
                .into_par_iter()
                .map(|_| {
                    delay(d);
                    1
                })
                .sum()
        });
        black_box(n);
    }),
];

/// Busy work of `iterations` dependent steps (no memory traffic, not optimised away).
pub fn delay(iterations: u64) {
    let mut x = 1u64;
    for i in 0..iterations {
        x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
    }
    black_box(x);
}

/// Delay-loop iterations that take about `delay_ns` nanoseconds here (untimed probe).
pub fn iterations_for(delay_ns: u64) -> u64 {
    let probe = 1_000_000u64;
    let start = std::time::Instant::now();
    delay(probe);
    let per_iteration = start.elapsed().as_secs_f64() / probe as f64;
    ((delay_ns as f64 * 1e-9) / per_iteration).round().max(1.0) as u64
}
