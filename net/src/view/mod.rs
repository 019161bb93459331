//! [`ClientView`]: what one client holds of the place, and the snapshots that bring it up to
//! date. Fed once per network tick with the [`Mirror`]'s changes, it keeps a record per
//! instance the client should hold (each flagged dirty while the client has not confirmed
//! its state), and tombstones to repeat until acked; then [`ClientView::build`] fills
//! messages by priority under the client's byte budget.
//!
//! The baseline is per instance: a record's `confirmed` epoch is the newest epoch of an acked
//! message that carried it, and an update carries exactly the groups the mirror changed after
//! it. Any state the client applied since then is overwritten by those groups' current
//! values, so unconfirmed sends may be lost or duplicated without harm.
//!
//! Invariants:
//! - a record's parent has a record (or is the `DataModel`), and a create is written after
//!   its parent's create in the same message unless the parent's create is confirmed: the
//!   client never holds an orphan;
//! - every record dropped gets its own tombstone (a subtree on the server need not be the
//!   same subtree on a client whose tree lags);
//! - an instance with a pending tombstone gets no new record until the tombstone is acked
//!   (so a late removal can never hit a re-created instance);
//! - every record sent at least once with a group changed after `confirmed` is flagged
//!   `dirty`, and `dirty_count` is exactly the number of records flagged;
//! - `view_hash` is the XOR of the hashes of the states last sent for every record;
//! - streaming range with hysteresis: every unit whose cell is within the radius of the
//!   focus is held (or awaits its tombstone's ack), and no held unit's cell lies past the
//!   radius plus [`STREAMING_HYSTERESIS`].
//!
//! Work per tick follows the mirror's changes and the client's dirty records; only the first
//! update (the join: the mirror's structure and the cells in range) and a focus move to
//! another cell walk more. A focus is clamped to
//! ±[`WORLD_EXTENT`](arbor_sim::physics::WORLD_EXTENT) on every axis (a non-finite one is ignored),
//! and a refocus looks at
//! the cells in range before and after the move (one box around both ranges when they
//! overlap, the two ranges apart when they do not) or at the mirror's occupied cells,
//! whichever are fewer: never more cells than there are top parts, whatever the focus, the
//! jump or the radius (a client's focus comes off the wire, so it is untrusted).

mod range;
mod send;

use range::{CellBox, clamp_focus};

use crate::mirror::{Cell, INTEREST_CELL_SIZE, Mirror, MirrorEntity, cell_of};
use crate::position_delta::{POSITION_HISTORY, PositionSend};
use arbor_core::{Arena, Id};
use glam::Vec3;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Hysteresis of the streaming range, in studs: a unit enters a view within the radius of
/// the focus and leaves it only past the radius plus this margin, so a client walking to
/// and fro across a cell boundary does not stream the same units out and in.
pub const STREAMING_HYSTERESIS: f32 = INTEREST_CELL_SIZE;

/// Network ticks an unacked message is remembered (about 8.5 s at 30 Hz); a client that
/// acks nothing for that long gets full state again.
pub const HISTORY_EPOCHS: u32 = 256;

/// Distance bands of the send queues (upper bound in studs) and how many entries each band
/// sends per round: nearer instances are updated more often when the budget is short.
const BANDS: [(f32, usize); 4] = [(128.0, 8), (512.0, 4), (2048.0, 2), (f32::INFINITY, 1)];

/// How deep a chain of unconfirmed parents one create may pull into its message.
const MAX_PARENT_CHAIN: usize = 32;

/// Queues hold at most four times what they need and no less than this many slots (see
/// [`ClientView::trim`]).
const MIN_TRIM: usize = 1024;

#[derive(Clone, Copy, Debug)]
struct Record {
    /// Newest epoch of an acked message carrying this instance (0: none).
    confirmed: u32,
    /// Sequence number the record was made at; acks of older messages do not count.
    born: u32,
    /// Sequence number of the last message it was written in (0: none): written in the
    /// message being filled when equal to its seq, earlier in this build when at or after the
    /// build's first seq.
    written_in: u32,
    /// Hash of the state last sent (0: never sent).
    hash_sent: u64,
    /// Whether a message carried it (if not, its first send is pending: in `fresh`, or in
    /// `waiting` when a parent was not held yet).
    sent: bool,
    /// Whether the id sits in a ready queue.
    queued: bool,
    /// Sent at least once and its state not confirmed by the client (counted in
    /// `ClientView::dirty_count`).
    dirty: bool,
    /// Its distance band when it entered the view (updates queue there; a new focus or a
    /// moved unit does not re-band it: the band orders a backlog, it does not decide range).
    band: u8,
    /// Messages written that carried its position (wrapping): the client's position history
    /// has had at most this many pushes since any base.
    pos_sends: u16,
    /// The newest acked position, the base of its position deltas.
    base: PositionBase,
}

