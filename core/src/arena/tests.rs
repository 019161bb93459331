//! Unit tests of the arena, one topic a module: `creation` (ids, slots, creation and
//! batches), `hierarchy` (edits and their events, names, handles, persistent ids),
//! `revisions` (revision domains and write logs), `destruction` (destruction and
//! reclamation) and `copies` (clone, graft, snapshots).

mod copies;
mod creation;
mod destruction;
mod hierarchy;
mod revisions;

use super::Arena;
use crate::Id;

/// A fresh arena and its Workspace.
fn world() -> (Arena, Id) {
    let arena = Arena::new();
    let ws = arena.workspace();
    (arena, ws)
}
