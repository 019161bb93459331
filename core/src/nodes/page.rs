//! [`NodePage`]: 64 nodes, their hot fields one cache line a node and the rest stored by
//! column, and [`NodeRef`], a read view of one node.
//!
//! A page is the unit of copy-on-write: snapshots share pages through `Arc`, and the first
//! write to a shared page copies that page alone. Inside a page, the fields every hot path
//! reads — local transform, id, parent, revision, flags, class — sit together in one
//! 64-byte, 64-byte-aligned record per node ([`HotNode`], the page's first array); every
//! other field (child arrays, names, GUIDs, sizes, appearances, extras) is its own array, so
//! a pass that reads only sizes touches only the size column.
//!
//! A fresh page is built in place, each array copied from the static vacant page
//! ([`VACANT`]) or, for the run of nodes a detached batch starts it with, written with their
//! values: no word is written twice. The run's GUIDs are drawn into their column a run at a
//! time, vectorised (`SplitMix64::fill_u128`, see `crate::rng`). Why the hot fields share one
//! record, and what it measured: `docs/perf/nodes.md`.
//!
//! Invariants: `hot[i].id == Id::NONE` exactly when slot `i` is vacant; a vacant slot holds
//! default values in every column ([`HotNode::VACANT`] in the hot array); `hot[i].revision`
//! is the global mutation revision of the last write to the node in slot `i`; record `i` of
//! the hot array is exactly one cache line (`HotNode` is 64 bytes, 64-aligned, and so is
//! the page).

use crate::class::Class;
use crate::id::Id;
use crate::names::NameId;
use crate::nodes::child_array::ChildArray;
use crate::nodes::hot::{HotNode, LocalTransform};
use crate::rng::SplitMix64;
use crate::value::{
    Appearance, AttributeValue, Color, Guid, Material, NodeExtras, NodeFlags, PersistentId, Shape,
};
use glam::{Quat, Vec3};
use std::mem::MaybeUninit;
use std::sync::Arc;

/// log2 of the nodes per page.
pub const PAGE_SHIFT: u32 = 6;
/// Nodes per page.
pub const PAGE_SIZE: usize = 1 << PAGE_SHIFT;

/// The default part size (`4 x 1 x 2`).
pub const DEFAULT_SIZE: Vec3 = Vec3::new(4.0, 1.0, 2.0);

/// 64 nodes: one hot record a node ([`HotNode`], one cache line), then one array per cold
/// field.
///
/// Laid out in declaration order (`repr(C)`, 64-byte aligned by the hot records): the hot
/// records, then the child arrays (inline, so reaching one is not a pointer chase into a
/// separate allocation, and within about 4 KB of the node's record), then the rest.
#[derive(Clone)]
#[repr(C)]
pub(crate) struct NodePage {
    /// Local transform, id, parent, revision, flags and class: one cache line per node.
    pub hot: [HotNode; PAGE_SIZE],
    pub children: [ChildArray; PAGE_SIZE],
    pub names: [NameId; PAGE_SIZE],
    pub guids: [Guid; PAGE_SIZE],
    pub sizes: [Vec3; PAGE_SIZE],
    pub appearances: [Appearance; PAGE_SIZE],
    /// Inline, so a fresh page is one allocation (a `None` is a null pointer).
    pub extras: [Option<Box<NodeExtras>>; PAGE_SIZE],
}

/// A vacant page: the source every fresh page copies its vacant slots from, column by column
/// (the hot records count as one column here; a `memcpy` of each column, where writing the defaults element by element took about 20
/// instructions a node). Its columns own nothing on the heap (empty child arrays, no
/// extras), so bitwise copies of them are independent values.
static VACANT: NodePage = NodePage {
    hot: [HotNode::VACANT; PAGE_SIZE],
    children: [ChildArray::EMPTY; PAGE_SIZE],
    names: [NameId(0); PAGE_SIZE],
    guids: [Guid(0); PAGE_SIZE],
    sizes: [DEFAULT_SIZE; PAGE_SIZE],
    appearances: [Appearance {
        color: Color::DEFAULT,
        transparency: 0.0,
        material: Material::Plastic,
        shape: Shape::Block,
    }; PAGE_SIZE],
    extras: [const { None }; PAGE_SIZE],
};

