//! Recomputing the subtrees under the dirty roots: sibling runs, depth-first walks, and
//! the split of the work into disjoint subtrees for rayon.
//!
//! A unit of work is a parent whose world is already known and the slice of its child
//! array (holes included, skipped here). Processing it reads the children through the
//! arena's [`NodesView`] in *runs*: children created together sit in consecutive slots, so
//! the page of the first child (slot `id - 1`) is reached once, and each following child is
//! checked against the id in that page's hot record at the next index, which confirms its
//! slot and continues the run in one compare (a child elsewhere — a reused slot, a client
//! id, the next page — starts a new run, through the id map if need be). The run zips the
//! child ids with the page's hot records (id, flags, local transform: one line a child), so
//! no index is bounds-checked per child. Each child's world is computed under the parent's frame
//! (prepared once per unit; four lanes, `Frame4`, on the SIMD path) and written to its slot
//! through a [`Sink`]; every child with children yields a new unit. The parent's world
//! travels with the unit, so a walk reads the world column only for the parents of the
//! roots. A child's array is read only when its `HAS_CHILDREN` flag (kept by the arena) is
//! set, so a run of leaves reads no line beyond their records. Subtrees are walked depth
//! first in pre-order, which follows slot order for a tree created parent first and keeps
//! one rising stream of slots per level for a tree created level by level. Figures:
//! `docs/perf/transforms.md`.
//!
//! Parallel work: many dirty roots become tasks of a few roots each; otherwise the roots'
//! subtrees are walked on the calling thread level by level until a level is wide enough,
//! and that level's units (long child arrays cut into ranges) become the tasks. A single deep
//! chain is never wide enough and stays on one thread.
//!
//! Invariants: every unit's children belong to one parent; tasks cover disjoint sets of
//! nodes (different roots' subtrees, different subtrees, or different ranges of one child
//! array), so no slot is written twice in a pass and no slot is written by two threads.

use super::PoseCell;
use super::compose::{Frame, Frame4, Pose, compose, compose_cell, local_pose};
use super::roots::Root;
use super::world_column::{Collect, ColumnsMut, Parents, RawColumns, Sink};
use arbor_core::{
    Id, LocalTransform, NodeFlags,
    raw::{ChildArray, NodesView, PAGE_SIZE},
};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};
use wide::f32x4;

/// When a walk is shared between threads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Split {
    /// Child arrays longer than this are split into ranges of this many ids.
    pub chunk: usize,
    /// Work items per thread wanted before going parallel (rayon balances them by stealing).
    pub items_per_thread: usize,
    /// Fewest children on a level worth sending to other threads; smaller levels are walked
    /// on the calling thread (a rayon fork costs a few microseconds).
    pub min_children: usize,
    /// Fewest dirty roots worth sharing out as tasks.
    pub min_roots: usize,
    /// Dirty roots per task when roots are shared out.
    pub roots_per_task: usize,
    /// Dirty ids per task when finding the roots of a long dirty list.
    pub find_chunk: usize,
    /// Longest dirty list that takes the short-list route (`sparse`: roots found on the
    /// calling thread, their worlds computed as they are found); longer lists have their
    /// roots found in parallel first.
    pub max_sparse: usize,
    /// Worlds the short-list route writes below its roots (per thread) before it hands the
    /// rest of their subtrees to the level-by-level walk, which can share a wide level out.
    pub sparse_walk: usize,
    /// Fewest dirty ids for which a dirty list covering half the arena's live nodes is
    /// replaced by the whole world (see `WorldTransforms::update`).
    pub min_whole: usize,
}

impl Default for Split {
    fn default() -> Self {
        Self {
            chunk: 64,
            items_per_thread: 8,
            min_children: 1024,
            min_roots: 256,
            roots_per_task: 256,
            find_chunk: 4096,
            max_sparse: 1 << 16,
            sparse_walk: 4096,
            min_whole: 1024,
        }
    }
}

/// A parent's world and its child array (holes included), still to compute.
pub(crate) type Unit<'a> = (Pose, &'a [Id]);

