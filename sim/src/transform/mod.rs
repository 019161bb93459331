//! The transform pass: world transforms of the nodes in the world, recomputed only under
//! the nodes the arena reports dirty.
//!
//! [`WorldTransforms`] owns dense columns indexed by slot: the world pose (position
//! x, y, z, rotation x, y, z, w, and in the eighth lane the low 32 bits of the id the
//! world belongs to: one aligned 32-byte cell per slot), the high 32 bits of that id (a
//! column written only once ids reach 2^32, see `world_column`), and an epoch stamp used to find
//! the dirty roots. A pose is one aligned cell rather than seven `f32` columns because a
//! pass over scattered dirty nodes reads a parent and writes a child per root: one cache
//! line each instead of seven, with the owner check in the same line.
//!
//! Nodes are read through the arena's [`NodesView`](arbor_core::raw::NodesView): the page table
//! flattened once per pass, a page's hot records (id, parent, flags and local transform of
//! a node in one cache line) and its columns as slices, and ids resolved to slots by one
//! page read.
//!
//! A world transform is rigid: `world = parent_world ∘ local` (rotation and translation;
//! a part's Size is not a scale and nothing inherits it). Only nodes in the world (the
//! Workspace and its descendants) get one; the Workspace's world is its own local
//! transform.
//!
//! A pass ([`WorldTransforms::update`]) takes the dirty ids of the tick and takes one of
//! two routes:
//! - *Dirty subtrees* (the usual tick): it finds the dirty roots (dirty nodes with no
//!   dirty ancestor, see `roots`), recomputes each root from its parent's stored world and
//!   then every node below it, parent before child (see `walk`): each node in four lanes
//!   of `wide::f32x4` under its parent's frame (see `compose`), and disjoint subtrees (or
//!   runs of roots, when there are many) on rayon's threads. The cost follows the dirty
//!   nodes and their subtrees, never the size of the place. A dirty list of up to
//!   `Split::max_sparse` ids (65,536 by default: the usual tick, up to a few percent of a
//!   million-node place moving) takes the short-list form of this route (see `sparse`):
//!   roots found and their worlds written in one sweep over the list with no root list (two
//!   halves of it on two threads), and only the roots with children handed to the walk;
//!   longer lists have their roots found in parallel first, in chunks of
//!   `Split::find_chunk` ids shared out to every thread of the pool.
//! - *Whole world*, when the dirty list names at least half as many ids as the arena has
//!   live nodes (and at least 1,024): recomputing everything then costs no more than
//!   sorting out the roots would, so the pass sweeps every page in slot order instead
//!   (see `sweep`), the plain SoA pass over the arena's own columns, in parallel ranges;
//!   nodes whose parent sits at a higher slot are fixed up afterwards by the first route.
//!
//! Invariants:
//! - after `update(arena, dirty, _)` where `dirty` holds every node whose transform was
//!   dirtied since the previous pass, the world of every in-world node equals the
//!   composition of the locals on its path from the Workspace (within float rounding);
//! - detached nodes are never visited: their worlds stay as they were (stale) until they
//!   are attached again, which the arena reports as dirty;
//! - after a pass, a slot's owner (tag and high bits) is `id` exactly when the slot holds a
//!   world computed for node `id` (ids are never reused, so a reused slot never passes for
//!   its old node);
//! - every world is computed by the same expression whatever the [`PassMode`], so scalar
//!   and SIMD, one thread or several, give bit-identical results.

mod compose;
mod leaf_roots;
mod roots;
mod sparse;
mod split_phases;
mod sweep;
mod walk;
mod world_column;

#[cfg(test)]
mod tests;

use arbor_core::{Arena, Id, LocalTransform, raw::Slot};
use compose::{IDENTITY, Pose};
use glam::{Mat4, Quat, Vec3};
use roots::{COVERED, Epochs, Finder, WALKED, in_world, mark_of};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use walk::{Split, Walker, Writes};
use world_column::ColumnsMut;

/// A node's transform in world space: a rotation, then a translation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldTransform {
    /// World position.
    pub position: Vec3,
    /// World rotation.
    pub rotation: Quat,
}

impl WorldTransform {
    /// No rotation, at the origin.
    pub const IDENTITY: WorldTransform = WorldTransform { position: Vec3::ZERO, rotation: Quat::IDENTITY };

