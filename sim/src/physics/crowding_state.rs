//! The crowding pass's state: where each entry stands ([`Standing`]), the trees of admitted
//! and waiting parts by size level ([`Crowding`]) and the counters it reports
//! ([`CrowdingStats`]). The pass itself is `crowding.rs`; dormancy reads the anchored trees
//! from here.
//!
//! Invariant: an `Anchored(l)` entry is a leaf of `anchored[l]`, an `AnchoredSuspended` one
//! of `waiting`, a `Dynamic` one of `dynamic` (until the next full pass rebuilds it), and
//! nothing else is a leaf.

use super::overlap::{LEVELS, Tree};
use rapier3d::prelude::Aabb;

/// Where an entry stands with the crowding pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Standing {
    /// New or changed since it was last checked (simulated until the next step checks it).
    #[default]
    Unchecked,
    /// Anchored and simulated, in the anchored tree of this size level.
    Anchored(u8),
    /// Anchored and suspended, in the waiting tree.
    AnchoredSuspended,
    /// Dynamic and simulated.
    Dynamic,
    /// Dynamic and suspended.
    DynamicSuspended,
}

impl Standing {
    /// Whether the entry is suspended (its body disabled).
    pub(super) fn suspended(self) -> bool {
        matches!(self, Self::AnchoredSuspended | Self::DynamicSuspended)
    }
}

/// What the crowding pass holds now (for the profiler, tests and the docs' figures).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CrowdingStats {
    /// Dynamic bodies suspended.
    pub suspended_dynamic: usize,
    /// Anchored parts suspended.
    pub suspended_anchored: usize,
    /// Pairs with a dynamic side counted among the simulated bodies when they were admitted
    /// (since the last full pass): rapier's broad-phase pairs with a dynamic side, as of then.
    pub dynamic_pairs: usize,
    /// The part of `dynamic_pairs` spent by crowded bodies (at most [`MAX_CROWDED_PAIRS`](super::MAX_CROWDED_PAIRS)).
    pub crowded_pairs: usize,
    /// Full passes run.
    pub full_passes: u64,
}

/// The crowding state of one physics world.
#[derive(Default)]
pub(super) struct Crowding {
    /// Admitted anchored parts, one tree per size level.
    pub(super) anchored: [Tree; LEVELS],
    /// Suspended anchored parts.
    pub(super) waiting: Tree,
    /// Simulated dynamic bodies.
    pub(super) dynamic: Tree,
    /// Entries new or changed since they were last checked (each once: an `Unchecked`
    /// entry is already listed), in the order noted.
    pub(super) dirty: Vec<u32>,
    /// Reaches of anchored parts that left their tree since the last pass.
    pub(super) vacated: Vec<Aabb>,
    /// Bodies changed since the last full pass.
    pub(super) pending: usize,
    /// Steps since the last full pass.
    pub(super) since_full: u32,
    /// Steps between full passes while bodies are suspended (doubles while passes resume
    /// none, up to `FULL_PASS_EVERY`).
    pub(super) resume_every: u32,
    /// Bodies the current pass resumed.
    pub(super) resumed: usize,
    pub(super) stats: CrowdingStats,
}

impl Crowding {
    /// Lists entry `index` (new, or just detached) to be checked before the next step.
    pub fn list(&mut self, index: u32) {
        self.dirty.push(index);
        self.pending += 1;
    }

    /// Entries listed to be checked.
    #[cfg(test)]
    pub fn listed(&self) -> usize {
        self.dirty.len()
    }

    /// The trees of admitted anchored parts, one per size level.
    pub fn anchored_trees(&self) -> impl Iterator<Item = &Tree> {
        self.anchored.iter()
    }

    /// The leaf of admitted anchored entry `index` at size level `level`.
    pub fn anchored_leaf(&self, level: u8, index: u32) -> Option<Aabb> {
        self.anchored.get(level as usize)?.leaf(index)
    }

    /// Heap bytes of the trees (for the memory figures).
    pub fn heap_bytes(&self) -> usize {
        self.anchored.iter().chain([&self.waiting, &self.dynamic]).map(Tree::heap_bytes).sum()
    }
}