/// Reads nodes through the view and composes their worlds.
#[derive(Clone, Copy)]
pub(crate) struct Walker<'a> {
    /// The arena's pages.
    pub view: &'a NodesView<'a>,
    /// Compose in four lanes (`Frame4`) rather than with scalar `f32` (the same bits).
    pub simd: bool,
    /// Root-finding marks and the value to store in every node *with children* this walker
    /// writes (the short-list route's "walked this pass", see `sparse`), or `None`.
    pub walked: Option<(&'a [AtomicU32], u32)>,
}

impl<'a> Walker<'a> {
    /// Computes the worlds of `kids` (children of the parent `frame` describes, holes
    /// skipped), writes them to `sink` and pushes a unit onto `next` for every child with
    /// children. Returns the number of worlds written.
    #[inline]
    pub fn siblings<S: Sink>(
        &self,
        pose: Pose,
        kids: &'a [Id],
        sink: &mut S,
        next: &mut Vec<Unit<'a>>,
    ) -> usize {
        if self.simd {
            let four = Frame4::of(&pose);
            self.siblings_with(kids, sink, next, |local| four.world(local))
        } else {
            let frame = Frame::new(pose);
            self.siblings_with(kids, sink, next, |local| {
                let w = compose(&frame, local_pose(local));
                (f32x4::new([w[0], w[1], w[2], 0.0]), f32x4::new([w[3], w[4], w[5], w[6]]))
            })
        }
    }

    /// [`siblings`](Self::siblings) with the composition `world_of` (four lanes or scalar,
    /// the same bits), one child at a time straight from the page into the sink.
    #[inline(always)]
    fn siblings_with<S: Sink>(
        &self,
        kids: &'a [Id],
        sink: &mut S,
        next: &mut Vec<Unit<'a>>,
        world_of: impl Fn(&LocalTransform) -> (f32x4, f32x4),
    ) -> usize {
        let mut written = 0;
        let mut k = 0;
        while k < kids.len() {
            let id = kids[k];
            if id.is_none() {
                k += 1;
                continue;
            }
            // A run of siblings in consecutive slots of one page (the usual layout: children
            // created together): the page is reached once, and each child is checked against
            // the id in its hot record, which confirms both its slot and the run in one compare.
            let first = id.0.wrapping_sub(1);
            let page = if first < u64::from(self.view.slots()) {
                self.view.page(first as usize / PAGE_SIZE)
            } else {
                None
            };
            let Some(page) = page else {
                // A child of a live node is live; a failed lookup would be a broken tree, and
                // the child is skipped rather than the server stopped.
                if let Some((slot, node)) = self.view.locate(id) {
                    written +=
                        self.child(slot.0, id, &node.transform(), node.children(), sink, next, &world_of);
                }
                k += 1;
                continue;
            };
            let base = first as u32;
            let i0 = first as usize & (PAGE_SIZE - 1);
            let hot = page.hot();
            let arrays = &page.children()[i0..];
            // Zipped sub-slices: no bounds check per child. The run's ids are or'ed together
            // and their high bits written once the run is done, like the sweep's pages: the
            // per-child path is the compare, the compose, three stores and the flags check,
            // all from the child's hot record (one line). A child's array is read only when
            // its flags say it has children: a leaf's array (32 bytes, elsewhere on the page)
            // is not touched.
            let mut j = 0;
            let mut ored = 0u64;
            for (&id, node) in kids[k..].iter().zip(&hot[i0..]) {
                if id.is_none() || node.id() != id {
                    break;
                }
                let slot = base + j as u32;
                let (pos, rot) = world_of(node.local());
                sink.put_world_low(slot, id, pos, rot);
                ored |= id.0;
                if node.flags().contains(NodeFlags::HAS_CHILDREN) {
                    self.queue(slot, pos, rot, &arrays[j], next);
                }
                j += 1;
            }
            sink.put_highs(base, &kids[k..k + j], Id(ored));
            written += j;
            if j == 0 {
                // Not in slot `id - 1` (a reused slot, a client id): through the id map.
                if let Some((slot, node)) = self.view.locate(id) {
                    written +=
                        self.child(slot.0, id, &node.transform(), node.children(), sink, next, &world_of);
                }
                j = 1;
            }
            k += j;
        }
        written
    }

