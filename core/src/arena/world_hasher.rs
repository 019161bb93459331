//! [`WorldHasher`]: [`Arena::world_hash`] kept up to date from the arena's revision logs, in
//! time proportional to what changed since its last call (the `digest` module defines the
//! hash: per-node content hashes, subtree hashes summing their children's terms, detached
//! subtrees as an unordered sum).
//!
//! It owns one record per slot (the node it was computed for, its content hash, the sum of
//! its children's terms, its subtree hash and its rank among its parent's live children), the
//! list of out-of-world nodes it watches, and the live detached subtrees with their hashes.
//! Each call finds what changed after the revision it last saw:
//! - the topology journal ([`Arena::topology_since`]): every created or moved node's subtree
//!   is hashed afresh (a move is already linear in the moved subtree in the arena), its new
//!   parent's children are summed again, and detached roots come and go;
//! - the part-write and node-write logs ([`Arena::part_writes_since`],
//!   [`Arena::node_writes_since`]): in-world nodes whose own state was written. A write
//!   stamps the node, and every change of a node's children (creation under it, a move in or
//!   out, a destroyed child, an undo putting one back) stamps the parent, so a stamped node
//!   gets its content hashed and its children summed again;
//! - for out-of-world nodes (under the root outside the Workspace, detached subtrees), which
//!   those logs do not name: their node revision against the last revision seen, over the
//!   list of such nodes (a cost linear in how many there are, not in the world);
//! - component rows written by chunk passes (which stamp no node): each table's per-component
//!   write log, through `Table::ids_written_since` (exact: it scans revision groups when its
//!   log no longer reaches back);
//! - references: a node whose content changed makes every holder of a reference to it
//!   (builtin, attribute, component field; the arena's reverse indexes) hash its content
//!   again, since a reference hashes as its target's base content.
//!
//! Changed subtree hashes then go up the tree deepest first: a parent whose children were not
//! summed again takes the difference of the one child's term (O(1)); the root's and detached
//! roots' hashes make the world's. When a log answers [`HistoryUnavailable`], when the
//! arena's revision went below the last one seen, or on the first call, everything is hashed
//! afresh (as [`Arena::world_hash`] does, filling the records).
//!
//! Invariants: after a call, every live node reachable from the root or a detached root has a
//! record with its id whose hashes are those of the current state, every live out-of-world
//! node is in the watch list, and the value equals [`Arena::world_hash`]. One hasher follows
//! one arena (handing it another arena is not detected unless its revision is lower).
//! Costs: a stamped node with many children pays for summing them all again (the Workspace
//! with a million direct children, when one is added, pays a pass over them). In a large
//! world every touched node is a few cache misses (its hot record, its content columns, its
//! record, its parent's), so the loops over stamped and queued nodes prefetch a few nodes
//! ahead (`AHEAD`) to keep those misses in flight together; a node without children reads
//! no children column.
//!
//! [`HistoryUnavailable`]: crate::HistoryUnavailable

use super::digest::{child_term, detached_term, subtree_hash, world_of};
use super::{Arena, TopologyChange};
use crate::id::{Id, Slot};
use crate::nodes::store::prefetch_ptr;
use crate::value::NodeFlags;
use rustc_hash::FxHashMap;

/// The record of the node in one slot, as of the hasher's last call.
#[derive(Clone, Copy, Default)]
struct Rec {
    /// The node the record is for (`Id::NONE`: none).
    id: Id,
    content: u64,
    /// Wrapping sum of the live children's [`child_term`]s.
    children: u64,
    subtree: u64,
    /// Rank among the parent's live children.
    rank: u32,
    /// The call (`WorldHasher::call`) that set `flags`.
    mark: u32,
    /// What this call does to the node (valid when `mark` is the current call).
    flags: u8,
    /// In the out-of-world watch list.
    listed: bool,
}

/// Hashed afresh this call (with its whole subtree).
const FRESH: u8 = 1;
/// Its content is to be hashed again.
const CONTENT: u8 = 2;
/// Its children are to be summed again.
const CHILDREN: u8 = 4;
/// In a depth bucket.
const QUEUED: u8 = 8;

/// How many nodes ahead of the one being worked on a loop prefetches.
const AHEAD: usize = 8;