    /// The 4×4 matrix of this transform.
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_rotation_translation(self.rotation, self.position)
    }

    /// The world of a node with local transform `local` under a parent whose world is
    /// `self`: the transform pass's own arithmetic (`world = parent ∘ local`), so the result
    /// is bit for bit the world the next pass computes for that node. Physics composes the
    /// poses of nodes written since the last pass with it.
    ///
    /// ```
    /// use arbor_core::{LocalTransform, Quat, Vec3};
    /// use arbor_sim::transform::WorldTransform;
    /// let parent = WorldTransform { position: Vec3::new(0.0, 10.0, 0.0), rotation: Quat::IDENTITY };
    /// let local = LocalTransform { position: Vec3::X, rotation: Quat::IDENTITY };
    /// assert_eq!(parent.compose(&local).position, Vec3::new(1.0, 10.0, 0.0));
    /// ```
    pub fn compose(&self, local: &LocalTransform) -> WorldTransform {
        let (p, q) = (self.position, self.rotation);
        let frame = compose::Frame::new([p.x, p.y, p.z, q.x, q.y, q.z, q.w]);
        Self::from_pose(compose::compose(&frame, compose::local_pose(local)))
    }

    fn from_pose(p: Pose) -> Self {
        Self { position: Vec3::new(p[0], p[1], p[2]), rotation: Quat::from_xyzw(p[3], p[4], p[5], p[6]) }
    }
}

impl Default for WorldTransform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// How a pass runs. Every mode gives the same worlds (bit for bit); they differ in speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassMode {
    /// Share disjoint subtrees between the threads of the current rayon pool.
    pub parallel: bool,
    /// Compose each node in four lanes of `wide::f32x4` rather than with scalar `f32`.
    pub simd: bool,
}

impl Default for PassMode {
    fn default() -> Self {
        Self { parallel: true, simd: true }
    }
}

/// What a pass did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassStats {
    /// Dirty nodes with no dirty ancestor: the subtrees recomputed.
    pub dirty_roots: usize,
    /// World transforms written (the roots and every node below them).
    pub recomputed: usize,
}

/// World transforms of the nodes in the world, in dense columns by slot.
///
/// ```
/// use arbor_core::{Arena, Class, Vec3};
/// use arbor_sim::{transform::PassMode, transform::WorldTransforms};
/// let mut arena = Arena::new();
/// let model = arena.create(Class::Model, "Car", Some(arena.workspace())).unwrap();
/// let wheel = arena.create(Class::Part, "Wheel", Some(model)).unwrap();
/// arena.set_position(model, Vec3::new(10.0, 0.0, 0.0)).unwrap();
/// arena.set_position(wheel, Vec3::new(0.0, 1.0, 0.0)).unwrap();
/// let mut worlds = WorldTransforms::new();
/// let dirty = arena.take_dirty_transforms();
/// let stats = worlds.update(&arena, &dirty, PassMode::default());
/// assert_eq!(stats.dirty_roots, 1); // the Workspace's first pass covers everything
/// assert_eq!(worlds.get(&arena, wheel).unwrap().position, Vec3::new(10.0, 1.0, 0.0));
/// ```
pub struct WorldTransforms {
    /// World pose by slot.
    poses: Vec<PoseCell>,
    /// High 32 bits of the id whose world the slot holds, by slot (the low 32 bits are the
    /// cell's tag; see `world_column`).
    high: Vec<u32>,
    /// Whether an id at or above 2^32 was ever written: from then on every write stores
    /// its high bits.
    wide: bool,
    /// Root-finding stamps by slot: `epoch << 2 | state` (see `roots`).
    marks: Vec<AtomicU32>,
    /// The pass counter for the marks.
    epochs: Epochs,
}

/// One slot's world pose — position x, y, z, rotation x, y, z, w — and in the eighth lane
/// the low 32 bits of the owner's id (the tag), 32 bytes so it is one aligned load and
/// never straddles a cache line.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(32))]
pub(crate) struct PoseCell(pub(crate) [f32; 8]);

impl PoseCell {
    const IDENTITY: PoseCell = PoseCell::new(&IDENTITY);

    #[inline]
    const fn new(p: &Pose) -> Self {
        Self([p[0], p[1], p[2], p[3], p[4], p[5], p[6], 0.0])
    }

    /// The cell of a world given as the compose's two vectors (the position in the first
    /// three lanes of `pos`, whose fourth is no part of the world, and the rotation `rot`),
    /// tagged `tag`.
    #[inline(always)]
    fn of_vectors(pos: wide::f32x4, rot: wide::f32x4, tag: u32) -> Self {
        let (p, q) = (pos.to_array(), rot.to_array());
        Self([p[0], p[1], p[2], q[0], q[1], q[2], q[3], f32::from_bits(tag)])
    }

