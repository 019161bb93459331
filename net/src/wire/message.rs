//! The wire messages: server snapshots (unreliable) and client inputs (unreliable, carrying
//! the ack); the reliable control messages are in `control`. Each has an encoder and a decoder that
//! bounds every count before it allocates.
//!
//! A snapshot message is self-contained: removals, then entries (a create carries the class
//! and every group, an update the groups that changed since the client's confirmed state;
//! an entry's mask byte lists its groups, 0 marking a create),
//! parents before children. Every message fits [`MAX_MESSAGE_BYTES`], so one UDP packet.
//!
//! Two optional hashes follow the header, each named by a bit of its flag byte: the *view
//! hash* (bit 0), sent once the client's whole view is settled, is the world hash the
//! replica must have after applying the message; the *entries hash* (bit 1), sent with
//! every message that carries an entry, is the XOR of the server's hashes
//! ([`EntityState::hash`]) of the full states, as of the message's epoch, of the instances
//! its entries name. After applying the message the replica's states of those instances
//! must hash to the same (see `replication::Replica`), so a replica is checked under
//! motion too, when its view never settles.
//!
//! Invariants: no id on the wire is 0 or at or above [`CLIENT_ID_BASE`] (client-local ids
//! never travel; the decoder refuses them); decoding arbitrary bytes returns an error, never
//! panics.

use super::codec::{DecodeError, Reader, Writer};
use super::commands::CommandWindow;
use super::component_delta::ComponentSend;
use super::position_delta::PositionSend;
use super::state::{EntityState, Groups, UpdateParts};
use arbor_core::{Class, Id, raw::CLIENT_ID_BASE};
use glam::Vec3;

/// Largest snapshot or input message, in bytes: with renet's and netcode's headers a packet
/// stays under 1,200 bytes of UDP payload.
pub const MAX_MESSAGE_BYTES: usize = 1100;

const SNAPSHOT: u8 = 1;
const INPUT: u8 = 2;

/// Snapshot flag bit: a view hash follows.
const FLAG_VIEW_HASH: u8 = 1 << 0;
/// Snapshot flag bit: an entries hash follows.
const FLAG_ENTRIES_HASH: u8 = 1 << 1;

pub(crate) fn check_id(raw: u64) -> Result<Id, DecodeError> {
    if raw == 0 || raw >= CLIENT_ID_BASE {
        return Err(DecodeError::BadValue("id outside the server range"));
    }
    Ok(Id(raw))
}

/// Builds one snapshot message entry by entry, so the caller can stop at the byte limit.
#[derive(Debug)]
pub struct SnapshotBuilder {
    seq: u32,
    epoch: u32,
    view_hash: Option<u64>,
    entries_hash: Option<u64>,
    removes: Writer,
    n_removes: u32,
    last_remove: u64,
    entries: Writer,
    n_entries: u32,
    last_id: u64,
}

/// A position in a [`SnapshotBuilder`] to roll back to.
#[derive(Clone, Copy, Debug)]
pub struct BuilderMark {
    entries: usize,
    n_entries: u32,
    last_id: u64,
}

impl SnapshotBuilder {
    /// An empty snapshot numbered `seq`, holding state as of `epoch`.
    pub fn new(seq: u32, epoch: u32) -> Self {
        Self {
            seq,
            epoch,
            view_hash: None,
            entries_hash: None,
            removes: Writer::with_capacity(32),
            n_removes: 0,
            last_remove: 0,
            entries: Writer::with_capacity(MAX_MESSAGE_BYTES),
            n_entries: 0,
            last_id: 0,
        }
    }

    /// The sequence number.
    pub fn seq(&self) -> u32 {
        self.seq
    }

    /// The epoch the state is from.
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// Says that the client's whole view is settled and hashes to `hash`.
    pub fn set_view_hash(&mut self, hash: u64) {
        self.view_hash = Some(hash);
    }

    /// Says that the full states, as of [`epoch`](Self::epoch), of the instances this
    /// message's entries name hash to `hash` (the XOR of their [`EntityState::hash`]es).
    /// Set it on every message with an entry, once its entries are final.
    pub fn set_entries_hash(&mut self, hash: u64) {
        self.entries_hash = Some(hash);
    }