/// How the last [`WorldHasher::update`] went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HasherStats {
    /// Whether it hashed everything afresh (first call, lost history).
    pub rebuilt: bool,
    /// Nodes whose content it hashed.
    pub contents: usize,
    /// Nodes whose subtree hash it recomputed (content or children).
    pub subtrees: usize,
}

/// Keeps [`Arena::world_hash`] of one arena up to date from its revision logs (see the
/// module docs).
///
/// ```
/// use arbor_core::{Arena, Class, Vec3, WorldHasher};
/// let mut arena = Arena::new();
/// let ws = arena.workspace();
/// let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
/// let mut hasher = WorldHasher::new();
/// assert_eq!(hasher.update(&arena), arena.world_hash());
/// arena.set_position(p, Vec3::X).unwrap();
/// assert_eq!(hasher.update(&arena), arena.world_hash()); // one node hashed again
/// assert!(!hasher.stats().rebuilt);
/// ```
#[derive(Default)]
pub struct WorldHasher {
    recs: Vec<Rec>,
    /// Whether the records are complete (false before the first call).
    valid: bool,
    /// The arena's global revision at the last call.
    since: u64,
    /// The current call's number (marks records it touched).
    call: u32,
    /// Slots of out-of-world nodes to check by revision (entries may be stale).
    outside: Vec<u32>,
    /// Live detached roots and the subtree hash each adds.
    detached: FxHashMap<Id, u64>,
    detached_sum: u64,
    root: u64,
    value: u64,
    stats: HasherStats,
    // Scratch, kept between calls.
    refs: Vec<Option<Id>>,
    order: Vec<(Id, Slot)>,
    buckets: Vec<Vec<u32>>,
    fresh: Vec<Id>,
    touched: Vec<Id>,
    stamped: Vec<Id>,
    written: Vec<Id>,
}

impl WorldHasher {
    /// A hasher that has seen nothing yet (its first [`update`](Self::update) hashes the
    /// whole world).
    pub fn new() -> Self {
        Self::default()
    }

    /// The world hash of `arena` now, equal to [`Arena::world_hash`], updated from what
    /// changed since the last call (everything, the first time or when history was lost).
    pub fn update(&mut self, arena: &Arena) -> u64 {
        let now = arena.revisions().global;
        if !self.valid || now < self.since {
            self.rebuild(arena);
        } else if now == self.since {
            self.stats = HasherStats::default();
        } else if !self.follow(arena) {
            self.rebuild(arena);
        }
        self.since = now;
        self.value
    }

    /// The value of the last [`update`](Self::update).
    pub fn value(&self) -> u64 {
        self.value
    }

    /// How the last [`update`](Self::update) went.
    pub fn stats(&self) -> HasherStats {
        self.stats
    }

    /// Forgets everything: the next [`update`](Self::update) hashes the whole world.
    pub fn reset(&mut self) {
        self.valid = false;
    }

    /// Starts a call: a new mark, and records for every slot.
    fn begin(&mut self, arena: &Arena) {
        self.call = self.call.wrapping_add(1);
        if self.call == 0 {
            self.recs.iter_mut().for_each(|r| r.mark = 0);
            self.call = 1;
        }
        if self.recs.len() < arena.slot_capacity() {
            self.recs.resize(arena.slot_capacity(), Rec::default());
        }
    }

    /// The flags of slot `s` in this call.
    #[inline]
    fn flags(&self, s: usize) -> u8 {
        let r = &self.recs[s];
        if r.mark == self.call { r.flags } else { 0 }
    }

    #[inline]
    fn set_flags(&mut self, s: usize, flags: u8) {
        let call = self.call;
        let r = &mut self.recs[s];
        if r.mark != call {
            r.mark = call;
            r.flags = 0;
        }
        r.flags |= flags;
    }

    /// Hashes everything afresh.
    fn rebuild(&mut self, arena: &Arena) {
        self.begin(arena);
        self.recs.iter_mut().for_each(|r| *r = Rec { mark: r.mark, ..Rec::default() });
        self.outside.clear();
        self.detached.clear();
        self.detached_sum = 0;
        self.stats = HasherStats { rebuilt: true, ..HasherStats::default() };
        self.root = self.hash_fresh(arena, arena.root);
        let tops: Vec<Id> =
            arena.iter().filter(|n| n.parent().is_none() && n.id() != arena.root).map(|n| n.id()).collect();
        for top in tops {
            let h = self.hash_fresh(arena, top);
            self.set_detached(top, Some(h));
        }
        self.value = world_of(self.root, self.detached.len(), self.detached_sum);
        self.valid = true;
    }