/// The position of an instance in the newest acked message that carried it: what an
/// update's position can be a delta against, while the client must still remember it.
#[derive(Clone, Copy, Debug, Default)]
struct PositionBase {
    /// The message's sequence number (0: none acked yet).
    seq: u32,
    /// The position it carried.
    position: [i32; 3],
    /// The record's `pos_sends` right after that message was written.
    sends: u16,
}

impl PositionBase {
    /// How message `seq` writes the position, `pos_sends` sends having been made: a delta
    /// while the base is fewer than [`POSITION_HISTORY`] sends old (the client's history
    /// then still holds it).
    fn send(&self, seq: u32, pos_sends: u16) -> PositionSend {
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

#[derive(Clone, Copy, Debug)]
struct Tombstone {
    last_sent: u32,
    born: u32,
}

#[derive(Clone, Copy, Debug)]
enum Sent {
    /// A state; with the position it carried and the record's `pos_sends` after it.
    State(Id, Option<([i32; 3], u16)>),
    Tombstone(Id),
}

#[derive(Debug)]
struct InFlight {
    seq: u32,
    epoch: u32,
    entries: Vec<Sent>,
    acked: bool,
}

/// Counters of one client's replication.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ViewStats {
    /// Messages built.
    pub messages: u64,
    /// Bytes of those messages.
    pub bytes: u64,
    /// Creates written.
    pub creates: u64,
    /// Updates written.
    pub updates: u64,
    /// Removals written.
    pub removes: u64,
    /// Times the client fell behind the in-flight history and got full state.
    pub resyncs: u64,
    /// Entries skipped because one alone would not fit a message (an instance whose
    /// name, attributes and unconfirmed parents pass about 1,000 bytes).
    pub oversized: u64,
    /// Focus moves to another cell carried out (each streams units in and out).
    pub refocuses: u64,
    /// Cells those refocuses looked at: per refocus, at most the mirror's occupied cells
    /// (so at most its top parts), however far the focus jumped.
    pub refocus_cells: u64,
}

/// Why a client's ack was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AckError {
    /// The client acked a message that was never sent.
    #[error("ack of snapshot {0}, which was never sent")]
    Unsent(u32),
}

/// One client's replicated view and its outgoing snapshots.
#[derive(Debug)]
pub struct ClientView {
    focus: Vec3,
    focus_cell: Cell,
    radius: f32,
    joined: bool,
    view_changed: Option<Cell>,
    records: FxHashMap<Id, Record>,
    /// Records never sent, nearest first (distance in studs when they were added): a join
    /// or a stream-in is paid once here, not rescanned every tick.
    fresh: BinaryHeap<Reverse<(u32, Id)>>,
    /// How many records are flagged `dirty`.
    dirty_count: usize,
    /// Dirty records due to be sent, by distance band, oldest first (ids may be stale:
    /// checked when taken). Taking from them costs what is sent, not what is dirty.
    ready: [VecDeque<Id>; BANDS.len()],
    /// Records sent and not yet presumed lost: `(epoch sent, id)`, oldest first.
    waiting: VecDeque<(u32, Id)>,
    tombstones: FxHashMap<Id, Tombstone>,
    awaiting: FxHashSet<Id>,
    in_flight: VecDeque<InFlight>,
    next_seq: u32,
    newest_ack: u32,
    view_hash: u64,
    stats: ViewStats,
    scan_cells: bool,
    /// Scratch for [`update`](Self::update): the changed ids it looks up.
    scratch: Vec<Id>,
}

impl ClientView {
    /// A view centred on `focus` (clamped as [`set_focus`](Self::set_focus) does; the
    /// origin if not finite) with streaming radius `radius` (studs; 0 if negative or not
    /// finite).
    pub fn new(focus: Vec3, radius: f32) -> Self {
        let focus = clamp_focus(focus).unwrap_or(Vec3::ZERO);
        Self {
            focus,
            focus_cell: cell_of(focus),
            radius: if radius.is_finite() { radius.max(0.0) } else { 0.0 },
            joined: false,
            view_changed: None,
            records: FxHashMap::default(),
            fresh: BinaryHeap::new(),
            dirty_count: 0,
            ready: Default::default(),
            waiting: VecDeque::new(),
            tombstones: FxHashMap::default(),
            awaiting: FxHashSet::default(),
            in_flight: VecDeque::new(),
            next_seq: 1,
            newest_ack: 0,
            view_hash: 0,
            stats: ViewStats::default(),
            scan_cells: false,
            scratch: Vec::new(),
        }
    }

