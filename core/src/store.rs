//! [`NodeStore`]: the node pages plus the id → slot lookup; the part of an arena a snapshot
//! shares.
//!
//! Lookup tries slot `id - 1` and checks the stored id (the contiguous case: ids allocated in
//! order into fresh slots), then a map for everything else (reclaimed slots reused, explicit
//! replica ids, client-local ids). The map is split into shards behind `Arc` so a snapshot
//! clones a few pointers and a later insert copies one shard.
//!
//! Invariants: a node whose slot is not `id - 1` is in the map, and only such nodes are; a
//! slot's stored id is the only id that resolves to it.

use crate::id::{Id, Slot};
use crate::page::NodeRef;
use crate::page_table::PageTable;
use rustc_hash::FxHashMap;
use std::sync::Arc;

const SHARDS: usize = 32;

/// Sharded copy-on-write id → slot map.
#[derive(Clone, Default)]
pub(crate) struct IdMap {
    shards: [Arc<FxHashMap<Id, Slot>>; SHARDS],
    len: usize,
}

impl IdMap {
    #[inline]
    fn shard(id: Id) -> usize {
        (id.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 59) as usize % SHARDS
    }

    #[inline]
    pub fn get(&self, id: Id) -> Option<Slot> {
        if self.len == 0 {
            return None;
        }
        self.shards[Self::shard(id)].get(&id).copied()
    }

    pub fn insert(&mut self, id: Id, slot: Slot) {
        if Arc::make_mut(&mut self.shards[Self::shard(id)]).insert(id, slot).is_none() {
            self.len += 1;
        }
    }

    pub fn remove(&mut self, id: Id) {
        if self.get(id).is_some() {
            Arc::make_mut(&mut self.shards[Self::shard(id)]).remove(&id);
            self.len -= 1;
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }
}

/// Pages and lookup: everything needed to read nodes by id.
#[derive(Clone, Default)]
pub(crate) struct NodeStore {
    pub table: PageTable,
    pub map: IdMap,
    /// Slots in use or ever used (the high-water mark); slots below it may be vacant.
    pub slots: u32,
}

impl NodeStore {
    /// The slot holding `id` (live or tombstone).
    #[inline]
    pub fn locate(&self, id: Id) -> Option<Slot> {
        if let Some(slot) = id.direct_slot()
            && slot.0 < self.slots
            && let Some((page, i)) = self.table.page(slot.0)
            && page.ids[i] == id
        {
            return Some(slot);
        }
        self.map.get(id)
    }

    /// The node with `id`, live or tombstone.
    #[inline]
    pub fn node(&self, id: Id) -> Option<NodeRef<'_>> {
        if id.is_none() {
            return None;
        }
        let slot = self.locate(id)?;
        self.at(slot)
    }

    /// The node in `slot`, if occupied.
    #[inline]
    pub fn at(&self, slot: Slot) -> Option<NodeRef<'_>> {
        let (page, i) = self.table.page(slot.0)?;
        (!page.ids[i].is_none()).then_some(NodeRef { page, i })
    }

    /// The live (not destroyed) node with `id`.
    #[inline]
    pub fn live(&self, id: Id) -> Option<NodeRef<'_>> {
        self.node(id).filter(|n| !n.is_destroyed())
    }

    /// Every occupied slot's node, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = NodeRef<'_>> + '_ {
        (0..self.table.page_count()).flat_map(move |p| {
            let page = &**self.table.page_at(p);
            (0..page.ids.len()).filter(move |&i| !page.ids[i].is_none()).map(move |i| NodeRef { page, i })
        })
    }
}
