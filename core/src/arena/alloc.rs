//! Node allocation and rollback: minting a node into a slot (reusing vacant slots, growing
//! the page table), freeing one at once (reclamation, rollback), and the [`Checkpoint`] a
//! batch construction (clone, graft, place loading) rolls back to when it fails.
//!
//! Invariant: after `rollback(cp, allocated)` with every node allocated since `cp`, the
//! allocation counter, revisions, GUID generator, event queue and journals are as they were
//! at `cp`, so the next operation cannot tell the failed batch happened.

use super::{Arena, TopologyChange};
use crate::class::{Class, Family};
use crate::error::ArenaError;
use crate::id::{Id, Slot};
use crate::names::NameId;
use crate::nodes::page::{FreshRun, NodePage, PAGE_SIZE};
use crate::revision::Revisions;
use crate::rng::SplitMix64;
use crate::value::{Guid, NodeFlags};

/// A rollback point for batch construction (clone, graft): the allocation counter, the
/// revision counters, the GUID generator and the positions of the event queue and journals.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checkpoint {
    next_id: u64,
    revisions: Revisions,
    rng: SplitMix64,
    events: usize,
    part_writes: u64,
    node_writes: u64,
    topology: u64,
    created: usize,
}

impl Arena {
    fn next_guid(&mut self) -> Guid {
        Guid(self.rng.next_u128())
    }

    /// Allocates a node; `id` is minted unless given. It starts detached. A refusal (full
    /// arena, exhausted ids) happens before anything is written (`create` relies on it).
    pub(crate) fn new_node(
        &mut self,
        id: Option<Id>,
        class: Class,
        name: NameId,
        flags: NodeFlags,
        rev: u64,
    ) -> Result<Id, ArenaError> {
        self.check_room(1)?;
        let id = match id {
            Some(id) => id,
            None => self.ids.allocate().ok_or(ArenaError::IdsExhausted)?,
        };
        let slot = match self.vacant.pop() {
            Some(slot) => slot,
            None => {
                if self.store.slots as usize == self.store.table.capacity() {
                    self.store.table.grow();
                }
                self.store.slots += 1;
                Slot(self.store.slots - 1)
            }
        };
        self.created += 1;
        if id.direct_slot() != Some(slot) {
            self.store.map.insert(id, slot);
        }
        let guid = self.next_guid();
        let (page, i) = self.store.table.page_mut(slot.0);
        // A fresh or vacated slot has no children (`HAS_CHILDREN` is the arena's to set).
        debug_assert!(page.children[i].as_slice().is_empty());
        let hot = &mut page.hot[i];
        hot.id = id;
        hot.class = class;
        hot.flags = NodeFlags(flags.0 & !NodeFlags::HAS_CHILDREN.0);
        hot.revision = rev;
        page.names[i] = name;
        page.guids[i] = guid;
        if self.child_pos.len() <= slot.index() {
            let len = (slot.index() + 1).next_multiple_of(PAGE_SIZE);
            self.child_pos.resize(len, u32::MAX);
            self.indexes.ensure_slot(Slot(len as u32 - 1));
        }
        self.occupied += 1;
        self.live += 1;
        Ok(id)
    }

