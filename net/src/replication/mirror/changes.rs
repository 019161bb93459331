//! [`Changes`]: what one capture of the [`Mirror`](super::Mirror) changed, in the order
//! clients must apply it: deletions and removals, cell moves of top parts, additions
//! (parents first), then the instances whose groups changed, also grouped by cell.
//!
//! Invariants: `changed` holds no id added in the same capture; every id of `changed` still
//! mirrored is in exactly one of `changed_structure` and `changed_by_cell`; an instance that
//! moved to another unit is in `removed`, then in `added`.

use crate::replication::cell::{Cell, CellChanges};
use arbor_core::Id;

/// What one capture changed, in the order clients must apply it.
#[derive(Clone, Debug, Default)]
pub struct Changes {
    /// Destroyed instances that were mirrored.
    pub deleted: Vec<Id>,
    /// Live instances that left the mirror (out of the world, or moved to another unit):
    /// `(id, is_root)`; a root's subtree follows it.
    pub removed: Vec<(Id, bool)>,
    /// Top parts whose cell changed: `(id, old cell, new cell)`.
    pub unit_moves: Vec<(Id, Cell, Cell)>,
    /// Instances that entered the mirror, parents first.
    pub added: Vec<Id>,
    /// Mirrored instances (not added this epoch) with at least one changed group.
    pub changed: Vec<Id>,
    /// The same, for structure only.
    pub changed_structure: Vec<Id>,
    /// The same, for instances of streaming units, by the cell of their unit (after the
    /// capture), so a client can read only the cells it sees.
    pub changed_by_cell: CellChanges,
    /// Whether the logs could not answer and the whole Workspace was compared.
    pub rescanned: bool,
}