    /// Moves the centre of the streaming range; takes effect at the next [`update`](Self::update).
    /// Each axis is clamped to ±[`WORLD_EXTENT`](arbor_sim::physics::WORLD_EXTENT) (physics
    /// simulates nothing past it); a
    /// focus with a NaN or infinite axis is ignored.
    pub fn set_focus(&mut self, focus: Vec3) {
        let Some(focus) = clamp_focus(focus) else { return };
        self.focus = focus;
        let cell = cell_of(focus);
        if cell != self.focus_cell {
            self.view_changed.get_or_insert(self.focus_cell);
            self.focus_cell = cell;
        }
    }

    /// Whether the first [`update`](Self::update) (the join, which walks the structure and
    /// the cells in range once) ran.
    pub fn is_joined(&self) -> bool {
        self.joined
    }

    /// The focus.
    pub fn focus(&self) -> Vec3 {
        self.focus
    }

    /// Instances the client holds or is being sent.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether the view holds nothing.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Whether the client should hold `id`.
    pub fn holds(&self, id: Id) -> bool {
        self.records.contains_key(&id)
    }

    /// Whether everything the client should hold is confirmed and no tombstone is pending.
    pub fn is_settled(&self) -> bool {
        self.joined
            && self.fresh.is_empty()
            && self.dirty_count == 0
            && self.tombstones.is_empty()
            && self.awaiting.is_empty()
    }

    /// XOR of the hashes of the states last sent for every record: what the client's world
    /// hash is once the view is settled.
    pub fn view_hash(&self) -> u64 {
        self.view_hash
    }

    /// The sequence number the next message will take (the last built is one less).
    pub fn next_seq(&self) -> u32 {
        self.next_seq
    }

    /// Counters.
    pub fn stats(&self) -> ViewStats {
        self.stats
    }

    /// Bytes this view holds, estimated from capacities.
    pub fn heap_bytes(&self) -> usize {
        self.records.capacity() * (std::mem::size_of::<(Id, Record)>() + 1)
            + self.fresh.capacity() * std::mem::size_of::<(u32, Id)>()
            + self.ready.iter().map(|q| q.capacity() * 8).sum::<usize>()
            + self.scratch.capacity() * std::mem::size_of::<Id>()
            + self.waiting.capacity() * 16
            + self.tombstones.capacity() * (std::mem::size_of::<(Id, Tombstone)>() + 1)
            + self.awaiting.capacity() * (std::mem::size_of::<Id>() + 1)
            + self.in_flight.capacity() * std::mem::size_of::<InFlight>()
            + self.in_flight.iter().map(|m| m.entries.capacity() * std::mem::size_of::<Sent>()).sum::<usize>()
    }

    /// Gives back the memory of queues far larger than what they hold (a join or a refocus
    /// fills them once; a tick's work is much smaller): each shrinks to twice its length once
    /// its capacity passes four times that (and [`MIN_TRIM`]), so the copying is paid for by
    /// the growth before it. `records` keeps its capacity: its iteration order (a resync's
    /// order) stays what its inserts and removals made it.
    fn trim(&mut self) {
        let to = |len: usize, cap: usize| (cap > MIN_TRIM && cap / 4 > len).then_some(2 * len);
        if let Some(n) = to(self.fresh.len(), self.fresh.capacity()) {
            self.fresh.shrink_to(n);
        }
        for q in &mut self.ready {
            if let Some(n) = to(q.len(), q.capacity()) {
                q.shrink_to(n);
            }
        }
        if let Some(n) = to(self.waiting.len(), self.waiting.capacity()) {
            self.waiting.shrink_to(n);
        }
        if let Some(n) = to(self.tombstones.len(), self.tombstones.capacity()) {
            self.tombstones.shrink_to(n);
        }
        if let Some(n) = to(self.awaiting.len(), self.awaiting.capacity()) {
            self.awaiting.shrink_to(n);
        }
        if let Some(n) = to(self.in_flight.len(), self.in_flight.capacity()) {
            self.in_flight.shrink_to(n);
        }
        if let Some(n) = to(self.scratch.len(), self.scratch.capacity()) {
            self.scratch.shrink_to(n);
        }
    }

    /// Makes [`update`](Self::update) always read changes cell by cell (tests exercise that
    /// path with few changes).
    #[doc(hidden)]
    pub fn set_scan_cells(&mut self, on: bool) {
        self.scan_cells = on;
    }