    /// An upper bound of the encoded size (counting the entries hash once an entry is
    /// written, so a message filled up to [`MAX_MESSAGE_BYTES`] still fits with it).
    pub fn size(&self) -> usize {
        let entries_hash = if self.n_entries > 0 || self.entries_hash.is_some() { 8 } else { 0 };
        1 + 5 + 5 + 1 + 8 + entries_hash + 5 + 5 + self.removes.len() + self.entries.len()
    }

    /// Entries written.
    pub fn entry_count(&self) -> u32 {
        self.n_entries
    }

    /// Removals written.
    pub fn remove_count(&self) -> u32 {
        self.n_removes
    }

    /// Adds a removal (the client drops `id` and its subtree).
    pub fn push_remove(&mut self, id: Id) {
        debug_assert!(!id.is_client_local() && !id.is_none());
        self.removes.zigzag(id.0 as i64 - self.last_remove as i64);
        self.last_remove = id.0;
        self.n_removes += 1;
    }

    /// Where the entries end now.
    pub fn mark(&self) -> BuilderMark {
        BuilderMark { entries: self.entries.len(), n_entries: self.n_entries, last_id: self.last_id }
    }

    /// Drops every entry written after `mark`.
    pub fn rollback(&mut self, mark: BuilderMark) {
        self.entries.truncate(mark.entries);
        self.n_entries = mark.n_entries;
        self.last_id = mark.last_id;
    }

    /// Adds an entry for `id`: a create when `create` is set (every group), else an update
    /// of `groups` (not empty).
    pub fn push_entry(&mut self, id: Id, state: &EntityState, create: bool, groups: Groups) {
        self.push_entry_with(id, state, create, groups, PositionSend::Whole, ComponentSend::All);
    }

    /// Like [`push_entry`](Self::push_entry), with an update's position written as
    /// `position` says (a delta against a base the client holds) and its components group
    /// as `components` says (a patch of those changed since the client's confirmed epoch);
    /// a create always carries everything whole.
    pub fn push_entry_with(
        &mut self,
        id: Id,
        state: &EntityState,
        create: bool,
        groups: Groups,
        position: PositionSend,
        components: ComponentSend<'_>,
    ) {
        debug_assert!(!id.is_client_local() && !id.is_none());
        debug_assert!(create || !groups.is_empty());
        let groups = if create { Groups::ALL } else { groups };
        self.entries.zigzag(id.0 as i64 - self.last_id as i64);
        self.last_id = id.0;
        // A mask of 0 marks a create: an update always carries a group.
        self.entries.varint(if create { 0 } else { u64::from(groups.0) });
        if create {
            state.encode_class(&mut self.entries);
        }
        if create {
            state.encode(groups, &mut self.entries);
        } else {
            state.encode_with(groups, Some(position), components, &mut self.entries);
        }
        self.n_entries += 1;
    }

    /// The encoded message.
    pub fn finish(self) -> Vec<u8> {
        let mut w = Writer::with_capacity(self.size());
        w.u8(SNAPSHOT);
        w.varint(u64::from(self.seq));
        w.varint(u64::from(self.epoch));
        let flag = |h: Option<u64>, bit: u8| if h.is_some() { bit } else { 0 };
        w.u8(flag(self.view_hash, FLAG_VIEW_HASH) | flag(self.entries_hash, FLAG_ENTRIES_HASH));
        for h in [self.view_hash, self.entries_hash].into_iter().flatten() {
            w.u64(h);
        }
        w.varint(u64::from(self.n_removes));
        let mut out = w.into_vec();
        out.extend_from_slice(self.removes.as_slice());
        let mut w = Writer::default();
        w.varint(u64::from(self.n_entries));
        out.extend_from_slice(w.as_slice());
        out.extend_from_slice(self.entries.as_slice());
        out
    }
}

/// One decoded snapshot entry.
#[derive(Clone, Debug, PartialEq)]
pub struct SnapshotEntry {
    /// The instance.
    pub id: Id,
    /// Set for a create: its class (every group follows).
    pub create: Option<Class>,
    /// The groups carried.
    pub groups: Groups,
    /// A state holding the carried groups (the others are blank; for a components patch,
    /// the components too).
    pub state: EntityState,
    /// For an update: its position (when carried; a delta resolves against a base the
    /// client holds) and its components patch (when the components group is one).
    pub parts: UpdateParts,
}

