//! [`Snapshot`]: an immutable, thread-shareable view of an arena at one moment, and
//! [`SnapshotDiff`], what changed between two snapshots.
//!
//! A snapshot clones the top level of the page table and the sharded id map — pointers, not
//! nodes — so it costs microseconds for a million nodes. It carries ids, revisions and
//! tombstones, but no pending events or journals. It never changes after later writes to the
//! arena: those copy the pages they touch.
//!
//! Diffing two snapshots of one arena compares directory pointers, then page pointers, and
//! only inside pages that differ compares each slot's id and revision. A node written since
//! the older snapshot has a newer revision; nodes live in only one snapshot are added or
//! removed.

use crate::components::TableRow;
use crate::components::{ComponentId, ComponentStore};
use crate::error::ArenaError;
use crate::id::Id;
use crate::names::NamePool;
use crate::nodes::page::{NodePage, NodeRef, PAGE_SIZE};
use crate::nodes::page_table::DIR_SIZE;
use crate::nodes::store::NodeStore;
use crate::revision::Revisions;
use std::sync::Arc;

/// A copy-on-write snapshot of an arena.
#[derive(Clone)]
pub struct Snapshot {
    store: NodeStore,
    names: Arc<NamePool>,
    components: ComponentStore,
    revisions: Revisions,
    root: Id,
    workspace: Id,
    live: usize,
}

impl Snapshot {
    pub(crate) fn new(
        store: NodeStore,
        names: Arc<NamePool>,
        components: ComponentStore,
        revisions: Revisions,
        root: Id,
        workspace: Id,
        live: usize,
    ) -> Self {
        Self { store, names, components, revisions, root, workspace, live }
    }

    /// The component store at snapshot time.
    pub fn components(&self) -> &ComponentStore {
        &self.components
    }

    pub(crate) fn store(&self) -> &NodeStore {
        &self.store
    }

    /// The live node with `id` at snapshot time.
    #[inline]
    pub fn get(&self, id: Id) -> Option<NodeRef<'_>> {
        self.store.live(id)
    }

    /// The live node with `id`, or why there is none.
    pub fn node(&self, id: Id) -> Result<NodeRef<'_>, ArenaError> {
        match self.store.node(id) {
            Some(n) if n.is_destroyed() => Err(ArenaError::Destroyed(id)),
            Some(n) => Ok(n),
            None => Err(ArenaError::NotFound(id)),
        }
    }

    /// The tombstone of a node destroyed but not yet reclaimed at snapshot time.
    pub fn tombstone(&self, id: Id) -> Option<NodeRef<'_>> {
        self.store.node(id).filter(|n| n.is_destroyed())
    }

    /// Every live node, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = NodeRef<'_>> + '_ {
        self.store.iter().filter(|n| !n.is_destroyed())
    }

    /// Live nodes at snapshot time.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether no node was live.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The name pool at snapshot time.
    pub fn names(&self) -> &NamePool {
        &self.names
    }

    /// Revision counters at snapshot time.
    pub fn revisions(&self) -> &Revisions {
        &self.revisions
    }

    /// The `DataModel` root.
    pub fn root(&self) -> Id {
        self.root
    }

    /// The `Workspace`.
    pub fn workspace(&self) -> Id {
        self.workspace
    }

    /// Bytes this snapshot holds that the arena does not share with it: the top-level page
    /// table and the component store's table and location-page pointers (pages, tables and
    /// chunks are shared until written).
    pub fn own_bytes(&self) -> usize {
        std::mem::size_of::<Self>() + self.store.table.top_bytes() + self.components.top_bytes()
    }

    /// What changed from `self` (older) to `newer`, both taken from the same arena.
    pub fn diff(&self, newer: &Snapshot) -> SnapshotDiff {
        let mut diff = SnapshotDiff::default();
        let old_t = &self.store.table;
        let new_t = &newer.store.table;
        let pages = old_t.page_count().max(new_t.page_count());
        let mut p = 0;
        while p < pages {
            let d = p / DIR_SIZE;
            if old_t.shares_dir(new_t, d) {
                p = (d + 1) * DIR_SIZE;
                continue;
            }
            if !old_t.shares_page(new_t, p) {
                let old_page = (p < old_t.page_count()).then(|| old_t.page_at(p));
                let new_page = (p < new_t.page_count()).then(|| new_t.page_at(p));
                diff_pages(old_page, new_page, &mut diff);
            }
            p += 1;
        }
        diff.components = component_diff(&self.components, &newer.components, self.revisions.global);
        diff
    }
}

