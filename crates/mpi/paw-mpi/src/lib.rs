//! paw-mpi: what several MPI tests share beyond paw-core, so each `main.rs` keeps only its
//! own pattern: the two ping-pong kernels of PAW Tables 7.4 and 7.5, and the pair of
//! `<stem>_time-np_NNNN.dat` / `<stem>_bw-np_NNNN.dat` files (or `_rate`) they write.
#![warn(missing_docs)]

use paw_core::mpi::request;
use paw_core::mpi::topology::Process;
use paw_core::mpi::traits::*;
use paw_core::{Axis, Bench, DatFile, DatSpec, Error, Paw, SizeRange, World};

/// One ping-pong of PAW Table 7.5: the leader runs MPI_Send then MPI_Recv, its partner
/// MPI_Recv then MPI_Send.
#[inline]
pub fn send_pingpong(leader: bool, partner: &Process<'_>, send: &[u8], recv: &mut [u8]) {
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
pub fn isend_pingpong(leader: bool, partner: &Process<'_>, send: &[u8], recv: &mut [u8]) {
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

/// The second file of a point-to-point test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Second {
    /// `<stem>_bw-np_NNNN.dat`: bandwidth in MB/s (MB = 2^20 B), described by the label.
    Bandwidth(&'static str),
    /// `<stem>_rate-np_NNNN.dat`: messages per second, described by the label.
    Rate(&'static str),
}

/// Creates `<stem>_time-np_NNNN.dat` (time in usec, echoed as the summary) and the second
/// file, both headed by `notes` (the timed calls and formulas).
pub fn time_and_second(
    paw: &Paw,
    bench: &Bench<'_, World>,
    stem: &str,
    time_label: &str,
    second: Second,
    notes: &[&str],
) -> paw_core::Result<(DatFile, DatFile)> {
    files(paw, bench, stem, time_label, second, notes, vec![])
}

/// Creates the files of a collective test: `<stem>_time-np_NNNN.dat` with two extra
/// columns, TASK_MIN and TASK_MAX (medians over the repetitions of the fastest and the
/// slowest task's time, in usec, so the spread between tasks is visible), and
/// `<stem>_bw-np_NNNN.dat`.
pub fn collective_files(
    paw: &Paw,
    bench: &Bench<'_, World>,
    stem: &str,
    bandwidth: &'static str,
    notes: &[&str],
) -> paw_core::Result<(DatFile, DatFile)> {
    let mut notes = notes.to_vec();
    notes.push(
        "TASK_MIN, TASK_MAX: medians over the repetitions of the minimum and the maximum over \
         tasks of the time per call, usec",
    );
    files(paw, bench, stem, "time per call", Second::Bandwidth(bandwidth), &notes, SPREAD.to_vec())
}

/// The extra columns of a collective's time file.
pub const SPREAD: [&str; 2] = ["TASK_MIN", "TASK_MAX"];

fn files(
    paw: &Paw,
    bench: &Bench<'_, World>,
    stem: &str,
    time_label: &str,
    second: Second,
    notes: &[&str],
    extra: Vec<&'static str>,
) -> paw_core::Result<(DatFile, DatFile)> {
    let notes: Vec<String> = notes.iter().map(|n| n.to_string()).collect();
    let size = Axis::new("message size", "bytes");
    let time = paw.dat(
        bench,
        DatSpec {
            file: paw.np_file(&format!("{stem}_time")),
            x: size.clone(),
            y: Axis::new(time_label, "usec"),
            notes: notes.clone(),
            echo: true,
            extra,
        },
    )?;
    let (file, y) = match second {
        Second::Bandwidth(label) => ("bw", Axis::new(label, "MB/s (MB = 2^20 B)")),
        Second::Rate(label) => ("rate", Axis::new(label, "messages/s")),
    };
    let other = paw.dat(
        bench,
        DatSpec {
            file: paw.np_file(&format!("{stem}_{file}")),
            x: size,
            y,
            notes,
            echo: false,
            extra: vec![],
        },
    )?;
    Ok((time, other))
}

/// Most bytes of receive buffers a message-rate test may hold per task.
pub const RECEIVE_LIMIT: u64 = 1 << 34;

/// WINDOW_SIZE (PAW Table 3.1: messages in flight, default 128), refused when a task would
/// need more than [`RECEIVE_LIMIT`] bytes of receive buffers (one per message in flight, of
/// MAX_P2P_SIZE bytes each). Collective: read on rank 0 and shared.
pub fn window_size(paw: &Paw, sizes: &SizeRange) -> paw_core::Result<usize> {
    let ws = paw.knob("WINDOW_SIZE", 128, 1..=65536)?;
    let held = ws * sizes.max;
    if held > RECEIVE_LIMIT {
        return Err(Error::input(format!(
            "WINDOW_SIZE x MAX_P2P_SIZE = {ws} x {} = {held} bytes of receive buffers per task; \
             accepted: at most {RECEIVE_LIMIT} (16 GiB)",
            sizes.max
        )));
    }
    Ok(ws as usize)
}