    /// Allocates up to `count` detached nodes with freshly minted ids into consecutive fresh
    /// slots of one page (no vacant slot may be waiting: those go through
    /// [`new_node`](Self::new_node)), each with its own revision and topology journal entry
    /// as [`new_node`](Self::new_node) plus `create` would give it, and appends their ids to
    /// `out`. Returns how many it created (at least one), or an error before creating any.
    /// The caller has checked the node limit for the whole batch.
    ///
    /// A run that starts a fresh page builds that page with its nodes already in it
    /// ([`NodePage::new_shared_run`]), and the slot-indexed vectors (`child_pos`, the family
    /// positions) are reserved for the whole batch at once. Before, each fresh page was
    /// written with vacant defaults and then overwritten, and the family positions regrew
    /// (copying) about eight times per 10,000 nodes: `create_batch` of 10,000 detached nodes
    /// took 98.5 instructions a node, then 81.1 (best-of 8.3-8.4 -> 6.5-6.8 ns a node). The
    /// run's GUIDs are drawn at once, vectorised ([`SplitMix64::fill_u128`]): 65.2 a node
    /// (callgrind, AVX2 path), best-of 6.5-7.0 -> 5.4-5.9 ns a node (AVX-512 path).
    pub(crate) fn new_detached_run(
        &mut self,
        class: Class,
        name: NameId,
        count: usize,
        out: &mut Vec<Id>,
    ) -> Result<usize, ArenaError> {
        debug_assert!(self.vacant.is_empty() && count > 0);
        let first_slot = self.store.slots;
        let run = (PAGE_SIZE - first_slot as usize % PAGE_SIZE).min(count);
        let first_id = self.ids.reserve(run as u64).ok_or(ArenaError::IdsExhausted)?;
        // A run starting a fresh page (slot 0 of it) is written as the page is built.
        let fresh = first_slot as usize == self.store.table.capacity();
        self.store.slots += run as u32;
        // Ids and slots both advance by one: if the first id maps to its slot directly, so do
        // the rest, and the map needs no entry.
        if Id(first_id.0).direct_slot() != Some(Slot(first_slot)) {
            for j in 0..run {
                self.store.map.insert(Id(first_id.0 + j as u64), Slot(first_slot + j as u32));
            }
        }
        let last = Slot(first_slot + run as u32 - 1);
        if self.child_pos.len() <= last.index() {
            let len = (last.index() + 1).next_multiple_of(PAGE_SIZE);
            // Room for the whole batch (whole pages) at once, not a page at a time.
            let batch_end = (first_slot as usize + count).next_multiple_of(PAGE_SIZE);
            self.child_pos.reserve(batch_end - self.child_pos.len());
            self.indexes.reserve_slots(batch_end);
            self.child_pos.resize(len, u32::MAX);
            self.indexes.ensure_slot(Slot(len as u32 - 1));
        }
        // Node `j` gets id `first_id + j` and revision `rev0 + j`, exactly as `run` single
        // creations would; each column is written in its own loop.
        let rev0 = self.revisions.global + 1;
        self.revisions.global += run as u64;
        let nodes = FreshRun { len: run, first_id, class, name, flags: NodeFlags::NEW, rev0 };
        if fresh {
            // Each of the page's words written once: the run's values, the vacant defaults
            // only past the run.
            let page = NodePage::new_shared_run(&nodes, &mut self.rng);
            self.store.table.push_page(page);
        } else {
            let (page, first) = self.store.table.page_mut(first_slot);
            page.write_run(first, &nodes, &mut self.rng);
        }
        self.topology.push_run(run, |j| {
            (nodes.revision(j), TopologyChange::Created { id: nodes.id(j), parent: None })
        });
        out.extend((0..run).map(|j| nodes.id(j)));
        self.revisions.topology = self.revisions.global;
        self.occupied += run;
        self.live += run;
        Ok(run)
    }

    /// Frees a node's slot at once, dropping it from every index (reclamation and rollback).
    pub(super) fn free_node(&mut self, id: Id) {
        let Some(slot) = self.store.locate(id) else { return };
        let node = self.read(slot);
        let was_live = !node.is_destroyed();
        let class = node.class();
        let extras = node.extras().clone();
        if let Some(f) = class.family() {
            self.family_remove(f, slot);
        }
        for tag in &extras.tags {
            self.indexes.tag_remove(*tag, id);
        }
        for (field, target) in extras.references() {
            self.indexes.ref_remove(target, id, field);
        }
        if let Some(p) = extras.persistent_id
            && self.indexes.persistent.get(&p) == Some(&id)
        {
            self.indexes.persistent.remove(&p);
        }
        if let Some(h) = extras.handle
            && self.indexes.handles.get(&h) == Some(&id)
        {
            self.indexes.handles.remove(&h);
        }
        let rev = self.revisions.global;
        self.remove_all_components(id, rev);
        let (page, i) = self.store.table.page_mut(slot.0);
        page.clear(i);
        self.store.map.remove(id);
        self.child_pos[slot.index()] = u32::MAX;
        self.vacant.push(slot);
        self.occupied -= 1;
        if was_live {
            self.live -= 1;
        }
    }

    pub(crate) fn family_remove(&mut self, family: Family, slot: Slot) {
        let store = &self.store;
        self.indexes.family_remove(family, slot, |id| store.locate(id));
    }

    pub(crate) fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            next_id: self.ids.peek(),
            revisions: self.revisions,
            rng: self.rng,
            events: self.events.len(),
            part_writes: self.part_writes.mark(),
            node_writes: self.node_writes.mark(),
            topology: self.topology.mark(),
            created: self.created,
        }
    }

    /// Frees every node allocated since `cp` (in any order: they form detached subtrees)
    /// and restores the allocation counters (ids, creations in the window), the revision counters, the GUID generator and
    /// the event and journal positions, so the next operation sees the arena as it was.
    pub(crate) fn rollback(&mut self, cp: Checkpoint, allocated: &[Id]) {
        for &id in allocated.iter().rev() {
            self.free_node(id);
        }
        self.ids.rewind(cp.next_id);
        self.revisions = cp.revisions;
        self.rng = cp.rng;
        self.events.truncate(cp.events);
        self.part_writes.truncate_to(cp.part_writes);
        self.node_writes.truncate_to(cp.node_writes);
        self.topology.truncate_to(cp.topology);
        self.created = cp.created;
    }
}
