//! Feeding a [`ClientView`]: the records it adds from the mirror's changes (what the client
//! should hold: structure, units in range and their subtrees, parents first), the records it
//! drops with their tombstones, and the client's acks, which confirm records and retire
//! tombstones.
//!
//! Invariants (see the view's): a record's parent has a record or is the `DataModel`; every
//! dropped record gets its own tombstone; an instance with a pending tombstone gets no new
//! record until the tombstone is acked; `dirty_count` counts the records flagged dirty.

use super::area::CellBox;
use super::record::{PositionBase, Record, Sent, Tombstone};
use super::{AckError, BANDS, ClientView, queue_ready};
use crate::replication::mirror::{Mirror, MirrorEntity};
use arbor_core::{Arena, Id};
use std::cmp::Reverse;

impl ClientView {
    /// Whether the client should hold mirrored `id` (entity `e`), given what it holds already.
    pub(super) fn wanted_entity(&self, mirror: &Mirror, id: Id, e: &MirrorEntity) -> bool {
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
    pub(super) fn add_record(&mut self, mirror: &Mirror, id: Id, e: &MirrorEntity) -> bool {
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
    pub(super) fn queue_fresh(&mut self, distance: f32, id: Id) {
        self.fresh.push(Reverse((distance.min(u32::MAX as f32) as u32, id)));
    }

    /// Distance from the focus to what `id` streams with (for structure, to where it was
    /// when mirrored).
    pub(super) fn distance(&self, mirror: &Mirror, id: Id) -> f32 {
        mirror.get(id).map_or(f32::MAX, |e| self.distance_of(mirror, e))
    }

    /// [`distance`](Self::distance) for mirror entity `e`.
    pub(super) fn distance_of(&self, mirror: &Mirror, e: &MirrorEntity) -> f32 {
        let at = if e.unit.is_none() { e.world } else { mirror.get(e.unit).map_or(self.focus, |u| u.world) };
        let d = (at - self.focus).length();
        if d.is_finite() { d } else { f32::MAX }
    }

    pub(super) fn drop_record(&mut self, id: Id) -> bool {
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

    pub(super) fn add_tombstone(&mut self, id: Id) {
        self.tombstones.entry(id).or_insert(Tombstone { last_sent: 0, born: self.next_seq });
    }

    /// Adds records for the wanted instances of `top`'s subtree, pre-order, pruning what is
    /// not wanted.
    pub(super) fn consider_subtree(&mut self, arena: &Arena, mirror: &Mirror, top: Id) {
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
    pub(super) fn stream_out(&mut self, arena: &Arena, unit: Id) {
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
    pub(super) fn resync(&mut self) {
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