/// A decoded snapshot message.
#[derive(Clone, Debug, PartialEq)]
pub struct SnapshotMessage {
    /// Sequence number (per client, from 1).
    pub seq: u32,
    /// The server's replication epoch the state is from.
    pub epoch: u32,
    /// Set when the client's whole view is settled: the hash it must have after applying.
    pub view_hash: Option<u64>,
    /// Set when the message carries an entry: the XOR of the hashes of the full states, as
    /// of [`epoch`](Self::epoch), of the instances its entries name; the replica's states of
    /// those instances must hash to the same after applying.
    pub entries_hash: Option<u64>,
    /// Instances to drop with their subtrees.
    pub removes: Vec<Id>,
    /// Creates and updates, parents first.
    pub entries: Vec<SnapshotEntry>,
}

impl SnapshotMessage {
    /// Decodes a snapshot message.
    pub fn decode(bytes: &[u8]) -> Result<SnapshotMessage, DecodeError> {
        if bytes.len() > MAX_MESSAGE_BYTES {
            return Err(DecodeError::TooLong {
                what: "snapshot",
                len: bytes.len() as u64,
                max: MAX_MESSAGE_BYTES as u64,
            });
        }
        let mut r = Reader::new(bytes);
        if r.u8()? != SNAPSHOT {
            return Err(DecodeError::BadValue("not a snapshot"));
        }
        let seq = r.varint_u32()?;
        let epoch = r.varint_u32()?;
        let flags = r.u8()?;
        if flags & !(FLAG_VIEW_HASH | FLAG_ENTRIES_HASH) != 0 {
            return Err(DecodeError::BadValue("snapshot flags"));
        }
        let view_hash = if flags & FLAG_VIEW_HASH != 0 { Some(r.u64()?) } else { None };
        let entries_hash = if flags & FLAG_ENTRIES_HASH != 0 { Some(r.u64()?) } else { None };
        let n = r.count("removes", MAX_MESSAGE_BYTES, 1)?;
        let mut removes = Vec::with_capacity(n);
        let mut last = 0i64;
        for _ in 0..n {
            last = last.checked_add(r.zigzag()?).ok_or(DecodeError::BadValue("id"))?;
            removes.push(check_id(last as u64)?);
        }
        let n = r.count("entries", MAX_MESSAGE_BYTES / 2, 2)?;
        let mut entries = Vec::with_capacity(n);
        let mut last = 0i64;
        for _ in 0..n {
            last = last.checked_add(r.zigzag()?).ok_or(DecodeError::BadValue("id"))?;
            let id = check_id(last as u64)?;
            let (create, groups) = match r.varint()? {
                0 => (Some(EntityState::decode_class(&mut r)?), Groups::ALL),
                mask if mask & !u64::from(Groups::ALL.0) != 0 => {
                    return Err(DecodeError::BadValue("group mask"));
                }
                mask => (None, Groups(mask as u16)),
            };
            let mut state = EntityState::blank(create.unwrap_or(Class::Folder));
            let parts = if create.is_some() {
                state.decode(groups, &mut r)?;
                UpdateParts::default()
            } else {
                state.decode_update(groups, &mut r)?
            };
            if groups.contains(Groups::PARENT) && state.parent != 0 {
                check_id(state.parent)?;
            }
            entries.push(SnapshotEntry { id, create, groups, state, parts });
        }
        r.finish()?;
        Ok(SnapshotMessage { seq, epoch, view_hash, entries_hash, removes, entries })
    }
}

/// What a client sends every tick: its ack and its inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Input {
    /// The newest snapshot sequence applied (0: none yet).
    pub ack: u32,
    /// Bit `i` set: snapshot `ack - 1 - i` was applied too.
    pub ack_bits: u64,
    /// Where the client wants its streaming range centred (quantised), if it says.
    pub focus: Option<[i32; 3]>,
    /// Movement intent on X and Z, -127..=127: the client's current intent, which the server
    /// applies only while the client sends no [`commands`](Self::commands).
    pub movement: [i8; 2],
    /// Buttons (bit 0: jump), as `movement`.
    pub buttons: u8,
    /// The client's newest movement commands, one per client physics step, numbered (the
    /// server applies one per tick in sequence order; `docs/networking.md`, "Prediction and
    /// reconciliation").
    pub commands: CommandWindow,
}

