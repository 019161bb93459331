//! World poses computed from the arena's local transforms.
//!
//! A node's world pose is its ancestors' local transforms composed parent-first
//! (`world(n) = world(parent) ∘ local(n)`, the root's world being its local transform), the
//! same rule the transform pass applies. Computing it from the arena keeps physics exact for
//! nodes written after the last transform pass. [`ParentPoses`] remembers every ancestor it
//! composed, so each node's world pose is composed once per sync (siblings in a row cost
//! one compare, and a deep chain stays linear).

use super::WORLD_EXTENT;
use arbor_core::{Arena, Id, LocalTransform, Quat};
use rapier3d::prelude::Pose;
use rustc_hash::FxHashMap;

/// A local transform as a rapier pose (rotation normalised; a degenerate one becomes identity,
/// a non-finite one stays non-finite so callers can refuse it).
#[inline]
pub(super) fn to_pose(t: LocalTransform) -> Pose {
    Pose::from_parts(t.position, normalized(t.rotation))
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

/// World poses of the parents asked for during one sync or write-back, memoised: every
/// ancestor composed on the way is remembered, so a part whose parent's world pose is known
/// costs one lookup, and a chain of 100,000 nested parts is set up in linear time, not
/// quadratic. Valid while the world poses it holds do not change: within one sync the
/// arena is not written, and write-back keeps every world pose (it writes the local
/// transform that matches the body's pose).
#[derive(Default)]
pub(super) struct ParentPoses {
    /// The parent asked for last (siblings come in runs).
    last: Option<(Id, Pose)>,
    memo: FxHashMap<Id, Pose>,
    /// Scratch: the chain being composed, child first.
    chain: Vec<(Id, Pose)>,
}

impl ParentPoses {
    /// The world pose of `parent` (identity for `None`): the locals composed parent-first
    /// up to and including the Workspace (whose world is its own local transform; a node
    /// outside the world composes up to its root). `shortcut(a)` may supply the world pose
    /// of an ancestor-or-self `a` directly (write-back uses it for parts whose body moved
    /// this step); it is asked before composing each node.
    pub fn world(
        &mut self,
        arena: &Arena,
        parent: Option<Id>,
        shortcut: impl Fn(Id) -> Option<Pose>,
    ) -> Pose {
        let Some(p) = parent else { return Pose::IDENTITY };
        if let Some((id, pose)) = self.last
            && id == p
        {
            return pose;
        }
        let workspace = arena.workspace();
        let mut base = Pose::IDENTITY;
        let mut cur = Some(p);
        self.chain.clear();
        while let Some(c) = cur {
            if let Some(&known) = self.memo.get(&c) {
                base = known;
                break;
            }
            if let Some(pose) = shortcut(c) {
                base = pose;
                self.memo.insert(c, pose);
                break;
            }
            let Some(node) = arena.get(c) else { break };
            self.chain.push((c, to_pose(node.transform())));
            cur = if c == workspace { None } else { node.parent() };
        }
        let mut world = base;
        for &(id, local) in self.chain.iter().rev() {
            world *= local;
            self.memo.insert(id, world);
        }
        let pose = self.memo.get(&p).copied().unwrap_or(world);
        self.last = Some((p, pose));
        pose
    }
}