/// Writes `value(k)` into elements `k < n` of the column at `col`, in order, and copies the
/// rest from `vacant` (a column of [`VACANT`]), in place.
///
/// # Safety
/// `col` must be valid for writes and aligned, and `n <= PAGE_SIZE`; its old contents are
/// overwritten without being dropped. `vacant`'s elements must own nothing (bitwise copies
/// of them are independent values).
#[inline(always)]
unsafe fn fill_run<T>(
    col: *mut [T; PAGE_SIZE],
    n: usize,
    mut value: impl FnMut(usize) -> T,
    vacant: &[T; PAGE_SIZE],
) {
    let first = col.cast::<T>();
    for k in 0..n {
        // SAFETY: `k < n <= PAGE_SIZE`, inside the column the caller vouched for; `write`
        // does not read or drop the (uninitialised) old value.
        unsafe { first.add(k).write(value(k)) };
    }
    // A full run (most pages of a batch) copies nothing: no `memcpy` call of length 0.
    if n < PAGE_SIZE {
        // SAFETY: elements `n..PAGE_SIZE` of both columns are in bounds (`n < PAGE_SIZE`), and
        // `col` (a fresh allocation) does not overlap the static `vacant`; the copies own
        // nothing.
        unsafe { first.add(n).copy_from_nonoverlapping(vacant.as_ptr().add(n), PAGE_SIZE - n) };
    }
}

/// Writes `n` GUIDs drawn from `rng` (in order, as `n` calls of its `next_u128`) into
/// elements `k < n` of the GUID column at `col`, a run at a time
/// ([`SplitMix64::fill_u128`]), and copies the rest from `vacant`, in place.
///
/// # Safety
/// As [`fill_run`].
#[inline(always)]
unsafe fn fill_guids(
    col: *mut [Guid; PAGE_SIZE],
    n: usize,
    rng: &mut SplitMix64,
    vacant: &[Guid; PAGE_SIZE],
) {
    // A `Guid` is its one `u128` field (the sizes are equal, so it sits at offset 0).
    const { assert!(size_of::<Guid>() == size_of::<u128>()) };
    // SAFETY: elements `..n` (`n <= PAGE_SIZE`) are inside the column the caller vouched for;
    // `MaybeUninit` makes no claim on their old contents, and `fill_u128` writes each one
    // with a `u128`, which is a valid `Guid` (same layout, asserted above).
    let run = unsafe { std::slice::from_raw_parts_mut(col.cast::<MaybeUninit<u128>>(), n) };
    rng.fill_u128(run);
    if n < PAGE_SIZE {
        // SAFETY: as in `fill_run`: elements `n..PAGE_SIZE` of both columns are in bounds, the
        // fresh `col` does not overlap the static `vacant`, and the copies own nothing.
        unsafe { col.cast::<Guid>().add(n).copy_from_nonoverlapping(vacant.as_ptr().add(n), PAGE_SIZE - n) };
    }
}

/// Copies the vacant column `vacant` (of [`VACANT`]) into the column at `col`, in place.
///
/// # Safety
/// As [`fill_run`] with `n == 0`.
#[inline(always)]
unsafe fn fill_vacant<T>(col: *mut [T; PAGE_SIZE], vacant: &[T; PAGE_SIZE]) {
    // SAFETY: as the caller vouched; `col` and the static `vacant` do not overlap.
    unsafe { col.copy_from_nonoverlapping(vacant, 1) };
}

