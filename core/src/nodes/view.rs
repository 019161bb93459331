//! [`NodesView`]: a read-only view of an arena's node pages for whole-tree passes, and
//! [`PageView`], one page's hot records and columns.
//!
//! A pass that visits many nodes (the transform pass) should not pay the generic accessors'
//! costs per node: two levels of `Arc` pointers to reach a page, then one field at a time.
//! The view lists the page table's directories once (one slice of page pointers per 256
//! pages, i.e. per 16,384 slots: seven for 100,000 nodes), so reaching a slot's page is a
//! load from that short, always-cached list and one from the directory's pointer array; and
//! it hands out a page's hot records (id, parent, flags, local transform, revision and class
//! of each node in one cache line, see [`HotNode`]) and its cold columns (sizes, child
//! arrays) as slices. Building it costs next to nothing, which matters to a pass that
//! touches a thousand nodes (the alternative measured: `docs/perf/nodes.md`, "Node views"). Ids
//! resolve to slots the same way as everywhere else: slot `id - 1` checked against the
//! page's stored id, then the id map.
//!
//! Invariants: the view borrows the arena immutably, so it cannot outlive or see a change
//! to the pages it lists; page `p` of the view is the page holding slots
//! `p * PAGE_SIZE .. (p + 1) * PAGE_SIZE`; a slot at or above [`NodesView::slots`] is never
//! occupied.

use crate::id::{Id, Slot};
use crate::nodes::child_array::ChildArray;
use crate::nodes::hot::HotNode;
use crate::nodes::hot::LocalTransform;
use crate::nodes::page::{NodePage, NodeRef, PAGE_SHIFT, PAGE_SIZE};
use crate::nodes::page_table::{DIR_SHIFT, DIR_SIZE};
use crate::nodes::store::{IdMap, NodeStore};
use crate::value::NodeFlags;
use glam::Vec3;
use std::sync::Arc;

/// Every node page of an arena, flattened for direct access by slot.
///
/// ```
/// use arbor_core::{Arena, Class};
/// let mut arena = Arena::new();
/// let part = arena.create(Class::Part, "P", Some(arena.workspace())).unwrap();
/// let view = arena.nodes_view();
/// let (slot, node) = view.locate(part).unwrap();
/// assert_eq!(node.id(), part);
/// let (page, i) = view.page_of(slot).unwrap();
/// assert_eq!(page.hot()[i].id(), part);
/// assert_eq!(page.hot()[i].parent(), arena.workspace());
/// assert_eq!(page.id(i), part);
/// ```
pub struct NodesView<'a> {
    /// Each directory's page pointers (directory `d` holds pages `d * DIR_SIZE ..`).
    dirs: Vec<&'a [Arc<NodePage>]>,
    pages: usize,
    map: &'a IdMap,
    slots: u32,
}

impl<'a> NodesView<'a> {
    pub(crate) fn new(store: &'a NodeStore) -> Self {
        let table = &store.table;
        Self {
            dirs: table.directories().collect(),
            pages: table.page_count(),
            map: &store.map,
            slots: store.slots,
        }
    }

    /// Page `index`, if the arena has it.
    #[inline(always)]
    fn page_ref(&self, index: usize) -> Option<&'a NodePage> {
        let dir: &'a [Arc<NodePage>] = self.dirs.get(index >> DIR_SHIFT)?;
        dir.get(index & (DIR_SIZE - 1)).map(|page| &**page)
    }

    /// Slots in use or ever used (an upper bound for slot-indexed columns).
    #[inline]
    pub fn slots(&self) -> u32 {
        self.slots
    }

    /// Number of pages.
    #[inline]
    pub fn page_count(&self) -> usize {
        self.pages
    }

    /// Page `index` (slots `index * PAGE_SIZE ..`), if the arena has it.
    #[inline]
    pub fn page(&self, index: usize) -> Option<PageView<'a>> {
        self.page_ref(index).map(|page| PageView { page })
    }

    /// The page holding `slot` and the slot's index inside it.
    #[inline]
    pub fn page_of(&self, slot: Slot) -> Option<(PageView<'a>, usize)> {
        let page = self.page((slot.0 >> PAGE_SHIFT) as usize)?;
        Some((page, slot.index() & (PAGE_SIZE - 1)))
    }

    /// The node (live or tombstone) in `slot`, if the slot is occupied.
    #[inline]
    pub fn node_at(&self, slot: Slot) -> Option<NodeRef<'a>> {
        let (page, i) = self.page_of(slot)?;
        (!page.page.hot[i].id.is_none()).then_some(NodeRef { page: page.page, i })
    }

    /// The slot of node `id` (live or tombstone) and the node.
    ///
    /// The usual case, slot `id - 1`, is a few instructions inlined at the caller; ids that
    /// live elsewhere (reused slots, client ids) and [`Id::NONE`] go through the id map out
    /// of line.
    #[inline(always)]
    pub fn locate(&self, id: Id) -> Option<(Slot, NodeRef<'a>)> {
        // `Id::NONE` (0) wraps to a slot no arena reaches and fails the page check below.
        let slot = id.0.wrapping_sub(1);
        if slot < u64::from(self.slots)
            && let Some(page) = self.page_ref((slot >> PAGE_SHIFT) as usize)
        {
            let i = slot as usize & (PAGE_SIZE - 1);
            if page.hot[i].id == id {
                return Some((Slot(slot as u32), NodeRef { page, i }));
            }
        }
        self.locate_mapped(id)
    }

    /// [`locate`](Self::locate) through the id map.
    #[cold]
    #[inline(never)]
    fn locate_mapped(&self, id: Id) -> Option<(Slot, NodeRef<'a>)> {
        if id.is_none() {
            return None;
        }
        let slot = self.map.get(id)?;
        let (page, i) = self.page_of(slot)?;
        Some((slot, NodeRef { page: page.page, i }))
    }

    /// The slot of node `id` (live or tombstone).
    #[inline]
    pub fn slot_of(&self, id: Id) -> Option<Slot> {
        self.locate(id).map(|(slot, _)| slot)
    }
}