    /// Whether the client should hold mirrored `id` (entity `e`), given what it holds already.
    fn wanted_entity(&self, mirror: &Mirror, id: Id, e: &MirrorEntity) -> bool {
        let parent_ok = e.state.parent == mirror.root().0 || self.records.contains_key(&Id(e.state.parent));
        let unit_ok = if e.unit.is_none() {
            true
        } else if e.unit == id {
            self.in_view(e.cell)
        } else {
            self.records.contains_key(&e.unit)
        };
        parent_ok && unit_ok
    }

    /// Adds a record for mirrored `id` (entity `e`) and queues its first send; false when it
    /// must await its tombstone's ack instead.
    fn add_record(&mut self, mirror: &Mirror, id: Id, e: &MirrorEntity) -> bool {
        if !self.tombstones.is_empty() && self.tombstones.contains_key(&id) {
            self.awaiting.insert(id);
            return false;
        }
        let distance = self.distance_of(mirror, e);
        let band = BANDS.iter().position(|&(limit, _)| distance < limit).unwrap_or(BANDS.len() - 1) as u8;
        self.records.insert(
            id,
            Record {
                confirmed: 0,
                born: self.next_seq,
                written_in: 0,
                hash_sent: 0,
                sent: false,
                queued: false,
                dirty: false,
                band,
                pos_sends: 0,
                base: PositionBase::default(),
            },
        );
        self.queue_fresh(distance, id);
        true
    }

    /// Queues never-sent record `id`, `distance` studs from the focus, for its first send.
    fn queue_fresh(&mut self, distance: f32, id: Id) {
        self.fresh.push(Reverse((distance.min(u32::MAX as f32) as u32, id)));
    }

    /// Distance from the focus to what `id` streams with (for structure, to where it was
    /// when mirrored).
    fn distance(&self, mirror: &Mirror, id: Id) -> f32 {
        mirror.get(id).map_or(f32::MAX, |e| self.distance_of(mirror, e))
    }

    /// [`distance`](Self::distance) for mirror entity `e`.
    fn distance_of(&self, mirror: &Mirror, e: &MirrorEntity) -> f32 {
        let at = if e.unit.is_none() { e.world } else { mirror.get(e.unit).map_or(self.focus, |u| u.world) };
        let d = (at - self.focus).length();
        if d.is_finite() { d } else { f32::MAX }
    }

    fn drop_record(&mut self, id: Id) -> bool {
        self.awaiting.remove(&id);
        match self.records.remove(&id) {
            Some(r) => {
                self.view_hash ^= r.hash_sent;
                self.dirty_count -= usize::from(r.dirty);
                true
            }
            None => false,
        }
    }

    fn add_tombstone(&mut self, id: Id) {
        self.tombstones.entry(id).or_insert(Tombstone { last_sent: 0, born: self.next_seq });
    }

    /// Adds records for the wanted instances of `top`'s subtree, pre-order, pruning what is
    /// not wanted.
    fn consider_subtree(&mut self, arena: &Arena, mirror: &Mirror, top: Id) {
        let mut stack = vec![top];
        while let Some(id) = stack.pop() {
            let Some(e) = mirror.get(id) else { continue };
            let held = self.records.contains_key(&id)
                || (self.wanted_entity(mirror, id, e) && self.add_record(mirror, id, e));
            if !held {
                continue; // not wanted, or awaiting its tombstone's ack
            }
            if let Some(node) = arena.get(id) {
                stack.extend(node.children().iter().rev());
            }
        }
    }

    /// Drops the records of top part `unit`'s subtree and tombstones it.
    fn stream_out(&mut self, arena: &Arena, unit: Id) {
        if !self.records.contains_key(&unit) {
            self.awaiting.remove(&unit);
            return;
        }
        for d in arena.subtree(unit) {
            if self.drop_record(d) {
                self.add_tombstone(d);
            }
        }
    }

