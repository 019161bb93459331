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
//!
//! [`Mirror`]: crate::replication::mirror::Mirror

mod area;
mod feed;
mod range;
mod record;
mod send;

use area::clamp_focus;
use record::{InFlight, Record, Sent, Tombstone};

use crate::replication::cell::{Cell, INTEREST_CELL_SIZE, cell_of};
use arbor_core::Id;
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
}

/// Puts record `rec` of `id` at the back of its band's ready queue, unless it is queued.
fn queue_ready(ready: &mut [VecDeque<Id>; BANDS.len()], id: Id, rec: &mut Record) {
    if !rec.queued {
        rec.queued = true;
        ready[usize::from(rec.band)].push_back(id);
    }
}
