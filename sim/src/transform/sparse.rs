//! The short-list route: finding the dirty roots of a short dirty list and computing their
//! worlds in one sequential sweep, with no rayon fork and no root list.
//!
//! A 1%-dirty tick names about a thousand scattered nodes, most of them leaves: each costs a
//! few scattered cache lines and a few dozen instructions, and the pass used to spend more
//! on its machinery (a vector of candidates and one of roots, a rayon fork to walk them,
//! each root's page looked up three times) and on waiting for those lines than on the
//! nodes. Here, on the calling thread:
//! 1. every live in-world dirty node's slot is stamped covered (a plain load and store, since
//!    no other thread runs) and the node kept as a candidate (slot, id, page reference);
//! 2. each candidate asks whether its parent is covered (the climb of `roots`, stamping the
//!    answer on every node it meets); a root's world is computed at once from its parent's
//!    stored world and written, and only a root *with children* becomes a unit of further
//!    work (its world and its child array);
//! 3. the units' subtrees are walked by `walk::run_units`, which shares them out to rayon
//!    only when a level is wide enough to be worth a fork.
//!
//! (Prefetching the lines of the candidates a few places ahead — id, flag, parent, local,
//! child array, world cell, the parent's id, mark and world — was tried: it added about 140
//! instructions per candidate and no measurable time.)
//!
//! Invariants (those of `roots` and `walk`): every stamp is in before the first coverage
//! question; a root's parent is not covered, so nothing in this pass writes it and the world
//! read for it is final; each root is written once, and no unit's subtree holds another
//! root's slot.

use super::PoseCell;
use super::compose::{Frame, compose, local_pose};
use super::roots::{Finder, in_world};
use super::sink::{ColumnsMut, Parents, Sink};
use super::walk::Unit;
use arbor_core::{Id, NodeRef};
use std::sync::atomic::Ordering;

/// A live in-world dirty node stamped this pass: slot, id, node.
type Candidate<'a> = (u32, Id, NodeRef<'a>);

/// Finds the roots of `dirty` (plus `extra`, treated as dirty) for pass `epoch`, writes
/// their worlds to `columns` and pushes onto `units` a unit for every root with children.
/// Returns the number of roots.
pub(crate) fn roots_and_worlds<'a>(
    finder: Finder<'a>,
    epoch: u32,
    dirty: &[Id],
    extra: Option<Id>,
    columns: &mut ColumnsMut<'_>,
    units: &mut Vec<Unit<'a>>,
) -> usize {
    let view = finder.view;
    let covered = epoch << 1 | 1;
    let mut candidates: Vec<Candidate<'a>> = Vec::with_capacity(dirty.len() + 1);
    let mut stamp = |id: Id| {
        let Some((slot, node)) = view.locate(id) else { return };
        if !in_world(node.flags()) {
            return;
        }
        let mark = &finder.marks[slot.index()];
        if mark.load(Ordering::Relaxed) == covered {
            return; // a repeat
        }
        mark.store(covered, Ordering::Relaxed);
        candidates.push((slot.0, id, node));
    };
    if let Some(id) = extra {
        stamp(id);
    }
    for &id in dirty {
        stamp(id);
    }
    let mut path = Vec::new();
    let mut roots = 0;
    for &(slot, id, node) in &candidates {
        let local = local_pose(&node.transform());
        // The Workspace is the top of the world: nothing above it can cover it.
        let world = if id == finder.ws {
            local
        } else {
            match finder.covered(epoch, node.parent(), &mut path) {
                (true, _) => continue,
                (false, Some(parent)) => compose::<f32>(&Frame::new(columns.parent_pose(parent)), local),
                (false, None) => local,
            }
        };
        columns.put(slot, id, PoseCell::new(&world));
        roots += 1;
        let children = node.children().as_slice();
        if !children.is_empty() {
            units.push((world, children));
        }
    }
    roots
}
