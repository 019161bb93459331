//! Dormant anchored parts: an anchored part that no dynamic body can reach has no rapier body
//! or collider at all (its entry keeps the shape, size and pose that rebuild them), so it is
//! neither in rapier's broad phase nor in any of rapier's per-collider scans, and costs its
//! entry and its crowding leaf only. A place of a
//! million anchored parts and a few thousand dynamic ones then steps as a world of those
//! dynamic bodies and the anchored parts around them, and moving a dormant part costs the
//! crowding tree's bookkeeping only (often nothing: see `Physics::note_changed`).
//!
//! Each simulated dynamic body has a *region*: its reach swept along its velocity over four
//! steps, loosened by [`REGION_SLACK`] studs, a leaf of the
//! region tree keyed by entry index. Before every step the region of each awake (or newly
//! checked) dynamic body is renewed when its reach swept over one step has left it or when it is much
//! larger than a fresh one would be (the body slowed down), and every dormant
//! anchored part whose crowding leaf overlaps the new region wakes (its body is enabled).
//! An anchored part settled by the crowding pass is dormant exactly when its leaf overlaps
//! no region. Every [`DORMANCY_SWEEP_EVERY`] steps the parts woken since are re-checked and
//! those no region overlaps go dormant again (in one batch: rapier refits its tree after
//! removals).
//!
//! Scene queries see dormant parts: [`Physics::cast_ray`] casts against rapier's enabled
//! colliders and against the dormant parts' shapes through the crowding trees, and keeps
//! the nearer hit.
//!
//! Invariants, between public calls:
//! - an entry is dormant only while it is anchored (settled `Anchored`, or listed to be
//!   checked), and has a rapier body exactly when it is not dormant; a body is disabled
//!   exactly when its entry is suspended;
//! - after a step's crowding pass, the leaf of every anchored part overlapping a simulated
//!   dynamic body's region is awake; a region holds its body's reach over the coming step;
//! - `woken` lists every awake anchored entry woken since the last sweep (possibly with
//!   stale or repeated indices, filtered when swept).

use super::crowding_state::Standing;
use super::overlap::{self, REACH_MARGIN, Tree};
use super::{Entry, Physics, pose, shapes, unpack};
use glam::Vec3;
use rapier3d::prelude::{Aabb, BoundingVolume, Pose, Ray, RayIntersection};

/// Studs added on every side of a dynamic body's reach swept over four steps to make its
/// region, so a body settles in its region and is re-queried rarely.
pub const REGION_SLACK: f32 = 4.0;

/// Studs an anchored part's crowding leaf is loosened by: a part moved within it changes
/// neither its crowding standing nor its dormancy.
pub const ANCHORED_SLACK: f32 = 1.0;

/// Steps between sweeps putting woken anchored parts that no region overlaps back to sleep.
pub const DORMANCY_SWEEP_EVERY: u32 = 30;

/// The regions of the dynamic bodies and the anchored parts they woke.
#[derive(Default)]
pub(super) struct Dormancy {
    /// Region of each simulated dynamic entry, keyed by entry index.
    regions: Tree,
    /// Anchored entries woken since the last sweep (and awake ones kept by it).
    woken: Vec<u32>,
    /// Steps since the last sweep.
    since_sweep: u32,
    /// Dormant anchored parts now.
    dormant: usize,
    /// Scratch for tree queries.
    found: Vec<u32>,
}

impl Dormancy {
    /// Forgets the region of entry `index` (removed, or no longer dynamic).
    pub fn forget_region(&mut self, index: u32) {
        self.regions.remove(index);
    }

    /// Counts a part created dormant.
    pub fn count_new_dormant(&mut self) {
        self.dormant += 1;
    }

    /// Counts a dormant part woken because it became dynamic.
    pub fn woke_for_type_change(&mut self) {
        self.dormant -= 1;
    }