    /// Computes and writes one child's world and, if it has children, marks it walked and
    /// queues them.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn child<S: Sink>(
        &self,
        slot: u32,
        id: Id,
        local: &LocalTransform,
        grandkids: &'a ChildArray,
        sink: &mut S,
        next: &mut Vec<Unit<'a>>,
        world_of: &impl Fn(&LocalTransform) -> (f32x4, f32x4),
    ) -> usize {
        let (pos, rot) = world_of(local);
        sink.put_world(slot, id, pos, rot);
        self.queue(slot, pos, rot, grandkids, next);
        1
    }

    /// If the child in `slot`, whose world is `pos` and `rot`, has children: marks it walked
    /// and queues them.
    #[inline(always)]
    fn queue(&self, slot: u32, pos: f32x4, rot: f32x4, grandkids: &'a ChildArray, next: &mut Vec<Unit<'a>>) {
        let grandkids = grandkids.as_slice();
        if !grandkids.is_empty() {
            if let Some((marks, walked)) = self.walked {
                marks[slot as usize].store(walked, Ordering::Relaxed);
            }
            next.push((PoseCell::of_vectors(pos, rot, 0).pose(), grandkids));
        }
    }

    /// Walks every subtree below the units on `stack`, emptying it: depth first, each
    /// node's children computed together as one run of siblings, then visited first to last
    /// (pre-order), which follows slot order wherever the tree was created parent first.
    pub fn drain<S: Sink>(&self, stack: &mut Vec<Unit<'a>>, sink: &mut S) -> usize {
        self.drain_until(stack, sink, usize::MAX)
    }

    /// [`drain`](Self::drain), but stops once at least `limit` worlds are written, leaving
    /// the units not yet walked on `stack` (disjoint subtrees, still to compute).
    pub fn drain_until<S: Sink>(&self, stack: &mut Vec<Unit<'a>>, sink: &mut S, limit: usize) -> usize {
        let mut written = 0;
        while written < limit
            && let Some((pose, kids)) = stack.pop()
        {
            let first = stack.len();
            written += self.siblings(pose, kids, sink, stack);
            stack[first..].reverse();
        }
        written
    }
}

/// One piece of parallel work: a run of dirty roots, or a parent's world with a whole
/// child array or a range of a long one.
enum Item<'a, 'r> {
    Roots(&'r [Root<'a>]),
    Unit(Unit<'a>),
}

/// How a parallel walk gets its worlds into the columns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Writes {
    /// Tasks write their disjoint slots through [`RawColumns`].
    Direct,
    /// Tasks collect `(slot, id, world)` triples; the calling thread scatters them.
    CollectScatter,
}

/// `root`'s world: its local under its parent's stored world (the local alone at the top).
fn root_world(walker: &Walker<'_>, root: &Root<'_>, parents: &(impl Parents + ?Sized)) -> Pose {
    let local = root.node.transform();
    match root.parent {
        Some(p) => compose_cell(&Frame::new(parents.parent_pose(p)), &local, walker.simd).pose(),
        None => local_pose(&local),
    }
}

/// Computes one root's world, writes it, and walks its subtree with `stack`.
fn walk_root<'a, S: Sink>(
    walker: &Walker<'a>,
    root: &Root<'a>,
    parents: &(impl Parents + ?Sized),
    stack: &mut Vec<Unit<'a>>,
    sink: &mut S,
) -> usize {
    let world = root_world(walker, root, parents);
    sink.put(root.slot, root.id, PoseCell::new(&world));
    let children = root.children();
    if children.is_empty() {
        return 1;
    }
    stack.push((world, children));
    1 + walker.drain(stack, sink)
}