/// A run of nodes a detached batch writes into one page ([`NodePage::new_shared_run`] for a
/// fresh page, [`NodePage::write_run`] for a partly filled one): `len` detached nodes
/// of one class, name and flags, with consecutive ids from `first_id` and revisions from
/// `rev0`.
pub(crate) struct FreshRun {
    pub len: usize,
    pub first_id: Id,
    pub class: Class,
    pub name: NameId,
    pub flags: NodeFlags,
    pub rev0: u64,
}

impl FreshRun {
    /// The id of the run's `k`-th node.
    #[inline(always)]
    pub fn id(&self, k: usize) -> Id {
        Id(self.first_id.0 + k as u64)
    }

    /// The revision of the run's `k`-th node.
    #[inline(always)]
    pub fn revision(&self, k: usize) -> u64 {
        self.rev0 + k as u64
    }

    /// The hot record of the run's `k`-th node (detached: no parent; identity transform).
    #[inline(always)]
    fn hot(&self, k: usize) -> HotNode {
        HotNode {
            id: self.id(k),
            flags: self.flags,
            class: self.class,
            revision: self.revision(k),
            ..HotNode::VACANT
        }
    }
}

/// Writes `guids.len()` GUIDs drawn from `rng` into `guids`, in order (as that many calls of
/// its `next_u128`), a run at a time ([`SplitMix64::fill_u128`]).
fn draw_guids(rng: &mut SplitMix64, guids: &mut [Guid]) {
    // A `Guid` is its one `u128` field (the sizes are equal, so it sits at offset 0).
    const { assert!(size_of::<Guid>() == size_of::<u128>()) };
    // SAFETY: the slice's elements are `Guid`s, laid out as `u128`s (asserted above); viewed
    // as `MaybeUninit<u128>`, `fill_u128` writes each with a `u128` and never leaves one
    // uninitialised, so every element is a valid `Guid` again afterwards.
    let words = unsafe {
        std::slice::from_raw_parts_mut(guids.as_mut_ptr().cast::<MaybeUninit<u128>>(), guids.len())
    };
    rng.fill_u128(words);
}

impl NodePage {
    /// An empty page, built in place in its own `Arc` allocation.
    ///
    /// `Arc::new(NodePage::new())` builds the page (about 10 KB) on the stack and then copies
    /// it into the heap, which was most of the cost of creating nodes in bulk; here every
    /// column is copied once from [`VACANT`], straight into the allocation. The result equals
    /// [`NodePage::new`] column for column (tested).
    pub fn new_shared() -> Arc<Self> {
        let empty = FreshRun {
            len: 0,
            first_id: Id::NONE,
            class: Class::Folder,
            name: NameId(0),
            flags: NodeFlags(0),
            rev0: 0,
        };
        Self::new_shared_run(&empty, &mut SplitMix64(0))
    }

    /// A fresh page whose slots `0..run.len` already hold the nodes of `run` (slot `k`: id
    /// `first_id + k`, revision `rev0 + k`, the `k`-th GUID drawn from `rng`, as by its
    /// `next_u128`, in slot order), the rest vacant, built in place like [`new_shared`](Self::new_shared): each
    /// word is written once, instead of a vacant default first and the node's value after
    /// (a detached batch filling fresh pages). Equals [`NodePage::new`] with the run written
    /// slot by slot (tested).
    pub fn new_shared_run(run: &FreshRun, rng: &mut SplitMix64) -> Arc<Self> {
        assert!(run.len <= PAGE_SIZE, "a run fits its page");
        let n = run.len;
        let mut page = Arc::<Self>::new_uninit();
        let p = Arc::get_mut(&mut page).expect("a fresh Arc is unique").as_mut_ptr();
        // SAFETY: `p` points at the fresh, unique, properly aligned allocation for one
        // `NodePage`. Each column is a field projection (`&raw mut`, no reference to
        // uninitialised memory is formed) and is written whole exactly once (`n <= PAGE_SIZE`:
        // the run's slots, then the vacant rest); every field is listed
        // (`Self::FIELDS_FILLED` below fails to compile if a column is added without being
        // filled here), so the page is fully initialised before `assume_init`. Nothing here
        // can panic part way, so no partly written page is dropped.
        unsafe {
            let v = &VACANT;
            fill_run(&raw mut (*p).hot, n, |k| run.hot(k), &v.hot);
            fill_vacant(&raw mut (*p).children, &v.children);
            fill_run(&raw mut (*p).names, n, |_| run.name, &v.names);
            fill_guids(&raw mut (*p).guids, n, rng, &v.guids);
            fill_vacant(&raw mut (*p).sizes, &v.sizes);
            fill_vacant(&raw mut (*p).appearances, &v.appearances);
            fill_vacant(&raw mut (*p).extras, &v.extras);
            page.assume_init()
        }
    }

