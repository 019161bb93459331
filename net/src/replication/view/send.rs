//! Sending: the ready queues and the fill of one network tick's messages under the
//! client's budget — tombstones, then dirty records round robin over distance bands, then
//! records never sent, nearest first — and the bookkeeping of what each message carried.
//!
//! Every message with an entry carries its *entries hash*: the XOR of the mirror's hashes
//! of the instances its entries name, accumulated as entries are written and sealed with the
//! message (an entry rolled back because it did not fit is taken out again). The
//! replica's states of those instances must hash to the same once it applied the message:
//! a create carries every group, an update every group changed after the newest epoch the
//! client confirmed for that instance, and the client applied that confirmed message and
//! every later one in order (each writing values from an epoch at or after it); so every
//! group not carried still holds its value as of this message's epoch. An instance is
//! never both removed and written in one message: a record and a tombstone for one id
//! never coexist (a record comes back only once its tombstone is acked).
//!
//! Records are stamped as their entries are written (`written_in`, `sent`, `dirty`,
//! `hash_sent` and the view hash), not when the message is sealed: an entry rolled back
//! because it did not fit restores the records it stamped from an undo log, so what stays
//! stamped is exactly what the sealed messages carry. A record's `written_in` stamp stands
//! in for per-build sets: written in the message being filled when it equals that message's
//! seq, earlier in this build when it is at or after the build's first seq.
//!
//! Invariants: a create is written in the same message as the creates of its unconfirmed
//! parents (messages are lost independently); an entry that cannot be written yet waits a
//! resend interval in `waiting`, so nothing dirty ever leaves every queue; the entries
//! hash of a message is over exactly its entries.

use super::record::{InFlight, Record, Sent};
use super::{BANDS, ClientView, HISTORY_EPOCHS, MAX_PARENT_CHAIN, queue_ready};
use crate::replication::mirror::{Mirror, MirrorEntity};
use crate::wire::{Groups, MAX_MESSAGE_BYTES, PositionSend, SnapshotBuilder};
use arbor_core::Id;
use std::cmp::Reverse;

/// How many records [`ClientView::warm`] looks up ahead of the work on them.
const WARM_BATCH: usize = 16;

impl ClientView {
    /// Looks up the records of `ids` (a batch of at most [`WARM_BATCH`]) in one tight loop,
    /// so that their cache misses overlap: a tick's records are spread over megabytes, so
    /// most lookups miss, and one by one, with work between them, each would wait in turn.
    /// The work on the batch that follows then finds them in the cache.
    fn warm(&self, ids: impl Iterator<Item = Id>) {
        let mut touched = 0u32;
        for id in ids {
            touched ^= self.records.get(&id).map_or(0, |r| r.born);
        }
        std::hint::black_box(touched);
    }

    /// [`mark_changed`](Self::mark_changed) for each of `ids`, in order, a batch at a time
    /// (see [`warm`](Self::warm)).
    pub(super) fn mark_all_changed(&mut self, ids: &[Id]) {
        for batch in ids.chunks(WARM_BATCH) {
            self.warm(batch.iter().copied());
            for &id in batch {
                self.mark_changed(id);
            }
        }
    }

    /// A held instance changed: dirty and queued, once it was ever sent (a record never
    /// sent is in the fresh queue and its create will carry the change).
    pub(super) fn mark_changed(&mut self, id: Id) {
        let Some(rec) = self.records.get_mut(&id) else { return };
        if !rec.sent {
            return;
        }
        self.dirty_count += usize::from(!rec.dirty);
        rec.dirty = true;
        queue_ready(&mut self.ready, id, rec);
    }

    /// Takes the next id from the ready queues, round robin with each band's weight;
    /// `None` when they are empty. `turn` carries the position between calls.
    fn next_ready(&mut self, turn: &mut (usize, usize)) -> Option<Id> {
        for _ in 0..=BANDS.len() {
            let (band, taken) = *turn;
            if taken < BANDS[band].1
                && let Some(id) = self.ready[band].pop_front()
            {
                turn.1 += 1;
                return Some(id);
            }
            *turn = ((band + 1) % BANDS.len(), 0);
        }
        None
    }