    /// Brings the view up to date with the mirror's last capture (and a moved focus).
    pub fn update(&mut self, arena: &Arena, mirror: &Mirror) {
        if !self.joined {
            self.join(arena, mirror);
            return;
        }
        let changes = mirror.changes();
        // Every dropped record gets its own tombstone: the client's tree may lag the
        // server's, so a subtree on one side is not the subtree on the other.
        for &id in &changes.deleted {
            if self.drop_record(id) {
                self.add_tombstone(id);
            }
        }
        for &(id, _) in &changes.removed {
            if self.drop_record(id) {
                self.add_tombstone(id);
            }
        }
        for &(id, _, new) in &changes.unit_moves {
            if self.records.contains_key(&id) {
                if !self.kept_by(self.focus_cell, new) {
                    self.stream_out(arena, id);
                }
            } else if self.in_view(new) {
                self.consider_subtree(arena, mirror, id);
            }
        }
        for &id in &changes.added {
            if let Some(e) = mirror.get(id)
                && !self.records.contains_key(&id)
                && self.wanted_entity(mirror, id, e)
            {
                self.add_record(mirror, id, e);
            }
        }
        // The changes this client can hold: every changed instance, or, when the rows of
        // cells to read are fewer, those in the cells of its view (held units are in the
        // kept range of the focus of the last update or of the new one).
        let (old, new) = (self.view_changed.unwrap_or(self.focus_cell), self.focus_cell);
        let area = CellBox::around(old, new, self.cell_radius());
        if self.scan_cells || area.rows() < changes.changed.len() as u64 {
            // Gathered first: looked up cell by cell, a few at a time, the records' cache
            // misses would not overlap.
            let mut ids = std::mem::take(&mut self.scratch);
            ids.clear();
            ids.extend_from_slice(&changes.changed_structure);
            let (xs, zs) = area.clipped();
            for (c, in_cell) in changes.changed_by_cell.in_box(xs, zs) {
                if self.kept_by(old, c) || self.kept_by(new, c) {
                    ids.extend_from_slice(in_cell);
                }
            }
            self.mark_all_changed(&ids);
            self.scratch = ids;
        } else {
            self.mark_all_changed(&changes.changed);
        }
        if let Some(old) = self.view_changed.take() {
            self.refocus(arena, mirror, old);
        }
    }

    /// Takes the client's ack: `newest` and the 64 before it in `bits`.
    pub fn ack(&mut self, arena: &Arena, mirror: &Mirror, newest: u32, bits: u64) -> Result<(), AckError> {
        if newest == 0 {
            return Ok(());
        }
        if newest >= self.next_seq {
            return Err(AckError::Unsent(newest));
        }
        self.newest_ack = self.newest_ack.max(newest);
        if self.in_flight.is_empty() {
            return Ok(());
        }
        let older = (0..64u32).filter(|i| bits & (1 << i) != 0).filter_map(|i| newest.checked_sub(1 + i));
        for seq in std::iter::once(newest).chain(older) {
            // Only messages that carried something are remembered, so look the seq up.
            let Ok(at) = self.in_flight.binary_search_by_key(&seq, |m| m.seq) else { continue };
            let msg = &mut self.in_flight[at];
            if msg.acked {
                continue;
            }
            msg.acked = true;
            let (epoch, entries) = (msg.epoch, std::mem::take(&mut msg.entries));
            for sent in entries {
                match sent {
                    Sent::State(id, position) => {
                        let Some(rec) = self.records.get_mut(&id) else { continue };
                        if rec.born > seq {
                            continue;
                        }
                        rec.confirmed = rec.confirmed.max(epoch);
                        if let Some((position, sends)) = position
                            && seq > rec.base.seq
                        {
                            rec.base = PositionBase { seq, position, sends };
                        }
                        if rec.dirty && mirror.get(id).is_none_or(|e| e.last_change <= rec.confirmed) {
                            rec.dirty = false;
                            self.dirty_count -= 1;
                        }
                    }
                    Sent::Tombstone(id) => {
                        if self.tombstones.get(&id).is_some_and(|t| t.born <= seq) {
                            self.tombstones.remove(&id);
                            if self.awaiting.remove(&id) {
                                self.consider_subtree(arena, mirror, id);
                            }
                        }
                    }
                }
            }
        }
        // Acked messages are done; so are those past the ack window (an ack names the
        // newest message and the 64 before it): they can never be acked, and what they
        // carried was queued again when presumed lost.
        let newest = self.newest_ack;
        while self.in_flight.front().is_some_and(|m| m.acked || m.seq.saturating_add(64) < newest) {
            self.in_flight.pop_front();
        }
        Ok(())
    }

    /// Marks every record unconfirmed: the client gets full state again.
    fn resync(&mut self) {
        self.stats.resyncs += 1;
        for (&id, rec) in self.records.iter_mut() {
            rec.confirmed = 0;
            if rec.sent {
                self.dirty_count += usize::from(!rec.dirty);
                rec.dirty = true;
                queue_ready(&mut self.ready, id, rec);
            }
        }
    }
}

/// Puts record `rec` of `id` at the back of its band's ready queue, unless it is queued.
fn queue_ready(ready: &mut [VecDeque<Id>; BANDS.len()], id: Id, rec: &mut Record) {
    if !rec.queued {
        rec.queued = true;
        ready[usize::from(rec.band)].push_back(id);
    }
}
