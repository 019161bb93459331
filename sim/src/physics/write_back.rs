//! [`Physics::write_back`]: the poses of awake dynamic bodies go back into the arena.
//!
//! Only `islands.active_bodies()` are visited (plus, once, the bodies that fell asleep since
//! the last write-back, so their final resting pose lands): a sleeping world costs nothing.
//! Each pose becomes a *local* transform, `local = parent_world⁻¹ ∘ world`, where the parent's
//! world pose is composed from the arena — except that an ancestor part with a dynamic body
//! contributes its body's new pose, so nested simulated parts stay consistent whatever order
//! they are written in. The write goes through `Arena::set_transform` (part-write log,
//! transform-dirty list) and the entry remembers the part's new revision.
//!
//! A part written by someone else since the last sync is left alone: that write wins and the
//! next sync applies it. When nothing touched the arena between the sync and this call, the
//! sync cursor moves past physics' own writes, so the next sync does not even read them; a
//! later script write has a newer revision and is still seen.

use super::pose::{self, ParentPoses};
use super::{Physics, unpack};
use crate::transform::WorldTransform;
use arbor_core::{Arena, Id, LocalTransform};
use rapier3d::prelude::RigidBodyHandle;

impl Physics {
    /// Writes the world poses of awake dynamic bodies into the arena as local transforms and
    /// returns how many parts were written. Sleeping bodies are not visited.
    pub fn write_back(&mut self, arena: &mut Arena) -> usize {
        let clean = arena.revisions().global == self.since;
        let mut parents = ParentPoses::default();
        let mut written = 0;
        // Bodies that were awake last time and sleep now: their final pose.
        let previous = std::mem::take(&mut self.was_awake);
        for &h in &previous {
            if self.world.bodies.get(h).is_some_and(|b| b.is_dynamic() && b.is_sleeping()) {
                written += usize::from(self.write_one(arena, h, &mut parents));
            }
        }
        let mut awake = std::mem::replace(&mut self.awake, previous);
        awake.clear();
        awake.extend(self.world.islands.active_bodies());
        for &h in &awake {
            written += usize::from(self.write_one(arena, h, &mut parents));
        }
        self.was_awake = awake;
        self.awake.clear();
        if clean {
            self.since = arena.revisions().global;
        }
        written
    }

    /// Writes body `h`'s pose to its part; whether the part's transform changed.
    fn write_one(&mut self, arena: &mut Arena, h: RigidBodyHandle, parents: &mut ParentPoses) -> bool {
        let Some(body) = self.world.bodies.get(h) else { return false };
        if !body.is_dynamic() {
            return false;
        }
        let world = *body.position();
        let (id, i) = unpack(body.user_data);
        let Some(e) = self.entries.get(i as usize).and_then(Option::as_ref) else { return false };
        let Some(node) = arena.get(id) else { return false };
        if e.id != id || node.revision() != e.synced_rev {
            return false;
        }
        let has_children = !node.children().is_empty();
        let parent = parents.world(arena, node.parent(), |a| self.dynamic_pose(a));
        let local = pose::to_rapier(parent).inverse() * world;
        let t = LocalTransform { position: local.translation, rotation: local.rotation };
        if arena.set_transform(id, t) != Ok(true) {
            return false;
        }
        let rev = arena.revisions().global;
        let e = self.entries[i as usize].as_mut().expect("checked above");
        e.synced_rev = rev;
        e.local = t;
        e.parent = parent;
        if has_children {
            self.repose.push(id);
        }
        true
    }

    /// The world of part `id`'s body if it is dynamic.
    fn dynamic_pose(&self, id: Id) -> Option<WorldTransform> {
        let body = self.world.bodies.get(self.entry(id)?.body)?;
        body.is_dynamic().then(|| pose::from_rapier(body.position()))
    }
}
