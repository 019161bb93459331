//! Sending: the ready queues and the fill of one network tick's messages under the
//! client's budget — tombstones, then dirty records round robin over distance bands, then
//! records never sent, nearest first — and the bookkeeping of what each message carried.
//!
//! Every message with an entry carries its *entries hash*: the XOR of the mirror's hashes
//! of the instances its entries name, taken when the message is sealed from the entries
//! actually written (an entry rolled back because it did not fit is not in it). The
//! replica's states of those instances must hash to the same once it applied the message:
//! a create carries every group, an update every group changed after the newest epoch the
//! client confirmed for that instance, and the client applied that confirmed message and
//! every later one in order (each writing values from an epoch at or after it); so every
//! group not carried still holds its value as of this message's epoch. An instance is
//! never both removed and written in one message: a record and a tombstone for one id
//! never coexist (a record comes back only once its tombstone is acked).
//!
//! Invariants: a create is written in the same message as the creates of its unconfirmed
//! parents (messages are lost independently); an entry that cannot be written yet waits a
//! resend interval in `waiting`, so nothing dirty ever leaves every queue; the entries
//! hash of a message is over exactly its entries.

use super::{BANDS, ClientView, HISTORY_EPOCHS, InFlight, MAX_PARENT_CHAIN, Sent};
use crate::message::{MAX_MESSAGE_BYTES, SnapshotBuilder};
use crate::mirror::Mirror;
use crate::state::Groups;
use arbor_core::Id;
use rustc_hash::FxHashSet;
use std::cmp::Reverse;

impl ClientView {
    /// Queues dirty record `id` to be sent, in the band of its distance.
    pub(super) fn mark_ready(&mut self, id: Id) {
        let Some(rec) = self.records.get_mut(&id) else { return };
        if !rec.queued {
            rec.queued = true;
            self.ready[usize::from(rec.band)].push_back(id);
        }
    }

    /// A held instance changed: dirty and queued, once it was ever sent (a record never
    /// sent is in the fresh queue and its create will carry the change).
    pub(super) fn mark_changed(&mut self, id: Id) {
        let Some(rec) = self.records.get_mut(&id) else { return };
        if rec.last_sent == 0 {
            return;
        }
        self.dirty.insert(id);
        if !rec.queued {
            rec.queued = true;
            self.ready[usize::from(rec.band)].push_back(id);
        }
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
            return fill.close(self, mirror);
        }
        let resend_after = resend_after.max(1);
        let due = |last_sent: u32| last_sent == 0 || now.saturating_sub(last_sent) >= resend_after;

        let mut tombs: Vec<Id> =
            self.tombstones.iter().filter(|(_, t)| due(t.last_sent)).map(|(&id, _)| id).collect();
        tombs.sort_unstable(); // ids of one subtree are close: their deltas take a byte
        for id in tombs {
            if !fill.remove(self, mirror, id) {
                return fill.close(self, mirror);
            }
        }

        // Sends presumed lost come back to the ready queues.
        while let Some(&(sent_at, id)) = self.waiting.front() {
            if now.saturating_sub(sent_at) < resend_after {
                break;
            }
            self.waiting.pop_front();
            if self.dirty.contains(&id) {
                self.mark_ready(id);
            } else if self.records.get(&id).is_some_and(|r| r.last_sent == 0) {
                // A first send that could not be written (its parent was not held yet).
                let d = self.distance(mirror, id);
                self.queue_fresh(d, id);
            }
        }

