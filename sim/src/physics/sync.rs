//! [`Physics::sync`]: bring rapier in step with the arena's changes since the last sync.
//!
//! What is read (all after revision `since`):
//! - the part-write log: a written part is re-read (pose, shape, size, anchored, can-collide)
//!   unless its revision is the one physics already holds (a repeated entry, or physics' own
//!   write-back); a part that is gone or out of the world loses its body; any logged node with
//!   children — a written model, a folder or character whose transform was written or that
//!   was moved, a written part — re-poses the parts below it (their world poses moved), once
//!   per sync per node;
//! - the parts physics itself moved while they had children (their descendants moved too).
//!
//! If the log answers `HistoryUnavailable` — or this is the first sync — every live
//! in-world part (`arena.family(Family::Parts)`) is upserted and bodies of ids no longer in
//! that list are removed.
//!
//! Body cap: a part that would be given a body while the world holds `max_bodies` goes into
//! `over_cap` instead (counted in [`SyncStats::over_cap`]); at the end of every sync, while
//! there is room, the waiting parts get bodies, lowest id first. Every new or changed body is
//! noted for the crowding pass, which checks it before the next step.
//!
//! A part's pose is taken from the arena only when its local transform or its parent's world
//! pose differs from what physics last synced or wrote, so re-reading a part for another
//! field (colour, size…) never teleports or wakes a moving body.

use super::pose::{self, ParentPoses};
use super::shapes;
use super::{Entry, Physics, SyncStats, groups, pack};
use arbor_core::{Arena, Class, Family, Id, NodeFlags, raw::NodeRef};
use rapier3d::prelude::{
    ColliderBuilder, ColliderHandle, Pose, RigidBodyBuilder, RigidBodyHandle, RigidBodyType,
};

/// Exact pose equality.
#[inline]
pub(super) fn same_pose(a: &Pose, b: &Pose) -> bool {
    a.translation == b.translation && a.rotation == b.rotation
}

impl Physics {
    /// Applies the arena's changes since the last sync to rapier (see the module docs of
    /// `physics` and `physics::sync`). Cost follows the number of changed parts; a full
    /// rescan happens only on the first sync and when the arena's logs lost history.
    /// World poses are composed from the arena's local transforms (see `physics::pose`), so
    /// they are exact even for parts written after the last transform pass.
    pub fn sync(&mut self, arena: &Arena) -> SyncStats {
        let mut stats = SyncStats::default();
        let mut parents = ParentPoses::default();
        if self.needs_rescan || !self.sync_logged(arena, &mut parents, &mut stats) {
            self.rescan(arena, &mut parents, &mut stats);
        }
        self.admit_waiting(arena, &mut parents, &mut stats);
        self.since = arena.revisions().global;
        self.needs_rescan = false;
        stats
    }

    /// Gives bodies to parts waiting past the body cap while there is room, lowest id first.
    fn admit_waiting(&mut self, arena: &Arena, parents: &mut ParentPoses, stats: &mut SyncStats) {
        while self.index.len() < self.config.max_bodies
            && let Some(id) = self.over_cap.pop_first()
        {
            if let Some(node) = arena.get(id)
                && node.class() == Class::Part
                && node.flags().contains(NodeFlags::IN_WORLD)
            {
                self.upsert(arena, node, parents, stats);
            }
        }
    }

    /// The incremental path; `false` (having changed nothing) if history is unavailable.
    fn sync_logged(&mut self, arena: &Arena, parents: &mut ParentPoses, stats: &mut SyncStats) -> bool {
        let Ok(writes) = arena.part_writes_since(self.since) else {
            return false;
        };
        let mut roots = std::mem::take(&mut self.repose);
        for id in writes {
            if self.visit(arena, id, parents, stats) {
                roots.push(id);
            }
        }
        // Every part below a root once, however the roots nest (linear in what they hold).
        for id in arena.descendants_of_all(&roots) {
            if let Some(node) = arena.get(id)
                && node.class() == Class::Part
                && node.flags().contains(NodeFlags::IN_WORLD)
            {
                self.upsert(arena, node, parents, stats);
            }
        }
        roots.clear();
        self.repose = roots;
        true
    }