/// Longest input message, bytes.
const MAX_INPUT_BYTES: usize = 96;

impl Input {
    /// Encodes the input.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(32);
        w.u8(INPUT);
        w.varint(u64::from(self.ack));
        w.u64(self.ack_bits);
        match self.focus {
            Some(f) => {
                w.u8(1);
                for c in f {
                    w.zigzag(i64::from(c));
                }
            }
            None => w.u8(0),
        }
        w.u8(self.movement[0] as u8);
        w.u8(self.movement[1] as u8);
        w.u8(self.buttons);
        self.commands.encode(&mut w);
        w.into_vec()
    }

    /// Decodes an input message.
    pub fn decode(bytes: &[u8]) -> Result<Input, DecodeError> {
        if bytes.len() > MAX_INPUT_BYTES {
            return Err(DecodeError::TooLong {
                what: "input",
                len: bytes.len() as u64,
                max: MAX_INPUT_BYTES as u64,
            });
        }
        let mut r = Reader::new(bytes);
        if r.u8()? != INPUT {
            return Err(DecodeError::BadValue("not an input"));
        }
        let ack = r.varint_u32()?;
        let ack_bits = r.u64()?;
        let focus = match r.u8()? {
            0 => None,
            1 => Some([r.zigzag_i32()?, r.zigzag_i32()?, r.zigzag_i32()?]),
            _ => return Err(DecodeError::BadValue("input flags")),
        };
        let movement = [r.u8()? as i8, r.u8()? as i8];
        let buttons = r.u8()?;
        let commands = CommandWindow::decode(&mut r)?;
        r.finish()?;
        Ok(Input { ack, ack_bits, focus, movement, buttons, commands })
    }

    /// The focus as a world position.
    pub fn focus_position(&self) -> Option<Vec3> {
        self.focus.map(super::quantize::dequantize_position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{Control, InputCommand};
    use proptest::prelude::*;

    #[test]
    fn inputs_and_controls_round_trip() {
        let commands = CommandWindow::from_commands(
            (90..=99).map(|s| (s, InputCommand { movement: [s as i8, -(s as i8)], buttons: (s & 1) as u8 })),
        )
        .unwrap();
        let input = Input {
            ack: 77,
            ack_bits: 0b1011,
            focus: Some([1, -2, 3]),
            movement: [-5, 127],
            buttons: 1,
            commands,
        };
        assert_eq!(Input::decode(&input.encode()), Ok(input));
        // The largest input (a far focus, a full window of large seqs) fits the bound.
        let far =
            CommandWindow::from_commands((u32::MAX - 7..=u32::MAX).map(|s| (s, InputCommand::default())));
        let big = Input {
            ack: u32::MAX,
            focus: Some([i32::MIN, i32::MAX, i32::MIN]),
            commands: far.unwrap(),
            ..input
        };
        assert!(big.encode().len() <= MAX_INPUT_BYTES, "{} bytes", big.encode().len());
        assert_eq!(Input::decode(&big.encode()), Ok(big));
        // An input without its command window (the format before it) is refused.
        let old = &input.encode()[..input.encode().len() - 2 - 3 * 8];
        assert!(Input::decode(old).is_err());
        for c in [
            Control::Welcome { user_id: 9, radius: 1024.0, network_every: 2 },
            Control::Kick { reason: "bye".into() },
            Control::Character { id: Some(Id(77)) },
            Control::Character { id: None },
        ] {
            assert_eq!(Control::decode(&c.encode()), Ok(c));
        }
    }

    #[test]
    fn a_snapshot_round_trips_and_refuses_client_ids() {
        let mut b = SnapshotBuilder::new(5, 3);
        b.push_remove(Id(40));
        b.push_remove(Id(7));
        let mut s = EntityState::blank(Class::Part);
        s.parent = 2;
        s.name = "P".into();
        b.push_entry(Id(12), &s, true, Groups::ALL);
        b.push_entry(Id(10), &s, false, Groups::NAME);
        b.set_view_hash(99);
        let bytes = b.finish();
        let snap = SnapshotMessage::decode(&bytes).unwrap();
        assert_eq!((snap.seq, snap.epoch, snap.view_hash), (5, 3, Some(99)));
        assert_eq!(snap.removes, vec![Id(40), Id(7)]);
        assert_eq!(snap.entries[0].create, Some(Class::Part));
        assert_eq!(snap.entries[0].state, s);
        assert_eq!((snap.entries[1].id, snap.entries[1].groups), (Id(10), Groups::NAME));

        let mut b = SnapshotBuilder::new(1, 1);
        b.removes.zigzag(CLIENT_ID_BASE as i64);
        b.n_removes = 1;
        assert!(SnapshotMessage::decode(&b.finish()).is_err());
    }

    /// A message with one removal and two entries, with the hashes asked for.
    fn hashed_message(view_hash: Option<u64>, entries_hash: Option<u64>) -> Vec<u8> {
        let mut b = SnapshotBuilder::new(300, 200);
        b.push_remove(Id(9));
        let mut s = EntityState::blank(Class::Part);
        s.parent = 2;
        s.name = "Crate".into();
        b.push_entry(Id(12), &s, true, Groups::ALL);
        b.push_entry(Id(14), &s, false, Groups::POSITION);
        if let Some(h) = view_hash {
            b.set_view_hash(h);
        }
        if let Some(h) = entries_hash {
            b.set_entries_hash(h);
        }
        let size = b.size();
        let bytes = b.finish();
        assert!(bytes.len() <= size, "{} bytes, bound {size}", bytes.len());
        bytes
    }

    #[test]
    fn the_entries_hash_round_trips_with_or_without_the_view_hash_in_eight_bytes() {
        let bare = hashed_message(None, None).len();
        for (view, entries) in [
            (None, Some(0xdead_beef_0bad_f00d)),
            (Some(7), Some(u64::MAX)),
            (Some(0), None),
            (None, Some(0)),
            (None, None),
        ] {
            let bytes = hashed_message(view, entries);
            let snap = SnapshotMessage::decode(&bytes).unwrap();
            assert_eq!((snap.view_hash, snap.entries_hash), (view, entries));
            assert_eq!((snap.seq, snap.epoch), (300, 200));
            assert_eq!(snap.removes, vec![Id(9)]);
            assert_eq!(snap.entries.len(), 2);
            let hashes = usize::from(view.is_some()) + usize::from(entries.is_some());
            assert_eq!(bytes.len(), bare + 8 * hashes);
        }
        // The flag byte (after tag, seq and epoch: 1 + 2 + 2 bytes) names the hashes.
        let bytes = hashed_message(Some(1), Some(2));
        assert_eq!(bytes[5], FLAG_VIEW_HASH | FLAG_ENTRIES_HASH);
    }

    #[test]
    fn a_snapshot_with_both_hashes_cut_anywhere_or_with_unknown_flags_is_refused() {
        let bytes = hashed_message(Some(11), Some(22));
        for cut in 0..bytes.len() {
            assert!(SnapshotMessage::decode(&bytes[..cut]).is_err(), "cut at {cut} of {}", bytes.len());
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(SnapshotMessage::decode(&longer), Err(DecodeError::Trailing(1)));
        for flags in [4u8, 8, 0x80, 0xff, FLAG_ENTRIES_HASH | 4] {
            let mut bad = bytes.clone();
            bad[5] = flags;
            assert_eq!(
                SnapshotMessage::decode(&bad),
                Err(DecodeError::BadValue("snapshot flags")),
                "{flags:#x}"
            );
        }
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic_a_decoder(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = SnapshotMessage::decode(&bytes);
            if let Ok(input) = Input::decode(&bytes) {
                prop_assert_eq!(Input::decode(&input.encode()), Ok(input));
            }
            let _ = Control::decode(&bytes);
        }

        #[test]
        fn truncating_a_snapshot_is_an_error(cut in 0usize..40) {
            let mut b = SnapshotBuilder::new(5, 3);
            b.push_remove(Id(3));
            b.push_entry(Id(12), &EntityState::blank(Class::Part), true, Groups::ALL);
            b.set_entries_hash(0x0123_4567_89ab_cdef);
            let bytes = b.finish();
            prop_assume!(cut < bytes.len());
            prop_assert!(SnapshotMessage::decode(&bytes[..cut]).is_err());
        }
    }
}
