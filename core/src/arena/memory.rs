//! [`MemoryReport`]: counts and byte sizes of an arena's storage (pages, their heap, side
//! tables and the component store), for `arbor stress`, the benches and the README.

use super::Arena;
use crate::nodes::page::NodePage;

/// Counts and byte sizes of an arena's storage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryReport {
    /// Live nodes.
    pub live_nodes: usize,
    /// Occupied slots (live nodes and tombstones).
    pub occupied_slots: usize,
    /// Node pages.
    pub pages: usize,
    /// Bytes of the fixed page columns.
    pub page_bytes: usize,
    /// Heap bytes owned by pages (child arrays, extras).
    pub page_heap_bytes: usize,
    /// Bytes of arena-only side tables and indexes (approximate for hash maps).
    pub side_bytes: usize,
}

impl MemoryReport {
    /// All bytes counted.
    pub fn total_bytes(&self) -> usize {
        self.page_bytes + self.page_heap_bytes + self.side_bytes
    }

    /// Bytes per live node.
    pub fn bytes_per_node(&self) -> f64 {
        self.total_bytes() as f64 / self.live_nodes.max(1) as f64
    }
}

impl Arena {
    /// Byte sizes of the arena's storage.
    pub fn memory_report(&self) -> MemoryReport {
        let pages = self.store.table.page_count();
        let page_heap_bytes = (0..pages).map(|p| self.store.table.page_at(p).heap_bytes()).sum();
        let side_bytes = self.child_pos.capacity() * 4
            + self.indexes.family_pos.capacity() * 4
            + self.vacant.capacity() * 4
            + self.store.map.len() * 24
            + self.indexes.families.iter().map(|f| f.list.capacity() * 8).sum::<usize>()
            + self.components.heap_bytes();
        MemoryReport {
            live_nodes: self.live,
            occupied_slots: self.occupied,
            pages,
            page_bytes: pages * std::mem::size_of::<NodePage>(),
            page_heap_bytes,
            side_bytes,
        }
    }
}