    /// Whether `leaf` overlaps a dynamic body's region.
    fn reached(&self, leaf: &Aabb) -> bool {
        self.regions.count(leaf, 1) > 0
    }
}

impl Physics {
    /// Anchored parts kept out of rapier because no dynamic body can reach them.
    pub fn dormant_parts(&self) -> usize {
        self.dormancy.dormant
    }

    /// Whether entry `index`, just given `standing` with crowding leaf `leaf`, is dormant;
    /// records the answer on the entry and returns it.
    pub(super) fn settle_dormancy(&mut self, index: u32, standing: Standing, leaf: Option<&Aabb>) -> bool {
        let dormant = match (standing, leaf) {
            (Standing::Anchored(_), Some(leaf)) => !self.dormancy.reached(leaf),
            _ => false,
        };
        let Some(e) = self.entries[index as usize].as_mut() else { return false };
        if e.dormant != dormant {
            e.dormant = dormant;
            if dormant {
                self.dormancy.dormant += 1;
            } else {
                self.dormancy.dormant -= 1;
                self.dormancy.woken.push(index);
            }
        } else if !dormant && matches!(standing, Standing::Anchored(_)) {
            self.dormancy.woken.push(index);
        }
        dormant
    }

    /// The pose of `e`'s body: rapier's, or for a part without a rapier body (dormant, or
    /// anchored and suspended) the one its entry was last synced to, which its body takes
    /// when it gets one.
    pub(super) fn pose_of(&self, e: &Entry) -> Option<Pose> {
        match self.world.bodies.get(e.body) {
            Some(body) => Some(*body.position()),
            None => Some(pose::body_pose(&e.parent, &e.local)),
        }
    }

    /// The reach of `e`'s collider (see `overlap::reach`): rapier's, or for a part without
    /// one (see `pose_of`), computed from its shape, size and synced pose the same way.
    pub(super) fn reach_of(&self, e: &Entry) -> Option<Aabb> {
        let margin = REACH_MARGIN * self.config.length_unit;
        if !self.world.colliders.contains(e.collider) {
            let aabb = shapes::aabb(e.shape, e.size, &pose::body_pose(&e.parent, &e.local)).loosened(margin);
            return (aabb.mins.is_finite() && aabb.maxs.is_finite()).then_some(aabb);
        }
        let (body, collider) = (self.world.bodies.get(e.body)?, self.world.colliders.get(e.collider)?);
        overlap::reach(body.position(), collider, margin)
    }

    /// Notes that entry `index` (being removed) no longer counts.
    pub(super) fn drop_dormancy(&mut self, index: u32) {
        self.dormancy.forget_region(index);
        if let Some(e) = self.entries[index as usize].as_mut()
            && std::mem::take(&mut e.dormant)
        {
            self.dormancy.dormant -= 1;
        }
    }

    /// Renews the regions of the awake and newly checked dynamic bodies (`checked`), waking
    /// the dormant anchored parts they reach, and runs the periodic sweep. Part of the
    /// crowding pass, before every step.
    pub(super) fn update_regions(&mut self, checked: &[u32], dt: f32) {
        let mut indices: Vec<u32> = checked.to_vec();
        indices.extend(
            self.world
                .islands
                .active_bodies()
                .filter_map(|h| self.world.bodies.get(h))
                .filter(|b| b.is_dynamic())
                .map(|b| unpack(b.user_data).1),
        );
        let margin = REACH_MARGIN * self.config.length_unit;
        for i in indices {
            let Some(e) = self.entries.get(i as usize).and_then(Option::as_ref) else { continue };
            if e.anchored || e.standing != Standing::Dynamic {
                continue;
            }
            let (Some(body), Some(collider)) =
                (self.world.bodies.get(e.body), self.world.colliders.get(e.collider))
            else {
                continue;
            };
            let Some(reach) = overlap::reach(body.position(), collider, margin) else { continue };
            let travel = body.linvel() * dt;
            if !travel.is_finite() {
                continue;
            }
            let swept = reach.merged(&Aabb::new(reach.mins + travel, reach.maxs + travel));
            // Four steps ahead along the motion, `REGION_SLACK` around: a falling body's
            // region reaches down, not out.
            let ahead = travel * 4.0;
            let region =
                reach.merged(&Aabb::new(reach.mins + ahead, reach.maxs + ahead)).loosened(REGION_SLACK);
            // Kept while it holds the swept reach and is not much larger than a fresh one
            // (a body that slowed down or stopped shrinks its region back).
            let slack = Vec3::splat(2.0 * REGION_SLACK);
            if self
                .dormancy
                .regions
                .leaf(i)
                .is_some_and(|r| r.contains(&swept) && (r.extents() - region.extents()).cmple(slack).all())
            {
                continue;
            }
            self.dormancy.regions.remove(i);
            self.dormancy.regions.insert(i, region);
            self.wake_anchored_in(&region);
        }
        self.dormancy.since_sweep += 1;
        if self.dormancy.since_sweep >= DORMANCY_SWEEP_EVERY {
            self.dormancy.since_sweep = 0;
            self.sweep_woken();
        }
    }