    /// Sets the tag (the bits of the eighth lane, never used as a float).
    #[inline(always)]
    fn set_tag(&mut self, tag: u32) {
        self.0[7] = f32::from_bits(tag);
    }

    /// The tag.
    #[inline(always)]
    fn tag(&self) -> u32 {
        self.0[7].to_bits()
    }

    #[inline]
    fn pose(&self) -> Pose {
        let p = &self.0;
        [p[0], p[1], p[2], p[3], p[4], p[5], p[6]]
    }
}

impl Default for WorldTransforms {
    fn default() -> Self {
        Self::new()
    }
}

impl WorldTransforms {
    /// Empty columns; the first [`update`](Self::update) sizes them to the arena.
    pub fn new() -> Self {
        Self {
            poses: Vec::new(),
            high: Vec::new(),
            wide: false,
            marks: Vec::new(),
            epochs: Epochs::default(),
        }
    }

    /// Recomputes the worlds of the subtrees under `dirty` (ids from
    /// [`Arena::take_dirty_transforms`]; repeats, destroyed and detached ids are fine),
    /// parent before child. A dirty node below another dirty node is covered by it. An empty
    /// `dirty` returns at once without touching anything.
    ///
    /// The first pass that sees the Workspace without a world computes it too (covering the
    /// whole world), so a fresh `WorldTransforms` needs no special first call. A dirty list
    /// of at least 1,024 ids naming at least half as many ids as the arena has live nodes
    /// is treated as the Workspace alone: recomputing the whole world then costs no more
    /// than sorting out the roots would, and gives the same worlds (the stats then count
    /// one root and every in-world node).
    pub fn update(&mut self, arena: &Arena, dirty: &[Id], mode: PassMode) -> PassStats {
        self.update_with(arena, dirty, mode, Writes::Direct, Split::default())
    }

    /// [`update`](Self::update), but a parallel pass has its tasks collect
    /// `(slot, id, world)` triples that the calling thread scatters afterwards, instead of
    /// writing the columns directly. Same results; kept to benchmark the safe alternative to
    /// the pass's one `unsafe` write path.
    #[doc(hidden)]
    pub fn update_collect_scatter(&mut self, arena: &Arena, dirty: &[Id], mode: PassMode) -> PassStats {
        self.update_with(arena, dirty, mode, Writes::CollectScatter, Split::default())
    }

    fn update_with(
        &mut self,
        arena: &Arena,
        dirty: &[Id],
        mode: PassMode,
        writes: Writes,
        split: Split,
    ) -> PassStats {
        if dirty.is_empty() {
            return PassStats::default();
        }
        let view = arena.nodes_view();
        self.grow(view.slots() as usize);
        let ws = arena.workspace();
        let Some((ws_slot, ws_node)) = view.locate(ws) else { return PassStats::default() };
        let whole = dirty.len() >= split.min_whole && dirty.len() * 2 >= arena.len();
        let walker = Walker { view: &view, simd: mode.simd, walked: None };
        if whole && in_world(ws_node.flags()) {
            let threads = if mode.parallel { rayon::current_num_threads() } else { 1 };
            let saw_wide = AtomicBool::new(false);
            let columns = ColumnsMut {
                poses: &mut self.poses,
                high: &mut self.high,
                wide: self.wide,
                saw_wide: &saw_wide,
            };
            let swept = sweep::sweep(&view, ws, columns, mode.simd, threads);
            self.wide |= saw_wide.load(Ordering::Relaxed);
            if !swept.deferred.is_empty() {
                let finder = Finder { view: &view, marks: &self.marks, ws };
                let roots = self.epochs.find(finder, &swept.deferred, None, mode.parallel, split.find_chunk);
                let columns = ColumnsMut {
                    poses: &mut self.poses,
                    high: &mut self.high,
                    wide: self.wide,
                    saw_wide: &saw_wide,
                };
                walk::run(walker, &roots, columns, mode.parallel, writes, split);
                self.wide |= saw_wide.load(Ordering::Relaxed);
            }
            return PassStats { dirty_roots: 1, recomputed: swept.in_world };
        }
        let ws_fresh = !self.owns(ws_slot, ws);
        let finder = Finder { view: &view, marks: &self.marks, ws };
        if dirty.len() <= split.max_sparse {
            let saw_wide = AtomicBool::new(false);
            let columns = ColumnsMut {
                poses: &mut self.poses,
                high: &mut self.high,
                wide: self.wide,
                saw_wide: &saw_wide,
            };
            let epoch = self.epochs.next_epoch(finder.marks);
            // The short-list route's walks mark what they write (see `sparse`).
            let walked = Some((finder.marks, mark_of(epoch, COVERED | WALKED)));
            let route = sparse::Route { finder, walker: Walker { walked, ..walker }, epoch };
            let extra = ws_fresh.then_some(ws);
            let done = sparse::run(route, dirty, extra, columns, mode.parallel, writes, split);
            self.wide |= saw_wide.load(Ordering::Relaxed);
            return PassStats { dirty_roots: done.roots, recomputed: done.written };
        }
        let roots = self.epochs.find(finder, dirty, ws_fresh.then_some(ws), mode.parallel, split.find_chunk);
        let saw_wide = AtomicBool::new(false);
        let columns =
            ColumnsMut { poses: &mut self.poses, high: &mut self.high, wide: self.wide, saw_wide: &saw_wide };
        let recomputed = walk::run(walker, &roots, columns, mode.parallel, writes, split);
        self.wide |= saw_wide.load(Ordering::Relaxed);
        PassStats { dirty_roots: roots.len(), recomputed }
    }