        let first_share = if self.fresh.is_empty() { budget } else { budget / 2 };
        let mut turn = (0, 0);
        while fill.spent() < first_share {
            let Some(id) = self.next_ready(&mut turn) else { break };
            if !self.take_ready(id) || fill.has(id) {
                continue;
            }
            if !fill.entry(self, mirror, id) {
                self.requeue(id);
                return fill.close(self, mirror);
            }
        }
        while let Some(Reverse((d, id))) = self.fresh.pop() {
            if self.records.get(&id).is_none_or(|r| r.last_sent != 0) || fill.has(id) {
                continue; // dropped since, or already written with a child
            }
            if !fill.entry(self, mirror, id) {
                self.fresh.push(Reverse((d, id)));
                return fill.close(self, mirror);
            }
        }
        while let Some(id) = self.next_ready(&mut turn) {
            if !self.take_ready(id) || fill.has(id) {
                continue;
            }
            if !fill.entry(self, mirror, id) {
                self.requeue(id);
                break;
            }
        }
        fill.close(self, mirror)
    }

    /// Clears `id`'s queued mark; whether it is still a dirty record to send.
    fn take_ready(&mut self, id: Id) -> bool {
        match self.records.get_mut(&id) {
            Some(rec) if rec.queued => {
                rec.queued = false;
                self.dirty.contains(&id)
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

    /// `id` and the unconfirmed parents not in `written` that must precede it in one
    /// message, nearest last; `None` when a parent is not held (yet) or the chain is too deep.
    fn parent_chain(&self, mirror: &Mirror, written: &FxHashSet<Id>, id: Id) -> Option<Vec<Id>> {
        let mut chain = vec![id];
        let mut at = id;
        loop {
            let e = mirror.get(at)?;
            let rec = self.records.get(&at)?;
            let groups = if rec.confirmed == 0 { Groups::ALL } else { e.changed_since(rec.confirmed) };
            if !groups.contains(Groups::PARENT) {
                return Some(chain);
            }
            let parent = Id(e.state.parent);
            if parent == mirror.root() || written.contains(&parent) {
                return Some(chain);
            }
            match self.records.get(&parent) {
                Some(p) if p.confirmed > 0 => return Some(chain),
                Some(_) if chain.len() < MAX_PARENT_CHAIN => {
                    chain.push(parent);
                    at = parent;
                }
                _ => return None,
            }
        }
    }

    /// Writes the entries of `chain` (from [`parent_chain`](Self::parent_chain)) into `b`,
    /// parents first. Records are stamped only when the message is finished.
    fn write_chain(
        &mut self,
        mirror: &Mirror,
        b: &mut SnapshotBuilder,
        sent: &mut Vec<Sent>,
        written: &mut FxHashSet<Id>,
        chain: &[Id],
    ) {
        for &c in chain.iter().rev() {
            if written.contains(&c) {
                continue;
            }
            let (Some(e), Some(rec)) = (mirror.get(c), self.records.get(&c)) else { continue };
            let create = rec.confirmed == 0;
            let groups = if create { Groups::ALL } else { e.changed_since(rec.confirmed) };
            if groups.is_empty() {
                self.dirty.remove(&c); // the client has it all already
                continue;
            }
            b.push_entry_with(c, &e.state, create, groups, e.components_since(rec.confirmed));
            written.insert(c);
            sent.push(Sent::State(c));
        }
    }

    /// Seals a message: sets its entries hash, stamps the records it carries, remembers its
    /// sends until acked, counts it.
    fn finish(&mut self, mirror: &Mirror, mut b: SnapshotBuilder, sent: Vec<Sent>, out: &mut Vec<Vec<u8>>) {
        let (seq, epoch) = (b.seq(), b.epoch());
        // Over the entries written (`sent` lost any rolled back with the builder), each
        // from the mirror entity it was encoded from: the mirror does not change during a
        // build.
        let mut entries = 0u32;
        let mut entries_hash = 0u64;
        for s in &sent {
            if let Sent::State(id) = *s {
                entries += 1;
                entries_hash ^= mirror.get(id).map_or(0, |e| e.hash);
            }
        }
        debug_assert_eq!(entries, b.entry_count(), "the sends are the entries written");
        if entries > 0 {
            b.set_entries_hash(entries_hash);
        }
        for s in &sent {
            let Sent::State(id) = *s else { continue };
            let (Some(rec), Some(e)) = (self.records.get_mut(&id), mirror.get(id)) else { continue };
            if rec.confirmed == 0 {
                self.stats.creates += 1;
            } else {
                self.stats.updates += 1;
            }
            rec.last_sent = epoch;
            // Unconfirmed until acked: resent if presumed lost.
            self.dirty.insert(id);
            self.waiting.push_back((epoch, id));
            let h = e.hash;
            self.view_hash ^= rec.hash_sent ^ h;
            rec.hash_sent = h;
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

/// The messages of one build: the one being filled, the ids in it (a parent counts as
/// present only in the same message: messages are lost independently), the ids in the
/// tick's earlier messages, and the bytes spent.
struct Filler {
    b: SnapshotBuilder,
    now: u32,
    budget: usize,
    sent: Vec<Sent>,
    written: FxHashSet<Id>,
    done: FxHashSet<Id>,
    spent: usize,
    out: Vec<Vec<u8>>,
}

impl Filler {
    fn new(seq: u32, now: u32, budget: usize) -> Filler {
        Filler {
            b: SnapshotBuilder::new(seq, now),
            now,
            budget,
            sent: Vec::new(),
            written: FxHashSet::default(),
            done: FxHashSet::default(),
            spent: 0,
            out: Vec::new(),
        }
    }

    fn spent(&self) -> usize {
        self.spent + self.b.size()
    }

    fn has(&self, id: Id) -> bool {
        self.written.contains(&id) || self.done.contains(&id)
    }

    /// Seals the current message and starts the next; false when the budget is spent.
    fn next_message(&mut self, view: &mut ClientView, mirror: &Mirror) -> bool {
        self.spent += self.b.size();
        if self.spent >= self.budget {
            return false;
        }
        let full = std::mem::replace(&mut self.b, SnapshotBuilder::new(view.take_seq(), self.now));
        view.finish(mirror, full, std::mem::take(&mut self.sent), &mut self.out);
        self.done.extend(self.written.drain());
        true
    }

    /// Adds a tombstone; false when the budget is spent.
    fn remove(&mut self, view: &mut ClientView, mirror: &Mirror, id: Id) -> bool {
        if self.b.size() + 10 > MAX_MESSAGE_BYTES && !self.next_message(view, mirror) {
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

    /// Adds `id`'s entry (after any parents it needs); false when the budget is spent. An
    /// entry that cannot be written now (a parent not held yet, or larger than a message on
    /// its own, counted in `ViewStats::oversized`) is tried again after a resend interval.
    fn entry(&mut self, view: &mut ClientView, mirror: &Mirror, id: Id) -> bool {
        if self.has(id) {
            return true;
        }
        for attempt in 0..2 {
            // Per message: a parent written in the previous message does not count here.
            let Some(chain) = view.parent_chain(mirror, &self.written, id) else {
                view.waiting.push_back((self.now, id));
                return true;
            };
            let mark = self.b.mark();
            let sent_mark = self.sent.len();
            view.write_chain(mirror, &mut self.b, &mut self.sent, &mut self.written, &chain);
            if self.b.size() <= MAX_MESSAGE_BYTES {
                return true;
            }
            self.b.rollback(mark);
            for s in self.sent.drain(sent_mark..) {
                if let Sent::State(c) = s {
                    self.written.remove(&c);
                }
            }
            if attempt == 0 && !self.next_message(view, mirror) {
                return false;
            }
        }
        view.stats.oversized += 1;
        view.waiting.push_back((self.now, id));
        true
    }

    /// Seals the last message and returns them all.
    fn close(mut self, view: &mut ClientView, mirror: &Mirror) -> Vec<Vec<u8>> {
        view.finish(mirror, self.b, self.sent, &mut self.out);
        self.out
    }
}