/// Computes the roots' worlds and every subtree below them, in parallel over disjoint
/// subtrees when `parallel` and the pool has more than one thread and the work is wide
/// enough. Returns the number of worlds written.
pub(crate) fn run<'a>(
    walker: Walker<'a>,
    roots: &[Root<'a>],
    mut columns: ColumnsMut<'_>,
    parallel: bool,
    writes: Writes,
    split: Split,
) -> usize {
    let threads = rayon::current_num_threads();
    let parallel = parallel && threads > 1;
    if parallel && roots.len() >= split.min_roots {
        // Many roots (scattered writes): a few hundred per task.
        let items: Vec<Item<'a, '_>> = roots.chunks(split.roots_per_task).map(Item::Roots).collect();
        return run_items(walker, &items, columns, writes);
    }
    let mut stack = Vec::new();
    if !parallel {
        let mut written = 0;
        for root in roots {
            let world = root_world(&walker, root, &columns);
            columns.put(root.slot, root.id, PoseCell::new(&world));
            written += 1;
            let children = root.children();
            if !children.is_empty() {
                stack.push((world, children));
                written += walker.drain(&mut stack, &mut columns);
            }
        }
        return written;
    }
    let mut units = Vec::new();
    for root in roots {
        let world = root_world(&walker, root, &columns);
        columns.put(root.slot, root.id, PoseCell::new(&world));
        let children = root.children();
        if !children.is_empty() {
            units.push((world, children));
        }
    }
    roots.len() + run_units(walker, units, columns, parallel, writes, split)
}

/// Computes every subtree below `units` (parents whose worlds are written), in parallel
/// over disjoint subtrees when `parallel` and the pool has more than one thread and a level
/// is wide enough. Returns the number of worlds written.
pub(crate) fn run_units<'a>(
    walker: Walker<'a>,
    mut units: Vec<Unit<'a>>,
    mut columns: ColumnsMut<'_>,
    parallel: bool,
    writes: Writes,
    split: Split,
) -> usize {
    let threads = rayon::current_num_threads();
    if !(parallel && threads > 1) {
        // The units as a stack, first on top: each subtree depth first, in order.
        units.reverse();
        return walker.drain(&mut units, &mut columns);
    }
    let mut written = 0;
    // Walk level by level on this thread until a level is wide enough to share out (a
    // single deep chain never is, and stays sequential).
    while !units.is_empty() {
        let children: usize = units.iter().map(|(_, c)| c.len()).sum();
        let items: usize = units.iter().map(|(_, c)| c.len().div_ceil(split.chunk)).sum();
        if children >= split.min_children && items >= threads * split.items_per_thread {
            let items: Vec<Item<'a, '_>> = units
                .iter()
                .flat_map(|&(pose, kids)| {
                    kids.chunks(split.chunk).map(move |range| Item::Unit((pose, range)))
                })
                .collect();
            return written + run_items(walker, &items, columns, writes);
        }
        let mut next = Vec::new();
        for &(pose, kids) in &units {
            written += walker.siblings(pose, kids, &mut columns, &mut next);
        }
        units = next;
    }
    written
}

/// Shares `items` out to rayon.
fn run_items<'a>(
    walker: Walker<'a>,
    items: &[Item<'a, '_>],
    columns: ColumnsMut<'_>,
    writes: Writes,
) -> usize {
    match writes {
        Writes::Direct => {
            let raw = RawColumns::new(columns);
            items
                .par_iter()
                .map_init(Vec::new, |stack, item| {
                    let mut sink = raw;
                    walk_item(&walker, item, &raw, stack, &mut sink)
                })
                .sum()
        }
        Writes::CollectScatter => {
            let shared: &[PoseCell] = columns.poses;
            let parts: Vec<(usize, Collect)> = items
                .par_iter()
                .map_init(Vec::new, |stack, item| {
                    let mut sink = Collect::default();
                    (walk_item(&walker, item, shared, stack, &mut sink), sink)
                })
                .collect();
            let mut out = columns;
            let mut written = 0;
            for (n, part) in parts {
                written += n;
                for (slot, id, cell) in part.0 {
                    out.put(slot, id, cell);
                }
            }
            written
        }
    }
}

/// Computes one item and everything below it.
fn walk_item<'a, S: Sink>(
    walker: &Walker<'a>,
    item: &Item<'a, '_>,
    parents: &(impl Parents + ?Sized),
    stack: &mut Vec<Unit<'a>>,
    sink: &mut S,
) -> usize {
    stack.clear();
    match item {
        Item::Roots(roots) => roots.iter().map(|root| walk_root(walker, root, parents, stack, sink)).sum(),
        Item::Unit(unit) => {
            stack.push(*unit);
            walker.drain(stack, sink)
        }
    }
}