    /// Builds this network tick's messages: at least one (it carries the view hash once
    /// settled), at most as many as `budget` bytes allow. `resend_after` is how many epochs
    /// an unacked send waits before it is presumed lost.
    ///
    /// Order: tombstones; then dirty records from the ready queues, round robin over the
    /// distance bands with nearer bands weighted more (a priority accumulator of distance
    /// and time since sent, in queues, so the cost follows what is sent), with half the
    /// budget while records wait for their first send; then those, nearest first; then the
    /// rest of the ready queues.
    pub fn build(&mut self, mirror: &Mirror, budget: usize, resend_after: u32) -> Vec<Vec<u8>> {
        let now = mirror.epoch();
        let mut fill = Filler::new(self.take_seq(), now, budget);
        if self.is_settled() {
            fill.b.set_view_hash(self.view_hash);
            return fill.seal(self);
        }
        let resend_after = resend_after.max(1);
        let due = |last_sent: u32| last_sent == 0 || now.saturating_sub(last_sent) >= resend_after;

        let mut tombs: Vec<Id> =
            self.tombstones.iter().filter(|(_, t)| due(t.last_sent)).map(|(&id, _)| id).collect();
        tombs.sort_unstable(); // ids of one subtree are close: their deltas take a byte
        for id in tombs {
            if !fill.remove(self, id) {
                return fill.close(self);
            }
        }

        // Sends presumed lost come back to the ready queues, in order, a batch at a time
        // (see `warm`).
        let mut expired = self
            .waiting
            .iter()
            .take_while(|&&(sent_at, _)| now.saturating_sub(sent_at) >= resend_after)
            .count();
        while expired > 0 {
            let batch = expired.min(WARM_BATCH);
            expired -= batch;
            self.warm(self.waiting.range(..batch).map(|&(_, id)| id));
            for _ in 0..batch {
                let Some((_, id)) = self.waiting.pop_front() else { break };
                let Some(rec) = self.records.get_mut(&id) else { continue };
                if rec.dirty {
                    queue_ready(&mut self.ready, id, rec);
                } else if !rec.sent {
                    // A first send that could not be written (its parent was not held yet).
                    let d = self.distance(mirror, id);
                    self.queue_fresh(d, id);
                }
            }
        }

        let first_share = if self.fresh.is_empty() { budget } else { budget / 2 };
        let mut turn = (0, 0);
        while fill.spent() < first_share {
            let Some(id) = self.next_ready(&mut turn) else { break };
            if !self.take_ready(id, fill.first_seq) {
                continue;
            }
            if !fill.entry(self, mirror, id) {
                self.requeue(id);
                return fill.close(self);
            }
        }
        while let Some(Reverse((d, id))) = self.fresh.pop() {
            if self.records.get(&id).is_none_or(|r| r.sent || r.written_in >= fill.first_seq) {
                continue; // dropped since, or already written with a child
            }
            if !fill.entry(self, mirror, id) {
                self.fresh.push(Reverse((d, id)));
                return fill.close(self);
            }
        }
        while let Some(id) = self.next_ready(&mut turn) {
            if !self.take_ready(id, fill.first_seq) {
                continue;
            }
            if !fill.entry(self, mirror, id) {
                self.requeue(id);
                break;
            }
        }
        fill.close(self)
    }

    /// Clears `id`'s queued mark; whether it is still a dirty record to send, not written
    /// yet in the build whose first message is `first_seq`.
    fn take_ready(&mut self, id: Id, first_seq: u32) -> bool {
        match self.records.get_mut(&id) {
            Some(rec) if rec.queued => {
                rec.queued = false;
                rec.dirty && rec.written_in < first_seq
            }
            _ => false,
        }
    }

    /// Puts `id` back at the head of its queue (it did not fit this tick).
    fn requeue(&mut self, id: Id) {
        if let Some(rec) = self.records.get_mut(&id) {
            rec.queued = true;
            self.ready[0].push_front(id);
        }
    }
    fn take_seq(&mut self) -> u32 {
        let s = self.next_seq;
        self.next_seq += 1;
        s
    }

