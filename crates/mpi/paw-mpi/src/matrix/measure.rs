//! The map's measurements among the nodes: bandwidth by mpiGraph's shifts, latency by the
//! rounds of a tournament, a pair both ways for the retest; each figure the median of its
//! samples.

use super::map;
use super::report::Settings;
use crate::send_pingpong;
use mpi_ext::batch::Batch;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_core::{buffer, Buffer};

/// The median over `samples` of `run`'s time (it gets the start, returns its time), each
/// run after a barrier of the nodes, after one untimed run (which opens the connections).
fn median_time(comm: &SimpleCommunicator, samples: u64, mut run: impl FnMut(f64) -> f64) -> f64 {
    let times: Vec<f64> = (0..=samples)
        .map(|_| {
            comm.barrier();
            run(paw_core::mpi::time())
        })
        .collect();
    paw_core::median(&times[1..])
}

/// A node's buffers and request storage for windows of messages.
struct Windows {
    send: Buffer,
    recv: Buffer,
    sends: Batch,
    recvs: Batch,
}

impl Windows {
    fn new(s: &Settings) -> Windows {
        let (sends, recvs) = (Batch::with_capacity(s.window), Batch::with_capacity(s.window));
        Windows { send: buffer(s.size), recv: buffer(s.window * s.size), sends, recvs }
    }

    /// MB/s into this node over the median sample (collective over the nodes):
    /// MATRIX_WINDOW MPI_Isend to node `to` and as many MPI_Irecv from node `from`, each
    /// where given, timed to the end of the receives; NaN without `from`.
    fn bandwidth(
        &mut self,
        comm: &SimpleCommunicator,
        s: &Settings,
        to: Option<usize>,
        from: Option<usize>,
    ) -> f64 {
        let Windows { send, recv, sends, recvs } = self;
        let t = median_time(comm, s.samples, |start| {
            // The receives' time: the closure's value before the sends are waited for.
            sends.run(|snd| {
                if let Some(to) = to {
                    let to = comm.process_at_rank(to as i32);
                    (0..s.window).for_each(|_| snd.isend(&to, &send[..], 0));
                }
                if let Some(from) = from {
                    let from = comm.process_at_rank(from as i32);
                    let slots = recv.chunks_exact_mut(s.size);
                    recvs.run(|r| slots.for_each(|b| r.irecv(&from, b, 0)));
                }
                paw_core::mpi::time() - start
            })
        });
        match from {
            Some(_) => (s.window * s.size) as f64 / t / paw_core::MB,
            None => f64::NAN,
        }
    }
}

/// One-way latency to `pair`'s node over the median sample, usec (collective over the
/// nodes): MATRIX_LAT_ITERS round trips, the node that sends first named by `pair`'s flag;
/// NaN without a pair (the node waits).
fn latency_to(comm: &SimpleCommunicator, s: &Settings, pair: Option<(usize, bool)>) -> f64 {
    let (ping, mut pong) = (buffer(s.lat_size), buffer(s.lat_size));
    let t = median_time(comm, s.samples, |start| {
        let Some((p, first)) = pair else { return 0.0 };
        let partner = comm.process_at_rank(p as i32);
        (0..s.iters).for_each(|_| send_pingpong(first, &partner, &ping[..], &mut pong[..]));
        paw_core::mpi::time() - start
    });
    if pair.is_none() {
        return f64::NAN;
    }
    t / (2 * s.iters) as f64 * 1e6
}

/// Fills `bw[from]` with the bandwidth of the link from node `from` to this node, MB/s.
pub fn bandwidth(comm: &SimpleCommunicator, s: &Settings, bw: &mut [f64]) {
    let (n, me) = (bw.len(), comm.rank() as usize);
    let mut windows = Windows::new(s);
    for k in map::spread(n - 1, s.shifts).into_iter().map(|i| i + 1) {
        super::report::progress(comm, format!("bandwidth shift {k} of {}", n - 1));
        let from = (me + n - k) % n;
        bw[from] = windows.bandwidth(comm, s, Some((me + k) % n), Some(from));
    }
}

/// Fills `lat[p]` with the one-way latency between node `p` and this node, usec.
pub fn latency(comm: &SimpleCommunicator, s: &Settings, lat: &mut [f64]) {
    let me = comm.rank() as usize;
    let rounds = map::rounds(lat.len());
    for r in map::spread(rounds.len(), s.shifts) {
        let round = &rounds[r];
        super::report::progress(comm, format!("latency round {} of {}", r + 1, rounds.len()));
        let pair = map::partner(round, me);
        let t = latency_to(comm, s, pair);
        if let Some((p, _)) = pair {
            lat[p] = t;
        }
    }
}

/// A retest's part of this node: MATRIX_WINDOW messages to node `to` and from node
/// `from`, each where given, as a shift times them; the bandwidth into this node, MB/s
/// (collective over the nodes; NaN without `from`).
pub fn link(
    comm: &SimpleCommunicator,
    s: &Settings,
    to: Option<usize>,
    from: Option<usize>,
) -> f64 {
    Windows::new(s).bandwidth(comm, s, to, from)
}

/// A retest's part of this node: the latency to `partner`, usec (collective over the
/// nodes; NaN without a partner).
pub fn pair_latency(comm: &SimpleCommunicator, s: &Settings, partner: Option<usize>) -> f64 {
    let me = comm.rank() as usize;
    latency_to(comm, s, partner.map(|p| (p, me < p)))
}
