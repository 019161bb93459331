//! World poses of the nodes physics syncs, composed from the arena's local transforms with
//! the transform pass's own arithmetic ([`WorldTransform::compose`]), and their rapier form.
//!
//! A node's world is its ancestors' local transforms composed parent-first, starting from
//! the identity at the Workspace (the rule the pass applies). Composing from the arena keeps
//! physics exact for nodes written after the last transform pass, and composing with the
//! pass's arithmetic makes a body's pose the very world the next pass computes. Rotations
//! are normalised only on the way into rapier ([`to_rapier`]), which needs unit rotations.
//! [`ParentPoses`] remembers every ancestor it composed, so each node's world is composed
//! once per sync (siblings in a row cost one compare, and a deep chain stays linear).

use super::WORLD_EXTENT;
use crate::transform::WorldTransform;
use arbor_core::{Arena, Id, LocalTransform, Quat};
use rapier3d::prelude::Pose;
use rustc_hash::FxHashMap;

/// The rapier pose of a body whose part has local transform `local` under a parent whose
/// world is `parent`.
#[inline]
pub(super) fn body_pose(parent: &WorldTransform, local: &LocalTransform) -> Pose {
    to_rapier(parent.compose(local))
}

/// A world transform as a rapier pose (rotation normalised; a degenerate one becomes
/// identity, a non-finite one stays non-finite so callers can refuse it).
#[inline]
pub(super) fn to_rapier(w: WorldTransform) -> Pose {
    Pose::from_parts(w.position, normalized(w.rotation))
}

/// A rapier pose as a world transform.
#[inline]
pub(super) fn from_rapier(p: &Pose) -> WorldTransform {
    WorldTransform { position: p.translation, rotation: p.rotation }
}

#[inline]
fn normalized(q: Quat) -> Quat {
    let len2 = q.length_squared();
    if (len2 - 1.0).abs() < 1e-6 || !len2.is_finite() {
        q
    } else if len2 > 1e-12 {
        q / len2.sqrt()
    } else {
        Quat::IDENTITY
    }
}

/// Whether a pose is usable by rapier: finite, and inside [`WORLD_EXTENT`] on every axis.
#[inline]
pub(super) fn is_simulable(p: &Pose) -> bool {
    p.translation.is_finite() && p.rotation.is_finite() && p.translation.abs().max_element() <= WORLD_EXTENT
}

/// World transforms of the parents asked for during one sync or write-back, memoised: every
/// ancestor composed on the way is remembered, so a part whose parent's world is known
/// costs one lookup, and a chain of 100,000 nested parts is set up in linear time, not
/// quadratic. Valid while the worlds it holds do not change: within one sync the arena is
/// not written, and write-back keeps every world (it writes the local transform that
/// matches the body's pose).
#[derive(Default)]
pub(super) struct ParentPoses {
    /// The parent asked for last (siblings come in runs).
    last: Option<(Id, WorldTransform)>,
    memo: FxHashMap<Id, WorldTransform>,
    /// Scratch: the chain being composed, child first.
    chain: Vec<(Id, LocalTransform)>,
}

impl ParentPoses {
    /// The world of `parent` (identity for `None`): the locals composed parent-first up to
    /// and including the Workspace (a node outside the world composes up to its root).
    /// `shortcut(a)` may supply the world of an ancestor-or-self `a` directly (write-back
    /// uses it for parts whose body moved this step); it is asked before composing each
    /// node.
    pub fn world(
        &mut self,
        arena: &Arena,
        parent: Option<Id>,
        shortcut: impl Fn(Id) -> Option<WorldTransform>,
    ) -> WorldTransform {
        let Some(p) = parent else { return WorldTransform::IDENTITY };
        if let Some((id, world)) = self.last
            && id == p
        {
            return world;
        }
        let workspace = arena.workspace();
        let mut base = WorldTransform::IDENTITY;
        let mut cur = Some(p);
        self.chain.clear();
        while let Some(c) = cur {
            if let Some(&known) = self.memo.get(&c) {
                base = known;
                break;
            }
            if let Some(world) = shortcut(c) {
                base = world;
                self.memo.insert(c, world);
                break;
            }
            let Some(node) = arena.get(c) else { break };
            self.chain.push((c, node.transform()));
            cur = if c == workspace { None } else { node.parent() };
        }
        let mut world = base;
        for (id, local) in self.chain.iter().rev() {
            world = world.compose(local);
            self.memo.insert(*id, world);
        }
        let world = self.memo.get(&p).copied().unwrap_or(world);
        self.last = Some((p, world));
        world
    }
}