fn live_at(page: Option<&NodePage>, i: usize) -> Option<(Id, u64)> {
    let page = page?;
    let hot = &page.hot[i];
    let destroyed = hot.flags.contains(crate::value::NodeFlags::DESTROYED);
    (!hot.id.is_none() && !destroyed).then_some((hot.id, hot.revision))
}

fn diff_pages(old: Option<&NodePage>, new: Option<&NodePage>, diff: &mut SnapshotDiff) {
    for i in 0..PAGE_SIZE {
        match (live_at(old, i), live_at(new, i)) {
            (Some((a, ra)), Some((b, rb))) if a == b => {
                if ra != rb {
                    diff.changed.push(a);
                }
            }
            (a, b) => {
                if let Some((a, _)) = a {
                    diff.removed.push(a);
                }
                if let Some((b, _)) = b {
                    diff.added.push(b);
                }
            }
        }
    }
}

/// Component rows written after `since` in `new`, and rows present in `old` but gone from
/// `new`. Tables and chunks whose revision predates `since` are skipped unread.
fn component_diff(old: &ComponentStore, new: &ComponentStore, since: u64) -> ComponentDiff {
    let mut diff = ComponentDiff::default();
    for (t, table) in new.tables.iter().enumerate() {
        if old.tables.shares(&new.tables, t) {
            continue;
        }
        for s in table.component_slots() {
            let component = table.lanes_of(s).id;
            for k in 0..table.chunk_count() {
                let base = k * crate::components::CHUNK_ROWS;
                table.for_each_row_written_since(s, k, since, |i| {
                    diff.written.push((table.id_at(TableRow(base + i)), component));
                });
            }
        }
    }
    for (t, table) in old.tables.iter().enumerate() {
        if new.tables.shares(&old.tables, t) {
            continue;
        }
        for row in 0..table.len {
            let id = table.id_at(TableRow(row));
            for &c in table.components.iter() {
                if !new.has(id, c) {
                    diff.removed.push((id, c));
                }
            }
        }
    }
    diff
}

/// Component changes between two snapshots.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ComponentDiff {
    /// (instance, component) rows added or written since the older snapshot.
    pub written: Vec<(Id, ComponentId)>,
    /// (instance, component) rows present in the older snapshot and gone from the newer.
    pub removed: Vec<(Id, ComponentId)>,
}

/// The nodes that differ between two snapshots, each list in slot order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SnapshotDiff {
    /// Live in both, written in between.
    pub changed: Vec<Id>,
    /// Live only in the newer snapshot.
    pub added: Vec<Id>,
    /// Live only in the older snapshot (destroyed or reclaimed since).
    pub removed: Vec<Id>,
    /// Component rows written or removed.
    pub components: ComponentDiff,
}

impl SnapshotDiff {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty()
            && self.added.is_empty()
            && self.removed.is_empty()
            && self.components.written.is_empty()
            && self.components.removed.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Arena, Class};

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn snapshot_is_send_and_sync() {
        assert_send_sync::<Snapshot>();
    }

    #[test]
    fn snapshot_is_readable_from_another_thread_while_the_arena_goes_on() {
        let mut arena = Arena::new();
        let part = arena.create(Class::Part, "P", Some(arena.workspace())).unwrap();
        let snap = arena.snapshot();
        let reader = std::thread::spawn(move || snap.get(part).map(|n| n.position()));
        arena.set_position(part, glam::Vec3::ONE).unwrap();
        assert_eq!(reader.join().unwrap(), Some(glam::Vec3::ZERO));
    }

    #[test]
    fn diff_reports_changed_added_removed() {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let a = arena.create(Class::Part, "A", Some(ws)).unwrap();
        let b = arena.create(Class::Part, "B", Some(ws)).unwrap();
        let s1 = arena.snapshot();
        arena.set_name(a, "A2").unwrap();
        arena.destroy(b).unwrap();
        let c = arena.create(Class::Part, "C", None).unwrap();
        let s2 = arena.snapshot();
        let d = s1.diff(&s2);
        assert_eq!(d.changed, vec![ws, a]);
        assert_eq!(d.added, vec![c]);
        assert_eq!(d.removed, vec![b]);
        assert!(s2.diff(&s2.clone()).is_empty());
    }
}