    /// Wakes every dormant anchored part whose crowding leaf overlaps `region`.
    fn wake_anchored_in(&mut self, region: &Aabb) {
        let mut found = std::mem::take(&mut self.dormancy.found);
        found.clear();
        for tree in self.crowding.anchored_trees() {
            tree.overlapping(region, &mut found);
        }
        for &i in &found {
            let Some(e) = self.entries[i as usize].as_mut() else { continue };
            if !e.dormant {
                continue;
            }
            e.dormant = false;
            self.dormancy.dormant -= 1;
            self.dormancy.woken.push(i);
            self.insert_rapier(i);
        }
        self.dormancy.found = found;
    }

    /// Puts the woken anchored parts that no region overlaps back to sleep.
    fn sweep_woken(&mut self) {
        let mut woken = std::mem::take(&mut self.dormancy.woken);
        woken.sort_unstable();
        woken.dedup();
        woken.retain(|&i| {
            let Some(e) = self.entries[i as usize].as_mut() else { return false };
            let Standing::Anchored(level) = e.standing else { return false };
            if e.dormant || !e.anchored {
                return false;
            }
            let Some(leaf) = self.crowding.anchored_leaf(level, i) else { return false };
            if self.dormancy.reached(&leaf) {
                return true;
            }
            e.dormant = true;
            self.dormancy.dormant += 1;
            self.remove_rapier(i);
            false
        });
        self.dormancy.woken = woken;
    }

    /// The nearest dormant colliding part on `ray` within `max_distance`: its entry index and
    /// the intersection.
    pub(super) fn cast_ray_dormant(&self, ray: &Ray, max_distance: f32) -> Option<(u32, RayIntersection)> {
        if self.dormancy.dormant == 0 {
            return None;
        }
        let dormant_part = |i: u32| {
            let e = self.entries.get(i as usize)?.as_ref()?;
            (e.dormant && e.can_collide).then(|| (e, pose::body_pose(&e.parent, &e.local)))
        };
        let mut best: Option<(u32, f32)> = None;
        for tree in self.crowding.anchored_trees() {
            let limit = best.map_or(max_distance, |(_, d)| d);
            let hit = tree.cast_ray(ray, limit, |i, so_far| {
                let (e, pose) = dormant_part(i)?;
                shapes::cast_ray(e.shape, e.size, &pose, ray, so_far).map(|h| h.time_of_impact)
            });
            if let Some((i, d)) = hit
                && best.is_none_or(|(_, b)| d < b)
            {
                best = Some((i, d));
            }
        }
        let (i, d) = best?;
        let (e, pose) = dormant_part(i)?;
        Some((i, shapes::cast_ray(e.shape, e.size, &pose, ray, d * 1.0001 + 1e-4)?))
    }
}
