//! The two message-rate pair tests of PAW 1.6 §7.7.4-7.7.5 (p2p_mrate, p2p_mrate_bidir):
//! windows of WINDOW_SIZE messages in flight per pair, one way or both ways at once. A main
//! is one line, [`mrate_main!`](crate::mrate_main), which makes its Spec and calls [`main`].

use crate::window::{one_receive_buffer, window_size};
use crate::{Bytes, BytesMut, Sweep};
use mpi_ext::batch::Batch;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::{check, Paw, Spec, Timing};

/// A message-rate test's SPEC and `main`: `mrate_main!(one_way|both_ways, name, PAW
/// section, file stem)`.
#[macro_export]
macro_rules! mrate_main {
    ($way:ident, $name:literal, $section:literal, $stem:literal) => {
        $crate::spec_main!(
            $crate::pair_spec!(
                $name,
                concat!(
                    "message rate with WINDOW_SIZE messages in flight",
                    $crate::mrate_main!(@title $way),
                    " (PAW 1.6 section ",
                    $section,
                    ")"
                ),
                concat!(
                    "Task i pairs with task i + n/2 (PAW Fig. 7.1). Per sample: NLOOP windows; \
                     in each, tasks 0..n/2-1 post ",
                    $crate::mrate_main!(@timed $way),
                    " Sizes MIN_P2P_SIZE, doubling, to MAX_P2P_SIZE; ",
                    $crate::mrate_main!(@held $way),
                    " bytes",
                    $crate::mrate_main!(@buffers $way),
                    "."
                ),
                concat!(
                    "time per message = sample / (NLOOP x ",
                    $crate::mrate_main!(@reports $way),
                    "aggregate message rate of the n/2 pairs = n/2 / time per message, \
                     messages/s; aggregate bandwidth = SIZE x that rate, MB/s (MB = 2^20 B)."
                ),
                Max,
                [::paw_core::vars::WINDOW, ::paw_core::vars::P2P_SWEEP, ::paw_core::vars::MEASURE,
                 ::paw_core::vars::COMBINE, ::paw_core::vars::BUFFER, ::paw_core::vars::CHECK],
                ::paw_core::Files::Sweep(::paw_core::SweepFiles {
                    stem: $stem,
                    time: "time per message",
                    second: ::paw_core::Second::RateAndBandwidth(
                        "aggregate message rate of n/2 pairs",
                        "aggregate bandwidth of n/2 pairs",
                    ),
                    extra: ::paw_core::Extra::Plain,
                }),
                &[
                    ::paw_core::headline::TIME,
                    ::paw_core::headline::RATE,
                    ::paw_core::headline::BANDWIDTH,
                ]
            ),
            |spec| $crate::message_rate::main(spec, $crate::mrate_main!(@both $way))
        );
    };
    (@title one_way) => { ", one direction" };
    (@title both_ways) => { " each way" };
    (@timed one_way) => {
        "WINDOW_SIZE MPI_Isend and tasks n/2..n-1 WINDOW_SIZE MPI_Irecv (into distinct \
         buffers; with RECV_BUFFERS=one all into one, as osu_bw), then both MPI_Waitall \
         (PAW Table 7.14)."
    };
    (@timed both_ways) => {
        "WINDOW_SIZE x (MPI_Isend, MPI_Irecv), tasks n/2..n-1 WINDOW_SIZE x (MPI_Irecv, \
         MPI_Isend) (the receives into distinct buffers; with RECV_BUFFERS=one into one, as \
         osu_bibw), then both MPI_Waitall (PAW Table 7.15)."
    };
    (@held one_way) => { "receivers hold WINDOW_SIZE (RECV_BUFFERS=one: 1) x MAX_P2P_SIZE" };
    (@held both_ways) => { "each task holds WINDOW_SIZE (RECV_BUFFERS=one: 1) x MAX_P2P_SIZE" };
    (@buffers one_way) => { "" };
    (@buffers both_ways) => { " of receive buffers" };
    (@reports one_way) => {
        "WINDOW_SIZE), usec, {ranks} (senders can run ahead of delivery); "
    };
    (@reports both_ways) => { "2 x WINDOW_SIZE), usec, {ranks}; " };
    (@both one_way) => { false };
    (@both both_ways) => { true };
}