    /// Fills `chain` with `id` and the unconfirmed parents not written in message `seq` that
    /// must precede it in one message, nearest last; false when a parent is not held (yet) or
    /// the chain is too deep.
    fn parent_chain<'m>(&self, mirror: &'m Mirror, seq: u32, id: Id, chain: &mut Vec<Link<'m>>) -> bool {
        chain.clear();
        let Some(mut rec) = self.records.get(&id) else { return false };
        let mut at = id;
        loop {
            let Some(e) = mirror.get(at) else { return false };
            let create = rec.confirmed == 0;
            let groups = if create { Groups::ALL } else { e.changed_since(rec.confirmed) };
            chain.push(Link { id: at, e, create, groups });
            if !groups.contains(Groups::PARENT) {
                return true;
            }
            let parent = Id(e.state.parent);
            if parent == mirror.root() {
                return true;
            }
            match self.records.get(&parent) {
                Some(p) if p.written_in == seq || p.confirmed > 0 => return true,
                Some(p) if chain.len() < MAX_PARENT_CHAIN => {
                    rec = p;
                    at = parent;
                }
                _ => return false,
            }
        }
    }

    /// Writes the entries of `chain` (from [`parent_chain`](Self::parent_chain)) into `b`,
    /// parents first, and stamps their records, logging in `undo` what each was before and
    /// adding each entry's hash to `entries_hash`.
    fn write_chain(
        &mut self,
        b: &mut SnapshotBuilder,
        sent: &mut Vec<Sent>,
        undo: &mut Vec<(Id, Record)>,
        entries_hash: &mut u64,
        chain: &[Link<'_>],
    ) {
        let seq = b.seq();
        for link in chain.iter().rev() {
            let (c, e, create, groups) = (link.id, link.e, link.create, link.groups);
            debug_assert!(
                self.records.get(&c).is_some_and(|r| r.written_in != seq),
                "a chain skips what is written"
            );
            let Some(rec) = self.records.get_mut(&c) else { continue };
            if groups.is_empty() {
                // The client has it all already.
                self.dirty_count -= usize::from(rec.dirty);
                rec.dirty = false;
                continue;
            }
            let position = if groups.contains(Groups::POSITION) && !create {
                rec.base.send(seq, rec.pos_sends)
            } else {
                PositionSend::Whole
            };
            b.push_entry_with(c, &e.state, create, groups, position, e.components_since(rec.confirmed));
            undo.push((c, *rec));
            if create {
                self.stats.creates += 1;
            } else {
                self.stats.updates += 1;
            }
            rec.written_in = seq;
            rec.sent = true;
            // Unconfirmed until acked: resent if presumed lost.
            self.dirty_count += usize::from(!rec.dirty);
            rec.dirty = true;
            self.view_hash ^= rec.hash_sent ^ e.hash;
            rec.hash_sent = e.hash;
            *entries_hash ^= e.hash;
            let carried = (create || groups.contains(Groups::POSITION)).then(|| {
                rec.pos_sends = rec.pos_sends.wrapping_add(1);
                (e.state.position, rec.pos_sends)
            });
            sent.push(Sent::State(c, carried));
        }
    }

    /// Takes back the stamps of entries rolled back (from `undo`, emptied) and their hashes
    /// from `entries_hash`.
    fn unstamp(&mut self, undo: &mut Vec<(Id, Record)>, entries_hash: &mut u64) {
        for (id, before) in undo.drain(..).rev() {
            let Some(rec) = self.records.get_mut(&id) else { continue };
            *entries_hash ^= rec.hash_sent;
            self.view_hash ^= rec.hash_sent ^ before.hash_sent;
            self.dirty_count = self.dirty_count + usize::from(before.dirty) - usize::from(rec.dirty);
            if before.confirmed == 0 {
                self.stats.creates -= 1;
            } else {
                self.stats.updates -= 1;
            }
            *rec = before;
        }
    }

    /// Seals a message: sets its entries hash (`entries_hash`, over the entries written),
    /// queues its sends to be presumed lost after a resend interval, remembers them until
    /// acked, counts it.
    fn finish(&mut self, mut b: SnapshotBuilder, sent: Vec<Sent>, entries_hash: u64, out: &mut Vec<Vec<u8>>) {
        let (seq, epoch) = (b.seq(), b.epoch());
        let mut entries = 0u32;
        for s in &sent {
            if let Sent::State(id, _) = *s {
                entries += 1;
                self.waiting.push_back((epoch, id));
            }
        }
        debug_assert_eq!(entries, b.entry_count(), "the sends are the entries written");
        if entries > 0 {
            b.set_entries_hash(entries_hash);
        }
        let bytes = b.finish();
        self.stats.messages += 1;
        self.stats.bytes += bytes.len() as u64;
        out.push(bytes);
        if !sent.is_empty() {
            self.in_flight.push_back(InFlight { seq, epoch, entries: sent, acked: false });
        }
        while self.in_flight.front().is_some_and(|m| epoch.saturating_sub(m.epoch) > HISTORY_EPOCHS) {
            let old = self.in_flight.pop_front().expect("non-empty");
            if !old.acked && self.newest_ack < old.seq {
                self.resync();
            }
        }
    }
}