    /// Adds, replaces (`Some`) or drops (`None`) detached root `id`'s term.
    fn set_detached(&mut self, id: Id, hash: Option<u64>) {
        let old = match hash {
            Some(h) => self.detached.insert(id, h),
            None => self.detached.remove(&id),
        };
        if let Some(o) = old {
            self.detached_sum = self.detached_sum.wrapping_sub(detached_term(o));
        }
        if let Some(h) = hash {
            self.detached_sum = self.detached_sum.wrapping_add(detached_term(h));
        }
    }

    /// Hashes `top`'s whole subtree afresh (every node after its descendants), filling the
    /// records (marked [`FRESH`]); returns its subtree hash.
    fn hash_fresh(&mut self, arena: &Arena, top: Id) -> u64 {
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        let mut stack = vec![top];
        while let Some(id) = stack.pop() {
            let Some(slot) = arena.store.locate(id) else { continue };
            order.push((id, slot));
            stack.extend(arena.read(slot).children().iter().rev());
        }
        for &(id, slot) in order.iter().rev() {
            let node = arena.read(slot);
            let content = arena.content_hash(node, &mut self.refs);
            let mut children = 0u64;
            for (rank, c) in node.children().iter().enumerate() {
                let cs = arena.slot_of(c).index();
                self.recs[cs].rank = rank as u32;
                children = children.wrapping_add(child_term(rank as u32, self.recs[cs].subtree));
            }
            let s = slot.index();
            let listed = self.recs[s].listed;
            self.recs[s] = Rec {
                id,
                content,
                children,
                subtree: subtree_hash(content, children),
                rank: self.recs[s].rank,
                mark: self.recs[s].mark,
                flags: self.recs[s].flags,
                listed,
            };
            self.set_flags(s, FRESH);
            self.watch(s, node.flags());
        }
        self.stats.contents += order.len();
        self.stats.subtrees += order.len();
        let top = order.first().map(|&(_, s)| self.recs[s.index()].subtree);
        self.order = order;
        top.expect("a live top")
    }

    /// Puts slot `s` in the out-of-world watch list when its node is out of the world.
    #[inline]
    fn watch(&mut self, s: usize, flags: NodeFlags) {
        if !flags.contains(NodeFlags::IN_WORLD) && !self.recs[s].listed {
            self.recs[s].listed = true;
            self.outside.push(s as u32);
        }
    }

    /// Follows the logs from the last revision seen; false if history was lost.
    fn follow(&mut self, arena: &Arena) -> bool {
        self.begin(arena);
        self.stats = HasherStats::default();
        let since = self.since;
        let (mut fresh, mut touched, mut stamped, mut written) = (
            std::mem::take(&mut self.fresh),
            std::mem::take(&mut self.touched),
            std::mem::take(&mut self.stamped),
            std::mem::take(&mut self.written),
        );
        fresh.clear();
        touched.clear();
        stamped.clear();
        written.clear();
        let gathered = (|| {
            for (_, change) in arena.topology_since(since).ok()? {
                match change {
                    TopologyChange::Created { id, .. } | TopologyChange::Moved { id, .. } => {
                        fresh.push(id);
                        touched.push(id);
                    }
                    TopologyChange::Destroyed { id } => touched.push(id),
                }
            }
            stamped.extend(arena.part_writes_since(since).ok()?);
            stamped.extend(arena.node_writes_since(since).ok()?);
            Some(())
        })();
        if gathered.is_some() {
            // Out-of-world nodes: by revision; stale entries leave the list.
            let mut k = 0;
            while k < self.outside.len() {
                let s = self.outside[k] as usize;
                let rec = self.recs[s];
                let node = arena.store.at(Slot(s as u32)).filter(|n| n.id() == rec.id && !n.is_destroyed());
                if let Some(n) = node
                    && n.revision() > since
                {
                    // Even if it entered the world since: the holders of references to it.
                    stamped.push(rec.id);
                }
                match node {
                    Some(n) if !n.flags().contains(NodeFlags::IN_WORLD) => k += 1,
                    _ => {
                        self.recs[s].listed = false;
                        self.outside.swap_remove(k);
                    }
                }
            }
            // Component rows written (chunk passes stamp no node).
            for table in arena.components.tables.iter() {
                for s in table.component_slots() {
                    table.ids_written_since(s, since, &mut written);
                }
            }
            self.apply(arena, &fresh, &touched, &stamped, &written);
        }
        self.fresh = fresh;
        self.touched = touched;
        self.stamped = stamped;
        self.written = written;
        gathered.is_some()
    }

