//! What the pair tests share: the two ping-pong kernels of PAW Tables 7.4 and 7.5, the
//! ping-pong test around them, the pair of files they write and what the data check checks.

use crate::Sweep;
use mpi_ext::region::{Bytes, BytesMut};
use paw_core::mpi::datatype::{Buffer, BufferMut};
use paw_core::mpi::request;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::{Extra, Files, Second, SweepFiles};
use paw_core::{Paw, Timing};

/// What the point-to-point tests check with PAW_CHECK=1.
pub const PAIR_CHECK: &str = "one more transfer of a pattern set by the sender's rank, the size \
                              and a sequence number; every receiver compares each byte it got";

/// One ping-pong of PAW Table 7.5: the leader runs MPI_Send then MPI_Recv, its partner
/// MPI_Recv then MPI_Send.
#[inline]
pub fn send_pingpong<S, R>(leader: bool, partner: &Process<'_>, send: &S, recv: &mut R)
where
    S: Buffer + ?Sized,
    R: BufferMut + ?Sized,
{
    if leader {
        partner.send(send);
        partner.receive_into(recv);
    } else {
        partner.receive_into(recv);
        partner.send(send);
    }
}

/// One ping-pong of PAW Table 7.4: the leader runs MPI_Isend, MPI_Wait, MPI_Irecv,
/// MPI_Wait; its partner MPI_Irecv, MPI_Wait, MPI_Isend, MPI_Wait.
#[inline]
pub fn isend_pingpong<S, R>(leader: bool, partner: &Process<'_>, send: &S, recv: &mut R)
where
    S: Buffer + ?Sized,
    R: BufferMut + ?Sized,
{
    request::scope(|scope| {
        if leader {
            partner.immediate_send(scope, send).wait_without_status();
            partner.immediate_receive_into(scope, recv).wait_without_status();
        } else {
            partner.immediate_receive_into(scope, recv).wait_without_status();
            partner.immediate_send(scope, send).wait_without_status();
        }
    })
}

/// Runs the ping-pong test `spec` describes with `kernel(leader, partner, send, recv)`
/// ([`send_pingpong`] or [`isend_pingpong`]) between each task and its partner.
pub fn pingpong(
    spec: &'static paw_core::Spec,
    kernel: impl Fn(bool, &Process<'_>, Bytes<'_>, BytesMut<'_>),
) -> std::process::ExitCode {
    paw_core::main(spec.name, || {
        let paw = Paw::init(spec)?;
        let sweep = Sweep::new(&paw, Timing::Batch { ops_per_iter: 2.0 })?;
        let pair = paw.pair();
        let partner = paw.world().process_at_rank(pair.partner);
        sweep.run_pair(true, |send, recv| kernel(pair.leader, &partner, send, recv))
    })
}

/// The two files of a pair test: `<stem>_time` (`time`, usec) and `<stem>_bw` (`bandwidth`,
/// MB/s), without spread columns.
pub const fn pair_files(stem: &'static str, time: &'static str, bandwidth: &'static str) -> Files {
    Files::Sweep(SweepFiles {
        stem,
        time,
        second: Second::Bandwidth(bandwidth),
        extra: Extra::Plain,
    })
}
