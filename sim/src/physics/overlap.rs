//! Counting how many simulated parts a part's bounds overlap, for the crowding pass.
//!
//! A part's *reach* is the AABB of its collider, loosened by [`REACH_MARGIN`] × the length
//! unit: rapier fattens each broad-phase leaf by 0.04 length units and pads a collider's
//! AABB by half its 0.02-unit prediction distance, so two parts whose reaches overlap are
//! exactly the pairs rapier's broad phase reports (for bodies at rest; a fast body's leaf
//! also stretches along its motion). Counting overlaps of reaches therefore counts the
//! broad-phase pairs and the contact pairs a part adds, extents included: a 2048-stud part
//! overlaps everything it covers, however far their centres are.
//!
//! [`level`] sorts parts by size: level `L` holds reaches whose largest extent is at most
//! `CROWDING_CELL_SIZE × 2^L` studs (the last level holds everything larger).
//!
//! [`Tree`] is a parry [`Bvh`] of reaches keyed by entry index, counting overlaps with an
//! early exit: a query that stops after `limit` overlaps visits at most `limit` leaves plus
//! the internal nodes above them, so a pile of 30,000 parts costs a bounded count per query.
//!
//! Invariant: a tree holds at most one leaf per entry index; callers remove a leaf before
//! re-inserting it.

use rapier3d::parry::partitioning::Bvh;
use rapier3d::prelude::{Aabb, BoundingVolume, Collider, Pose, Ray};

/// Margin added on every side of a collider's AABB, in length units (studs per metre):
/// rapier's leaf fattening (0.04) plus half its prediction distance (0.01).
pub(super) const REACH_MARGIN: f32 = 0.05;

/// Side of the smallest size level's parts, studs (see `overlap::level`).
pub const CROWDING_CELL_SIZE: f32 = 4.0;

/// Size levels: level `LEVELS - 1` holds reaches larger than `CROWDING_CELL_SIZE × 2^(LEVELS - 2)`.
/// Eleven levels reach 4,096 studs, past a 2,048-stud part turned diagonally (3,548 studs).
pub(super) const LEVELS: usize = 11;

/// The reach of `collider` on a body at `body_pose` (its AABB there, loosened by `margin`
/// studs), or `None` if it is not finite.
pub(super) fn reach(body_pose: &Pose, collider: &Collider, margin: f32) -> Option<Aabb> {
    let local = collider.position_wrt_parent().copied().unwrap_or_default();
    let aabb = collider.shape().compute_aabb(&(body_pose * local)).loosened(margin);
    (aabb.mins.is_finite() && aabb.maxs.is_finite()).then_some(aabb)
}

/// The size level of `reach`: the smallest `L` with largest extent ≤ `CROWDING_CELL_SIZE × 2^L`.
pub(super) fn level(reach: &Aabb) -> usize {
    let extent = reach.extents().max_element();
    let mut level = 0;
    let mut side = CROWDING_CELL_SIZE;
    while extent > side && level < LEVELS - 1 {
        side *= 2.0;
        level += 1;
    }
    level
}

/// Reaches keyed by entry index, counting overlaps with an early exit.
#[derive(Default)]
pub(super) struct Tree {
    bvh: Bvh,
    len: usize,
}

impl Tree {
    /// Leaves held.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Adds `index` with `reach`; it must not be in the tree already.
    pub fn insert(&mut self, index: u32, reach: Aabb) {
        debug_assert!(self.bvh.leaf_node(index).is_none(), "leaf {index} inserted twice");
        self.bvh.insert(reach, index);
        self.len += 1;
    }

    /// Removes `index` and returns its reach, if it is in the tree.
    pub fn remove(&mut self, index: u32) -> Option<Aabb> {
        let reach = self.bvh.leaf_node(index)?.aabb();
        self.bvh.remove(index);
        self.len -= 1;
        Some(reach)
    }

    /// The reach stored for `index`, if it is in the tree.
    pub fn leaf(&self, index: u32) -> Option<Aabb> {
        Some(self.bvh.leaf_node(index)?.aabb())
    }

    /// The leaf nearest along `ray` within `max_distance` for which `hit(leaf, best so far)`
    /// gives a distance, with that distance.
    pub fn cast_ray(
        &self,
        ray: &Ray,
        max_distance: f32,
        hit: impl Fn(u32, f32) -> Option<f32>,
    ) -> Option<(u32, f32)> {
        if self.len == 0 {
            return None;
        }
        self.bvh.cast_ray(ray, max_distance, hit)
    }

    /// How many leaves overlap `reach`, counting at most `limit`.
    pub fn count(&self, reach: &Aabb, limit: usize) -> usize {
        if self.len == 0 || limit == 0 {
            return 0;
        }
        self.bvh.intersect_aabb(reach).take(limit).count()
    }

    /// The indices of the leaves overlapping `reach`, appended to `out`.
    pub fn overlapping(&self, reach: &Aabb, out: &mut Vec<u32>) {
        if self.len > 0 {
            out.extend(self.bvh.intersect_aabb(reach));
        }
    }

    /// Empties the tree.
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// Heap bytes held (for the memory figures).
    pub fn heap_bytes(&self) -> usize {
        self.bvh.heap_memory_size()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn cube(at: Vec3, half: f32) -> Aabb {
        Aabb::new(at - Vec3::splat(half), at + Vec3::splat(half))
    }

    #[test]
    fn levels_follow_the_largest_extent() {
        assert_eq!(level(&cube(Vec3::ZERO, 1.0)), 0);
        assert_eq!(level(&cube(Vec3::ZERO, 2.0)), 0);
        assert_eq!(level(&cube(Vec3::ZERO, 2.5)), 1);
        assert_eq!(level(&Aabb::new(Vec3::ZERO, Vec3::new(0.1, 0.1, 2050.0))), 10);
        assert_eq!(level(&cube(Vec3::ZERO, 1e6)), LEVELS - 1);
    }

    #[test]
    fn counts_stop_at_the_limit_and_follow_removals() {
        let mut tree = Tree::default();
        for i in 0..100 {
            tree.insert(i, cube(Vec3::ZERO, 1.0));
        }
        tree.insert(100, cube(Vec3::splat(50.0), 1.0));
        assert_eq!(tree.count(&cube(Vec3::ZERO, 0.5), 10), 10);
        assert_eq!(tree.count(&cube(Vec3::ZERO, 0.5), 1_000), 100);
        assert_eq!(tree.count(&cube(Vec3::splat(50.0), 0.5), 1_000), 1);
        assert!(tree.remove(3).is_some());
        assert!(tree.remove(3).is_none());
        assert_eq!(tree.count(&cube(Vec3::ZERO, 0.5), 1_000), 99);
        assert_eq!(tree.len(), 100);
        let mut out = Vec::new();
        tree.overlapping(&cube(Vec3::splat(50.0), 0.5), &mut out);
        assert_eq!(out, vec![100]);
    }
}