    /// Applies what the logs told (see the module docs).
    fn apply(&mut self, arena: &Arena, fresh: &[Id], touched: &[Id], stamped: &[Id], written: &[Id]) {
        // 1. Created and moved subtrees, hashed afresh; their parents sum their children again.
        for &id in fresh {
            let Some(slot) = arena.store.locate(id) else { continue };
            let node = arena.read(slot);
            if node.is_destroyed() || self.flags(slot.index()) & FRESH != 0 {
                continue;
            }
            self.hash_fresh(arena, id);
            if let Some(p) = node.parent() {
                self.queue(arena, p, CHILDREN);
            }
        }
        // 2. Stamped nodes (content, and children: a stamp may be a change of children),
        //    written rows, and the holders of references to all of them.
        for (k, &id) in stamped.iter().enumerate() {
            // Two stages ahead: the node's hot record and record, then (its hot record in
            // cache by then) its parent's, which the walk up to its depth reads.
            if let Some(&far) = stamped.get(k + 2 * AHEAD) {
                self.prefetch_id(arena, far);
            }
            if let Some(&near) = stamped.get(k + AHEAD)
                && let Some(p) = arena.store.node(near).and_then(|n| n.parent())
            {
                self.prefetch_id(arena, p);
            }
            self.queue(arena, id, CONTENT | CHILDREN);
        }
        for &id in written {
            self.queue(arena, id, CONTENT);
        }
        let has_refs = !arena.indexes.refs.is_empty() || !arena.component_refs.is_empty();
        if has_refs {
            let mut holders = Vec::new();
            for &id in stamped.iter().chain(written) {
                holders.extend(arena.referrers(id).map(|(h, _)| h));
                holders.extend(arena.component_referrers(id).map(|(h, _, _)| h));
            }
            for h in holders {
                self.queue(arena, h, CONTENT);
            }
        }
        // 3. Deepest first, up to the tops.
        let mut d = self.buckets.len();
        while d > 0 {
            d -= 1;
            let bucket = std::mem::take(&mut self.buckets[d]);
            for (k, &s) in bucket.iter().enumerate() {
                // Three stages ahead: the node's hot record and record; then (the record in
                // cache by then) the lines of its content if it is to be hashed; then (its hot
                // record in cache) its parent's hot record and record.
                if let Some(&far) = bucket.get(k + 3 * AHEAD) {
                    arena.store.prefetch_hot(Slot(far));
                    self.prefetch_rec(far as usize);
                }
                if let Some(&mid) = bucket.get(k + 2 * AHEAD)
                    && self.flags(mid as usize) & CONTENT != 0
                {
                    arena.store.prefetch_content(Slot(mid));
                }
                if let Some(&near) = bucket.get(k + AHEAD)
                    && let Some(p) = arena.store.at(Slot(near)).and_then(|n| n.parent())
                {
                    self.prefetch_id(arena, p);
                }
                self.settle(arena, s as usize, d);
            }
            let mut bucket = bucket;
            bucket.clear();
            if self.buckets[d].is_empty() {
                self.buckets[d] = bucket;
            }
        }
        // 4. Detached roots that came or went.
        for &id in touched {
            let top = arena
                .store
                .locate(id)
                .map(|s| arena.read(s))
                .filter(|n| !n.is_destroyed() && n.parent().is_none() && id != arena.root);
            match top {
                Some(n) => {
                    let h = self.recs[arena.slot_of(n.id()).index()].subtree;
                    self.set_detached(id, Some(h));
                }
                None if self.detached.contains_key(&id) => self.set_detached(id, None),
                None => {}
            }
        }
        self.value = world_of(self.root, self.detached.len(), self.detached_sum);
    }

