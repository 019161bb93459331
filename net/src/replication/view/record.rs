//! The bookkeeping of a [`ClientView`](super::ClientView): the [`Record`] of each instance
//! the client should hold (its confirmed epoch, its send stamps and the base of its position
//! deltas), the [`Tombstone`] of each removal to repeat until acked, and the
//! [`InFlight`] messages with what they carried ([`Sent`]).
//!
//! Invariant: a record's position base is the position of the newest acked message that
//! carried one, and a delta against it is sent only while the client's history of
//! [`POSITION_HISTORY`] positions still holds it.

use crate::wire::{POSITION_HISTORY, PositionSend};
use arbor_core::Id;

/// What a view keeps for one instance the client should hold.
#[derive(Clone, Copy, Debug)]
pub(super) struct Record {
    /// Newest epoch of an acked message carrying this instance (0: none).
    pub(super) confirmed: u32,
    /// Sequence number the record was made at; acks of older messages do not count.
    pub(super) born: u32,
    /// Sequence number of the last message it was written in (0: none): written in the
    /// message being filled when equal to its seq, earlier in this build when at or after the
    /// build's first seq.
    pub(super) written_in: u32,
    /// Hash of the state last sent (0: never sent).
    pub(super) hash_sent: u64,
    /// Whether a message carried it (if not, its first send is pending: in `fresh`, or in
    /// `waiting` when a parent was not held yet).
    pub(super) sent: bool,
    /// Whether the id sits in a ready queue.
    pub(super) queued: bool,
    /// Sent at least once and its state not confirmed by the client (counted in
    /// `ClientView::dirty_count`).
    pub(super) dirty: bool,
    /// Its distance band when it entered the view (updates queue there; a new focus or a
    /// moved unit does not re-band it: the band orders a backlog, it does not decide range).
    pub(super) band: u8,
    /// Messages written that carried its position (wrapping): the client's position history
    /// has had at most this many pushes since any base.
    pub(super) pos_sends: u16,
    /// The newest acked position, the base of its position deltas.
    pub(super) base: PositionBase,
}

/// The position of an instance in the newest acked message that carried it: what an
/// update's position can be a delta against, while the client must still remember it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PositionBase {
    /// The message's sequence number (0: none acked yet).
    pub(super) seq: u32,
    /// The position it carried.
    pub(super) position: [i32; 3],
    /// The record's `pos_sends` right after that message was written.
    pub(super) sends: u16,
}

impl PositionBase {
    /// How message `seq` writes the position, `pos_sends` sends having been made: a delta
    /// while the base is fewer than [`POSITION_HISTORY`] sends old (the client's history
    /// then still holds it).
    pub(super) fn send(&self, seq: u32, pos_sends: u16) -> PositionSend {
        let since = pos_sends.wrapping_sub(self.sends);
        if self.seq != 0 && since == 0 {
            // Nothing sent since: the client's newest position is the base.
            PositionSend::FromNewest { base: self.position }
        } else if self.seq != 0 && seq > self.seq && usize::from(since) < POSITION_HISTORY {
            PositionSend::Delta { back: seq - self.seq, base: self.position }
        } else {
            PositionSend::Whole
        }
    }
}

/// A removal to repeat until acked.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tombstone {
    pub(super) last_sent: u32,
    pub(super) born: u32,
}

/// One entry of a message in flight.
#[derive(Clone, Copy, Debug)]
pub(super) enum Sent {
    /// A state; with the position it carried and the record's `pos_sends` after it.
    State(Id, Option<([i32; 3], u16)>),
    Tombstone(Id),
}

/// A message sent and not yet acked (or presumed lost), with what it carried.
#[derive(Debug)]
pub(super) struct InFlight {
    pub(super) seq: u32,
    pub(super) epoch: u32,
    pub(super) entries: Vec<Sent>,
    pub(super) acked: bool,
}