/// Runs the test `spec` describes, one way or `both_ways`; with PAW_CHECK=1 one more window
/// of the pair pattern, each receive slot compared.
pub fn main(spec: &'static Spec, both_ways: bool) -> std::process::ExitCode {
    paw_core::main(spec.name, || {
        let paw = Paw::init(spec)?;
        let sizes = Sweep::sizes(&paw)?;
        let one = one_receive_buffer(&paw)?;
        let ws = window_size(&paw, &sizes, one)?;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        // Receive slots: every task's both ways, the receivers' one way.
        let receives = both_ways || !pair.leader;
        let slots = if !receives {
            0
        } else if one {
            1
        } else {
            ws
        };
        let per_window = if both_ways { 2 * ws } else { ws };
        let timing = Timing::Batch { ops_per_iter: per_window as f64 };
        let each = if both_ways { " and direction" } else { "" };
        let into = if one { "one buffer (RECV_BUFFERS=one)" } else { "a buffer each" };
        let note =
            format!("WINDOW_SIZE = {ws} messages in flight per pair{each}, received into {into}");
        let sweep = Sweep::start(&paw, sizes, timing, &[&note])?.scaled((paw.size() / 2) as f64);
        let memory = sweep.memory();
        let max = sweep.range().max as usize;
        let mut state =
            (memory.alloc(max)?, memory.alloc(slots * max)?, Batch::with_capacity(per_window));
        let window = Window { leader: pair.leader, peer: &partner, ws, both_ways, one };
        sweep.run(
            &mut state,
            |(send, recv, batch), n| window.run(batch, send.at(n), recv.at_mut(slots * n)),
            |(send, recv, batch), p| {
                send.write(p.n, |s| check::fill(s, paw.rank(), p.size, p.seq));
                window.run(batch, send.at(p.n), recv.at_mut(slots * p.n));
                check::slots(&recv.read(slots * p.n), p.n, pair.partner, p.size, p.seq)
            },
        )
    })
}

/// One window of a pair.
struct Window<'a> {
    leader: bool,
    peer: &'a Process<'a>,
    ws: usize,
    both_ways: bool,
    one: bool,
}

impl Window<'_> {
    /// Every send from the same buffer, every receive into its own slot of `slots` (or, with
    /// `one`, into the one slot): one way, the leader's WINDOW_SIZE MPI_Isend against its
    /// partner's MPI_Irecv; both ways, each task's WINDOW_SIZE (MPI_Isend, MPI_Irecv) pairs,
    /// the partner's receive first (with `one`, its receives all posted first).
    fn run(&self, batch: &mut Batch, send: Bytes<'_>, mut slots: BytesMut<'_>) {
        let (leader, peer) = (self.leader, self.peer);
        batch.run(|b| {
            if !self.both_ways && leader {
                for _ in 0..self.ws {
                    b.isend_bytes(peer, send, 0);
                }
                return;
            }
            if self.one {
                if let Some(slot) = slots.slots(send.len()).next() {
                    b.irecv_bytes_window(peer, slot, self.ws, 0);
                }
                if self.both_ways {
                    for _ in 0..self.ws {
                        b.isend_bytes(peer, send, 0);
                    }
                }
                return;
            }
            for slot in slots.slots(send.len()) {
                match (self.both_ways, leader) {
                    (true, true) => {
                        b.isend_bytes(peer, send, 0);
                        b.irecv_bytes(peer, slot, 0);
                    }
                    (true, false) => {
                        b.irecv_bytes(peer, slot, 0);
                        b.isend_bytes(peer, send, 0);
                    }
                    _ => b.irecv_bytes(peer, slot, 0),
                }
            }
        })
    }
}
