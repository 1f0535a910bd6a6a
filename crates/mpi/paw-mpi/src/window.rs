//! Messages in flight: WINDOW_SIZE held to the receive buffers a task may hold, and
//! RECV_BUFFERS (a buffer per message, or OSU's one).

use paw_core::{vars, Error, Paw, SizeRange};

/// Most bytes of receive buffers a message-rate test may hold per task.
pub const RECEIVE_LIMIT: u64 = 1 << 34;

/// WINDOW_SIZE (PAW Table 3.1: messages in flight, default 128), refused when a task would
/// need more than [`RECEIVE_LIMIT`] bytes of receive buffers (one per message in flight, of
/// MAX_P2P_SIZE bytes each, or with `one_buffer` one for all). Collective: read on rank 0
/// and shared.
pub fn window_size(paw: &Paw, sizes: &SizeRange, one_buffer: bool) -> paw_core::Result<usize> {
    let ws = paw.knob(&vars::WINDOW_SIZE)?;
    let held = if one_buffer { sizes.max } else { ws * sizes.max };
    if held > RECEIVE_LIMIT {
        return Err(Error::input(format!(
            "WINDOW_SIZE x MAX_P2P_SIZE = {ws} x {} = {held} bytes of receive buffers per task; \
             accepted: at most {RECEIVE_LIMIT} (16 GiB), or RECV_BUFFERS=one where it is read",
            sizes.max
        )));
    }
    Ok(ws as usize)
}

/// RECV_BUFFERS: whether a window's receives all go into one buffer (`one`, as osu_bw and
/// osu_bibw post them) rather than each into its own (`each`, the default). Collective.
pub fn one_receive_buffer(paw: &Paw) -> paw_core::Result<bool> {
    match paw.text(&vars::RECV_BUFFERS).as_deref() {
        None | Some("each") => Ok(false),
        Some("one") => Ok(true),
        Some(other) => Err(Error::input(format!(
            "RECV_BUFFERS={other:?} is not a choice; accepted: each (a buffer per message in \
             flight) or one (every receive into one buffer, as osu_bw)"
        ))),
    }
}
