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
use crate::nodes::page::NodeRef;
use crate::nodes::page_table::PageTable;
use crate::nodes::sharded_map::ShardedMap;

/// Id → slot for nodes not at slot `id - 1`.
pub(crate) type IdMap = ShardedMap<Id, Slot>;

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
            && page.hot[i].id == id
        {
            return Some(slot);
        }
        self.locate_mapped(id)
    }

    /// [`locate`](Self::locate) for an id off its direct slot (out of line, so the direct
    /// case inlines into callers).
    #[inline(never)]
    fn locate_mapped(&self, id: Id) -> Option<Slot> {
        self.map.get(id)
    }

    /// The node with `id`, live or tombstone. The contiguous case walks the page table once.
    #[inline]
    pub fn node(&self, id: Id) -> Option<NodeRef<'_>> {
        if id.is_none() {
            return None;
        }
        if let Some(slot) = id.direct_slot()
            && slot.0 < self.slots
            && let Some((page, i)) = self.table.page(slot.0)
            && page.hot[i].id == id
        {
            return Some(NodeRef { page, i });
        }
        self.at(self.map.get(id)?)
    }

    /// The node in `slot`, if occupied.
    #[inline]
    pub fn at(&self, slot: Slot) -> Option<NodeRef<'_>> {
        let (page, i) = self.table.page(slot.0)?;
        (!page.hot[i].id.is_none()).then_some(NodeRef { page, i })
    }

    /// The live (not destroyed) node with `id`.
    #[inline]
    pub fn live(&self, id: Id) -> Option<NodeRef<'_>> {
        self.node(id).filter(|n| !n.is_destroyed())
    }

    /// Hints the CPU to bring the hot record of the node in `slot` into cache (what
    /// [`locate`](Self::locate) and [`at`](Self::at) read), so a loop over scattered nodes
    /// can have their misses in flight together. No effect on results.
    #[inline]
    pub fn prefetch_hot(&self, slot: Slot) {
        if let Some((page, i)) = self.table.page(slot.0)
            && i < page.hot.len()
        {
            prefetch(&page.hot[i]);
        }
    }

    /// Hints the CPU to bring into cache the lines of the node in `slot`, other than its hot
    /// record, that hashing its content reads (name, size, appearance, extras pointer).
    #[inline]
    pub fn prefetch_content(&self, slot: Slot) {
        if let Some((page, i)) = self.table.page(slot.0)
            && i < page.hot.len()
        {
            prefetch(&page.names[i]);
            prefetch(&page.sizes[i]);
            prefetch(&page.appearances[i]);
            prefetch(&page.extras[i]);
        }
    }

    /// Every occupied slot's node, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = NodeRef<'_>> + '_ {
        (0..self.table.page_count()).flat_map(move |p| {
            let page = self.table.page_at(p);
            (0..page.hot.len()).filter(move |&i| !page.hot[i].id.is_none()).map(move |i| NodeRef { page, i })
        })
    }
}

/// Hints the CPU to bring the cache line holding `*r` into cache.
#[inline(always)]
pub(crate) fn prefetch<T>(r: &T) {
    prefetch_ptr((r as *const T).cast::<u8>());
}

/// Hints the CPU to bring the cache line holding address `p` into cache (a no-op off
/// x86-64). Any address will do: nothing is read.
#[inline(always)]
pub(crate) fn prefetch_ptr(p: *const u8) {
    // SAFETY: SSE is part of the x86-64 baseline, and a prefetch reads nothing and cannot
    // fault, whatever the address.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