    /// Queues live node `id` with `flags` in the bucket of its depth.
    fn queue(&mut self, arena: &Arena, id: Id, flags: u8) {
        let Some(slot) = arena.store.locate(id) else { return };
        let node = arena.read(slot);
        if node.is_destroyed() {
            return;
        }
        let s = slot.index();
        let was = self.flags(s);
        self.set_flags(s, flags);
        if was & QUEUED == 0 {
            let depth = arena.ancestors(id).count();
            self.push(s, depth);
        }
    }

    /// Prefetches the record of slot `s` (both lines it may straddle).
    #[inline]
    fn prefetch_rec(&self, s: usize) {
        if let Some(r) = self.recs.get(s) {
            let start = (r as *const Rec).cast::<u8>();
            prefetch_ptr(start);
            prefetch_ptr(start.wrapping_add(size_of::<Rec>() - 1));
        }
    }

    /// Prefetches the hot record and hasher record of `id`'s direct slot (where it is, for
    /// ids allocated in order; a useless hint otherwise).
    #[inline]
    fn prefetch_id(&self, arena: &Arena, id: Id) {
        if let Some(slot) = id.direct_slot() {
            arena.store.prefetch_hot(slot);
            self.prefetch_rec(slot.index());
        }
    }

    fn push(&mut self, s: usize, depth: usize) {
        self.set_flags(s, QUEUED);
        if self.buckets.len() <= depth {
            self.buckets.resize_with(depth + 1, Vec::new);
        }
        self.buckets[depth].push(s as u32);
    }

    /// Recomputes the node in slot `s` (at `depth`) as its flags say, and passes a changed
    /// subtree hash to its parent (or the world).
    fn settle(&mut self, arena: &Arena, s: usize, depth: usize) {
        let node = arena.read(Slot(s as u32));
        let id = node.id();
        let flags = self.flags(s);
        if self.recs[s].id != id {
            // No record (not expected: new nodes come through the topology journal).
            self.hash_fresh(arena, id);
            match node.parent() {
                Some(p) => self.queue(arena, p, CHILDREN),
                None => self.pass_top(arena, s, id),
            }
            return;
        }
        let old = self.recs[s].subtree;
        if flags & FRESH == 0 {
            if flags & CONTENT != 0 {
                self.recs[s].content = arena.content_hash(node, &mut self.refs);
                self.stats.contents += 1;
            }
            if flags & CHILDREN != 0 && !node.flags().contains(NodeFlags::HAS_CHILDREN) {
                self.recs[s].children = 0;
            } else if flags & CHILDREN != 0 {
                let mut children = 0u64;
                for (rank, c) in node.children().iter().enumerate() {
                    let cs = arena.slot_of(c).index();
                    if self.recs[cs].id != c {
                        self.hash_fresh(arena, c);
                    }
                    self.recs[cs].rank = rank as u32;
                    children = children.wrapping_add(child_term(rank as u32, self.recs[cs].subtree));
                }
                self.recs[s].children = children;
            }
            self.watch(s, node.flags());
        }
        let rec = &mut self.recs[s];
        rec.subtree = subtree_hash(rec.content, rec.children);
        self.stats.subtrees += 1;
        let (new, rank) = (rec.subtree, rec.rank);
        if new == old && flags & FRESH == 0 {
            return;
        }
        match node.parent() {
            Some(p) => {
                let ps = arena.slot_of(p).index();
                if self.flags(ps) & (CHILDREN | FRESH) == 0 {
                    let r = &mut self.recs[ps];
                    r.children =
                        r.children.wrapping_sub(child_term(rank, old)).wrapping_add(child_term(rank, new));
                }
                if self.flags(ps) & QUEUED == 0 {
                    self.push(ps, depth.saturating_sub(1));
                }
            }
            None => self.pass_top(arena, s, id),
        }
    }

    /// Passes the subtree hash of a top (no parent) to the world.
    fn pass_top(&mut self, arena: &Arena, s: usize, id: Id) {
        let h = self.recs[s].subtree;
        if id == arena.root {
            self.root = h;
        } else {
            self.set_detached(id, Some(h));
        }
    }
}

#[cfg(test)]
#[path = "world_hasher_tests.rs"]
mod tests;
