//! IMB-P2P -- today's Intel MPI Benchmarks' point-to-point patterns on every process at
//! once, as a drop-in executable: `mpirun -np P IMB-P2P [benchmark ...] [options]`.
//!
//! The driver, options and output are paw-imb's, with today's IMB's rules (Edition::V2021)
//! and IMB-P2P's repetition settings; this suite is its table of patterns (kernels/). See
//! doc/imb-p2p.md.

mod kernels;

use paw_imb::{settings, Edition, Suite};

/// The suite: today's IMB-P2P's repetition rule (at most 100 000 iterations, 800 MiB a
/// length), its own warm-up and barriers inside the kernels.
static SUITE: Suite<kernels::Pattern> = Suite {
    name: "IMB-P2P",
    what: "IMB-P2P part",
    edition: Edition::V2021,
    timed: "per benchmark and length, every process: -pause, a barrier (zero-byte MPI_Sendrecv \
            to rank + 2^k from rank - 2^k), n/10 untimed iterations, a barrier (not for \
            SendRecv_Replace), then MPI_Wtime around its own n iterations of the pattern, \
            with -msgwr and -msgrd touching the buffers inside them, -pause, a barrier.",
    reported: "per length the iterations n; with each process's time T per iteration and \
               the messages M a pattern moves per iteration over all processes (each \
               process's sends and receives, halved): t[usec] = mean T x processes / M \
               (PingPong: half of it, the one-way time); Msg/sec = M / the slowest T; \
               Mbytes/sec = Msg/sec x X.",
    settings: settings::Settings {
        msgs_per_sample: 100_000,
        overall_vol: 800 << 20,
        n_warmup: 0,
        ..settings::MESSAGE_PASSING
    },
    benchmarks: kernels::BENCHMARKS,
    windows: false,
    io: false,
    refuse_unrunnable: false,
    shape: kernels::shape,
    prologue: |_, _| Ok(String::new()),
    start: kernels::start,
};

fn main() -> std::process::ExitCode {
    paw_imb::run(&SUITE)
}
