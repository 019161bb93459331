//! [`MirrorEntity`]: one mirrored instance — its state as of the last capture, the epoch in
//! which each of its groups and components last changed, its hash, and the streaming unit
//! and cell it belongs to.
//!
//! Invariants: `last_change` is the newest of `changed_at`; `component_epochs` has one
//! epoch per component of `state.components`, none older than `component_names_at`; `hash`
//! is `state.hash(id)`.

use crate::replication::cell::Cell;
use crate::wire::{ComponentSend, EntityState, Groups};
use arbor_core::Id;
use glam::Vec3;

/// One mirrored instance.
#[derive(Clone, Debug)]
pub struct MirrorEntity {
    /// The state as of the last capture.
    pub state: EntityState,
    /// The epoch in which each group last changed (bit order of [`Groups`]).
    pub changed_at: [u32; Groups::COUNT],
    /// The newest of `changed_at`.
    pub last_change: u32,
    /// The epoch each component (in `state.components` order) last changed.
    pub component_epochs: Vec<u32>,
    /// The epoch the list of component names last changed (a component added or removed).
    pub component_names_at: u32,
    /// `state.hash(id)`, computed once per change for every client.
    pub hash: u64,
    /// The top part this instance streams with, or [`Id::NONE`] for structure.
    pub unit: Id,
    /// For a top part: its cell.
    pub cell: Cell,
    /// For a top part: its world position as of the last capture; for structure, as of the
    /// capture that added it (it orders a join's first sends, nearest first).
    pub world: Vec3,
    /// The epoch of the capture that last refreshed it (a rescan drops what it missed).
    pub(super) touched: u32,
}

impl MirrorEntity {
    /// How an update to a client confirmed at epoch `since` carries the components: a
    /// patch of those changed after it, or the whole list when the names changed since.
    pub fn components_since(&self, since: u32) -> ComponentSend<'_> {
        if since == 0 || self.component_names_at > since {
            ComponentSend::All
        } else {
            ComponentSend::ChangedSince { epochs: &self.component_epochs, since }
        }
    }

    /// The groups changed after epoch `since`.
    pub fn changed_since(&self, since: u32) -> Groups {
        let mut g = 0u16;
        for (i, &at) in self.changed_at.iter().enumerate() {
            if at > since {
                g |= 1 << i;
            }
        }
        Groups(g)
    }
}