/// One link of a parent chain: a record to write, its mirror entity, and what to write.
#[derive(Clone, Copy)]
struct Link<'m> {
    id: Id,
    e: &'m MirrorEntity,
    create: bool,
    groups: Groups,
}

/// The messages of one build: the one being filled, its sends and their entries hash, the
/// seq of the build's first message (a record's `written_in` at or after it was written in
/// this build; equal to the current message's seq, in this message: a parent counts as
/// present only in the same message, as messages are lost independently), scratch for
/// parent chains and their undo log, and the bytes spent.
struct Filler<'m> {
    b: SnapshotBuilder,
    now: u32,
    budget: usize,
    first_seq: u32,
    sent: Vec<Sent>,
    entries_hash: u64,
    chain: Vec<Link<'m>>,
    undo: Vec<(Id, Record)>,
    spent: usize,
    out: Vec<Vec<u8>>,
}

impl<'m> Filler<'m> {
    fn new(seq: u32, now: u32, budget: usize) -> Filler<'m> {
        Filler {
            b: SnapshotBuilder::new(seq, now),
            now,
            budget,
            first_seq: seq,
            sent: Vec::new(),
            entries_hash: 0,
            chain: Vec::new(),
            undo: Vec::new(),
            spent: 0,
            out: Vec::new(),
        }
    }

    fn spent(&self) -> usize {
        self.spent + self.b.size()
    }

    /// Seals the current message and starts the next; false when the budget is spent.
    fn next_message(&mut self, view: &mut ClientView) -> bool {
        self.spent += self.b.size();
        if self.spent >= self.budget {
            return false;
        }
        let full = std::mem::replace(&mut self.b, SnapshotBuilder::new(view.take_seq(), self.now));
        view.finish(
            full,
            std::mem::take(&mut self.sent),
            std::mem::take(&mut self.entries_hash),
            &mut self.out,
        );
        true
    }

    /// Adds a tombstone; false when the budget is spent.
    fn remove(&mut self, view: &mut ClientView, id: Id) -> bool {
        if self.b.size() + 10 > MAX_MESSAGE_BYTES && !self.next_message(view) {
            return false;
        }
        self.b.push_remove(id);
        view.stats.removes += 1;
        if let Some(t) = view.tombstones.get_mut(&id) {
            t.last_sent = self.now;
        }
        self.sent.push(Sent::Tombstone(id));
        true
    }

    /// Adds the entry of `id`, a record not written yet in this build (after any parents it
    /// needs); false when the budget is spent. An entry that cannot be written now (a parent
    /// not held yet, or larger than a message on its own, counted in `ViewStats::oversized`)
    /// is tried again after a resend interval.
    fn entry(&mut self, view: &mut ClientView, mirror: &'m Mirror, id: Id) -> bool {
        debug_assert!(view.records.get(&id).is_none_or(|r| r.written_in < self.first_seq));
        for attempt in 0..2 {
            // Per message: a parent written in the previous message does not count here.
            if !view.parent_chain(mirror, self.b.seq(), id, &mut self.chain) {
                view.waiting.push_back((self.now, id));
                return true;
            }
            let mark = self.b.mark();
            let sent_mark = self.sent.len();
            self.undo.clear();
            view.write_chain(
                &mut self.b,
                &mut self.sent,
                &mut self.undo,
                &mut self.entries_hash,
                &self.chain,
            );
            if self.b.size() <= MAX_MESSAGE_BYTES {
                return true;
            }
            self.b.rollback(mark);
            self.sent.truncate(sent_mark);
            view.unstamp(&mut self.undo, &mut self.entries_hash);
            if attempt == 0 && !self.next_message(view) {
                return false;
            }
        }
        view.stats.oversized += 1;
        view.waiting.push_back((self.now, id));
        true
    }

    /// Seals the last message and returns them all.
    fn seal(mut self, view: &mut ClientView) -> Vec<Vec<u8>> {
        view.finish(self.b, self.sent, self.entries_hash, &mut self.out);
        self.out
    }

    /// [`seal`](Self::seal), then gives back what the view's queues no longer need (a
    /// settled view's build only seals: the idle path stays minimal, the next build with
    /// work trims).
    fn close(self, view: &mut ClientView) -> Vec<Vec<u8>> {
        let out = self.seal(view);
        view.trim();
        out
    }
}
