//! The map's measurements among the nodes: bandwidth by mpiGraph's shifts, latency by the
//! rounds of a tournament, each link's figure the median of its samples.

use crate::map;
use crate::report::Settings;
use mpi_ext::batch::Batch;
use paw_core::buffer;
use paw_core::mpi::topology::SimpleCommunicator;
use paw_core::mpi::traits::*;
use paw_mpi::send_pingpong;

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

/// Fills `bw[from]` with the bandwidth of the link from node `from` to this node, MB/s.
pub fn bandwidth(comm: &SimpleCommunicator, s: &Settings, bw: &mut [f64]) {
    let (n, me, size, window) = (bw.len(), comm.rank() as usize, s.size, s.window);
    let (send, mut recv) = (buffer(size), buffer(window * size));
    let (mut sends, mut recvs) = (Batch::with_capacity(window), Batch::with_capacity(window));
    for k in 1..n {
        paw_core::watchdog::step(format!("bandwidth shift {k} of {}", n - 1));
        let from = (me + n - k) % n;
        let to_p = comm.process_at_rank(((me + k) % n) as i32);
        let from_p = comm.process_at_rank(from as i32);
        // The receives' time: the closure's value before the sends are waited for.
        let t = median_time(comm, s.samples, |start| {
            sends.run(|snd| {
                (0..window).for_each(|_| snd.isend(&to_p, &send[..], 0));
                let slots = recv.chunks_exact_mut(size);
                recvs.run(|r| slots.for_each(|b| r.irecv(&from_p, b, 0)));
                paw_core::mpi::time() - start
            })
        });
        bw[from] = (window * size) as f64 / t / paw_core::MB;
    }
}

/// Fills `lat[p]` with the one-way latency between node `p` and this node, usec.
pub fn latency(comm: &SimpleCommunicator, s: &Settings, lat: &mut [f64]) {
    let (me, iters) = (comm.rank() as usize, s.iters);
    let (ping, mut pong) = (buffer(s.lat_size), buffer(s.lat_size));
    let rounds = map::rounds(lat.len());
    for (r, round) in rounds.iter().enumerate() {
        paw_core::watchdog::step(format!("latency round {} of {}", r + 1, rounds.len()));
        let pair = map::partner(round, me);
        let t = median_time(comm, s.samples, |start| {
            if let Some((p, first)) = pair {
                let partner = comm.process_at_rank(p as i32);
                (0..iters).for_each(|_| send_pingpong(first, &partner, &ping, &mut pong));
            }
            paw_core::mpi::time() - start
        });
        if let Some((p, _)) = pair {
            lat[p] = t / (2 * iters) as f64 * 1e6;
        }
    }
}