    /// Handles one id from the part-write log: a part is re-read. Returns whether the parts
    /// below it must be re-posed (a logged node with children in the world: a moved model,
    /// folder, character or part).
    fn visit(&mut self, arena: &Arena, id: Id, parents: &mut ParentPoses, stats: &mut SyncStats) -> bool {
        let Some(node) = arena.get(id) else {
            self.remove(id, stats);
            return false;
        };
        let in_world = node.flags().contains(NodeFlags::IN_WORLD);
        if node.class() == Class::Part {
            if !in_world {
                self.remove(id, stats);
                return false;
            }
            if self.entry(id).is_some_and(|e| e.synced_rev == node.revision()) {
                return false;
            }
            self.upsert(arena, node, parents, stats);
        }
        in_world && node.moves_parts_below()
    }

    /// Upserts every live in-world part and drops the bodies of everything else.
    fn rescan(&mut self, arena: &Arena, parents: &mut ParentPoses, stats: &mut SyncStats) {
        stats.full_rescan = true;
        self.epoch = self.epoch.wrapping_add(1);
        self.repose.clear();
        self.over_cap.clear();
        let parts = arena.family(Family::Parts);
        for &id in parts.iter() {
            if let Some(node) = arena.get(id)
                && node.class() == Class::Part
                && node.flags().contains(NodeFlags::IN_WORLD)
            {
                self.upsert(arena, node, parents, stats);
            }
        }
        let stale: Vec<Id> =
            self.entries.iter().flatten().filter(|e| e.epoch != self.epoch).map(|e| e.id).collect();
        for id in stale {
            self.remove(id, stats);
        }
    }

    /// Creates or updates the body of live in-world part `node`.
    fn upsert(&mut self, arena: &Arena, node: NodeRef<'_>, parents: &mut ParentPoses, stats: &mut SyncStats) {
        let id = node.id();
        let parent = parents.world(arena, node.parent(), |_| None);
        let local = node.transform();
        let shape = node.appearance().shape;
        let size = shapes::sanitize(node.size());
        let (anchored, can_collide, rev) = (node.anchored(), node.can_collide(), node.revision());
        let Some(&i) = self.index.get(&id) else {
            let pose = pose::body_pose(&parent, &local);
            if !pose::is_simulable(&pose) {
                // No body until it is written back into the world (see `WORLD_EXTENT`).
            } else if self.index.len() >= self.config.max_bodies {
                self.over_cap.insert(id);
                stats.over_cap += 1;
            } else {
                self.create(Entry {
                    id,
                    body: RigidBodyHandle::invalid(),
                    collider: ColliderHandle::invalid(),
                    shape,
                    size,
                    anchored,
                    can_collide,
                    local,
                    parent,
                    synced_rev: rev,
                    epoch: self.epoch,
                    standing: Default::default(),
                    dormant: anchored,
                });
                stats.added += 1;
            }
            return;
        };
        let e = self.entries[i as usize].as_mut().expect("indexed entry");
        let moved = local != e.local || parent != e.parent;
        let pose = pose::body_pose(&parent, &local);
        if moved && !pose::is_simulable(&pose) {
            // A non-finite pose, or one outside the world extent, is not simulated;
            // fallen-part cleanup deals with a non-finite or fallen part.
            self.remove(id, stats);
            return;
        }
        let mut changed = false;
        if e.anchored != anchored && e.dormant {
            // A dynamic body is never dormant: wake it now (the crowding pass settles it).
            e.dormant = false;
            (e.local, e.parent) = (local, parent);
            self.dormancy.woke_for_type_change();
            self.insert_rapier(i);
        }
        let e = self.entries[i as usize].as_mut().expect("indexed entry");
        if e.anchored != anchored {
            let Some(body) = self.world.bodies.get_mut(e.body) else { return };
            body.set_body_type(if anchored { RigidBodyType::Fixed } else { RigidBodyType::Dynamic }, true);
            body.set_linvel(glam::Vec3::ZERO, false);
            body.set_angvel(glam::Vec3::ZERO, false);
            e.anchored = anchored;
            if anchored {
                self.dynamic_entries.remove(&i);
            } else {
                self.dynamic_entries.insert(i);
            }
            changed = true;
        }
        if moved && e.dormant {
            // A dormant body is outside rapier: its pose lives in the entry until it wakes.
            changed = true;
        } else if moved
            && self.world.bodies.get(e.body).is_some_and(|b| !same_pose(b.position(), &pose))
            && let Some(body) = self.world.bodies.get_mut(e.body)
        {
            body.set_position(pose, true);
            changed = true;
        }
        e.local = local;
        e.parent = parent;
        // `get_mut` marks the collider modified for rapier: only when something changed.
        let reshaped = e.shape != shape || e.size != size || e.can_collide != can_collide;
        if reshaped {
            if let Some(collider) = self.world.colliders.get_mut(e.collider) {
                if e.shape != shape || e.size != size {
                    let (geometry, offset) = shapes::geometry(shape, size);
                    collider.set_shape(geometry);
                    collider.set_position_wrt_parent(offset);
                }
                if e.can_collide != can_collide {
                    collider.set_collision_groups(groups(can_collide));
                }
            }
            (e.shape, e.size, e.can_collide) = (shape, size, can_collide);
            changed = true;
        }
        e.synced_rev = rev;
        e.epoch = self.epoch;
        if changed {
            if self.world.bodies.get(e.body).is_some_and(|b| b.is_dynamic())
                && let Some(body) = self.world.bodies.get_mut(e.body)
            {
                body.wake_up(true);
            }
            self.note_changed(i);
            stats.updated += 1;
        }
    }