    /// Writes `run`'s nodes into the vacant slots `at..at + run.len` of this page (a
    /// detached batch continuing a partly filled page), column by column: the values
    /// [`new_shared_run`](Self::new_shared_run) gives a fresh page's first slots (a vacant
    /// slot's hot record is rewritten whole: the run's fields over vacant defaults).
    pub fn write_run(&mut self, at: usize, run: &FreshRun, rng: &mut SplitMix64) {
        let cols = at..at + run.len;
        for (k, hot) in self.hot[cols.clone()].iter_mut().enumerate() {
            *hot = run.hot(k);
        }
        self.names[cols.clone()].fill(run.name);
        draw_guids(rng, &mut self.guids[cols]);
    }

    /// Compile-time guard for [`new_shared`](Self::new_shared): this exhaustive pattern stops
    /// compiling when a column is added, as a reminder to fill it there.
    #[allow(dead_code)]
    const FIELDS_FILLED: fn(&Self) = |page| {
        let Self { hot: _, children: _, names: _, guids: _, sizes: _, appearances: _, extras: _ } = page;
    };

    /// An empty page (built by value; see [`new_shared`](Self::new_shared)).
    #[cfg(test)]
    pub fn new() -> Self {
        Self {
            hot: [HotNode::default(); PAGE_SIZE],
            names: [NameId(0); PAGE_SIZE],
            guids: [Guid(0); PAGE_SIZE],
            sizes: [DEFAULT_SIZE; PAGE_SIZE],
            appearances: [Appearance::default(); PAGE_SIZE],
            children: std::array::from_fn(|_| ChildArray::default()),
            extras: std::array::from_fn(|_| None),
        }
    }

    /// Resets slot `i` to vacant defaults, returning its children and extras for dropping.
    pub fn clear(&mut self, i: usize) {
        self.hot[i] = HotNode::VACANT;
        self.names[i] = NameId(0);
        self.guids[i] = Guid(0);
        self.sizes[i] = DEFAULT_SIZE;
        self.appearances[i] = Appearance::default();
        self.children[i] = ChildArray::default();
        self.extras[i] = None;
    }

    /// Bytes of the string attribute values this page's nodes hold.
    pub fn text_bytes(&self) -> usize {
        self.extras
            .iter()
            .flatten()
            .flat_map(|e| e.attributes.iter())
            .map(|(_, v)| match v {
                AttributeValue::String(s) => s.len(),
                _ => 0,
            })
            .sum()
    }

    /// Heap bytes owned by this page beyond its fixed columns.
    pub fn heap_bytes(&self) -> usize {
        let children: usize = self.children.iter().map(ChildArray::heap_bytes).sum::<usize>();
        let extras: usize = self
            .extras
            .iter()
            .flatten()
            .map(|e| {
                std::mem::size_of::<NodeExtras>()
                    + e.attributes.capacity() * std::mem::size_of::<(NameId, AttributeValue)>()
                    + e.tags.capacity() * std::mem::size_of::<NameId>()
            })
            .sum::<usize>();
        children + extras
    }