    /// Sizes every per-slot column for `slots` slots.
    fn grow(&mut self, slots: usize) {
        if self.poses.len() < slots {
            self.poses.resize(slots, PoseCell::IDENTITY);
            self.high.resize(slots, 0);
            self.marks.resize_with(slots, AtomicU32::default);
        }
    }

    fn pose(&self, slot: usize) -> Pose {
        self.poses[slot].pose()
    }

    /// The world of live node `id` as of the last pass: `None` if the node is not live or
    /// no pass ever computed its world (it was never in the world). A detached node keeps
    /// the stale world it had when it left.
    pub fn get(&self, arena: &Arena, id: Id) -> Option<WorldTransform> {
        let slot = arena.slot(id)?;
        self.owns(slot, id).then(|| self.at(slot))
    }

    /// Whether `slot` holds a world computed for `id`: tag and high bits both match.
    fn owns(&self, slot: Slot, id: Id) -> bool {
        let Some(cell) = self.poses.get(slot.index()) else { return false };
        if id.is_none() || cell.tag() != id.0 as u32 {
            return false;
        }
        // Until an id at or above 2^32 is written the high column is all zeros (see
        // `world_column`): no need to read it.
        let high = if self.wide { self.high.get(slot.index()).copied() } else { Some(0) };
        high == Some(world_column::high_bits(id))
    }

    /// The world position stored in `slot` when the slot holds a world computed for `id`
    /// (`id` lives in `slot`): [`get`](Self::get) for a caller that has the slot already.
    pub(crate) fn position_at(&self, slot: Slot, id: Id) -> Option<Vec3> {
        self.owns(slot, id).then(|| {
            let p = &self.poses[slot.index()].0;
            Vec3::new(p[0], p[1], p[2])
        })
    }

    /// Asks for the cache line of `slot`'s world (a hint: nothing is read).
    #[inline]
    pub(crate) fn prefetch(&self, slot: Slot) {
        crate::prefetch::prefetch_ptr(self.poses.as_ptr().wrapping_add(slot.index()));
    }

    /// The world stored in `slot`, whichever node it belongs to (the identity for a slot
    /// no pass has written).
    pub fn at(&self, slot: Slot) -> WorldTransform {
        if slot.index() < self.poses.len() {
            WorldTransform::from_pose(self.pose(slot.index()))
        } else {
            WorldTransform::IDENTITY
        }
    }

    /// The world matrix of live node `id` (see [`get`](Self::get)).
    pub fn matrix(&self, arena: &Arena, id: Id) -> Option<Mat4> {
        self.get(arena, id).map(|w| w.matrix())
    }

    /// Slots the columns cover.
    pub fn len(&self) -> usize {
        self.poses.len()
    }

    /// Whether the columns cover no slot (no pass ran yet).
    pub fn is_empty(&self) -> bool {
        self.poses.is_empty()
    }

    /// Bytes held by the columns and the bookkeeping.
    pub fn heap_bytes(&self) -> usize {
        self.poses.capacity() * size_of::<PoseCell>()
            + self.high.capacity() * size_of::<u32>()
            + self.marks.capacity() * size_of::<AtomicU32>()
    }
}