/// The hot records and columns of one node page (64 slots; vacant slots hold [`Id::NONE`] and
/// defaults).
#[derive(Clone, Copy)]
pub struct PageView<'a> {
    page: &'a NodePage,
}

impl<'a> PageView<'a> {
    /// Hot records by index: id (`Id::NONE`: vacant), parent (`Id::NONE`: none), flags,
    /// local transform, revision and class, one cache line each.
    #[inline]
    pub fn hot(&self) -> &'a [HotNode; PAGE_SIZE] {
        &self.page.hot
    }

    /// The id at index `i` (`Id::NONE`: vacant).
    #[inline]
    pub fn id(&self, i: usize) -> Id {
        self.page.hot[i].id
    }

    /// The parent at index `i` (`Id::NONE`: none).
    #[inline]
    pub fn parent(&self, i: usize) -> Id {
        self.page.hot[i].parent
    }

    /// The flags at index `i`.
    #[inline]
    pub fn flags(&self, i: usize) -> NodeFlags {
        self.page.hot[i].flags
    }

    /// The local transform at index `i`.
    #[inline]
    pub fn transform(&self, i: usize) -> &'a LocalTransform {
        &self.page.hot[i].local
    }

    /// Sizes by index.
    #[inline]
    pub fn sizes(&self) -> &'a [Vec3; PAGE_SIZE] {
        &self.page.sizes
    }

    /// Child arrays by index (`PAGE_SIZE` of them).
    #[inline]
    pub fn children(&self) -> &'a [ChildArray] {
        &self.page.children
    }

    /// The node at index `i` (live, tombstone or vacant: check [`id`](Self::id) first).
    #[inline]
    pub fn node(&self, i: usize) -> NodeRef<'a> {
        NodeRef { page: self.page, i }
    }
}

#[cfg(test)]
mod tests {
    use crate::{
        Arena, ArenaConfig, Class, Id, IdRange, LocalTransform, Quat, Vec3,
        raw::{PAGE_SIZE, Slot},
    };

    #[test]
    fn view_agrees_with_the_arena_accessors() {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let mut ids = vec![ws];
        for i in 0..300u32 {
            let parent = ids[(i as usize * 7) % ids.len()];
            let id = arena.create(Class::Part, "P", Some(parent)).unwrap();
            let t = LocalTransform {
                position: Vec3::new(i as f32, 1.0, 2.0),
                rotation: Quat::from_rotation_y(i as f32 * 0.01),
            };
            arena.set_transform(id, t).unwrap();
            arena.set_size(id, Vec3::splat(i as f32 + 1.0)).unwrap();
            ids.push(id);
        }
        // A reclaimed slot reused by a later id resolves through the id map.
        let victim = ids.pop().unwrap();
        arena.destroy(victim).unwrap();
        arena.drain_events();
        arena.drain_events();
        let reused = arena.create(Class::Part, "R", Some(ws)).unwrap();
        assert_eq!(arena.slot(reused), Some(Slot(victim.0 as u32 - 1)), "the freed slot is reused");
        ids.push(reused);

        let view = arena.nodes_view();
        assert_eq!(view.slots() as usize, arena.slot_capacity());
        assert_eq!(view.page_count(), arena.slot_capacity().div_ceil(PAGE_SIZE));
        for &id in &ids {
            let node = arena.get(id).unwrap();
            let (slot, found) = view.locate(id).unwrap();
            assert_eq!(Some(slot), arena.slot(id));
            assert_eq!(view.slot_of(id), Some(slot));
            assert_eq!(found.id(), id);
            assert_eq!(view.node_at(slot).unwrap().id(), id);
            let (page, i) = view.page_of(slot).unwrap();
            assert_eq!(page.id(i), id);
            assert_eq!(page.parent(i), node.parent().unwrap_or(Id::NONE));
            assert_eq!(page.flags(i), node.flags());
            assert_eq!(*page.transform(i), node.transform());
            let hot = &page.hot()[i];
            assert_eq!((hot.id(), hot.parent(), hot.flags()), (id, page.parent(i), node.flags()));
            assert_eq!(
                (*hot.local(), hot.revision(), hot.class()),
                (node.transform(), node.revision(), node.class())
            );
            assert_eq!(page.sizes()[i], node.size());
            assert_eq!(page.children().len(), PAGE_SIZE);
            assert_eq!(
                page.children()[i].iter().collect::<Vec<_>>(),
                node.children().iter().collect::<Vec<_>>()
            );
            assert_eq!(page.node(i).id(), id);
        }
        assert!(view.locate(victim).is_none(), "reclaimed");
        assert!(view.locate(Id::NONE).is_none());
        assert!(view.locate(Id(1 << 40)).is_none());
        assert!(view.node_at(Slot(view.slots() + PAGE_SIZE as u32)).is_none());
    }

    #[test]
    fn view_finds_ids_outside_the_contiguous_range() {
        let config = ArenaConfig { id_range: IdRange::ClientLocal, ..ArenaConfig::default() };
        let mut arena = Arena::with_config(config);
        let a = arena.create(Class::Model, "A", Some(arena.workspace())).unwrap();
        assert!(a.is_client_local());
        let view = arena.nodes_view();
        let (slot, node) = view.locate(a).unwrap();
        assert_eq!(Some(slot), arena.slot(a));
        assert_eq!(node.class(), Class::Model);
    }
}