    /// Mutable extras of slot `i`, created on demand.
    pub fn extras_mut(&mut self, i: usize) -> &mut NodeExtras {
        self.extras[i].get_or_insert_with(Default::default)
    }

    /// Drops slot `i`'s extras box if it holds nothing.
    pub fn trim_extras(&mut self, i: usize) {
        if self.extras[i].as_ref().is_some_and(|e| e.is_empty()) {
            self.extras[i] = None;
        }
    }
}

/// A read view of one node (live or tombstone) in an arena or snapshot.
#[derive(Clone, Copy)]
pub struct NodeRef<'a> {
    pub(crate) page: &'a NodePage,
    pub(crate) i: usize,
}

static EMPTY_EXTRAS: NodeExtras = NodeExtras {
    attributes: Vec::new(),
    tags: Vec::new(),
    refs: [None, None],
    persistent_id: None,
    handle: None,
    source: None,
};

impl<'a> NodeRef<'a> {
    /// Runtime id.
    #[inline]
    pub fn id(&self) -> Id {
        self.page.hot[self.i].id
    }
    /// The node's hot record (id, parent, flags, local transform, revision, class: one
    /// cache line).
    #[inline]
    pub fn hot(&self) -> &'a HotNode {
        &self.page.hot[self.i]
    }
    /// Class.
    #[inline]
    pub fn class(&self) -> Class {
        self.page.hot[self.i].class
    }
    /// Interned name.
    #[inline]
    pub fn name(&self) -> NameId {
        self.page.names[self.i]
    }
    /// Parent, or `None` for a root or detached node.
    #[inline]
    pub fn parent(&self) -> Option<Id> {
        let p = self.page.hot[self.i].parent;
        (!p.is_none()).then_some(p)
    }
    /// Flags.
    #[inline]
    pub fn flags(&self) -> NodeFlags {
        self.page.hot[self.i].flags
    }
    /// Whether a part-write log entry for this node stands for the parts below it too: it
    /// has children (a moved model, folder or character moves every part inside; so does a
    /// moved part with parts welded under it). Physics and the fallen-parts scan expand such
    /// entries to their subtrees.
    #[inline]
    pub fn moves_parts_below(&self) -> bool {
        self.flags().contains(NodeFlags::HAS_CHILDREN)
    }
    /// Whether the node is destroyed (a tombstone).
    #[inline]
    pub fn is_destroyed(&self) -> bool {
        self.flags().contains(NodeFlags::DESTROYED)
    }
    /// Global revision of the node's last write.
    #[inline]
    pub fn revision(&self) -> u64 {
        self.page.hot[self.i].revision
    }
    /// GUID given at creation.
    #[inline]
    pub fn guid(&self) -> Guid {
        self.page.guids[self.i]
    }
    /// Local transform.
    #[inline]
    pub fn transform(&self) -> LocalTransform {
        self.page.hot[self.i].local
    }
    /// Local position.
    #[inline]
    pub fn position(&self) -> Vec3 {
        self.page.hot[self.i].local.position
    }
    /// Local rotation.
    #[inline]
    pub fn rotation(&self) -> Quat {
        self.page.hot[self.i].local.rotation
    }
    /// Size.
    #[inline]
    pub fn size(&self) -> Vec3 {
        self.page.sizes[self.i]
    }
    /// Colour, material, shape and transparency.
    #[inline]
    pub fn appearance(&self) -> Appearance {
        self.page.appearances[self.i]
    }
    /// Whether the part is anchored.
    #[inline]
    pub fn anchored(&self) -> bool {
        self.flags().contains(NodeFlags::ANCHORED)
    }
    /// Whether the part collides.
    #[inline]
    pub fn can_collide(&self) -> bool {
        self.flags().contains(NodeFlags::CAN_COLLIDE)
    }
    /// Ordered children.
    #[inline]
    pub fn children(&self) -> &'a ChildArray {
        &self.page.children[self.i]
    }
    /// Attributes, tags, references, persistent id and handle (empty when none is set).
    #[inline]
    pub fn extras(&self) -> &'a NodeExtras {
        self.page.extras[self.i].as_deref().unwrap_or(&EMPTY_EXTRAS)
    }
    /// The value of attribute `name`.
    pub fn attribute(&self, name: NameId) -> Option<&'a AttributeValue> {
        self.extras().attribute(name)
    }
    /// Class reference property `index` (see `Class::reference_properties`).
    pub fn reference(&self, index: usize) -> Option<Id> {
        self.extras().refs.get(index).copied().flatten()
    }
    /// Whether the node carries tag `tag`.
    pub fn has_tag(&self, tag: NameId) -> bool {
        self.extras().tags.binary_search(&tag).is_ok()
    }
    /// Persistent id, if one was assigned.
    pub fn persistent_id(&self) -> Option<PersistentId> {
        self.extras().persistent_id
    }
}

