//! World poses computed from the arena's local transforms.
//!
//! A node's world pose is its ancestors' local transforms composed parent-first
//! (`world(n) = world(parent) ∘ local(n)`, the root's world being its local transform), the
//! same rule the transform pass applies. Computing it from the arena keeps physics exact for
//! nodes written after the last transform pass. [`ParentPoses`] remembers the last parent
//! asked for, so siblings visited in a row (the common layout: many parts under one model or
//! directly under the Workspace) cost one walk.

use super::WORLD_EXTENT;
use arbor_core::{Arena, Id, LocalTransform, Quat};
use rapier3d::prelude::Pose;

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

/// The world pose of live node `id`: its locals composed up to and including the Workspace
/// (whose world is its own local transform; a node outside the world composes up to its
/// root). `shortcut(a)` may supply the world pose of an ancestor-or-self `a` directly
/// (write-back uses it for parts whose body moved this step); it is asked before composing
/// each node.
pub(super) fn world_of(arena: &Arena, id: Id, shortcut: impl Fn(Id) -> Option<Pose>) -> Pose {
    let mut chain: smallvec::SmallVec<[Pose; 8]> = smallvec::SmallVec::new();
    let mut base = Pose::IDENTITY;
    let workspace = arena.workspace();
    let mut cur = Some(id);
    while let Some(c) = cur {
        if let Some(p) = shortcut(c) {
            base = p;
            break;
        }
        let Some(node) = arena.get(c) else { break };
        chain.push(to_pose(node.transform()));
        cur = if c == workspace { None } else { node.parent() };
    }
    chain.into_iter().rev().fold(base, |acc, local| acc * local)
}

/// Memo of the last parent whose world pose was computed.
#[derive(Default)]
pub(super) struct ParentPoses {
    last: Option<(Id, Pose)>,
}

impl ParentPoses {
    /// The world pose of `parent` (identity for `None`), computed by `compute` unless it was
    /// the parent asked for last.
    #[inline]
    pub fn get(&mut self, parent: Option<Id>, compute: impl FnOnce(Id) -> Pose) -> Pose {
        let Some(p) = parent else { return Pose::IDENTITY };
        match self.last {
            Some((id, pose)) if id == p => pose,
            _ => {
                let pose = compute(p);
                self.last = Some((p, pose));
                pose
            }
        }
    }
}