    /// Inserts the body and collider of `entry` (whose handles are filled in here).
    fn create(&mut self, entry: Entry) {
        let index = self.free.pop().unwrap_or_else(|| {
            self.entries.push(None);
            (self.entries.len() - 1) as u32
        });
        // An anchored part starts dormant (no rapier body): the crowding pass wakes it if a
        // dynamic body reaches it (see `dormancy`).
        let dormant = entry.dormant;
        if dormant {
            self.dormancy.count_new_dormant();
        }
        self.index.insert(entry.id, index);
        if !entry.anchored {
            self.dynamic_entries.insert(index);
        }
        self.entries[index as usize] = Some(entry);
        if !dormant {
            self.insert_rapier(index);
        }
        self.crowding.list(index);
    }

    /// Gives entry `index` its rapier body and collider, at the pose its entry holds.
    pub(super) fn insert_rapier(&mut self, index: u32) {
        let Some(e) = self.entries[index as usize].as_ref() else { return };
        let data = pack(e.id, index);
        let body_type = if e.anchored { RigidBodyType::Fixed } else { RigidBodyType::Dynamic };
        let body = RigidBodyBuilder::new(body_type)
            .pose(pose::body_pose(&e.parent, &e.local))
            .can_sleep(self.config.can_sleep)
            .user_data(data)
            .build();
        let (geometry, offset) = shapes::geometry(e.shape, e.size);
        let collider = ColliderBuilder::new(geometry)
            .position(offset)
            .collision_groups(groups(e.can_collide))
            .user_data(data);
        let body = self.world.bodies.insert(body);
        let collider = self.world.colliders.insert_with_parent(collider, body, &mut self.world.bodies);
        let e = self.entries[index as usize].as_mut().expect("checked above");
        (e.body, e.collider) = (body, collider);
    }

    /// Takes entry `index`'s body and collider out of rapier (the entry keeps what rebuilds
    /// them).
    pub(super) fn remove_rapier(&mut self, index: u32) {
        let Some(e) = self.entries[index as usize].as_mut() else { return };
        let body = std::mem::replace(&mut e.body, RigidBodyHandle::invalid());
        e.collider = ColliderHandle::invalid();
        if self.world.bodies.contains(body) {
            self.world.remove_body(body);
        }
    }

    /// Removes `id`'s body and collider, if it has them (and forgets it if it waited past the
    /// body cap).
    pub(super) fn remove(&mut self, id: Id, stats: &mut SyncStats) {
        self.over_cap.remove(&id);
        let Some(i) = self.index.remove(&id) else { return };
        self.detach(i);
        self.drop_dormancy(i);
        if let Some(e) = self.entries[i as usize].take() {
            if self.world.bodies.contains(e.body) {
                self.world.remove_body(e.body);
            }
            stats.removed += 1;
        }
        self.dynamic_entries.remove(&i);
        self.free.push(i);
    }
}