impl std::fmt::Debug for NodeRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("id", &self.id())
            .field("class", &self.class())
            .field("name", &self.name())
            .field("parent", &self.parent())
            .field("flags", &self.flags())
            .field("revision", &self.revision())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_place_page_equals_the_by_value_page() {
        let (a, b) = (NodePage::new_shared(), NodePage::new());
        assert_eq!(a.hot, b.hot);
        assert_eq!(a.children, b.children);
        assert_eq!(a.names, b.names);
        assert_eq!(a.guids, b.guids);
        assert_eq!(a.sizes, b.sizes);
        assert_eq!(a.appearances, b.appearances);
        assert!(a.extras.iter().all(Option::is_none));
        assert_eq!(a.heap_bytes(), 0);
        assert_eq!(Arc::strong_count(&a), 1);
    }

    #[test]
    fn a_page_built_with_a_run_equals_an_empty_page_written_slot_by_slot() {
        for len in [0, 1, 37, PAGE_SIZE] {
            let run = FreshRun {
                len,
                first_id: Id(100),
                class: Class::Part,
                name: NameId(7),
                flags: NodeFlags::NEW,
                rev0: 40,
            };
            let mut rng = SplitMix64(5);
            let mut draws = rng;
            let a = NodePage::new_shared_run(&run, &mut rng);
            let mut b = NodePage::new();
            for k in 0..len {
                b.hot[k].id = Id(100 + k as u64);
                b.hot[k].class = Class::Part;
                b.names[k] = NameId(7);
                b.hot[k].flags = NodeFlags::NEW;
                b.hot[k].revision = 40 + k as u64;
                b.guids[k] = Guid(draws.next_u128());
            }
            assert_eq!(a.hot, b.hot);
            assert_eq!((&a.children, a.names), (&b.children, b.names));
            assert_eq!((a.guids, a.sizes, a.appearances), (b.guids, b.sizes, b.appearances));
            assert!(a.extras.iter().all(Option::is_none));
            assert_eq!(rng.0, draws.0, "the generator advanced past the run's draws only");
        }
    }

    #[test]
    fn in_place_pages_are_usable_and_clone_by_column() {
        let mut a = NodePage::new_shared();
        let page = Arc::get_mut(&mut a).unwrap();
        page.hot[3].id = Id(4);
        page.children[3].push(Id(9));
        page.extras_mut(3).tags.push(NameId(1));
        let b = (*a).clone();
        assert_eq!(b.hot[3].id, Id(4));
        assert_eq!(b.children[3].iter().collect::<Vec<_>>(), vec![Id(9)]);
        assert_eq!(b.extras[3].as_ref().unwrap().tags, vec![NameId(1)]);
        let page = Arc::get_mut(&mut a).unwrap();
        page.clear(3);
        assert!(page.extras[3].is_none() && page.children[3].is_empty());
    }
}
